package connect4

import (
	"math/rand/v2"
	"testing"
)

// grid is a plain array board, written independently of the bitboards, that
// the tests use as a reference: cells[c][r], row 0 at the bottom, holds 0
// (empty), 1 (first player) or 2 (second player).
type grid struct {
	cells  [Width][Height]int8
	height [Width]int
	n      int
	won    bool
}

// gridOf plays a move string on a grid; it fails the test on a bad string.
func gridOf(tb testing.TB, moves string) *grid {
	tb.Helper()
	g := &grid{}
	for i := 0; i < len(moves); i++ {
		c := int(moves[i] - '1')
		if c < 0 || c >= Width || g.height[c] == Height || g.won {
			tb.Fatalf("grid: bad move %q at offset %d of %q", moves[i], i, moves)
		}
		g.won = g.play(c)
	}
	return g
}

// play drops a stone of the player to move in column c and reports whether
// it makes four in a row.
func (g *grid) play(c int) bool {
	who := int8(1 + g.n%2)
	r := g.height[c]
	g.cells[c][r] = who
	g.height[c]++
	g.n++
	return g.four(c, r, who)
}

// four reports whether a stone of who at (c, r) would be part of four in a
// row with who's stones on the board, whether or not the cell is filled.
func (g *grid) four(c, r int, who int8) bool {
	for _, d := range [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		run := 1
		for _, sign := range [2]int{1, -1} {
			for k := 1; k < 4; k++ {
				x, y := c+sign*k*d[0], r+sign*k*d[1]
				if x < 0 || x >= Width || y < 0 || y >= Height || g.cells[x][y] != who {
					break
				}
				run++
			}
		}
		if run >= 4 {
			return true
		}
	}
	return false
}

// undo takes back the stone on top of column c.
func (g *grid) undo(c int) {
	g.height[c]--
	g.cells[c][g.height[c]] = 0
	g.n--
}

// minimax returns the exact score of the grid's position for the player to
// move, straight from the definition: plain negamax over every move, no
// pruning, no table. The grid must not be won.
func (g *grid) minimax() int {
	if g.n == Cells {
		return 0
	}
	best := -Cells
	for c := range Width {
		if g.height[c] == Height {
			continue
		}
		var v int
		if g.play(c) {
			// the mover wins with ceil(n/2) stones on the board
			v = 22 - (g.n+1)/2
		} else {
			v = -g.minimax()
		}
		g.undo(c)
		best = max(best, v)
	}
	return best
}

// randomPosition plays random moves from the empty board until n stones are
// on it, starting over whenever a move wins, so that the game is not over.
func randomPosition(r *rand.Rand, n int) Position {
	for {
		var p Position
		for p.Stones() < n && !p.Won() {
			c := r.IntN(Width)
			if p.CanPlay(c) {
				p.play(c)
			}
		}
		if !p.Won() {
			return p
		}
	}
}
