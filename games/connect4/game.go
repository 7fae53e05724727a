package connect4

import (
	"math/bits"

	"github.com/mctscheck/mctscheck/core"
)

// Game is Connect Four from a start position, as a [core.Game]: the player to
// move at the start position is [core.Max], the other player [core.Min]; a
// win for max is 1, a draw 1/2, a loss 0.
//
// The moves of a position are its non-full columns in increasing order from
// the left: move i is the i-th non-full column, and [Game.Move] returns it
// (0 to 6), which is also the move's identity for [core.Mover]. A position
// where the last move made four in a row, or whose board is full, is
// terminal.
//
// Play, NumMoves, Kind, Move and the terminal test take constant time and do
// not allocate.
type Game struct {
	start, pos      Position
	startFree, free uint8    // bit c set: column c is not full
	_               [56]byte // whole cache lines: see core.NewRoot
}

var (
	_ core.Game  = (*Game)(nil)
	_ core.Mover = (*Game)(nil)
)

// NewGame returns the game from the start position p. A start position that
// is over is a terminal game.
func NewGame(p Position) *Game {
	g := &Game{start: p}
	for c := range Width {
		if p.mask&topMask(c) == 0 {
			g.startFree |= 1 << c
		}
	}
	g.Reset()
	return g
}

// nthColumn[free][i] is the i-th set bit of the 7-bit column set free.
var nthColumn = func() (t [1 << Width][Width]int8) {
	for free := range len(t) {
		i := 0
		for c := range Width {
			if free&(1<<c) != 0 {
				t[free][i] = int8(c)
				i++
			}
		}
	}
	return t
}()

// Position returns the current position.
func (g *Game) Position() Position { return g.pos }

// Reset implements core.Game: back to the start position.
func (g *Game) Reset() { g.pos, g.free = g.start, g.startFree }

// Kind implements core.Game.
func (g *Game) Kind() core.Kind {
	switch {
	case g.pos.won || g.free == 0:
		return core.Terminal
	case (g.pos.n-g.start.n)%2 == 0:
		return core.Max
	}
	return core.Min
}

// NumMoves implements core.Game: the number of non-full columns, or 0 when
// the game is over.
func (g *Game) NumMoves() int {
	if g.pos.won {
		return 0
	}
	return bits.OnesCount8(g.free)
}

// Play implements core.Game: the player to move drops a stone in the i-th
// non-full column from the left.
func (g *Game) Play(i int) {
	c := int(nthColumn[g.free][i])
	g.pos.play(c)
	if g.pos.mask&topMask(c) != 0 {
		g.free &^= 1 << c
	}
}

// Reward implements core.Game: 1 if max made four in a row, 0 if min did,
// 1/2 for a draw.
func (g *Game) Reward() float64 {
	switch {
	case !g.pos.won:
		return 0.5
	case (g.pos.n-g.start.n)%2 == 1: // max made the last move
		return 1
	}
	return 0
}

// Prob implements core.Game; Connect Four has no chance positions.
func (g *Game) Prob(int) float64 { return 0 }

// Move implements core.Mover: the column, 0 to 6, of move i.
func (g *Game) Move(i int) int { return int(nthColumn[g.free][i]) }

// MoveLimit implements core.Mover: 7, the number of columns.
func (g *Game) MoveLimit() int { return Width }
