package engine

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/games/goboard"
)

// Size is the side of the boards of positions: Leela Zero plays 19×19 only.
const Size = 19

// Komi is the komi of every position: Leela Zero's default.
const Komi = 7.5

// Position is a 19×19 Go position with the player to move, the priors the
// project's Leela Zero network gives its moves, and the answers the file
// states: the value for the player to move and the optimal moves.
type Position struct {
	Name string
	// Case says what the position tests: "normal-prior", "tiny-prior",
	// "fpu" or "lost" (for the §4 measurement), or anything else.
	Case string
	// Stones holds Empty, Black or White for each point (identity y·19+x).
	Stones [Size * Size]goboard.Color
	ToMove goboard.Color
	// PolicyBias is the policy layer's bias for each point (index y·19+x)
	// and, at index 361, the pass. The network's value for the player to
	// move is (1 + tanh(b)) / 2 with b = ValueBias, or WhiteValueBias when
	// White is to move and ByColor is set.
	PolicyBias     [Size*Size + 1]float64
	ValueBias      float64
	WhiteValueBias float64
	ByColor        bool
	// Known says how the answers are known, one line each.
	Known []string
	// Value is the stated outcome for the player to move under optimal
	// play: "win" or "loss"; Optimal the stated optimal moves (identities,
	// 361 for the pass). Both may be empty in a file not yet solved.
	Value   string
	Optimal []int
	// Line is the line of the position's header in its file.
	Line int
}

// symmetries returns the 8 images of point m under the symmetries of the
// square board.
func symmetries(m int) [8]int {
	x, y := m%Size, m/Size
	f := Size - 1
	return [8]int{
		y*Size + x, y*Size + f - x, (f-y)*Size + x, (f-y)*Size + f - x,
		x*Size + y, x*Size + f - y, (f-x)*Size + y, (f-x)*Size + f - y,
	}
}

// Vertex returns the GTP vertex of a move identity of a 19×19 board.
func Vertex(m int) string { return goboard.Vertex(m, Size) }

// ParsePositions reads a positions file (see docs/engines.md for the
// format). Errors name the line.
func ParsePositions(r io.Reader) ([]*Position, error) {
	sc := bufio.NewScanner(r)
	var out []*Position
	var p *Position
	line := 0
	errf := func(format string, args ...any) error {
		return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
	}
	var biasSet map[int]bool
	names := map[string]bool{}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, rest, _ := strings.Cut(text, " ")
		rest = strings.TrimSpace(rest)
		if p == nil {
			if key != "position" || rest == "" {
				return nil, errf("want \"position NAME\", got %q", text)
			}
			if names[rest] {
				return nil, errf("a second position named %q", rest)
			}
			names[rest] = true
			p = &Position{Name: rest, Line: line, ToMove: goboard.Black}
			biasSet = map[int]bool{}
			continue
		}
		switch key {
		case "case":
			p.Case = rest
		case "to-move":
			switch strings.ToLower(rest) {
			case "black", "b":
				p.ToMove = goboard.Black
			case "white", "w":
				p.ToMove = goboard.White
			default:
				return nil, errf("to-move %q, want black or white", rest)
			}
		case "value-bias":
			f := strings.Fields(rest)
			var vs []float64
			for _, s := range f {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil || math.IsNaN(v) || math.Abs(v) > 20 {
					return nil, errf("value-bias %q, want a number between -20 and 20", s)
				}
				vs = append(vs, v)
			}
			switch len(vs) {
			case 1:
				p.ValueBias, p.ByColor = vs[0], false
			case 2:
				p.ValueBias, p.WhiteValueBias, p.ByColor = vs[0], vs[1], true
			default:
				return nil, errf("want \"value-bias B\" or \"value-bias B W\" (Black to move, White to move), got %q", text)
			}
		case "bias":
			f := strings.Fields(rest)
			if len(f) != 2 {
				return nil, errf("want \"bias VERTEX|pass|default NUMBER\", got %q", text)
			}
			v, err := strconv.ParseFloat(f[1], 64)
			if err != nil || math.IsNaN(v) || math.Abs(v) > 80 {
				return nil, errf("bias %q, want a number between -80 and 80", f[1])
			}
			switch strings.ToLower(f[0]) {
			case "default":
				for m := range p.PolicyBias {
					if !biasSet[m] {
						p.PolicyBias[m] = v
					}
				}
			case "pass":
				p.PolicyBias[Size*Size] = v
				biasSet[Size*Size] = true
			default:
				m, err := goboard.ParseVertex(f[0], Size)
				if err != nil || m == Size*Size {
					return nil, errf("bias vertex %q: want a point, pass or default", f[0])
				}
				// Leela Zero evaluates each position under a random
				// symmetry, so a point's bias applies to all its images.
				for _, s := range symmetries(m) {
					if biasSet[s] && p.PolicyBias[s] != v {
						return nil, errf("bias %s %v: its symmetric image %s already has bias %v (Leela Zero's random symmetries give all 8 images of a point the same prior)", f[0], v, Vertex(s), p.PolicyBias[s])
					}
				}
				for _, s := range symmetries(m) {
					p.PolicyBias[s] = v
					biasSet[s] = true
				}
			}
		case "board":
			for row := Size - 1; row >= 0; row-- {
				if !sc.Scan() {
					return nil, errf("the board ends after %d rows, want 19", Size-1-row)
				}
				line++
				r := strings.Join(strings.Fields(sc.Text()), "")
				if len(r) != Size {
					return nil, errf("board row %d has %d points, want 19 of X (black), O (white) and . (empty)", row+1, len(r))
				}
				for x := range Size {
					var c goboard.Color
					switch r[x] {
					case 'X', 'x':
						c = goboard.Black
					case 'O', 'o':
						c = goboard.White
					case '.', '+':
						c = goboard.Empty
					default:
						return nil, errf("board row %d: %q, want X, O or .", row+1, r[x])
					}
					p.Stones[row*Size+x] = c
				}
			}
		case "known":
			p.Known = append(p.Known, rest)
		case "value":
			if rest != "win" && rest != "loss" && rest != "draw" {
				return nil, errf("value %q, want win, loss or draw", rest)
			}
			p.Value = rest
		case "optimal":
			for _, v := range strings.Fields(rest) {
				m, err := goboard.ParseVertex(v, Size)
				if err != nil {
					return nil, errf("optimal move %q: %v", v, err)
				}
				p.Optimal = append(p.Optimal, m)
			}
			slices.Sort(p.Optimal)
		case "end":
			if err := p.check(); err != nil {
				return nil, fmt.Errorf("position %q (line %d): %w", p.Name, p.Line, err)
			}
			out = append(out, p)
			p = nil
		default:
			return nil, errf("unknown keyword %q (want case, to-move, value-bias, bias, board, known, value, optimal or end)", key)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if p != nil {
		return nil, fmt.Errorf("position %q (line %d) has no \"end\"", p.Name, p.Line)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no positions")
	}
	return out, nil
}

// ReadPositions reads a positions file.
func ReadPositions(path string) ([]*Position, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ps, err := ParsePositions(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ps, nil
}

// check rejects a board that is not a legal position.
func (p *Position) check() error {
	_, _, err := p.Setup()
	return err
}

// Setup returns the moves that build the position from the empty board with
// GTP play commands (each a color and a point) and the board they build,
// with the player to move as the position says. Each chain is laid stone by
// stone outward from a stone next to one of the position's empty points, so
// that no stone is ever captured and none is suicide; the last stone laid
// is of the player not to move. It fails if a chain has no liberty, if
// there is no stone of the player not to move, or if the board has no
// empty point.
func (p *Position) Setup() ([]SetupMove, *goboard.Board, error) {
	empties := 0
	for _, c := range p.Stones {
		if c == goboard.Empty {
			empties++
		}
	}
	if empties == 0 {
		return nil, nil, fmt.Errorf("the board has no empty point")
	}
	seen := make([]bool, Size*Size)
	var chains [][]int // each in breadth-first order from a stone with a liberty
	for m, c := range p.Stones {
		if c == goboard.Empty || seen[m] {
			continue
		}
		// Collect the chain, then order it from a stone with a liberty.
		var chain []int
		stack := []int{m}
		seen[m] = true
		root := -1
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			chain = append(chain, q)
			for _, r := range neighbours(q) {
				switch {
				case p.Stones[r] == goboard.Empty:
					if root < 0 || q < root {
						root = q
					}
				case p.Stones[r] == c && !seen[r]:
					seen[r] = true
					stack = append(stack, r)
				}
			}
		}
		if root < 0 {
			slices.Sort(chain)
			return nil, nil, fmt.Errorf("the %v chain at %s has no liberty", c, Vertex(chain[0]))
		}
		in := map[int]bool{}
		for _, q := range chain {
			in[q] = true
		}
		order := []int{root}
		done := map[int]bool{root: true}
		for i := 0; i < len(order); i++ {
			for _, r := range neighbours(order[i]) {
				if in[r] && !done[r] {
					done[r] = true
					order = append(order, r)
				}
			}
		}
		chains = append(chains, order)
	}
	last := p.ToMove.Opponent()
	k := slices.IndexFunc(chains, func(ch []int) bool { return p.Stones[ch[0]] == last })
	if k < 0 {
		return nil, nil, fmt.Errorf("no %v stone: the last setup stone must be of the player not to move", last)
	}
	// Put a chain of the player not to move last.
	chains = append(append(chains[:k:k], chains[k+1:]...), chains[k])
	b, err := goboard.NewBoard(goboard.Config{Size: Size, Komi: Komi, MaxMoves: 100 * Size * Size})
	if err != nil {
		return nil, nil, err
	}
	var moves []SetupMove
	for _, ch := range chains {
		for _, m := range ch {
			c := p.Stones[m]
			if err := b.PlayAs(c, m); err != nil {
				return nil, nil, fmt.Errorf("setup: %v %s: %w", c, Vertex(m), err)
			}
			moves = append(moves, SetupMove{c, m})
		}
	}
	for m, c := range p.Stones {
		if b.At(m) != c {
			return nil, nil, fmt.Errorf("setup: %s is %v, want %v (a stone was captured)", Vertex(m), b.At(m), c)
		}
	}
	return moves, b, nil
}

// SetupMove is one stone of a position's setup.
type SetupMove struct {
	Color goboard.Color
	Point int
}

// GTP returns the move as the argument of GTP's play command ("b D4").
func (s SetupMove) GTP() string {
	c := "b"
	if s.Color == goboard.White {
		c = "w"
	}
	return c + " " + Vertex(s.Point)
}

// Priors returns the prior of each of the given moves as Leela Zero computes
// it from the project's network: the softmax of the policy biases over those
// moves (the legal moves and the pass), the same under every symmetry since
// all images of a point share a bias.
func (p *Position) Priors(moves []int) []float64 {
	hi := math.Inf(-1)
	for _, m := range moves {
		hi = math.Max(hi, p.PolicyBias[m])
	}
	out := make([]float64, len(moves))
	sum := 0.0
	for i, m := range moves {
		out[i] = math.Exp(p.PolicyBias[m] - hi)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// Format writes the position in the file format.
func (p *Position) Format(w io.Writer) {
	fmt.Fprintf(w, "position %s\n", p.Name)
	if p.Case != "" {
		fmt.Fprintf(w, "case %s\n", p.Case)
	}
	fmt.Fprintf(w, "to-move %v\n", p.ToMove)
	if p.ByColor {
		fmt.Fprintf(w, "value-bias %v %v\n", p.ValueBias, p.WhiteValueBias)
	} else {
		fmt.Fprintf(w, "value-bias %v\n", p.ValueBias)
	}
	// The most common bias is the default; the others by orbit.
	count := map[float64]int{}
	for _, v := range p.PolicyBias[:Size*Size] {
		count[v]++
	}
	def, best := 0.0, -1
	for v, n := range count {
		if n > best || n == best && v < def {
			def, best = v, n
		}
	}
	fmt.Fprintf(w, "bias default %v\n", def)
	if p.PolicyBias[Size*Size] != def {
		fmt.Fprintf(w, "bias pass %v\n", p.PolicyBias[Size*Size])
	}
	done := map[int]bool{}
	for m := range Size * Size {
		if done[m] || p.PolicyBias[m] == def {
			continue
		}
		for _, s := range symmetries(m) {
			done[s] = true
		}
		fmt.Fprintf(w, "bias %s %v\n", Vertex(m), p.PolicyBias[m])
	}
	fmt.Fprintln(w, "board")
	for row := Size - 1; row >= 0; row-- {
		var sb strings.Builder
		for x := range Size {
			if x > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteByte(".XO"[p.Stones[row*Size+x]])
		}
		fmt.Fprintln(w, sb.String())
	}
	for _, k := range p.Known {
		fmt.Fprintf(w, "known %s\n", k)
	}
	if p.Value != "" {
		fmt.Fprintf(w, "value %s\n", p.Value)
	}
	if len(p.Optimal) > 0 {
		var vs []string
		for _, m := range p.Optimal {
			vs = append(vs, Vertex(m))
		}
		fmt.Fprintf(w, "optimal %s\n", strings.Join(vs, " "))
	}
	fmt.Fprintln(w, "end")
}
