package core

import "math"

// Table is a game stored whole, as arrays indexed by position number:
// position 0 is the root, and the children of position p, in move order,
// are the positions First[p] to First[p+1]−1. Package tree's Cursor offers
// its tree's Table.
type Table struct {
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

// Tabled is implemented by games stored whole as a Table. A serial search
// (New) without a roll-out policy then reads the table instead of calling
// the game's methods, which on small trees is most of the cost of a
// simulation that is not the rule's: the table must agree with the
// methods. Tree-parallel searches, roll-out policies and the inspection
// methods (Decide, Walk, Lookup) call the methods.
type Tabled interface {
	Game
	Table() *Table
}

// cursor is a worker's position in its game: the game's own, moved through
// its methods, or, when table is set, the position number at in the game's
// Table, which the search reads directly.
type cursor struct {
	game  Game
	table *Table
	at    int32
}

func (c *cursor) reset() {
	if c.table != nil {
		c.at = 0
		return
	}
	c.game.Reset()
}

func (c *cursor) kind() Kind {
	if c.table != nil {
		return c.table.Kind[c.at]
	}
	return c.game.Kind()
}

func (c *cursor) numMoves() int {
	if t := c.table; t != nil {
		return int(t.First[c.at+1] - t.First[c.at])
	}
	return c.game.NumMoves()
}

// playMove moves to child i.
func (c *cursor) playMove(i int) {
	if t := c.table; t != nil {
		c.at = t.First[c.at] + int32(i)
		return
	}
	c.game.Play(i)
}

func (c *cursor) terminalReward() float64 {
	if c.table != nil {
		return c.table.Reward[c.at]
	}
	return c.game.Reward()
}

func (c *cursor) prob(i int) float64 {
	if t := c.table; t != nil {
		return t.Prob[t.First[c.at]+int32(i)]
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
	return int(c.table.Move[c.table.First[c.at]+int32(i)])
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
	j := c.table.First[c.at] + int32(i)
	return c.table.Prior[j], c.table.HasPrior[j]
}
