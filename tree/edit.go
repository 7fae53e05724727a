package tree

import (
	"context"
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
	return t.apply(context.Background(), edit{op: opLeaf, at: i, reward: r})
}

// WithLeaves returns t with the subtree under each node nodes[j] replaced
// by a terminal of reward rewards[j], all at once: a shrinker cuts many
// subtrees in one tree built once. The edges into the nodes keep their
// attributes. A node inside another's subtree goes with it. A copy in
// progress when ctx ends is abandoned, with ctx's error: the copy of a
// large tree is work that a shrinker stopped midway no longer wants.
func (t *Tree) WithLeaves(ctx context.Context, nodes []int32, rewards []float64) (*Tree, error) {
	if len(nodes) != len(rewards) {
		return nil, fmt.Errorf("tree: WithLeaves: %d nodes and %d rewards", len(nodes), len(rewards))
	}
	es := make([]edit, len(nodes))
	for j, i := range nodes {
		es[j] = edit{op: opLeaf, at: i, reward: rewards[j]}
	}
	return t.apply(ctx, es...)
}

// Hoist returns t with the subtree under node i replaced by the subtree under
// its child k. The edge into i keeps its attributes; those of the edge from i
// to child k are dropped.
func (t *Tree) Hoist(i int32, k int) (*Tree, error) {
	return t.apply(context.Background(), edit{op: opHoist, at: i, k: k})
}

// Without returns t with child k of node i and its subtree removed.
func (t *Tree) Without(i int32, k int) (*Tree, error) {
	if err := t.checkChild(i, k); err != nil {
		return nil, err
	}
	return t.apply(context.Background(), edit{op: opDrop, at: t.first[i] + int32(k)})
}

// WithoutChildren returns t with children ks of node i and their
// subtrees removed, all at once; a copy in progress when ctx ends is
// abandoned, with ctx's error, as WithLeaves's is.
func (t *Tree) WithoutChildren(ctx context.Context, i int32, ks []int) (*Tree, error) {
	es := make([]edit, len(ks))
	for j, k := range ks {
		if err := t.checkChild(i, k); err != nil {
			return nil, err
		}
		es[j] = edit{op: opDrop, at: t.first[i] + int32(k)}
	}
	return t.apply(ctx, es...)
}

// WithReward returns t with the reward of terminal node i set to r.
func (t *Tree) WithReward(i int32, r float64) (*Tree, error) {
	if t.valid(i) && t.kind[i] != core.Terminal {
		return nil, fmt.Errorf("tree: WithReward: node %s is %v, not a terminal", FormatPath(t.Path(i)), t.kind[i])
	}
	return t.apply(context.Background(), edit{op: opReward, at: i, reward: r})
}

// WithoutPrior returns t with no prior on the edge into node i.
func (t *Tree) WithoutPrior(i int32) (*Tree, error) {
	return t.apply(context.Background(), edit{op: opNoPrior, at: i})
}

// WithDefaultMove returns t with the edge into node i given its default move
// identity, its index among its siblings.
func (t *Tree) WithDefaultMove(i int32) (*Tree, error) {
	return t.apply(context.Background(), edit{op: opNoMove, at: i})
}

// WithoutPriors returns t with no prior on any edge.
func (t *Tree) WithoutPriors() (*Tree, error) {
	return t.apply(context.Background(), edit{op: opNoPriors, at: 0})
}

// WithDefaultMoves returns t with every edge given its default move identity.
func (t *Tree) WithDefaultMoves() (*Tree, error) {
	return t.apply(context.Background(), edit{op: opNoMoves, at: 0})
}

type editOp uint8

const (
	opLeaf editOp = iota
	opHoist
	opDrop // the node at, with its subtree
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

// checkChild returns an error unless node i has a child k.
func (t *Tree) checkChild(i int32, k int) error {
	if !t.valid(i) {
		return fmt.Errorf("tree: edit at node %d of a tree of %d nodes", i, t.Len())
	}
	if k < 0 || k >= t.NumChildren(i) {
		return fmt.Errorf("tree: edit at node %s (%v): no child %d of %d",
			FormatPath(t.Path(i)), t.kind[i], k, t.NumChildren(i))
	}
	return nil
}

// editSet is the edits of one apply: each node's own (one a node, the
// last given wins), and the edits of every edge.
type editSet struct {
	one edit // the only edit, when there is one: no index to build
	// es and byAt, when there are several: byAt[i] is 1 + the index in es
	// of node i's edit, 0 if it has none; an array over the tree, not a
	// map, since a shrinker's edits may touch half of a million nodes.
	es                []edit
	byAt              []int32
	noPriors, noMoves bool
}

// of returns the edit at node i, if any.
func (s *editSet) of(i int32) (edit, bool) {
	if s.byAt == nil {
		return s.one, s.one.at == i && s.one.op != opNoPriors && s.one.op != opNoMoves
	}
	if j := s.byAt[i]; j > 0 {
		return s.es[j-1], true
	}
	return edit{}, false
}

// apply lays out t changed by es through a Builder. It walks the edited
// tree breadth-first, noting for each of its nodes the node of t it copies
// (or -1 for a new leaf, with the edit that made it) and the node of t
// whose incoming edge it keeps, then builds bottom-up; so it never
// recurses. It gives up with ctx's error once ctx ends.
func (t *Tree) apply(ctx context.Context, es ...edit) (*Tree, error) {
	set := editSet{}
	if len(es) == 1 {
		set.one = es[0]
	} else {
		set.es, set.byAt = es, make([]int32, t.Len())
	}
	for j, e := range es {
		if !t.valid(e.at) {
			return nil, fmt.Errorf("tree: edit at node %d of a tree of %d nodes", e.at, t.Len())
		}
		switch {
		case e.op == opHoist:
			if err := t.checkChild(e.at, e.k); err != nil {
				return nil, err
			}
		case e.op == opDrop && e.at == 0:
			return nil, fmt.Errorf("tree: edit drops the root")
		case e.op == opNoPriors:
			set.noPriors = true
		case e.op == opNoMoves:
			set.noMoves = true
		}
		if set.byAt != nil && e.op != opNoPriors && e.op != opNoMoves {
			set.byAt[e.at] = int32(j + 1)
		}
	}
	type item struct {
		node int32 // the node of t copied, or -1 for a new leaf
		edge int32 // the node of t whose incoming edge's attributes are kept
		leaf float64
	}
	// itemOf is the item that copies node i of t, as its edit says; drop
	// is true if the edit drops it.
	itemOf := func(i int32) (it item, drop bool) {
		it = item{node: i, edge: i}
		e, ok := set.of(i)
		switch {
		case !ok:
		case e.op == opLeaf:
			it.node, it.leaf = -1, e.reward
		case e.op == opHoist:
			it.node = t.first[i] + int32(e.k)
		case e.op == opDrop:
			return it, true
		}
		return it, false
	}
	root, _ := itemOf(0)
	items := make([]item, 1, t.Len()) // an edit never adds nodes
	items[0] = root
	kids := make([][2]int, 0, t.Len()) // kids[j] = first and end of item j's children in items
	for j := 0; j < len(items); j++ {
		if err := ended(ctx, j); err != nil {
			return nil, err
		}
		n := items[j].node
		lo := len(items)
		if n >= 0 {
			for c := t.first[n]; c < t.first[n+1]; c++ {
				if it, drop := itemOf(c); !drop {
					items = append(items, it)
				}
			}
		}
		kids = append(kids, [2]int{lo, len(items)})
	}
	b := builderFor(len(items))
	refs := make([]Ref, len(items))
	for j := len(items) - 1; j >= 0; j-- {
		if err := ended(ctx, j); err != nil {
			return nil, err
		}
		n := items[j].node
		switch {
		case n < 0:
			refs[j] = b.Leaf(items[j].leaf)
			continue
		case t.kind[n] == core.Terminal:
			r := t.reward[n]
			if e, ok := set.of(n); ok && e.op == opReward {
				r = e.reward
			}
			refs[j] = b.Leaf(r)
			continue
		}
		edges := make([]Edge, 0, kids[j][1]-kids[j][0])
		for c := kids[j][0]; c < kids[j][1]; c++ {
			edges = append(edges, t.edgeInto(items[c].edge, refs[c], &set))
		}
		refs[j] = b.Node(t.kind[n], edges...)
	}
	return b.build(ctx, refs[0])
}

// endedEvery is how many nodes a long copy handles between two looks at
// its context: a look costs a lock, a node a few nanoseconds.
const endedEvery = 1 << 12

// ended returns ctx's error if ctx has ended, looking only at every
// endedEvery-th step i of a loop.
func ended(ctx context.Context, i int) error {
	if i%endedEvery != 0 {
		return nil
	}
	return ctx.Err()
}

// edgeInto returns the Builder edge to r with the attributes of the edge into
// node c of t, changed as set says.
func (t *Tree) edgeInto(c int32, r Ref, set *editSet) Edge {
	ed := Edge{Node: r, Prob: t.prob[c]}
	p := t.parent[c]
	e, ok := set.of(c)
	if m := t.Move(c); m != int(c-t.first[p]) && !set.noMoves && !(ok && e.op == opNoMove) {
		ed.Move, ed.HasMove = m, true
	}
	if h, hok := t.Prior(c); hok && !set.noPriors && !(ok && e.op == opNoPrior) {
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
// the same tree as Shuffled draws, or with t's own order if rng is nil. A Cursor of dst walks the new order,
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
		for k := len(p) - 1; k > 0 && rng != nil; k-- {
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
