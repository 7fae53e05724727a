package goboard

import (
	"errors"
	"slices"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// grid is a plain copy of a position for a brute-force oracle that shares no
// code with Board: point identities, flood fills, no incremental state.
type grid struct {
	n int
	c []Color
}

func gridOf(b *Board) grid {
	g := grid{n: b.size, c: make([]Color, b.size*b.size)}
	for m := range g.c {
		g.c[m] = b.At(m)
	}
	return g
}

func (g grid) key() string {
	k := make([]byte, len(g.c))
	for i, c := range g.c {
		k[i] = byte(c)
	}
	return string(k)
}

func (g grid) neighbours(m int) []int {
	var out []int
	x, y := m%g.n, m/g.n
	if x > 0 {
		out = append(out, m-1)
	}
	if x < g.n-1 {
		out = append(out, m+1)
	}
	if y > 0 {
		out = append(out, m-g.n)
	}
	if y < g.n-1 {
		out = append(out, m+g.n)
	}
	return out
}

// chain returns the stones of the chain at m and its number of liberties.
func (g grid) chain(m int) (stones []int, libs int) {
	seen := map[int]bool{m: true}
	lib := map[int]bool{}
	stack := []int{m}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stones = append(stones, q)
		for _, t := range g.neighbours(q) {
			switch {
			case g.c[t] == Empty:
				lib[t] = true
			case g.c[t] == g.c[m] && !seen[t]:
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return stones, len(lib)
}

// play returns the grid after c plays at the empty point m, the number of
// stones captured, and false if the move is a suicide.
func (g grid) play(c Color, m int) (grid, int, bool) {
	h := grid{n: g.n, c: slices.Clone(g.c)}
	h.c[m] = c
	captured := 0
	for _, t := range h.neighbours(m) {
		if h.c[t] == c.Opponent() {
			if stones, libs := h.chain(t); libs == 0 {
				for _, s := range stones {
					h.c[s] = Empty
				}
				captured += len(stones)
			}
		}
	}
	_, libs := h.chain(m)
	return h, captured, libs > 0
}

// eye is the single-point eye rule, written out with coordinates.
func (g grid) eye(c Color, m int) bool {
	for _, t := range g.neighbours(m) {
		if g.c[t] != c {
			return false
		}
	}
	x, y := m%g.n, m/g.n
	bad, edge := 0, 0
	for _, d := range [][2]int{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		dx, dy := x+d[0], y+d[1]
		if dx < 0 || dy < 0 || dx >= g.n || dy >= g.n {
			edge = 1
		} else if g.c[dy*g.n+dx] == c.Opponent() {
			bad++
		}
	}
	return bad+edge < 2
}

// area counts Tromp–Taylor area by flooding each empty region.
func (g grid) area() (black, white int) {
	seen := make([]bool, len(g.c))
	for m, c := range g.c {
		switch {
		case c == Black:
			black++
		case c == White:
			white++
		case !seen[m]:
			region, reach := 0, map[Color]bool{}
			stack := []int{m}
			seen[m] = true
			for len(stack) > 0 {
				q := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				region++
				for _, t := range g.neighbours(q) {
					if g.c[t] == Empty && !seen[t] {
						seen[t] = true
						stack = append(stack, t)
					} else if g.c[t] != Empty {
						reach[g.c[t]] = true
					}
				}
			}
			if reach[Black] && !reach[White] {
				black += region
			} else if reach[White] && !reach[Black] {
				white += region
			}
		}
	}
	return black, white
}

// oracleLegal is the oracle's legality of c at m: nil, ErrOccupied,
// ErrSuicide or ErrKo, where ko forbids recreating koKey, the position before
// the opponent's last move when that move put a stone on the board.
func (g grid) oracleLegal(c Color, m int, koKey string) (grid, error) {
	if g.c[m] != Empty {
		return g, ErrOccupied
	}
	h, _, ok := g.play(c, m)
	if !ok {
		return h, ErrSuicide
	}
	if koKey != "" && h.key() == koKey {
		return h, ErrKo
	}
	return h, nil
}

// TestAgainstOracle plays random games on every size, with light moves and
// uniformly random legal moves (eye fills too), and checks at every position
// the legality of every point, the incremental state (Board.check), the
// moves a Game lists (positional superko included) and the final area.
func TestAgainstOracle(t *testing.T) {
	rng := core.NewRNG(7)
	games, positions, superko := 0, 0, 0
	for _, size := range []int{5, 5, 5, 6, 7, 7, 9, 9, 9, 11, 13, 19} {
		games++
		g, err := NewGame(Config{Size: size})
		if err != nil {
			t.Fatal(err)
		}
		b := &g.b
		history := map[string]bool{gridOf(b).key(): true}
		koKey := ""
		for !b.over() {
			positions++
			gr := gridOf(b)
			c := b.ToMove()
			var want []int
			for m := range size * size {
				after, werr := gr.oracleLegal(c, m, koKey)
				if err := b.Legal(m); !errors.Is(err, werr) || (werr == nil) != (err == nil) || b.IsLegal(m) != (err == nil) {
					t.Fatalf("size %d move %d: Legal(%s) = %v, oracle %v\n%s", size, b.moves, Vertex(m, size), err, werr, b)
				}
				if werr == nil && !gr.eye(c, m) {
					if history[after.key()] {
						superko++
					} else {
						want = append(want, m)
					}
				}
			}
			want = append(want, size*size)
			got := make([]int, g.NumMoves())
			for i := range got {
				got[i] = g.Move(i)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("size %d move %d: listed %v, oracle %v\n%s", size, b.moves, got, want, b)
			}
			// Choose: light move, uniform legal move or pass.
			before := gr.key()
			var m int
			switch r := rng.IntN(100); {
			case r < 2:
				m = size * size
			case r < 60:
				c := *b
				c.playLight(rng)
				m = lastMove(b, &c)
			default:
				var legal []int
				for m := range size*size + 1 {
					if b.Legal(m) == nil {
						legal = append(legal, m)
					}
				}
				m = legal[rng.IntN(len(legal))]
			}
			if i := slices.Index(got, m); i >= 0 && rng.IntN(4) > 0 {
				g.Play(i) // through the Game, with its history
			} else {
				if err := b.Play(m); err != nil {
					t.Fatal(err)
				}
				g.record(b.hash)
				g.listed = false
			}
			if err := b.check(); err != nil {
				t.Fatalf("size %d after %s at move %d: %v\n%s", size, Vertex(m, size), b.moves, err, b)
			}
			koKey = ""
			if m != size*size {
				koKey = before
			}
			history[gridOf(b).key()] = true
		}
		wb, ww := gridOf(b).area()
		if gb, gw := b.Area(); gb != wb || gw != ww {
			t.Fatalf("size %d: Area() = %d, %d, oracle %d, %d\n%s", size, gb, gw, wb, ww, b)
		}
	}
	t.Logf("%d games, %d positions, %d moves refused by superko", games, positions, superko)
}

// lastMove returns the move that took b to c, one move on.
func lastMove(b, c *Board) int {
	if c.passes > b.passes {
		return b.Pass()
	}
	for m := range b.size * b.size {
		if b.At(m) == Empty && c.At(m) == b.toMove {
			return m
		}
	}
	panic("no move")
}
