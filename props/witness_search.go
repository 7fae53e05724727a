package props

import (
	"context"
	"errors"
	"math"

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
	// begins with the root children's counts), for the nodes whose
	// statistics the search reported: every node, or, for a whole search
	// that reports the root's children only (docs/protocol.md, "nodes"),
	// the root and its children, the others being unknown (Reported).
	Visits []int64 `json:"visits"`
	// Means are the same nodes' values for max at the last budget (their
	// mean rewards, or what the backup makes of them); nil (null in the
	// JSON form) for a node without simulations.
	Means []*float64 `json:"means"`
	// Decision is the root child the search decided at the last budget,
	// by index; -1 if none.
	Decision int `json:"decision"`
	// NotReported, if not empty, says why some nodes' statistics are
	// unknown: a whole search that declares no nodes reports its root's
	// children alone. Empty when every node's statistics are known.
	NotReported string `json:"not_reported,omitempty"`
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
	return newWitnessSearch(curveOf(tr, tree.Solve(tr), ob.snaps), &ob.snaps[len(ob.snaps)-1], tr.Len()), nil
}

// newWitnessSearch is the witness search of one search of a tree: its
// curve, and its last snapshot's statistics of the tree's first reported
// nodes.
func newWitnessSearch(e curveEntry, last *snapshot, reported int) *WitnessSearch {
	var curve Report
	curve.addCurve(e)
	s := &WitnessSearch{Curve: curve.Curve, Visits: make([]int64, reported), Means: make([]*float64, reported), Decision: last.decision}
	for i := range reported {
		s.Visits[i] = last.visits(int32(i))
		if m := last.value(int32(i)); s.Visits[i] > 0 && !math.IsNaN(m) {
			s.Means[i] = &m
		}
	}
	return s
}

// Reported says whether the search reported node id's statistics: a
// whole search that does not report every node reports the root's and
// its children's only, and the others' are unknown, not zero.
func (s *WitnessSearch) Reported(id int32) bool { return id >= 0 && int(id) < len(s.Visits) }

// notReported is WitnessSearch.NotReported for a whole search without
// nodes.
const notReported = "the search reported its root's children alone, declaring no nodes: nothing below them is known"

// searchPicture is the picture of a whole search's last search of its
// witness tree: every node's statistics with nodes, the root's and its
// children's without (the rest unknown); nil without a report.
func searchPicture(tr *tree.Tree, curve curveEntry, snaps []snapshot, nodes bool) *WitnessSearch {
	if len(snaps) == 0 {
		return nil
	}
	if nodes {
		return newWitnessSearch(curve, &snaps[len(snaps)-1], tr.Len())
	}
	s := newWitnessSearch(curve, &snaps[len(snaps)-1], 1+tr.NumChildren(0))
	s.NotReported = notReported
	return s
}
