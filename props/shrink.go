package props

import (
	"context"
	"math"
	"sync"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// edit is one candidate simplification of a tree.
type edit func() (*tree.Tree, error)

// candidates lists the simplifications of t, the ones that remove most
// first: annotations all at once, subtrees to leaves, children hoisted or
// dropped, rewards made simpler, annotations one by one.
func candidates(t *tree.Tree, sol *tree.Solution) []edit {
	out := []edit{t.WithoutPriors, t.WithDefaultMoves}
	for j := range int32(t.Len()) {
		for k := range t.NumChildren(j) {
			c := t.Child(j, k)
			if t.Kind(c) == core.Terminal {
				continue
			}
			for _, r := range leafRewards(sol.Value(c)) {
				out = append(out, func() (*tree.Tree, error) { return t.WithLeaf(c, r) })
			}
			for g := range t.NumChildren(c) {
				out = append(out, func() (*tree.Tree, error) { return t.Hoist(c, g) })
			}
		}
		if n := t.NumChildren(j); t.Kind(j) != core.Chance && n > 1 && (j > 0 || n > 2) {
			for k := range n {
				out = append(out, func() (*tree.Tree, error) { return t.Without(j, k) })
			}
		}
	}
	for j := range int32(t.Len()) {
		if t.Kind(j) != core.Terminal {
			continue
		}
		for _, r := range simpler(t.Reward(j)) {
			out = append(out, func() (*tree.Tree, error) { return t.WithReward(j, r) })
		}
	}
	for c := int32(1); c < int32(t.Len()); c++ {
		if _, ok := t.Prior(c); ok {
			out = append(out, func() (*tree.Tree, error) { return t.WithoutPrior(c) })
		}
		if t.Move(c) != int(c-t.First(t.Parent(c))) {
			out = append(out, func() (*tree.Tree, error) { return t.WithDefaultMove(c) })
		}
	}
	return out
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

// firstChunk is how many candidates the shrinker judges at once after each
// step, doubling up to its jobs while none keeps the property: a keeper
// tends to come early in the list, and every candidate judged beyond it is
// work thrown away.
const firstChunk = 4

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

// shrink simplifies tr while try keeps the property, greedily: it applies
// the first candidate edit that keeps it and starts again, until none
// does, small says the tree is small enough, the budget of evaluations is
// spent, ctx ends or a candidate faults. It judges candidates several at
// once (firstChunk, doubling up to jobs, so that the sites of an external
// rule travel in batches, as the search's do) and takes the first that
// keeps the property in the candidates' order, so its outcome, evaluations and simulations are a
// serial shrinker's, whatever jobs is. It reports its steps to o.Status.
func shrink(ctx context.Context, tr *tree.Tree, try func(*tree.Tree) trial, budget, jobs int, small func(*tree.Tree) bool, o Options) shrinkRun {
	run := shrinkRun{tree: tr}
	steps := 0
	o.status(PhaseShrinking, 0, 0)
	jobs = max(jobs, 1)
	for run.evals < budget && ctx.Err() == nil && (small == nil || !small(run.tree)) {
		var next []*tree.Tree
		for _, ed := range candidates(run.tree, tree.Solve(run.tree)) {
			if t, err := ed(); err == nil && !t.Equal(run.tree) {
				next = append(next, t)
			}
		}
		improved := false
		chunk := min(jobs, firstChunk)
		for len(next) > 0 && !improved && run.evals < budget && ctx.Err() == nil {
			n := min(len(next), chunk, budget-run.evals)
			chunk = min(2*chunk, jobs) // no keeper yet: judge more at once
			out := make([]trial, n)
			var wg sync.WaitGroup
			for k := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					out[k] = try(next[k])
				}()
			}
			wg.Wait()
			for k, t := range out {
				run.evals++
				run.sims += t.sims
				if t.fault != nil {
					run.fault = t.fault
					return run
				}
				if t.keep {
					run.tree, improved = next[k], true
					steps++
					break
				}
			}
			o.status(PhaseShrinking, steps, run.evals)
			next = next[n:]
		}
		if !improved {
			break
		}
	}
	return run
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
