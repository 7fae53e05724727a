package props

import (
	"context"
	"errors"
	"iter"
	"math"
	"slices"
	"sync"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// candidate is one simplification of the shrinker's current tree, made
// only when its turn to be judged comes: the shrinker holds as many
// candidate trees as it judges at once, never a list of them.
type candidate func() (*tree.Tree, error)

// trial is the outcome of one candidate tree in the shrinker: whether it
// keeps the property, the simulations its judgement took, and, if its
// judgement ended in a fault of the rule, that tree's result, which stops
// the shrinker.
type trial struct {
	keep  bool
	sims  int64
	fault *TreeResult
}

// shrinkRun is what the shrinker found: the smallest tree, the candidates
// evaluated and their simulations (those a serial shrinker would have
// evaluated), and the fault that stopped it, if one did.
type shrinkRun struct {
	tree  *tree.Tree
	evals int
	sims  int64
	fault *TreeResult
}

// shrink simplifies tr while judge keeps the property, in three passes
// whose cost follows the tree's size: it cuts whole subtrees to leaves
// (subtrees), drops children (siblings), then applies single edits
// greedily (polish), until small says the tree is small enough, the
// budget of evaluations is spent, ctx ends or a candidate faults. Each
// pass judges its candidates in their order several at once (firstChunk,
// doubling up to jobs, so that the sites of an external rule travel in
// batches, as the search's do) and takes the first that keeps the
// property, so its outcome, evaluations and simulations are a serial
// shrinker's, whatever jobs is. It reports its steps to o.Status.
func shrink(ctx context.Context, tr *tree.Tree, judge func(*tree.Tree) trial, budget, jobs int, small func(*tree.Tree) bool, o Options) shrinkRun {
	s := &shrinker{ctx: ctx, judge: judge, budget: budget, jobs: max(jobs, 1), small: small, o: o,
		run: shrinkRun{tree: tr}, sol: tree.Solve(tr)}
	o.status(PhaseShrinking, 0, 0)
	s.subtrees()
	s.siblings()
	s.polish()
	return s.run
}

// shrinker is the state of one shrink: the current tree, its solution,
// and what the run has spent.
type shrinker struct {
	ctx    context.Context
	judge  func(*tree.Tree) trial
	budget int
	jobs   int
	small  func(*tree.Tree) bool
	o      Options
	run    shrinkRun
	sol    *tree.Solution // run.tree's
	steps  int
}

// done reports whether the shrinking ends: a fault, the budget spent, the
// context ended, or a tree small enough.
func (s *shrinker) done() bool {
	return s.run.fault != nil || s.run.evals >= s.budget || s.ctx.Err() != nil || (s.small != nil && s.small(s.run.tree))
}

// subtrees cuts whole subtrees to leaves, level by level from the root's
// children down. At each level it cuts all the level's inner nodes at
// once, then halves, quarters, down to single nodes (remove), each to a
// leaf of its own value, so that every value above it stays what it was
// and the mechanism on the path to it keeps its stakes; the next level is
// the inner children of the nodes that stayed. A subtree the witness's
// search never entered goes at the first try, whatever its size. Nodes
// at or above a level keep their numbers while it is cut (nodes are
// numbered breadth-first), so a level's nodes are named by number
// throughout.
func (s *shrinker) subtrees() {
	level := s.innerChildren([]int32{0})
	for len(level) > 0 && !s.done() {
		level = s.innerChildren(s.remove(level, s.cut))
	}
}

// innerChildren lists the children of nodes that are not terminals.
func (s *shrinker) innerChildren(nodes []int32) []int32 {
	t := s.run.tree
	var out []int32
	for _, i := range nodes {
		for c := t.First(i); c < t.First(i)+int32(t.NumChildren(i)); c++ {
			if t.Kind(c) != core.Terminal {
				out = append(out, c)
			}
		}
	}
	return out
}

// cut is the candidate with the subtrees under nodes cut to leaves of
// their values.
func (s *shrinker) cut(nodes, _ []int32) candidate {
	t, sol := s.run.tree, s.sol
	return func() (*tree.Tree, error) {
		rewards := make([]float64, len(nodes))
		for j, i := range nodes {
			rewards[j] = sol.Value(i)
		}
		return t.WithLeaves(s.ctx, nodes, rewards)
	}
}

// siblings drops children, node by node from the last: at each max or
// min node it drops as many children at once as it can, then halves,
// quarters, down to single children (remove), keeping at least one (two
// at the root, whose decision needs a choice). Nodes numbered before a
// node keep their numbers while its children go.
func (s *shrinker) siblings() {
	for j := int32(s.run.tree.Len() - 1); j >= 0 && !s.done(); j-- {
		t := s.run.tree
		if k := t.Kind(j); k != core.Max && k != core.Min || t.NumChildren(j) < 2 {
			continue
		}
		least := 1
		if j == 0 {
			least = 2
		}
		kids := make([]int32, t.NumChildren(j)) // the children by their first index
		for k := range kids {
			kids[k] = int32(k)
		}
		s.remove(kids, func(gone, all []int32) candidate {
			t := s.run.tree
			return func() (*tree.Tree, error) {
				if len(all)-len(gone) < least {
					return nil, errTooFew
				}
				ks := make([]int, len(gone)) // their indices now: positions among the children left
				for g, k := range gone {
					at, _ := slices.BinarySearch(all, k)
					ks[g] = at
				}
				return t.WithoutChildren(s.ctx, j, ks)
			}
		})
	}
}

var errTooFew = errors.New("props: a node's last children are not dropped")

// remove takes items out of the current tree in groups, as delta
// debugging does: all of them at once, then groups of half the size,
// and so on down to single items, judging at each size the groups in
// order and adopting each that keeps the property. without(group, all)
// is the candidate without the group's items, all being the items still
// in the tree (the group's among them), in order. It returns the items
// that stayed. When m of n items must stay, it judges about 2m·log2(n/m)
// candidates, and each one it adopts removes a whole group.
func (s *shrinker) remove(items []int32, without func(group, all []int32) candidate) []int32 {
	for size := len(items); len(items) > 0 && !s.done(); size = (size + 1) / 2 {
		var stay []int32
		rest := items
		for len(rest) > 0 && !s.done() {
			all := append(slices.Clip(stay), rest...)
			groups := func(yield func(candidate) bool) {
				for g := 0; g < len(rest); g += size {
					if !yield(without(rest[g:min(g+size, len(rest))], all)) {
						return
					}
				}
			}
			taken, ok := s.adopt(groups)
			if !ok {
				break
			}
			stay = append(stay, rest[:(taken-1)*size]...) // the groups before the adopted one stay
			rest = rest[min(taken*size, len(rest)):]
		}
		items = append(stay, rest...)
		if size == 1 {
			break
		}
	}
	return items
}

// polish applies single edits (candidates) greedily: the first that keeps
// the property, then again from the first, until none does.
func (s *shrinker) polish() {
	for !s.done() {
		if _, ok := s.adopt(candidates(s.run.tree, s.sol)); !ok {
			return
		}
	}
}

// firstChunk is how many candidates the shrinker judges at once after each
// step, doubling up to its jobs while none keeps the property: a keeper
// tends to come early in the list, and every candidate judged beyond it is
// work thrown away.
const firstChunk = 4

// adopt judges the candidates of seq in order, a chunk at once, and makes
// the first that keeps the property the current tree. It returns how many
// of seq's candidates it took up (the adopted one last) and whether it
// adopted one. A candidate that cannot be made, or that makes the current
// tree again, is passed over unjudged.
func (s *shrinker) adopt(seq iter.Seq[candidate]) (taken int, ok bool) {
	chunk := min(s.jobs, firstChunk)
	var batch []candidate
	judge := func() bool {
		k, ok := s.judgeBatch(batch)
		if ok {
			taken += k + 1
		} else {
			taken += len(batch)
		}
		batch = batch[:0]
		chunk = min(2*chunk, s.jobs) // no keeper yet: judge more at once
		return ok
	}
	for c := range seq {
		if s.done() {
			return taken, false
		}
		if batch = append(batch, c); len(batch) >= min(chunk, s.budget-s.run.evals) && judge() {
			return taken, true
		}
	}
	return taken, len(batch) > 0 && !s.done() && judge()
}

// judgeBatch makes and judges the candidates of batch at once, each in
// its own goroutine, and adopts the first in order that keeps the
// property, counting the candidates judged up to it as a serial shrinker
// would; a fault among those ends the shrinking. It returns the adopted
// candidate's index.
func (s *shrinker) judgeBatch(batch []candidate) (int, bool) {
	type outcome struct {
		tr *tree.Tree // nil: not judged
		trial
	}
	out := make([]outcome, len(batch))
	cur := s.run.tree
	var wg sync.WaitGroup
	for k, c := range batch {
		wg.Go(func() {
			if s.ctx.Err() != nil { // the check ended: nothing is made or judged
				return
			}
			if t, err := c(); err == nil && s.ctx.Err() == nil && !t.Equal(cur) {
				out[k] = outcome{t, s.judge(t)}
			}
		})
	}
	if waitUnlessDone(s.ctx, &wg) != nil {
		return -1, false // the check ends: out is left to the candidates still being made or judged
	}
	defer func() { s.o.status(PhaseShrinking, s.steps, s.run.evals) }()
	for k, r := range out {
		if r.tr == nil {
			continue
		}
		s.run.evals++
		s.run.sims += r.sims
		switch {
		case r.fault != nil:
			s.run.fault = r.fault
			return k, false
		case r.keep:
			s.run.tree, s.sol = r.tr, tree.Solve(r.tr)
			s.steps++
			return k, true
		}
	}
	return -1, false
}

// candidates yields the single edits of t, the ones that remove most
// first: annotations all at once, subtrees to leaves, children hoisted or
// dropped, rewards made simpler, annotations one by one.
func candidates(t *tree.Tree, sol *tree.Solution) iter.Seq[candidate] {
	return func(yield func(candidate) bool) {
		if !yield(t.WithoutPriors) || !yield(t.WithDefaultMoves) {
			return
		}
		for j := range int32(t.Len()) {
			for k := range t.NumChildren(j) {
				c := t.Child(j, k)
				if t.Kind(c) == core.Terminal {
					continue
				}
				for _, r := range leafRewards(sol.Value(c)) {
					if !yield(func() (*tree.Tree, error) { return t.WithLeaf(c, r) }) {
						return
					}
				}
				for g := range t.NumChildren(c) {
					if !yield(func() (*tree.Tree, error) { return t.Hoist(c, g) }) {
						return
					}
				}
			}
			if n := t.NumChildren(j); t.Kind(j) != core.Chance && n > 1 && (j > 0 || n > 2) {
				for k := range n {
					if !yield(func() (*tree.Tree, error) { return t.Without(j, k) }) {
						return
					}
				}
			}
		}
		for j := range int32(t.Len()) {
			if t.Kind(j) != core.Terminal {
				continue
			}
			for _, r := range simpler(t.Reward(j)) {
				if !yield(func() (*tree.Tree, error) { return t.WithReward(j, r) }) {
					return
				}
			}
		}
		for c := int32(1); c < int32(t.Len()); c++ {
			if _, ok := t.Prior(c); ok && !yield(func() (*tree.Tree, error) { return t.WithoutPrior(c) }) {
				return
			}
			if t.Move(c) != int(c-t.First(t.Parent(c))) && !yield(func() (*tree.Tree, error) { return t.WithDefaultMove(c) }) {
				return
			}
		}
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
