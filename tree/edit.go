package tree

import (
	"fmt"
	"slices"

	"github.com/mctscheck/mctscheck/core"
)

// The edits below return a changed copy of a tree and leave the tree itself
// alone. They are the steps of a shrinker toward a smaller counterexample:
// each result is laid out and checked by a Builder, so an edit that would
// make an invalid tree (a chance node whose probabilities no longer sum to 1,
// a node without children) returns Build's error.
//
// An edge keeps its attributes through an edit, with one rule for move
// identities: a move equal to the child's index counts as the default, so a
// child that moves to another index takes its new index as its move.

// WithLeaf returns t with the subtree under node i replaced by a terminal of
// reward r. The edge into i keeps its attributes.
func (t *Tree) WithLeaf(i int32, r float64) (*Tree, error) {
	return t.edit(edit{op: opLeaf, at: i, reward: r})
}

// Hoist returns t with the subtree under node i replaced by the subtree under
// its child k. The edge into i keeps its attributes; those of the edge from i
// to child k are dropped.
func (t *Tree) Hoist(i int32, k int) (*Tree, error) {
	return t.edit(edit{op: opHoist, at: i, k: k})
}

// Without returns t with child k of node i and its subtree removed.
func (t *Tree) Without(i int32, k int) (*Tree, error) {
	return t.edit(edit{op: opDrop, at: i, k: k})
}

// WithReward returns t with the reward of terminal node i set to r.
func (t *Tree) WithReward(i int32, r float64) (*Tree, error) {
	if t.valid(i) && t.kind[i] != core.Terminal {
		return nil, fmt.Errorf("tree: WithReward: node %s is %v, not a terminal", FormatPath(t.Path(i)), t.kind[i])
	}
	return t.edit(edit{op: opReward, at: i, reward: r})
}

// WithoutPrior returns t with no prior on the edge into node i.
func (t *Tree) WithoutPrior(i int32) (*Tree, error) {
	return t.edit(edit{op: opNoPrior, at: i})
}

// WithDefaultMove returns t with the edge into node i given its default move
// identity, its index among its siblings.
func (t *Tree) WithDefaultMove(i int32) (*Tree, error) {
	return t.edit(edit{op: opNoMove, at: i})
}

// WithoutPriors returns t with no prior on any edge.
func (t *Tree) WithoutPriors() (*Tree, error) { return t.edit(edit{op: opNoPriors, at: 0}) }

// WithDefaultMoves returns t with every edge given its default move identity.
func (t *Tree) WithDefaultMoves() (*Tree, error) { return t.edit(edit{op: opNoMoves, at: 0}) }

type editOp uint8

const (
	opLeaf editOp = iota
	opHoist
	opDrop
	opReward
	opNoPrior
	opNoMove
	opNoPriors
	opNoMoves
)

// edit is one change to a tree: op applied at node at (with child k, or
// reward).
type edit struct {
	op     editOp
	at     int32
	k      int
	reward float64
}

func (t *Tree) valid(i int32) bool { return i >= 0 && int(i) < t.Len() }

// edit lays out t changed by e through a Builder. It walks the edited tree
// breadth-first, noting for each of its nodes the node of t it copies (or -1
// for a new leaf) and the node of t whose incoming edge it keeps, then builds
// bottom-up; so it never recurses.
func (t *Tree) edit(e edit) (*Tree, error) {
	if !t.valid(e.at) {
		return nil, fmt.Errorf("tree: edit at node %d of a tree of %d nodes", e.at, t.Len())
	}
	if (e.op == opHoist || e.op == opDrop) && (e.k < 0 || e.k >= t.NumChildren(e.at)) {
		return nil, fmt.Errorf("tree: edit at node %s (%v): no child %d of %d",
			FormatPath(t.Path(e.at)), t.kind[e.at], e.k, t.NumChildren(e.at))
	}
	type item struct {
		node int32 // the node of t copied, or -1 for the edit's new leaf
		edge int32 // the node of t whose incoming edge's attributes are kept
	}
	copyOf := func(i int32) int32 {
		switch {
		case i != e.at:
			return i
		case e.op == opLeaf:
			return -1
		case e.op == opHoist:
			return t.first[i] + int32(e.k)
		}
		return i
	}
	items := []item{{node: copyOf(0), edge: 0}}
	kids := [][2]int{} // kids[j] = first and end of item j's children in items
	for j := 0; j < len(items); j++ {
		n := items[j].node
		lo := len(items)
		if n >= 0 {
			for k := range t.NumChildren(n) {
				if e.op == opDrop && n == e.at && k == e.k {
					continue
				}
				c := t.first[n] + int32(k)
				items = append(items, item{node: copyOf(c), edge: c})
			}
		}
		kids = append(kids, [2]int{lo, len(items)})
	}
	b := NewBuilder()
	refs := make([]Ref, len(items))
	for j := len(items) - 1; j >= 0; j-- {
		n := items[j].node
		switch {
		case n < 0:
			refs[j] = b.Leaf(e.reward)
			continue
		case t.kind[n] == core.Terminal:
			r := t.reward[n]
			if e.op == opReward && n == e.at {
				r = e.reward
			}
			refs[j] = b.Leaf(r)
			continue
		}
		edges := make([]Edge, 0, kids[j][1]-kids[j][0])
		for c := kids[j][0]; c < kids[j][1]; c++ {
			edges = append(edges, t.edgeInto(items[c].edge, refs[c], e))
		}
		refs[j] = b.Node(t.kind[n], edges...)
	}
	return b.Build(refs[0])
}

// edgeInto returns the Builder edge to r with the attributes of the edge into
// node c of t, changed as e says.
func (t *Tree) edgeInto(c int32, r Ref, e edit) Edge {
	ed := Edge{Node: r, Prob: t.prob[c]}
	p := t.parent[c]
	if m := t.Move(c); m != int(c-t.first[p]) && e.op != opNoMoves && !(e.op == opNoMove && c == e.at) {
		ed.Move, ed.HasMove = m, true
	}
	if h, ok := t.Prior(c); ok && e.op != opNoPriors && !(e.op == opNoPrior && c == e.at) {
		ed.Prior, ed.HasPrior = h, true
	}
	return ed
}

// Shuffled returns t with the children of every max, min and chance node in
// an order drawn from rng (a Fisher–Yates shuffle per node, in breadth-first
// order). Every edge keeps its probability and prior, and its move identity:
// a child whose index changes carries its old identity explicitly, so AMAF
// statistics mean the same. Searching a shuffled tree asks whether a rule's
// behaviour depends on the order in which moves are listed.
func (t *Tree) Shuffled(rng *core.RNG) *Tree {
	out := t.ShuffledInto(nil, rng)
	out.perm = nil // only ShuffledInto needs it again
	return out
}

// ShuffledInto is Shuffled into the memory of dst, which is nil or a tree
// that t.ShuffledInto returned before and that nobody reads any more: it
// returns dst (a new tree if dst is nil) with the order drawn from rng,
// the same tree as Shuffled draws. A Cursor of dst walks the new order,
// since the arrays are the same, so a search of dst.Game() can search it
// again after a reset: a check searches seed after seed, each in its own
// order, in the memory of one tree. It panics if dst has another size
// than t, or is not a tree of ShuffledInto.
func (t *Tree) ShuffledInto(dst *Tree, rng *core.RNG) *Tree {
	n := t.Len()
	switch {
	case dst == nil:
		dst = t.shuffleBuffer()
		if n == 0 {
			return dst
		}
	case dst.perm == nil || dst.Len() != n:
		panic(fmt.Sprintf("tree: ShuffledInto a tree of %d nodes that is not a shuffle of this one, of %d", dst.Len(), n))
	}
	// The permutation of each node's children, drawn node by node in
	// index order; perm[first[i]+k] is the old number of i's new child k.
	perm := dst.perm
	for i := range int32(n) {
		p := perm[t.first[i]:t.first[i+1]]
		for k := range p {
			p[k] = t.first[i] + int32(k)
		}
		for k := len(p) - 1; k > 0; k-- {
			j := rng.IntN(k + 1)
			p[k], p[j] = p[j], p[k]
		}
	}
	// Number the nodes breadth first in the new order, as Builder.Build
	// does, and copy each node's fields, and its edge's, to its new number.
	// first[i] holds the old number of new node i until step i sets it.
	first, parent := dst.first, dst.parent
	first[0], parent[0] = 0, -1
	ownProb := &dst.prob[0] != &t.prob[0]
	next := int32(1)
	for i := range int32(n) {
		o := first[i]
		dst.kind[i], dst.reward[i], dst.move[i] = t.kind[o], t.reward[o], int32(t.Move(o))
		if ownProb {
			dst.prob[i] = t.prob[o]
		}
		if dst.hasPrior != nil {
			dst.prior[i], dst.hasPrior[i] = t.prior[o], t.hasPrior[o]
		}
		first[i] = next
		for _, c := range perm[t.first[o]:t.first[o+1]] {
			first[next], parent[next] = c, i
			next++
		}
	}
	first[n] = next
	return dst
}

// shuffleBuffer allocates a tree for ShuffledInto to fill from t: a tree
// without chance nodes shares t's probabilities, all 0 in any order.
func (t *Tree) shuffleBuffer() *Tree {
	n := t.Len()
	out := &Tree{
		kind:      make([]core.Kind, n),
		first:     make([]int32, n+1),
		parent:    make([]int32, n),
		reward:    make([]float64, n),
		prob:      t.prob,
		move:      make([]int32, n),
		moveLimit: t.moveLimit,
		depth:     t.depth,
		perm:      make([]int32, n),
	}
	if slices.Contains(t.kind, core.Chance) {
		out.prob = make([]float64, n)
	}
	if t.hasPrior != nil {
		out.prior, out.hasPrior = make([]float64, n), make([]bool, n)
	}
	return out
}
