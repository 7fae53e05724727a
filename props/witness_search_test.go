package props_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// TestWitnessSearch: a witness carries its replayed search on the witness
// tree, and it is the replay's: the curve of checking the witness tree
// with the witness's seed alone, in its order; the decision stays wrong to
// the last budget, which the average over every tree does not show; the
// visits are the tree's, with the root's simulations split among its
// children and most of them on the decided one.
func TestWitnessSearch(t *testing.T) {
	o := props.Options{Trees: 5, MaxBudget: 2048, RuleSpec: "greedy"}
	rep, err := props.Run(bg, greedy{}, o)
	if err != nil {
		t.Fatal(err)
	}
	w := rep.Witness
	if w == nil || w.Search == nil {
		t.Fatalf("no witness search: %s", rep.Summary)
	}
	s := w.Search
	o.Seed, o.Seeds, o.KeepOrder = w.Seeds[0], 1, true
	again, err := props.CheckTree(bg, greedy{}, w.Tree, o)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(again.Curve, s.Curve); diff != "" {
		t.Errorf("the witness's curve is not its replay's (-replay +witness):\n%s", diff)
	}
	last := s.Curve[len(s.Curve)-1]
	if len(s.Curve) != len(w.Budgets) || last.Budget != w.Budgets[len(w.Budgets)-1] || last.Wrong != 1 || last.Searches != 1 {
		t.Errorf("curve %+v: want one search per budget of %v, wrong at the last", s.Curve, w.Budgets)
	}
	if avg := rep.Curve[len(rep.Curve)-1].Wrong; avg >= 1 {
		t.Errorf("the average over every tree is %v wrong at the last budget: the test shows nothing the average does not", avg)
	}
	if len(s.Visits) != w.Nodes || s.Visits[0] != last.Budget {
		t.Fatalf("visits %v: want one per node of %v, the root's the last budget %d", s.Visits, w.Tree, last.Budget)
	}
	sum, most := int64(0), 0
	for k := range w.Tree.NumChildren(0) {
		n := s.Visits[w.Tree.Child(0, k)]
		sum += n
		if n > s.Visits[w.Tree.Child(0, most)] {
			most = k
		}
	}
	sol := tree.Solve(w.Tree)
	if sum != s.Visits[0] || s.Decision != most || sol.IsOptimal(0, s.Decision) || s.Decision != w.Findings[0].Child {
		t.Errorf("root children's visits sum to %d of %d, decision %d (most visited %d, Eq. 6 finding's %d): want the root's split, the most visited decided, not optimal",
			sum, s.Visits[0], s.Decision, most, w.Findings[0].Child)
	}
}

// TestWitnessSearchFault: a witness whose rule faults has no search; the
// fault is its evidence.
func TestWitnessSearchFault(t *testing.T) {
	rep, err := props.CheckTree(bg, nanRule{}, tree.MustParse("(max 1 0)"), props.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := rep.Witness; w == nil || w.Fault == nil || w.Search != nil {
		t.Errorf("witness %+v: want a fault and no search", w)
	}
}
