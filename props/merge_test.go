package props_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// check is one check that a test splits into shards: o is its options
// without a shard.
type check func(ctx context.Context, o props.Options) (*props.Report, error)

// reportJSON is a report's JSON form without its timings, which no two
// runs share.
func reportJSON(t *testing.T, r *props.Report) string {
	t.Helper()
	c := *r
	c.Elapsed, c.SimsPerSecond = 0, 0
	b, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// shardReports runs the n shards of the check, each with jobs searches at
// once, and returns their reports as their JSON form reads back.
func shardReports(t *testing.T, run check, o props.Options, n, jobs int) []*props.Report {
	t.Helper()
	var out []*props.Report
	for k := n; k >= 1; k-- { // in any order
		so := o
		so.Shard, so.Jobs = props.Shard{K: k, N: n}, jobs
		rep, err := run(bg, so)
		if err != nil {
			t.Fatalf("shard %d/%d: %v", k, n, err)
		}
		if rep.Shard == nil || rep.Shard.Shard != fmt.Sprintf("%d/%d", k, n) || !strings.HasPrefix(rep.Summary, "shard ") {
			t.Fatalf("shard %d/%d: the report does not say it is a shard's: %+v\n%s", k, n, rep.Shard, rep.Summary)
		}
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		var back props.Report
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("shard %d/%d: its JSON form does not read back: %v", k, n, err)
		}
		back.Rule = rep.Rule // not in the JSON form: the program that writes it names the rule
		if back.Witness != nil {
			back.Witness.Rule = rep.Witness.Rule
		}
		out = append(out, &back)
	}
	return out
}

// mergeIsWhole checks that the shards of the check, merged, make the
// report of the whole check, for every number of shards in ns, and returns
// the whole check's report.
func mergeIsWhole(t *testing.T, run check, o props.Options, ns ...int) *props.Report {
	t.Helper()
	whole, err := run(bg, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", whole.Summary)
	want := reportJSON(t, whole)
	for _, n := range ns {
		parts := shardReports(t, run, o, n, 1+n%2)
		merged, err := props.Merge(parts...)
		if err != nil {
			t.Fatalf("%d shards: %v", n, err)
		}
		if diff := cmp.Diff(want, reportJSON(t, merged)); diff != "" {
			t.Errorf("%d shards, merged, are not the whole check (-whole +merged):\n%s", n, diff)
		}
	}
	return whole
}

// ruleCheck is Run of the rule of spec, with the catalogue's options.
func ruleCheck(t *testing.T, spec string) (check, props.Options) {
	t.Helper()
	in, err := rules.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return func(ctx context.Context, o props.Options) (*props.Report, error) { return props.Run(ctx, in.Rule, o) }, catalogueOptions(in)
}

// TestMergeIsTheWholeCheck: a check split into 1, 2, 3 or 7 shards, each
// run on its own (the searches of some at once), its report written as
// JSON and read back, merges into the report of the whole check, field
// for field but the timings: the same verdict, witness, counts, lists,
// curve and simulations. The rules and searches give every verdict.
func TestMergeIsTheWholeCheck(t *testing.T) {
	verdicts := map[props.Verdict]bool{}
	overconfidence := false
	small := func(o props.Options) props.Options {
		o.Trees, o.Seeds, o.MaxBudget = 4, 3, 2048
		return o
	}
	for _, spec := range []string{"greedy-fpu", "uct", "uct:c=0.05", "eps-greedy-decay", "rave"} {
		t.Run(spec, func(t *testing.T) {
			run, o := ruleCheck(t, spec)
			rep := mergeIsWhole(t, run, small(o), 1, 2, 3, 7)
			verdicts[rep.Verdict] = true
			overconfidence = overconfidence || rep.Overconfidence != nil
		})
	}
	t.Run("fault", func(t *testing.T) {
		for _, r := range faultyRules() {
			if r.spec == "fault:nan" {
				run := func(ctx context.Context, o props.Options) (*props.Report, error) { return props.Run(ctx, r.rule, o) }
				rep := mergeIsWhole(t, run, small(props.Options{RuleSpec: r.spec}), 2, 3)
				verdicts[rep.Verdict] = true
				overconfidence = overconfidence || rep.Overconfidence != nil
			}
		}
	})
	t.Run("one tree", func(t *testing.T) { // its seeds split
		in, err := rules.Parse("greedy-fpu")
		if err != nil {
			t.Fatal(err)
		}
		tr := tree.MustParse("(max (max 0 1) 0.5)")
		run := func(ctx context.Context, o props.Options) (*props.Report, error) {
			return props.CheckTree(ctx, in.Rule, tr, o)
		}
		rep := mergeIsWhole(t, run, props.Options{RuleSpec: in.Spec, MaxBudget: 2048}, 2, 5, 16, 20)
		verdicts[rep.Verdict] = true
	})
	for _, bug := range []string{"", "fpu-never", "final-by-mean"} {
		t.Run("search "+bug, func(t *testing.T) {
			run := func(ctx context.Context, o props.Options) (*props.Report, error) {
				return props.RunSearch(ctx, textbookMCTS{Bug: bug}, o)
			}
			rep := mergeIsWhole(t, run, small(props.Options{RuleSpec: "textbook " + bug}), 2, 3, 7)
			verdicts[rep.Verdict] = true
			overconfidence = overconfidence || rep.Overconfidence != nil
		})
	}
	t.Run("search one tree", func(t *testing.T) { // its seeds split
		run := func(ctx context.Context, o props.Options) (*props.Report, error) {
			return props.RunSearchTree(ctx, textbookMCTS{}, tree.MustParse("(max (min 1 0.5) (min 0 1))"), o)
		}
		rep := mergeIsWhole(t, run, props.Options{RuleSpec: "textbook", MaxBudget: 2048}, 3, 16, 20) // 20: shards with no search
		verdicts[rep.Verdict] = true
	})
	t.Run("search spot check", func(t *testing.T) { // a search that answers otherwise when asked again, which only the spot check asks
		run := func(ctx context.Context, o props.Options) (*props.Report, error) {
			var mu sync.Mutex
			seen := map[string]bool{}
			fickle := searchFunc(func(ctx context.Context, st *props.SearchTree, seed uint64, cps []int64, report func(props.Checkpoint) error) error {
				key := fmt.Sprint(st.Text, seed)
				mu.Lock()
				again := seen[key]
				seen[key] = true
				mu.Unlock()
				return textbookMCTS{}.Search(ctx, st, seed, cps, func(cp props.Checkpoint) error {
					if again && len(cp.Visits) > 1 {
						cp.Decision = (cp.Decision + 1) % len(cp.Visits)
					}
					return report(cp)
				})
			})
			return props.RunSearch(ctx, fickle, o)
		}
		rep := mergeIsWhole(t, run, small(props.Options{RuleSpec: "fickle"}), 2, 3)
		if rep.Verdict != props.Faulted || rep.Witness.Fault.Kind != props.FaultNondeterministic {
			t.Errorf("the fickle search: %s", rep.Summary)
		}
	})
	t.Run("search fault", func(t *testing.T) { // a checkpoint broken on one seed's searches only
		broken := searchFunc(func(ctx context.Context, st *props.SearchTree, seed uint64, cps []int64, report func(props.Checkpoint) error) error {
			return textbookMCTS{}.Search(ctx, st, seed, cps, func(cp props.Checkpoint) error {
				if seed == 3 && len(st.Nodes) > 12 {
					cp.Decision = -1
				}
				return report(cp)
			})
		})
		run := func(ctx context.Context, o props.Options) (*props.Report, error) {
			return props.RunSearch(ctx, broken, o)
		}
		rep := mergeIsWhole(t, run, small(props.Options{RuleSpec: "broken"}), 2, 3)
		verdicts[rep.Verdict] = true
	})
	if !overconfidence {
		t.Error("no check had the §4 figure: the test does not cover its merge")
	}
	for _, v := range []props.Verdict{props.Inconsistent, props.Stuck, props.Inconclusive, props.NoCounterexample, props.Faulted} {
		if !verdicts[v] {
			t.Errorf("no check gave the verdict %s: the test does not cover it (verdicts %v)", v, verdicts)
		}
	}
}

// TestMergeBadInput: reports that are not all the shards of one check get
// an error that says what is wrong.
func TestMergeBadInput(t *testing.T) {
	run, o := ruleCheck(t, "uct")
	o.Trees, o.Seeds, o.MaxBudget = 2, 2, 1024
	parts := func(n int, o props.Options) []*props.Report { return shardReports(t, run, o, n, 1) } // shard n/n first
	three := parts(3, o)
	other := o
	other.Seed = 7
	whole, err := run(bg, o)
	if err != nil {
		t.Fatal(err)
	}
	cut := parts(3, o)
	cut[1].Shard.Searches = cut[1].Shard.Searches[:len(cut[1].Shard.Searches)-1]
	moved := parts(2, o)
	moved[0].Shard.Searches = append(moved[0].Shard.Searches, moved[1].Shard.Searches[0])
	version := parts(2, o)
	version[1].Shard.Version += "-other"
	ctx, cancel := context.WithCancel(bg)
	cancel()
	so := o
	so.Shard = props.Shard{K: 1, N: 2}
	stopped, err := run(ctx, so)
	if stopped == nil || stopped.Stopped == "" {
		t.Fatalf("a shard whose context ended: %v, %v", stopped, err)
	}
	for _, c := range []struct {
		name    string
		reports []*props.Report
		want    string
	}{
		{"none", nil, "no reports"},
		{"whole", []*props.Report{whole, three[0]}, "report 1 is no shard's"},
		{"missing", three[:2], "1 shard (1/3) missing"},
		{"twice", append(parts(3, o), three[1]), "shard 2/3 is given twice"},
		{"other check", append(three[:2:2], parts(3, other)[2]), "different checks: seed=1 against seed=7"},
		{"other count", append(three[:2:2], parts(2, o)[0]), "different numbers of shards"},
		{"other version", version, "made by the checker"},
		{"cut short", cut, "has no record of the search"},
		{"moved", moved, "which is shard 1/2's"},
		{"stopped", []*props.Report{parts(2, o)[0], stopped}, "shard 1/2 stopped before its end (interrupted): run it again"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := props.Merge(c.reports...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Merge: %v, want an error with %q", err, c.want)
			}
		})
	}
}

// TestShardOptions: a shard is K/N with 1 ≤ K ≤ N, and the entry points
// that run whole checks only refuse one.
func TestShardOptions(t *testing.T) {
	for _, s := range []string{"0/2", "3/2", "2", "a/b", "1/0", "1/100000"} {
		if _, err := props.ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q): no error", s)
		}
	}
	if s, err := props.ParseShard("2/4"); err != nil || s != (props.Shard{K: 2, N: 4}) || s.String() != "2/4" {
		t.Errorf("ParseShard(2/4) = %v, %v", s, err)
	}
	in, err := rules.Parse("uct")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := props.Run(bg, in.Rule, props.Options{Shard: props.Shard{K: 3, N: 2}}); err == nil {
		t.Error("Run with shard 3/2: no error")
	}
	if _, err := props.CheckGame(bg, in.Rule, nil, nil, props.GameOptions{Options: props.Options{Shard: props.Shard{K: 1, N: 2}}}); err == nil ||
		!strings.Contains(err.Error(), "CheckGame runs whole checks") {
		t.Errorf("CheckGame with a shard: %v", err)
	}
}
