package props

import (
	"context"
	"math"

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

// shrink simplifies tree while keep holds, greedily: it applies the first
// candidate edit that keeps the property and starts again, until none does,
// the budget of evaluations is spent or ctx ends. It returns the smallest tree
// found and the number of evaluations.
func shrink(ctx context.Context, tr *tree.Tree, keep func(*tree.Tree) bool, budget int) (*tree.Tree, int) {
	evals := 0
	cur := tr
	for evals < budget && ctx.Err() == nil {
		improved := false
		for _, ed := range candidates(cur, tree.Solve(cur)) {
			if evals >= budget || ctx.Err() != nil {
				break
			}
			next, err := ed()
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
