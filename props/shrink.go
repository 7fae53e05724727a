package props

import (
	"context"
	"math"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
)

// enode is a node of a tree being edited by the shrinker.
type enode struct {
	kind   core.Kind
	reward float64
	kids   []eedge
}

// eedge is an edge to a child with its attributes.
type eedge struct {
	node     *enode
	prob     float64
	move     int
	hasMove  bool
	prior    float64
	hasPrior bool
}

// editable copies t into linked nodes, without recursion.
func editable(t *gen.Tree) *enode {
	nodes := make([]*enode, t.Len())
	for i := int32(t.Len()) - 1; i >= 0; i-- {
		e := &enode{kind: t.Kind(i)}
		if e.kind == core.Terminal {
			e.reward = t.Reward(i)
		}
		for k := range t.NumChildren(i) {
			c := t.Child(i, k)
			ed := eedge{node: nodes[c], prob: t.Prob(c)}
			if m := t.Move(c); m != k {
				ed.move, ed.hasMove = m, true
			}
			ed.prior, ed.hasPrior = t.Prior(c)
			e.kids = append(e.kids, ed)
		}
		nodes[i] = e
	}
	return nodes[0]
}

// bfs lists the nodes under root in breadth-first order, the order of
// gen.Tree's numbering.
func bfs(root *enode) []*enode {
	out := []*enode{root}
	for i := 0; i < len(out); i++ {
		for _, k := range out[i].kids {
			out = append(out, k.node)
		}
	}
	return out
}

// clone copies the tree under root.
func clone(root *enode) *enode {
	old := bfs(root)
	idx := make(map[*enode]int, len(old))
	for i, n := range old {
		idx[n] = i
	}
	fresh := make([]*enode, len(old))
	for i, n := range old {
		fresh[i] = &enode{kind: n.kind, reward: n.reward, kids: append([]eedge(nil), n.kids...)}
	}
	for _, n := range fresh {
		for k := range n.kids {
			n.kids[k].node = fresh[idx[n.kids[k].node]]
		}
	}
	return fresh[0]
}

// build turns the edited tree back into a gen.Tree.
func build(root *enode) (*gen.Tree, error) {
	order := bfs(root)
	refs := make(map[*enode]gen.Ref, len(order))
	b := gen.NewBuilder()
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i]
		if n.kind == core.Terminal {
			refs[n] = b.Leaf(n.reward)
			continue
		}
		edges := make([]gen.Edge, len(n.kids))
		for k, ed := range n.kids {
			edges[k] = gen.Edge{Node: refs[ed.node], Prob: ed.prob, Move: ed.move, HasMove: ed.hasMove,
				Prior: ed.prior, HasPrior: ed.hasPrior}
		}
		refs[n] = b.Node(n.kind, edges...)
	}
	return b.Build(refs[root])
}

// edit is one candidate simplification: it changes the node numbered at
// (breadth-first) of a fresh clone and reports whether it applied.
type edit func(nodes []*enode) bool

// candidates lists the simplifications of the tree under root, the ones
// that remove most first: annotations all at once, subtrees to leaves,
// children hoisted or dropped, rewards made simpler, annotations one by one.
func candidates(root *enode, sol *gen.Solution) []edit {
	nodes := bfs(root)
	var out []edit
	out = append(out, stripAll(func(e *eedge) bool { was := e.hasPrior; e.hasPrior, e.prior = false, 0; return was }),
		stripAll(func(e *eedge) bool { was := e.hasMove; e.hasMove, e.move = false, 0; return was }))
	for j := range nodes {
		for k := range nodes[j].kids {
			child := nodes[j].kids[k].node
			if child.kind == core.Terminal {
				continue
			}
			ci := indexOf(nodes, child)
			for _, r := range leafRewards(sol.Value(int32(ci))) {
				out = append(out, setChild(j, k, func(*enode) *enode { return &enode{kind: core.Terminal, reward: r} }))
			}
			for g := range child.kids {
				out = append(out, setChild(j, k, func(c *enode) *enode { return c.kids[g].node }))
			}
		}
		if nodes[j].kind != core.Chance && len(nodes[j].kids) > 1 && (j > 0 || len(nodes[j].kids) > 2) {
			for k := range nodes[j].kids {
				out = append(out, func(ns []*enode) bool {
					n := ns[j]
					n.kids = append(n.kids[:k:k], n.kids[k+1:]...)
					return true
				})
			}
		}
	}
	for j, n := range nodes {
		if n.kind != core.Terminal {
			continue
		}
		for _, r := range simpler(n.reward) {
			out = append(out, func(ns []*enode) bool { ns[j].reward = r; return true })
		}
	}
	for j, n := range nodes {
		for k, ed := range n.kids {
			if ed.hasPrior {
				out = append(out, func(ns []*enode) bool { ns[j].kids[k].hasPrior, ns[j].kids[k].prior = false, 0; return true })
			}
			if ed.hasMove {
				out = append(out, func(ns []*enode) bool { ns[j].kids[k].hasMove, ns[j].kids[k].move = false, 0; return true })
			}
		}
	}
	return out
}

func indexOf(nodes []*enode, n *enode) int {
	for i, m := range nodes {
		if m == n {
			return i
		}
	}
	return -1
}

// setChild replaces child k of node j by what f makes of it.
func setChild(j, k int, f func(*enode) *enode) edit {
	return func(ns []*enode) bool {
		ns[j].kids[k].node = f(ns[j].kids[k].node)
		return true
	}
}

// stripAll applies f to every edge; it applies if f changed any.
func stripAll(f func(*eedge) bool) edit {
	return func(ns []*enode) bool {
		changed := false
		for _, n := range ns {
			for k := range n.kids {
				changed = f(&n.kids[k]) || changed
			}
		}
		return changed
	}
}

// simpler lists rewards simpler than r: 0, 1, then r rounded to coarser
// dyadic grids.
func simpler(r float64) []float64 {
	var out []float64
	if r != 0 {
		out = append(out, 0)
	}
	if r != 1 {
		out = append(out, 1)
	}
	for den := 2.0; den <= 1024; den *= 2 {
		if r*den == math.Trunc(r*den) {
			break // r is on this grid already: finer ones are not simpler
		}
		for _, x := range []float64{math.Floor(r*den) / den, math.Ceil(r*den) / den} {
			if x != 0 && x != 1 {
				out = append(out, x)
			}
		}
	}
	return out
}

// shrink simplifies tree while keep holds, greedily: it applies the first
// candidate edit that keeps the property and starts again, until none does,
// the budget of evaluations is spent or ctx ends. It returns the smallest tree
// found and the number of evaluations.
func shrink(ctx context.Context, tree *gen.Tree, keep func(*gen.Tree) bool, budget int) (*gen.Tree, int) {
	evals := 0
	cur := tree
	for evals < budget && ctx.Err() == nil {
		root := editable(cur)
		improved := false
		for _, ed := range candidates(root, gen.Solve(cur)) {
			if evals >= budget || ctx.Err() != nil {
				break
			}
			c := clone(root)
			if !ed(bfs(c)) {
				continue
			}
			next, err := build(c)
			if err != nil || next.Equal(cur) {
				continue
			}
			evals++
			if keep(next) {
				cur, improved = next, true
				break
			}
		}
		if !improved {
			break
		}
	}
	return cur, evals
}

// leafRewards lists the rewards a subtree of value v may become: 0, 1, v,
// and the small dyadic rewards that traps of exploration bias need.
func leafRewards(v float64) []float64 {
	out := []float64{0, 1}
	if v != 0 && v != 1 {
		out = append(out, v)
	}
	for den := 2.0; den <= 64; den *= 2 {
		if r := 1 / den; r != v {
			out = append(out, r)
		}
	}
	return out
}
