package core

import (
	"errors"
	"fmt"
	"math"
)

// GameArrays is a game stored whole, as arrays indexed by position number:
// position 0 is the root, and the children of position p, in move order,
// are the positions First[p] to First[p+1]−1. Package tree's Cursor offers
// its tree's arrays.
type GameArrays struct {
	Kind   []Kind    // the kind of each position
	First  []int32   // the first child of each position, and one more entry
	Reward []float64 // the reward of each terminal position, for max
	Prob   []float64 // the probability of each child of a chance position
	// Move holds each position's move identity as its parent's child (as
	// Mover.Move returns it); nil when moves have no identity beyond their
	// index. MoveLimit bounds the identities.
	Move      []int32
	MoveLimit int
	// Prior and HasPrior hold each position's heuristic value as its
	// parent's child (as Heuristic.Prior returns it); nil when the game
	// has none.
	Prior    []float64
	HasPrior []bool
}

// ArrayGame is implemented by games stored whole as GameArrays. A search
// without a roll-out policy then reads the arrays instead of calling the
// game's methods, which on small trees is most of the cost of a simulation
// that is not the rule's: the arrays must agree with the methods. Roll-out
// policies and the inspection methods (Decide, Lookup) call the methods.
type ArrayGame interface {
	Game
	Arrays() *GameArrays
}

// arraysOf returns the arrays of a game stored whole (ArrayGame), and
// whether it is one.
func arraysOf(g Game) (*GameArrays, bool) {
	if t, ok := g.(ArrayGame); ok {
		return t.Arrays(), true
	}
	return nil, false
}

// check reports arrays that do not fit together.
func (t *GameArrays) check() error {
	if t == nil || len(t.Kind) == 0 {
		return errors.New("core: ArrayGame with empty GameArrays")
	}
	n := len(t.Kind)
	switch {
	case len(t.First) != n+1 || len(t.Reward) != n || len(t.Prob) != n:
		return fmt.Errorf("core: GameArrays of %d positions with %d First, %d Reward and %d Prob entries, want %d, %d, %d",
			n, len(t.First), len(t.Reward), len(t.Prob), n+1, n, n)
	case t.Move != nil && len(t.Move) != n, t.Prior != nil && (len(t.Prior) != n || len(t.HasPrior) != n):
		return fmt.Errorf("core: GameArrays of %d positions with %d Move, %d Prior and %d HasPrior entries", n, len(t.Move), len(t.Prior), len(t.HasPrior))
	}
	return nil
}

// cursor is a worker's position in its game: the game's own, moved through
// its methods, or, when table is set, the position number at in the game's
// GameArrays, which the search reads directly.
type cursor struct {
	game  Game
	table *GameArrays
	// The table's slices that every move reads, kept here so that the
	// methods inline: end is First[1:], where the children of p end.
	kinds      []Kind
	first, end []int32
	probs      []float64
	rewards    []float64
	at         int
}

// useTable makes the cursor read t instead of calling the game.
func (c *cursor) useTable(t *GameArrays) {
	c.table, c.kinds, c.first, c.end, c.probs, c.rewards = t, t.Kind, t.First, t.First[1:], t.Prob, t.Reward
}

// The cursor's moves read the arrays when it has them, which the caller
// says (arrays: c.table != nil), so that a loop tests the table once, and
// a descent whose mode fixes it (descend's uctRun and uctArrays) not at
// all.

func (c *cursor) reset(arrays bool) {
	if arrays {
		c.at = 0
		return
	}
	c.game.Reset()
}

func (c *cursor) kind(arrays bool) Kind {
	if arrays {
		return c.kinds[c.at]
	}
	return c.game.Kind()
}

func (c *cursor) numMoves(arrays bool) int {
	if arrays {
		return int(c.end[c.at] - c.first[c.at])
	}
	return c.game.NumMoves()
}

// playMove moves to child i.
func (c *cursor) playMove(arrays bool, i int) {
	if arrays {
		c.at = int(c.first[c.at]) + i
		return
	}
	c.game.Play(i)
}

func (c *cursor) terminalReward(arrays bool) float64 {
	if arrays {
		return c.rewards[c.at]
	}
	return c.game.Reward()
}

func (c *cursor) prob(i int) float64 {
	if c.table != nil {
		return c.probs[int(c.first[c.at])+i]
	}
	return c.game.Prob(i)
}

// moveID returns the identity of child i; m is the game's Mover, or nil.
func (c *cursor) moveID(m Mover, i int) int {
	switch t := c.table; {
	case m == nil:
		return i
	case t == nil:
		return m.Move(i)
	case t.Move == nil:
		return i
	}
	return int(c.table.Move[int(c.table.First[c.at])+i])
}

// prior returns the heuristic value of child i and whether it has one; h
// is the game's Heuristic, or nil.
func (c *cursor) prior(h Heuristic, i int) (float64, bool) {
	switch t := c.table; {
	case h == nil:
		return math.NaN(), false
	case t == nil:
		return h.Prior(i)
	case t.Prior == nil:
		return math.NaN(), false
	}
	j := int(c.table.First[c.at]) + i
	return c.table.Prior[j], c.table.HasPrior[j]
}
