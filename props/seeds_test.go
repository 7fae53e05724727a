package props_test

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// trap returns the trap family named name.
func trap(t *testing.T, name string) *tree.Tree {
	t.Helper()
	for _, tr := range gen.Traps() {
		if tr.Name == name {
			return tr.Tree
		}
	}
	t.Fatalf("no trap %q", name)
	return nil
}

// TestSeedsAheadSameReport: with Jobs ≥ 2 the seeds of one tree are
// searched several at once, and the report is the serial one, byte for
// byte but for the wall time: a deterministic and a stochastic rule, each
// with and without a witness (so the shrinker's result and its count of
// candidates too), one whose first seed does not fail (boltzmann's witness
// is its second seed's), and a rule fault.
func TestSeedsAheadSameReport(t *testing.T) {
	cases := []struct {
		name string
		rule core.Rule
		opts props.Options
		tr   *tree.Tree
		want props.Verdict
		seed uint64 // the witness's seed, if any
	}{
		{"uct", rules.MustParse("uct").Rule, props.Options{}, tree.MustParse("(max (max 0 1) 0.5)"), props.NoCounterexample, 0},
		{"eps-greedy-decay", rules.MustParse("eps-greedy-decay").Rule, props.Options{}, tree.MustParse("(max (min 1 0.5) 0.25 (max 0 0.75))"), "", 0},
		{"greedy-fpu", rules.MustParse("greedy-fpu").Rule, props.Options{}, trap(t, "first-loss:r=0.25"), props.Inconsistent, 1},
		{"boltzmann", rules.MustParse("boltzmann").Rule, props.Options{}, trap(t, "bias:k=2,gap=0.25,r=0.0078125"), props.Inconsistent, 2},
		{"panic", panicRule{}, props.Options{}, tree.MustParse("(max (max 0 1) 0.5)"), props.Faulted, 1},
	}
	ignore := cmpopts.IgnoreFields(props.Report{}, "Elapsed", "SimsPerSecond")
	sameTree := cmp.Comparer(func(x, y *tree.Tree) bool { return x.String() == y.String() })
	for _, tc := range cases {
		o := tc.opts
		o.MaxBudget = 4096
		serial, err := props.CheckTree(bg, tc.rule, tc.tr, o)
		if err != nil {
			t.Fatal(err)
		}
		if tc.want != "" && serial.Verdict != tc.want {
			t.Fatalf("%s: serial verdict %v, want %v", tc.name, serial.Verdict, tc.want)
		}
		if tc.seed != 0 && (serial.Witness == nil || serial.Witness.Seeds[0] != tc.seed) {
			t.Fatalf("%s: serial witness %+v, want one from seed %d", tc.name, serial.Witness, tc.seed)
		}
		for _, jobs := range []int{3, 16} {
			o.Jobs = jobs
			ahead, err := props.CheckTree(bg, tc.rule, tc.tr, o)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(serial, ahead, ignore, sameTree); d != "" {
				t.Errorf("%s: Jobs %d differs from the serial check (-serial +jobs):\n%s", tc.name, jobs, d)
			}
		}
	}
}

// inFlight is a rule that counts the Select calls in progress, yielding
// the processor inside each so that another search may enter.
type inFlight struct {
	core.Rule
	now, most atomic.Int64
}

func (r *inFlight) Select(s *core.Site) int {
	n := r.now.Add(1)
	defer r.now.Add(-1)
	for m := r.most.Load(); n > m && !r.most.CompareAndSwap(m, n); m = r.most.Load() {
	}
	runtime.Gosched()
	return r.Rule.Select(s)
}

// TestSeedsAheadConcurrent: a check of one tree with Jobs 4 has several
// searches calling the rule at once (an external rule's sites then travel
// in batches), and the serial check one.
func TestSeedsAheadConcurrent(t *testing.T) {
	tr := tree.MustParse("(max (max 0 1) 0.5)")
	for _, jobs := range []int{0, 4} {
		r := &inFlight{Rule: core.UCT{C: 1.4}}
		if _, err := props.CheckTree(bg, r, tr, props.Options{MaxBudget: 1024, Jobs: jobs}); err != nil {
			t.Fatal(err)
		}
		switch most := r.most.Load(); {
		case jobs < 2 && most != 1:
			t.Errorf("Jobs %d: %d searches called the rule at once, want 1", jobs, most)
		case jobs >= 2 && most < 2:
			t.Errorf("Jobs %d: at most %d search called the rule at once, want several", jobs, most)
		}
	}
}

// TestSeedsAheadShare: with fewer trees than Jobs each tree judged takes
// a share of Jobs for its seeds, and the report is still the serial one.
func TestSeedsAheadShare(t *testing.T) {
	for _, spec := range []string{"greedy-fpu", "boltzmann"} {
		in := rules.MustParse(spec)
		o := catalogueOptions(in)
		o.Trees, o.NoTraps, o.MaxBudget = 3, true, 2048
		serial, err := props.Run(bg, in.Rule, o)
		if err != nil {
			t.Fatal(err)
		}
		o.Jobs = 7 // 3 trees at once, 2 seeds of each
		jobs, err := props.Run(bg, in.Rule, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v", spec, serial.Verdict)
		ignore := cmpopts.IgnoreFields(props.Report{}, "Elapsed", "SimsPerSecond")
		if d := cmp.Diff(serial, jobs, ignore, cmp.Comparer(func(x, y *tree.Tree) bool { return x.String() == y.String() })); d != "" {
			t.Errorf("%s: Jobs 7 differs from the serial check (-serial +jobs):\n%s", spec, d)
		}
	}
}

// calls is a rule that counts its Select calls.
type calls struct {
	core.Rule
	n atomic.Int64
}

func (r *calls) Select(s *core.Site) int {
	r.n.Add(1)
	return r.Rule.Select(s)
}

// TestSeedsAheadCancel: a check of one tree whose seeds run side by side
// ends with the context's error when it is cancelled, and no search calls
// the rule once it has returned.
func TestSeedsAheadCancel(t *testing.T) {
	r := &calls{Rule: core.UCT{C: 1.4}}
	ctx, cancel := context.WithCancel(bg)
	go func() {
		for r.n.Load() < 1000 {
			runtime.Gosched()
		}
		cancel()
	}()
	_, err := props.CheckTree(ctx, r, tree.MustParse("(max (max 0 1) 0.5 (min 1 0.25))"), props.Options{Jobs: 4, Seeds: 64})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled check: error %v, want context.Canceled", err)
	}
	n := r.n.Load()
	time.Sleep(20 * time.Millisecond)
	if m := r.n.Load(); m != n {
		t.Errorf("the rule was called %d times after the check returned", m-n)
	}
}
