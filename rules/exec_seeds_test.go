package rules_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// TestExecOneTreeBatches: the check of one tree with an external rule and
// Jobs = its Concurrency searches the tree's seeds side by side, so its
// sites travel several to a batch (one at a time, a check of one tree
// paid a round trip per site), and its report is the serial check's with
// the catalogue's uct, which the helper's program computes.
func TestExecOneTreeBatches(t *testing.T) {
	x := helperRule(t, "uct", rules.ExecOptions{})
	tr := tree.MustParse("(max (max 0 1) 0.5)")
	o := props.Options{Seeds: 8, MaxBudget: 1024}
	want, err := props.CheckTree(context.Background(), rules.MustParse("uct").Rule, tr, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Jobs = x.Concurrency()
	got, err := props.CheckTree(context.Background(), x, tr, o)
	if err != nil {
		t.Fatal(err)
	}
	ignore := cmpopts.IgnoreFields(props.Report{}, "Elapsed", "SimsPerSecond")
	if d := cmp.Diff(want, got, ignore, cmp.Comparer(func(a, b *tree.Tree) bool { return a.String() == b.String() })); d != "" {
		t.Errorf("the external rule's check of one tree differs from uct's serial one (-uct +external):\n%s", d)
	}
	batches, sites := x.Stats()
	t.Logf("%d sites in %d batches", sites, batches)
	if sites < 2*batches {
		t.Errorf("%d sites in %d batches: fewer than two a batch", sites, batches)
	}
	checkReaped(t, x)
}
