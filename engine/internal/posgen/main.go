// Command posgen builds the positions of engine/testdata/positions.txt:
// 19×19 boards filled but for a few points on the frontier between Black
// (columns A–J) and White (L–T), solves each exactly with engine.Solve,
// keeps those whose answers are as intended, and prints them in the
// positions file format. Run it from the module root:
//
//	go run ./engine/internal/posgen > engine/testdata/positions.txt
//
// With -rave it generates candidates for positions that trap RAVE instead
// (see raveMain).
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/mctscheck/mctscheck/engine"
	"github.com/mctscheck/mctscheck/games/goboard"
)

const (
	X = goboard.Black
	O = goboard.White
	E = goboard.Empty
)

// Priors and values of the cases (natural-log policy biases; every other
// move has bias 0).
const (
	tinyBias = -25.0 // prior about e^-25 ≈ 1.4e-11 of a normal move's
	fpuBias  = -2.0  // prior about 0.14 of a normal move's
	fpuValue = -1.5  // value (1 + tanh(-1.5)) / 2 ≈ 0.047 for the player to move
	hopeBias = 1.472 // value (1 + tanh(1.472)) / 2 ≈ 0.95
)

// frontier describes column K (x = 9): for each row from 1 to 19, 'X' a
// black stone, 'O' a white one, '.' a dame, 'b' the gate of a black pocket
// (its pocket is the empty point or points to its left in column J, 'B'
// marking a second pocket point above), 'w' the gate of a white pocket
// (the pocket to its right in column L, 'W' a second point above).
func build(frontier string, toMove goboard.Color) *engine.Position {
	p := &engine.Position{ToMove: toMove}
	for y := range 19 {
		for x := range 19 {
			c := O
			if x < 9 {
				c = X
			}
			p.Stones[y*19+x] = c
		}
	}
	// Two single-point eyes for each big chain, far from the frontier.
	for _, e := range [][2]int{{2, 12}, {2, 15}, {16, 12}, {16, 15}} {
		p.Stones[e[1]*19+e[0]] = E
	}
	for y := range 19 {
		at := func(x int) *goboard.Color { return &p.Stones[y*19+x] }
		switch frontier[y] {
		case 'X':
			*at(9) = X
		case 'O':
			*at(9) = O
		case '.':
			*at(9) = E
		case 'b':
			*at(9), *at(8) = E, E
		case 'B':
			*at(9), *at(8) = X, E
		case 'w':
			*at(9), *at(10) = E, E
		case 'W':
			*at(9), *at(10) = O, E
		default:
			panic("bad frontier " + frontier)
		}
	}
	return p
}

// gate returns the point of the i-th gate letter g in frontier.
func gate(frontier string, g byte) int {
	y := strings.IndexByte(frontier, g)
	return y*19 + 9
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-rave" {
		raveMain(os.Args[2:])
		return
	}
	var out []*engine.Position
	// Boards with one black pocket: Black to move has exactly one winning
	// move, the gate. Each is checked under three priors.
	type board struct {
		name, frontier string
		toMove         goboard.Color
	}
	var boards []board
	// The frontier is 19 rows; rows 1–2 and 18–19 stay stones so the
	// pockets' images under the board's symmetries are stones.
	shapes := []struct{ name, rows string }{
		{"pair", "b"},
		{"triple", "bB"},
	}
	dames := []string{"..", "....", "......"}
	rowsOf := []int{3, 5, 7}
	for _, sh := range shapes {
		for _, d := range dames {
			for _, row := range rowsOf {
				// Layout: rows 0..18; the pocket at row, dames spread on
				// rows 11.. with stones between them.
				fr := []byte(strings.Repeat("X", 19))
				copy(fr[row:], sh.rows)
				for i := range d {
					fr[[]int{10, 12, 14, 16, 18, 0}[i]] = '.'
				}
				boards = append(boards, board{fmt.Sprintf("%s-d%d-r%d", sh.name, len(d), row+1), string(fr), X})
			}
		}
	}
	kept := 0
	for _, bd := range boards {
		p, sol, k := tune(bd.frontier, bd.toMove, func(s *engine.Solution) bool {
			return s.Value == 1 && len(s.Optimal) == 1 && s.Optimal[0] != 361
		})
		if p == nil {
			fmt.Fprintf(os.Stderr, "%s: no count of black stones on the frontier gives a single winning move\n", bd.name)
			continue
		}
		g := gate(bd.frontier, 'b')
		if sol.Optimal[0] != g {
			fmt.Fprintf(os.Stderr, "%s: the winning move is %s, not the gate %s\n", bd.name, engine.Vertex(sol.Optimal[0]), engine.Vertex(g))
			continue
		}
		kept++
		fmt.Fprintf(os.Stderr, "%s: %d black stones on K; winning move %s; %d moves; %d nodes\n", bd.name, k, engine.Vertex(g), len(sol.Moves), sol.Nodes)
		for _, c := range []struct {
			name        string
			bias, vbias float64
		}{{"normal-prior", 0, 0}, {"tiny-prior", tinyBias, 0}, {"fpu", fpuBias, fpuValue}} {
			q := *p
			q.Name = bd.name + "-" + c.name
			q.Case = c.name
			q.ValueBias = c.vbias
			for _, s := range symmetries(g) {
				q.PolicyBias[s] = c.bias
			}
			annotate(&q, sol)
			out = append(out, &q)
		}
	}
	fmt.Fprintf(os.Stderr, "%d boards kept of %d\n", kept, len(boards))
	out = append(out, lost()...)
	fmt.Println("# mctscheck engine positions, version 1 (see docs/engines.md).")
	fmt.Println("# Made by: go run ./engine/internal/posgen > engine/testdata/positions.txt")
	fmt.Println("# Rules: area scoring (Tromp-Taylor), komi 7.5, positional superko, two passes end the game.")
	fmt.Println()
	for _, p := range out {
		p.Format(os.Stdout)
		fmt.Println()
	}
}

// tune fills the frontier's remaining stone rows with k black stones
// (from the top) and White ones, for k from 0 up, and returns the first
// position whose solution satisfies want.
func tune(frontier string, toMove goboard.Color, want func(*engine.Solution) bool) (*engine.Position, *engine.Solution, int) {
	for k := 0; k <= strings.Count(frontier, "X"); k++ {
		p := build(withBlack(frontier, k), toMove)
		sol, err := p.Solve(engine.SolveLimits{})
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s k=%d: %v\n", frontier, k, err)
			continue
		}
		if want(sol) {
			return p, sol, k
		}
	}
	return nil, nil, 0
}

// annotate records the solution in the position.
func annotate(p *engine.Position, sol *engine.Solution) {
	p.Value = map[float64]string{1: "win", 0: "loss", 0.5: "draw"}[sol.Value]
	p.Optimal = sol.Optimal
	var line []string
	for _, m := range sol.Line {
		line = append(line, engine.Vertex(m))
	}
	p.Known = []string{
		fmt.Sprintf("exhaustive minimax by engine.Solve over every legal move and the pass: %d positions searched, %d decided by the pass-alive bound", sol.Nodes, sol.Bounded),
		fmt.Sprintf("optimal line %s; final score %+.1f (Black's area minus White's minus komi), checked against GNU Go's final_score by TestGNUGoScores", strings.Join(line, " "), sol.FinalScore),
	}
}

// symmetries returns the 8 images of m (as engine does).
func symmetries(m int) [8]int {
	x, y := m%19, m/19
	return [8]int{y*19 + x, y*19 + 18 - x, (18-y)*19 + x, (18-y)*19 + 18 - x, x*19 + y, x*19 + 18 - y, (18-x)*19 + y, (18-x)*19 + 18 - y}
}

// lost returns the positions of the §4 measurement: Black to move loses
// whatever it plays, but only because after Black takes its own pocket's
// gate, White's only winning reply is its pocket's gate, whose prior is
// tiny; after White's natural reply on a dame, Black wins.
func lost() []*engine.Position {
	var out []*engine.Position
	layouts := []struct{ name, pockets string }{
		{"b4-w6", "XXXbXwXXXX"},
		{"b6-w4", "XXXwXbXXXX"},
		{"b8-w4", "XXXwXXXbXX"},
		{"b4-w8", "XXXbXXXwXX"},
		{"b6-w8", "XXXXXbXwXX"},
		{"b8-w6", "XXXXXwXbXX"},
	}
	for _, l := range layouts {
		for _, d := range []string{".."} {
			fr := []byte(l.pockets + strings.Repeat("X", 9))
			for i := range d {
				fr[[]int{10, 12, 14, 16, 18, 0}[i]] = '.'
			}
			frontier := string(fr)
			name := fmt.Sprintf("lost-%s-d%d", l.name, len(d))
			bg, wg := gate(frontier, 'b'), gate(frontier, 'w')
			// The most black stones on the frontier that still lose.
			var p *engine.Position
			var sol *engine.Solution
			for k := 0; k <= strings.Count(frontier, "X"); k++ {
				c := build(withBlack(frontier, k), X)
				s, err := c.Solve(engine.SolveLimits{Nodes: 300_000})
				if err != nil || s.Value != 0 {
					break
				}
				p, sol = c, s
			}
			if p == nil {
				fmt.Fprintf(os.Stderr, "%s: no count of black stones makes it lost\n", name)
				continue
			}
			// After Black's gate and White's reply on the first dame, Black
			// wins: the refutation is White's gate, not the natural reply.
			dame := strings.IndexByte(frontier, '.')*19 + 9
			after := *p
			after.Stones[bg] = X
			after.Stones[dame] = O
			s2, err := after.Solve(engine.SolveLimits{Nodes: 300_000})
			if err != nil || s2.Value != 1 {
				fmt.Fprintf(os.Stderr, "%s: after %s %s Black does not win (%v)\n", name, engine.Vertex(bg), engine.Vertex(dame), err)
				continue
			}
			fmt.Fprintf(os.Stderr, "%s: lost; after %s %s Black wins; %d nodes\n", name, engine.Vertex(bg), engine.Vertex(dame), sol.Nodes)
			// Three networks: a neutral constant value with the refutation's
			// prior tiny; a value that says Black wins (95% for Black to
			// move, 5% for White to move) with the refutation's prior tiny;
			// and the same value with the refutation's prior normal.
			for _, v := range []struct {
				suffix     string
				byColor    bool
				refutation float64
			}{{"neutral", false, tinyBias}, {"hopeful-tiny", true, tinyBias}, {"hopeful-normal", true, 0}} {
				q := *p
				q.Name, q.Case = name+"-"+v.suffix, "lost"
				if v.byColor {
					q.ByColor, q.ValueBias, q.WhiteValueBias = true, hopeBias, -hopeBias
				}
				for _, s := range symmetries(wg) {
					q.PolicyBias[s] = v.refutation
				}
				annotate(&q, sol)
				q.Known = append(q.Known, fmt.Sprintf("Black loses, but after Black %s and White %s (instead of the refutation, White's pocket gate %s) Black wins: solved the same way, %d positions", engine.Vertex(bg), engine.Vertex(dame), engine.Vertex(wg), s2.Nodes))
				out = append(out, &q)
			}
		}
	}
	return out
}

// withBlack keeps the top k stone rows of the frontier black and turns the
// others white.
func withBlack(frontier string, k int) string {
	fr := []byte(frontier)
	n := 0
	for y := 18; y >= 0; y-- {
		if fr[y] != 'X' {
			continue
		}
		if n >= k {
			fr[y] = 'O'
		}
		n++
	}
	return string(fr)
}
