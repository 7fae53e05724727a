package props

import (
	"context"
	"errors"

	"github.com/mctscheck/mctscheck/tree"
)

// WitnessSearch is the search a witness replays, observed on the witness
// tree: its seed (Witness.Seeds) on Tree, in Tree's child order, at every
// budget. It is what a picture of the witness draws: the root decision
// against the budget on that one tree, where the convergence curve of a
// Report averages every search of every tree, and where the simulations
// went.
type WitnessSearch struct {
	// Curve is the search's convergence, one point per budget: Wrong is 1
	// when its root decision is not optimal and 0 when it is,
	// OptimalShare the optimal root children's share of the root's
	// simulations; Searches is 1.
	Curve []CurvePoint `json:"curve"`
	// Visits are the simulations through each node at the last budget,
	// indexed by the node's number in Tree (tree.Tree numbers nodes
	// breadth-first, the root 0, so its children come next: Visits[1:]
	// begins with the root children's counts).
	Visits []int64 `json:"visits"`
	// Decision is the root child the search decided at the last budget,
	// by index; -1 if none.
	Decision int `json:"decision"`
}

// witnessSearch searches tr with c's seed in tr's own order, as the
// witness's replay does, and returns what it observed; nil if the rule
// faults (the fault is the witness's evidence then).
func (c *checker) witnessSearch(ctx context.Context, tr *tree.Tree) (*WitnessSearch, error) {
	ob, err := newTreeSubject(tr).observe(ctx, c, c.opts.Seed, 0)
	var f *Fault
	if errors.As(err, &f) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var curve Report
	curve.addCurve(curveOf(tr, tree.Solve(tr), ob.snaps))
	last := ob.snaps[len(ob.snaps)-1]
	visits := make([]int64, tr.Len())
	for i := range visits {
		visits[i] = last.visits(int32(i))
	}
	return &WitnessSearch{Curve: curve.Curve, Visits: visits, Decision: last.decision}, nil
}
