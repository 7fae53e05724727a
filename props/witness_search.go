package props

import (
	"context"
	"encoding/json"
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
	// begins with the root children's counts). A node whose statistics a
	// whole search did not report (NotReported) has −1: unknown, not 0.
	Visits []int64 `json:"visits"`
	// Means are each node's mean reward for max at the last budget, in
	// Visits' order; NaN (null in JSON) where the node has no simulation
	// or its statistics were not reported.
	Means Means `json:"means"`
	// Decision is the root child the search decided at the last budget,
	// by index; -1 if none.
	Decision int `json:"decision"`
	// NotReported, if not empty, says which nodes' statistics the search
	// did not report, and why: a whole search that declares no nodes
	// reports its root's children alone, and nothing below them is known.
	// Empty when every node's statistics are known.
	NotReported string `json:"not_reported,omitempty"`
}

// Reported says whether the statistics of node i (in Tree's numbering)
// are known.
func (s *WitnessSearch) Reported(i int) bool { return i >= 0 && i < len(s.Visits) && s.Visits[i] >= 0 }

// Means are means that may be unknown or undefined: NaN, written null in
// JSON (which has no NaN) and read back as NaN.
type Means []float64

// Equal reports whether m and o hold the same means, NaN equal to NaN (an
// unknown mean is the same unknown), as go-cmp compares them.
func (m Means) Equal(o Means) bool {
	if len(m) != len(o) || (m == nil) != (o == nil) {
		return false
	}
	for i := range m {
		if m[i] != o[i] && !(math.IsNaN(m[i]) && math.IsNaN(o[i])) {
			return false
		}
	}
	return true
}

// MarshalJSON writes the means, null for NaN.
func (m Means) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	out := make([]*float64, len(m))
	for i := range m {
		if !math.IsNaN(m[i]) {
			out[i] = &m[i]
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads means written by MarshalJSON, null as NaN.
func (m *Means) UnmarshalJSON(b []byte) error {
	var in []*float64
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	if in == nil {
		*m = nil
		return nil
	}
	*m = make(Means, len(in))
	for i, p := range in {
		(*m)[i] = math.NaN()
		if p != nil {
			(*m)[i] = *p
		}
	}
	return nil
}

// notReported is WitnessSearch.NotReported for a whole search without
// nodes.
const notReported = "the search reported its root's children alone, declaring no nodes: nothing below them is known"

// searchPicture is a whole search's last search of its witness tree,
// read from its snapshots: known statistics where it reported them, −1
// visits and NaN means where it did not (nodes false: below the root's
// children).
func searchPicture(tr *tree.Tree, snaps []snapshot, nodes bool) *WitnessSearch {
	if len(snaps) == 0 {
		return nil
	}
	var curve Report
	curve.addCurve(curveOf(tr, tree.Solve(tr), snaps))
	z := snaps[len(snaps)-1]
	s := &WitnessSearch{Curve: curve.Curve, Visits: make([]int64, tr.Len()), Means: make(Means, tr.Len()), Decision: z.decision}
	for i := range s.Visits {
		id := int32(i)
		if _, ok := z.seen.slot(id); !ok {
			s.Visits[i], s.Means[i] = -1, math.NaN()
			continue
		}
		s.Visits[i], s.Means[i] = z.visits(id), z.value(id)
	}
	if !nodes {
		s.NotReported = notReported
	}
	return s
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
	visits, means := make([]int64, tr.Len()), make(Means, tr.Len())
	for i := range visits {
		visits[i], means[i] = last.visits(int32(i)), last.value(int32(i))
	}
	return &WitnessSearch{Curve: curve.Curve, Visits: visits, Means: means, Decision: last.decision}, nil
}
