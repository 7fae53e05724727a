package gen_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/tree"
)

// TestSearchTraps checks the trees of the whole-search families as their
// docs draw them: the text, one optimal root child, at most 9 nodes, a
// binary flag that says the truth, and a min root that is the max root's
// tree seen from the other side.
func TestSearchTraps(t *testing.T) {
	want := map[string]string{
		"open-loop:p=0.5,r=0.625":                    "(max (chance 0.5:(max 1 0) 0.5:(max 0 1)) 0.625)",
		"open-loop:p=0.5,r=0.625,root=min":           "(min (chance 0.5:(min 0 1) 0.5:(min 1 0)) 0.375)",
		"open-loop:p=0.25,r=0.875":                   "(max (chance 0.25:(max 1 0) 0.75:(max 0 1)) 0.875)",
		"cousins:r=0.25":                             "(max (min 0 1) (min 1 0) 0.25)",
		"cousins:r=0.25,root=min":                    "(min (max 1 0) (max 0 1) 0.75)",
		"cousins:r=0.375":                            "(max (min 0 1) (min 1 0) 0.375)",
		"double-move:r=0.5":                          "(max (max 0 1) 0.5)",
		"double-move:r=0.5,root=min":                 "(min (min 1 0) 0.5)",
		"double-move:r=0.5,chance":                   "(max (chance 0.5:(max 0 1) 0.5:(max 0 1)) 0.5)",
		"mixed-depth:d=2,r=0.875":                    "(max 0.875 (min 1))",
		"mixed-depth:d=2,r=0.875,root=min":           "(min 0.125 (max 0))",
		"mixed-depth:d=3,r=0.75":                     "(max 0.75 (min (max 1)))",
		"many-moves:k=5":                             "(max 0 0 0 0 1)",
		"many-moves:k=5,root=min":                    "(min 1 1 1 1 0)",
		"many-moves:k=8":                             "(max 0 0 0 0 0 0 0 1)",
		"threshold:r=0.375,p=0.25,hi=1,lo=0":         "(max 0.375 (chance 0.25:1 0.75:0))",
		"threshold:r=0.625,p=0.75,hi=1,lo=0":         "(max 0.625 (chance 0.75:1 0.25:0))",
		"threshold:r=0.4375,p=0.25,hi=0.75,lo=0.125": "(max 0.4375 (chance 0.25:0.75 0.75:0.125))",
		"threshold:r=0.5625,p=0.75,hi=0.875,lo=0.25": "(max 0.5625 (chance 0.75:0.875 0.25:0.25))",
	}
	got := map[string]string{}
	for _, tr := range gen.SearchTraps() {
		if _, dup := got[tr.Name]; dup {
			t.Errorf("%s twice", tr.Name)
		}
		got[tr.Name] = tr.Tree.String()
		sol := tree.Solve(tr.Tree)
		if len(sol.Optimal(0)) != 1 {
			t.Errorf("%s: optimal root children %v, want one", tr.Name, sol.Optimal(0))
		}
		if tr.Tree.Len() > 9 {
			t.Errorf("%s: %d nodes, want at most 9 (a witness as small as the families')", tr.Name, tr.Tree.Len())
		}
		if tr.Binary != tr.Tree.BinaryDeterministic() || tr.Source == "" {
			t.Errorf("%s: Binary %v, Source %q", tr.Name, tr.Binary, tr.Source)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SearchTraps (-want +got):\n%s", diff)
	}
	// A min root is the same game from the other side: the optimal child
	// is the same, and the values are 1 − the max root's.
	for _, c := range []struct {
		max, min func(core.Kind) (gen.Trap, error)
	}{
		{func(k core.Kind) (gen.Trap, error) { return gen.OpenLoopTrap(k, 0.25, 0.875) }, nil},
		{func(k core.Kind) (gen.Trap, error) { return gen.CousinsTrap(k, 0.125) }, nil},
		{func(k core.Kind) (gen.Trap, error) { return gen.DoubleMoveTrap(k, 0.25, true) }, nil},
		{func(k core.Kind) (gen.Trap, error) { return gen.MixedDepthTrap(k, 5, 0.5) }, nil},
		{func(k core.Kind) (gen.Trap, error) { return gen.ThresholdTrap(k, 0.375, 0.25, 1, 0) }, nil},
		{func(k core.Kind) (gen.Trap, error) { return gen.ManyMovesTrap(k, 7) }, nil},
	} {
		mx, err1 := c.max(core.Max)
		mn, err2 := c.max(core.Min)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		smx, smn := tree.Solve(mx.Tree), tree.Solve(mn.Tree)
		if smx.Value(0) != 1-smn.Value(0) || !cmp.Equal(smx.Optimal(0), smn.Optimal(0)) || mn.Name != mx.Name+",root=min" {
			t.Errorf("%s: %v (value %v, optimal %v) and %s: %v (value %v, optimal %v)", mx.Name, mx.Tree, smx.Value(0), smx.Optimal(0),
				mn.Name, mn.Tree, smn.Value(0), smn.Optimal(0))
		}
	}
}

func TestSearchTrapErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
	}{
		{"OpenLoopTrap chance root", second(gen.OpenLoopTrap(core.Chance, 0.5, 0.75))},
		{"OpenLoopTrap p=0.3", second(gen.OpenLoopTrap(core.Max, 0.3, 0.75))},
		{"OpenLoopTrap r=1", second(gen.OpenLoopTrap(core.Max, 0.5, 1))},
		{"CousinsTrap r=0", second(gen.CousinsTrap(core.Max, 0))},
		{"DoubleMoveTrap terminal root", second(gen.DoubleMoveTrap(core.Terminal, 0.5, false))},
		{"MixedDepthTrap d=1", second(gen.MixedDepthTrap(core.Max, 1, 0.5))},
		{"MixedDepthTrap r not dyadic", second(gen.MixedDepthTrap(core.Max, 2, 0.3))},
		{"ThresholdTrap hi=1.5", second(gen.ThresholdTrap(core.Max, 0.5, 0.5, 1.5, 0))},
		{"ThresholdTrap p=1", second(gen.ThresholdTrap(core.Max, 0.5, 1, 1, 0))},
		{"ManyMovesTrap k=65", second(gen.ManyMovesTrap(core.Min, 65))},
	} {
		if c.err == nil || !strings.HasPrefix(c.err.Error(), "gen: ") {
			t.Errorf("%s: error %v, want one that starts with \"gen: \"", c.name, c.err)
		}
	}
}
