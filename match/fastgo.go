package match

import (
	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/goboard"
)

// FastGame is a goboard.Game whose roll-outs are played on a copy of the
// board, one move at a time, without listing the moves of each position:
// the FastLight policy draws each roll-out move directly on the board. In
// the stored tree it is the Game (positional superko, eye fills not listed);
// in a roll-out it follows Board.Playout's rules (simple ko only).
//
// goboard.Light, the policy that rolls out through the Game, lists every
// position's moves (one legality and eye test per point, and superko hashes)
// before it draws one; FastGame draws a random point and tests only that
// one, so its roll-outs are several times faster, while core still sees
// every roll-out move (its identity, for AMAF/RAVE statistics). core gives
// no way to hand a whole roll-out to the game (goboard's Game.Rollout),
// which would lose those identities anyway.
//
// How it works: core calls a roll-out policy only outside the stored tree.
// FastLight's first call in a simulation copies the cursor's board and
// switches the FastGame to roll-out mode, where every position has one
// move, the one FastLight drew; Reset switches back.
type FastGame struct {
	g         *goboard.Game
	b         goboard.Board // the roll-out's board
	roll      bool
	next      int     // the move drawn for the roll-out's current position
	at        int     // its index in empty, -1 for the pass
	empty     []int16 // the roll-out board's empty points
	nbr, diag [][4]int16
}

// NewFastGame returns a FastGame over g, which it drives as its cursor.
func NewFastGame(g *goboard.Game) *FastGame {
	n := g.Board().Size()
	f := &FastGame{g: g, empty: make([]int16, 0, n*n)}
	f.nbr, f.diag = neighbours(n)
	return f
}

// Reset implements core.Game.
func (f *FastGame) Reset() {
	f.roll = false
	f.g.Reset()
}

// Kind implements core.Game.
func (f *FastGame) Kind() core.Kind {
	if !f.roll {
		return f.g.Kind()
	}
	switch {
	case f.b.Status() != goboard.Playing:
		return core.Terminal
	case f.b.ToMove() == goboard.Black:
		return core.Max
	}
	return core.Min
}

// NumMoves implements core.Game: in a roll-out, the one move drawn.
func (f *FastGame) NumMoves() int {
	if !f.roll {
		return f.g.NumMoves()
	}
	if f.b.Status() != goboard.Playing {
		return 0
	}
	return 1
}

// Play implements core.Game.
func (f *FastGame) Play(i int) {
	if !f.roll {
		f.g.Play(i)
		return
	}
	f.play()
}

// Reward implements core.Game.
func (f *FastGame) Reward() float64 {
	if !f.roll {
		return f.g.Reward()
	}
	return f.b.Reward()
}

// Prob implements core.Game; Go has no chance nodes.
func (f *FastGame) Prob(int) float64 { return 0 }

// Move implements core.Mover.
func (f *FastGame) Move(i int) int {
	if !f.roll {
		return f.g.Move(i)
	}
	return f.next
}

// MoveLimit implements core.Mover.
func (f *FastGame) MoveLimit() int { return f.g.MoveLimit() }

// Prior implements core.Heuristic (stored-tree positions only).
func (f *FastGame) Prior(i int) (float64, bool) { return f.g.Prior(i) }

// FastLight is the light-playout policy of a FastGame: each player in turn
// plays a uniformly random point that is legal under simple ko and does not
// fill one of its own single-point eyes, and passes only when there is
// none, as Board.Playout does. On any other game it plays goboard.Light.
type FastLight struct{}

// Choose implements core.Policy.
func (FastLight) Choose(g core.Game, rng *core.RNG) int {
	f, ok := g.(*FastGame)
	if !ok {
		return goboard.Light{}.Choose(g, rng)
	}
	if !f.roll {
		f.b = *f.g.Board()
		f.roll = true
		f.scan()
	}
	f.next = f.draw(rng)
	return 0
}

// draw returns a uniformly random playable point of the roll-out's board,
// or the pass when there is none: a partial Fisher–Yates shuffle of the
// empty points draws candidates without replacement until one is playable,
// as Board.Playout does.
func (f *FastGame) draw(rng *core.RNG) int {
	c := f.b.ToMove()
	for n := len(f.empty); n > 0; n-- {
		j := rng.IntN(n)
		m := int(f.empty[j])
		if !f.eye(c, m) && f.b.IsLegal(m) {
			f.at = j
			return m
		}
		f.empty[j], f.empty[n-1] = f.empty[n-1], f.empty[j]
	}
	f.at = -1
	return f.b.Pass()
}

// scan lists the empty points of the roll-out's board.
func (f *FastGame) scan() {
	f.empty = f.empty[:0]
	for m := range f.b.Pass() {
		if f.b.At(m) == goboard.Empty {
			f.empty = append(f.empty, int16(m))
		}
	}
}

// play plays the move drawn on the roll-out's board and keeps the list of
// empty points: the point played leaves it, and a capture, which empties
// one of its neighbours, makes it list the board again.
func (f *FastGame) play() {
	m := f.next
	if f.at < 0 { // a pass
		if err := f.b.Play(m); err != nil {
			panic("match: roll-out pass: " + err.Error())
		}
		return
	}
	o := f.b.ToMove().Opponent()
	var was [4]bool // which neighbours hold an opponent's stone
	for k, q := range f.nbr[m] {
		was[k] = q >= 0 && f.b.At(int(q)) == o
	}
	if err := f.b.Play(m); err != nil {
		panic("match: roll-out move: " + err.Error())
	}
	last := len(f.empty) - 1
	f.empty[f.at] = f.empty[last]
	f.empty = f.empty[:last]
	for k, q := range f.nbr[m] {
		if was[k] && f.b.At(int(q)) == goboard.Empty {
			f.scan()
			return
		}
	}
}

// eye reports whether point m is a single-point eye of c (see goboard's
// package doc, "Eyes"): every neighbour on the board is c's, and the
// diagonal points hold fewer than two of the opponent's stones in the
// middle of the board, none on the edge or in the corner.
func (f *FastGame) eye(c goboard.Color, m int) bool {
	for _, q := range f.nbr[m] {
		if q >= 0 && f.b.At(int(q)) != c {
			return false
		}
	}
	bad, edge := 0, 0
	o := c.Opponent()
	for _, q := range f.diag[m] {
		switch {
		case q < 0:
			edge = 1
		case f.b.At(int(q)) == o:
			bad++
		}
	}
	return bad+edge < 2
}

// neighbours returns the tables of the orthogonal and diagonal neighbours
// of every point of a board of side n, -1 off the board.
func neighbours(n int) (nbr, diag [][4]int16) {
	nbr, diag = make([][4]int16, n*n), make([][4]int16, n*n)
	at := func(x, y int) int16 {
		if x < 0 || y < 0 || x >= n || y >= n {
			return -1
		}
		return int16(y*n + x)
	}
	for m := range n * n {
		x, y := m%n, m/n
		nbr[m] = [4]int16{at(x-1, y), at(x+1, y), at(x, y-1), at(x, y+1)}
		diag[m] = [4]int16{at(x-1, y-1), at(x+1, y-1), at(x-1, y+1), at(x+1, y+1)}
	}
	return nbr, diag
}
