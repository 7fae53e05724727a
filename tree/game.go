package tree

import "github.com/mctscheck/mctscheck/core"

// Cursor walks a Tree as a game. It implements [core.Game], [core.Mover] and
// [core.Heuristic], and none of its methods allocate. A Cursor is not safe for
// concurrent use, but any number of cursors may walk the same Tree.
type Cursor struct {
	kind      []core.Kind
	first     []int32
	reward    []float64
	prob      []float64
	move      []int32
	prior     []float64
	hasPrior  []bool
	moveLimit int
	at        int32
	table     *core.GameArrays
}

var (
	_ core.Game      = (*Cursor)(nil)
	_ core.Mover     = (*Cursor)(nil)
	_ core.Heuristic = (*Cursor)(nil)
	_ core.ArrayGame = (*Cursor)(nil)
)

// Game returns a cursor at the root of t. The cursor of a tree with no
// nodes (the zero Tree, or a nil *Tree) stands on a terminal of reward 0,
// so that its methods do not panic, and its Arrays are empty, so that
// core.New refuses it with an error.
func (t *Tree) Game() *Cursor {
	if t == nil || t.Len() == 0 {
		return &Cursor{kind: []core.Kind{core.Terminal}, first: []int32{1, 1}, reward: []float64{0},
			prob: []float64{0}, move: []int32{0}, prior: []float64{0}, hasPrior: []bool{false},
			moveLimit: 1, table: &core.GameArrays{}}
	}
	c := &Cursor{
		kind:      t.kind,
		first:     t.first,
		reward:    t.reward,
		prob:      t.prob,
		move:      t.move,
		prior:     t.prior,
		hasPrior:  t.hasPrior,
		moveLimit: t.moveLimit,
	}
	c.table = &core.GameArrays{Kind: t.kind, First: t.first, Reward: t.reward, Prob: t.prob,
		Move: t.move, MoveLimit: t.moveLimit, Prior: t.prior, HasPrior: t.hasPrior}
	return c
}

// Node returns the number of the current node in the tree.
func (c *Cursor) Node() int32 { return c.at }

// Reset moves the cursor back to the root.
func (c *Cursor) Reset() {
	if c != nil {
		c.at = 0
	}
}

// Kind returns the kind of the current node. A nil *Cursor stands on a
// terminal (of reward 0, with no moves), so that a typed nil passed as a
// core.Game is refused as a finished game rather than a panic.
func (c *Cursor) Kind() core.Kind {
	if c == nil {
		return core.Terminal
	}
	return c.kind[c.at]
}

// NumMoves returns the number of children of the current node.
func (c *Cursor) NumMoves() int {
	if c == nil {
		return 0
	}
	return int(c.first[c.at+1] - c.first[c.at])
}

// Play moves the cursor to child i of the current node. As [core.Game]
// requires, 0 <= i < NumMoves(); Play does not check it, and another i moves
// the cursor to an unrelated node or panics.
func (c *Cursor) Play(i int) { c.at = c.first[c.at] + int32(i) }

// Reward returns the reward of the current node, a terminal.
func (c *Cursor) Reward() float64 {
	if c == nil {
		return 0
	}
	return c.reward[c.at]
}

// Prob returns the probability of child i of the current node, a chance node.
func (c *Cursor) Prob(i int) float64 { return c.prob[c.first[c.at]+int32(i)] }

// Move returns the move identity of child i of the current node.
func (c *Cursor) Move(i int) int {
	if c.move == nil {
		return i
	}
	return int(c.move[c.first[c.at]+int32(i)])
}

// MoveLimit returns the tree's MoveLimit: every move identity is below it.
func (c *Cursor) MoveLimit() int { return c.moveLimit }

// Prior returns the prior of child i of the current node, and whether it has
// one.
func (c *Cursor) Prior(i int) (h float64, ok bool) {
	if c.hasPrior == nil {
		return 0, false
	}
	j := c.first[c.at] + int32(i)
	return c.prior[j], c.hasPrior[j]
}

// Arrays returns the tree as [core.GameArrays], which a search reads
// instead of calling the cursor's methods. It shares the tree's arrays:
// they must not be changed. A nil *Cursor's Arrays is nil, which core.New
// refuses with an error rather than a panic.
func (c *Cursor) Arrays() *core.GameArrays {
	if c == nil {
		return nil
	}
	return c.table
}
