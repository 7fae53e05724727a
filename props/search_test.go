package props_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// searchOptions are the options of the tests' checks of whole searches:
// the default run, or with -short a few trees at budgets up to 4,096.
func searchOptions() props.Options {
	if testing.Short() {
		return props.Options{Trees: 3, MaxBudget: 4096, Jobs: 2}
	}
	return props.Options{Jobs: 2}
}

// TestRunSearchTextbook: the textbook search, and the bugs that are only
// slow, are never stuck and never fault.
func TestRunSearchTextbook(t *testing.T) {
	for _, bug := range []string{"", "virtual-loss-kept", "final-by-mean"} {
		t.Run("bug="+bug, func(t *testing.T) {
			if bug != "" && testing.Short() {
				t.Skip("the slow bugs' default run: without -short")
			}
			rep, err := props.RunSearch(bg, textbookMCTS{Bug: bug}, searchOptions())
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != props.NoCounterexample && rep.Verdict != props.Inconclusive {
				t.Fatalf("%s\n%v", rep.Summary, rep.Witness)
			}
			t.Log(rep.Summary)
		})
	}
}

// TestRunSearchBugs: each bug that makes the textbook search inconsistent
// is found, with a witness of at most 7 nodes whose replay is stuck again.
func TestRunSearchBugs(t *testing.T) {
	for _, c := range []struct {
		bug  string
		cond props.Condition
	}{{"fpu-never", props.Eq5}, {"negamax-sign", props.Eq4}, {"terminal-rollout", props.Eq7}} {
		t.Run("bug="+c.bug, func(t *testing.T) {
			o := searchOptions()
			o.RuleSpec = "textbook --bug " + c.bug
			rep, err := props.RunSearch(bg, textbookMCTS{Bug: c.bug}, o)
			if err != nil {
				t.Fatal(err)
			}
			w := rep.Witness
			if rep.Verdict != props.Stuck || w.Condition != c.cond || w.Nodes > 7 {
				t.Fatalf("%s, want stuck (%s) with at most 7 nodes\n%v", rep.Summary, c.cond, w)
			}
			if !strings.Contains(rep.Summary, "a whole search has no limit probe") || !w.Run.Search || w.Horizon != uint64(w.Run.Budget) {
				t.Errorf("the stuck verdict claims more than the run shows: %s; run %+v, horizon %d", rep.Summary, w.Run, w.Horizon)
			}
			again, err := props.RunSearchTree(bg, textbookMCTS{Bug: c.bug}, tree.MustParse(w.Run.Tree),
				props.Options{Seed: w.Run.Seed, Seeds: w.Run.Seeds, KeepOrder: w.Run.KeepOrder, MaxBudget: int(w.Run.Budget)})
			if err != nil {
				t.Fatal(err)
			}
			if again.Verdict != props.Stuck || !again.Witness.Tree.Equal(w.Tree) || again.Witness.Condition != c.cond {
				t.Errorf("the replay of %v: %s", w.Tree, again.Summary)
			}
			t.Logf("%s\n%v", rep.Summary, w)
		})
	}
}

// faulty is the textbook search with one checkpoint broken.
type faulty struct {
	at     int // the checkpoint broken
	break_ func(cp *props.Checkpoint)
}

func (f faulty) Search(ctx context.Context, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
	i := 0
	return textbookMCTS{}.Search(ctx, t, seed, checkpoints, func(cp props.Checkpoint) error {
		if i == f.at {
			f.break_(&cp)
		}
		i++
		return report(cp)
	})
}

// searchFunc is a Searcher of a function.
type searchFunc func(ctx context.Context, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error

func (f searchFunc) Search(ctx context.Context, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
	return f(ctx, t, seed, checkpoints, report)
}

// TestRunSearchFaults: a searcher that breaks its contract gets the
// verdict fault, of the right kind, on the tree and seed where it did.
func TestRunSearchFaults(t *testing.T) {
	const text = "(max (min 1 0) (min 0 0) 0.5)"
	for _, c := range []struct {
		name string
		s    props.Searcher
		kind props.FaultKind
		msg  string
	}{
		{"panic", searchFunc(func(context.Context, *props.SearchTree, uint64, []int64, func(props.Checkpoint) error) error {
			panic("out of nodes")
		}), props.FaultPanic, "panic: out of nodes"},
		{"error", searchFunc(func(context.Context, *props.SearchTree, uint64, []int64, func(props.Checkpoint) error) error {
			return errors.New("no memory")
		}), props.FaultCrash, "Search: no memory"},
		{"too few", searchFunc(func(_ context.Context, _ *props.SearchTree, _ uint64, _ []int64, _ func(props.Checkpoint) error) error {
			return nil
		}), props.FaultGarbage, "returned after 0 of 3 checkpoints"},
		{"sims", faulty{1, func(cp *props.Checkpoint) { cp.Sims++ }}, props.FaultGarbage, "reported 129 simulations at the checkpoint of 128"},
		{"decision", faulty{2, func(cp *props.Checkpoint) { cp.Decision = 3 }}, props.FaultRange, "decided child 3 of a root with 3 children: not a legal root move"},
		{"short", faulty{0, func(cp *props.Checkpoint) { cp.Means = cp.Means[:2] }}, props.FaultGarbage, "reported 3 visit counts and 2 means"},
		{"sum", faulty{0, func(cp *props.Checkpoint) { cp.Visits[0] += 2; cp.NodeVisits = nil; cp.NodeMeans = nil }}, props.FaultRange, "the root children's visits add up to 66 after 64 simulations"},
		{"nan", faulty{0, func(cp *props.Checkpoint) { cp.Means[1] = math.NaN() }}, props.FaultNaN, "node 0.1 has"},
		{"mean", faulty{0, func(cp *props.Checkpoint) { cp.NodeMeans[2] = 1.5 }}, props.FaultRange, "node 0.0.0's mean is 1.5, outside [0,1]"},
		{"down", faulty{2, func(cp *props.Checkpoint) { cp.NodeVisits[2] = 0 }}, props.FaultRange, "node 0.0.0's visits went down"},
		{"nodes", faulty{0, func(cp *props.Checkpoint) { cp.NodeMeans[1] = 0.123 }}, props.FaultRange, "root child 0 has"},
		{"kids", faulty{0, func(cp *props.Checkpoint) { cp.NodeVisits[2] += 100 }}, props.FaultRange, "node 0.0's children have"},
		{"some nodes", faulty{1, func(cp *props.Checkpoint) { cp.NodeVisits, cp.NodeMeans = nil, nil }}, props.FaultGarbage, "every node's statistics at some checkpoints only"},
		{"done", faulty{1, func(cp *props.Checkpoint) { cp.Done = 200 }}, props.FaultRange, "reported 200 simulations done at the checkpoint of 128"},
		{"done short", faulty{1, func(cp *props.Checkpoint) { cp.Done = 100 }}, props.FaultRange, "the root children's visits add up to 128 after 100 simulations"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := props.RunSearchTree(bg, c.s, tree.MustParse(text), props.Options{Seeds: 2, KeepOrder: true, MinBudget: 64, MaxBudget: 256, Window: 2, RuleSpec: "faulty"})
			if err != nil {
				t.Fatal(err)
			}
			w := rep.Witness
			if rep.Verdict != props.Faulted || w == nil || w.Fault == nil || w.Fault.Kind != c.kind || !strings.Contains(w.Fault.Message, c.msg) {
				t.Fatalf("%s\n%+v", rep.Summary, w)
			}
			if w.Tree.String() != text || w.Seeds[0] != 1 || !strings.Contains(w.Fault.Inputs, text) || w.Condition != props.RuleFault ||
				!strings.HasPrefix(rep.Summary, "fault: "+string(c.kind)) {
				t.Errorf("the fault's witness: %s; tree %v, seeds %v, inputs %q", rep.Summary, w.Tree, w.Seeds, w.Fault.Inputs)
			}
		})
	}
}

// stopping is the textbook search ended at 100 simulations, as a solver
// that proved the root may end, reporting its final state from then on.
type stopping struct{}

func (stopping) Search(ctx context.Context, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
	var last props.Checkpoint
	err := textbookMCTS{}.Search(ctx, t, seed, []int64{checkpoints[0], 100}, func(cp props.Checkpoint) error {
		last = cp
		if cp.Sims == checkpoints[0] {
			return report(cp)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range checkpoints[1:] {
		cp := last
		cp.Sims, cp.Done = c, 100
		if err := report(cp); err != nil {
			return err
		}
	}
	return nil
}

// TestRunSearchDone: a search that ends early is no fault, and the
// simulations counted are those it ran (two seeds, and the first again).
func TestRunSearchDone(t *testing.T) {
	rep, err := props.RunSearchTree(bg, stopping{}, tree.MustParse("(max (min 1 0.5) 0.25)"), props.Options{Seeds: 2, MaxBudget: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.NoCounterexample || rep.Sims != 3*100 {
		t.Errorf("%s, %d simulations\n%v", rep.Summary, rep.Sims, rep.Witness)
	}
}

// TestCheckSearch: CheckSearch passes the textbook search, fails a buggy
// one with a replay line, and the line's environment replays it.
func TestCheckSearch(t *testing.T) {
	o := searchOptions()
	if testing.Short() {
		o.Trees, o.MaxBudget = 1, 1024
	}
	props.CheckSearch(t, textbookMCTS{}, o)
	rec := &recorder{TB: t}
	props.CheckSearch(rec, textbookMCTS{Bug: "fpu-never"}, o)
	if !rec.failed || !strings.Contains(rec.fatal, "stuck (Eq. 5) on a 3-node tree") || !strings.Contains(rec.fatal, props.TreeEnv+"='(max 0 1)'") {
		t.Fatalf("CheckSearch of fpu-never: failed=%v, message:\n%s", rec.failed, rec.fatal)
	}
	t.Setenv(props.TreeEnv, "(max 1 0)")
	t.Setenv(props.SeedEnv, "3")
	rec = &recorder{TB: t}
	props.CheckSearch(rec, textbookMCTS{Bug: "fpu-never"}, o)
	if rec.failed || len(rec.logs) != 1 || !strings.HasPrefix(rec.logs[0], "no counterexample: 1 tree × 1 seed") {
		t.Fatalf("CheckSearch with %s: failed=%v %q, logs %q", props.TreeEnv, rec.failed, rec.fatal, rec.logs)
	}
	rec = &recorder{TB: t}
	props.CheckSearch(rec, faulty{0, func(cp *props.Checkpoint) { cp.Decision = -1 }}, o)
	if !rec.failed || !strings.HasPrefix(rec.fatal, "fault: range") || !strings.Contains(rec.fatal, props.TreeEnv+"='(max 1 0)'") {
		t.Fatalf("CheckSearch of a faulty search: failed=%v, message:\n%s", rec.failed, rec.fatal)
	}
}

// TestRunSearchOptions: the options of core's engine and of the limit
// probe are refused, as is a tree whose root no one chooses at.
func TestRunSearchOptions(t *testing.T) {
	for _, o := range []props.Options{{Growth: core.GrowPractical}, {Backup: core.BackupMinimax}, {Horizon: 1 << 20}, {Workers: 2}} {
		if _, err := props.RunSearch(bg, textbookMCTS{}, o); err == nil || !strings.Contains(err.Error(), "a whole search has its own engine") {
			t.Errorf("RunSearch with %+v: %v", o, err)
		}
	}
	if _, err := props.RunSearchTree(bg, textbookMCTS{}, tree.MustParse("(chance 0.5:1 0.5:0)"), props.Options{}); err == nil {
		t.Error("RunSearchTree on a chance root: no error")
	}
	if _, err := props.RunSearch(bg, nil, props.Options{}); err == nil {
		t.Error("RunSearch with no searcher: no error")
	}
}

// TestRunSearchJobs: the report is the same whatever the searches run at
// once, and the searcher is called from that many goroutines. The random
// trees alone (NoTraps): a family of whole searches meets negamax-sign at
// the second tree, before searches at once are sure to have overlapped;
// the random trees meet it at the 17th.
func TestRunSearchJobs(t *testing.T) {
	var texts []string
	for _, jobs := range []int{1, 3} {
		c := &counting{Searcher: textbookMCTS{Bug: "negamax-sign"}}
		rep, err := props.RunSearch(bg, c, props.Options{Trees: 30, MaxBudget: 2048, Jobs: jobs, RuleSpec: "negamax-sign", NoTraps: true})
		if err != nil {
			t.Fatal(err)
		}
		rep.Elapsed, rep.SimsPerSecond = 0, 0
		texts = append(texts, rep.Summary+"\n"+rep.Witness.String())
		if c.most > jobs || jobs > 1 && c.most < 2 {
			t.Errorf("jobs %d: at most %d searches at once", jobs, c.most)
		}
	}
	if texts[0] != texts[1] {
		t.Errorf("one job and three, two reports:\n%s\n%s", texts[0], texts[1])
	}
}

// counting counts the searches running at once.
type counting struct {
	props.Searcher
	mu        sync.Mutex
	now, most int
}

func (c *counting) Search(ctx context.Context, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
	c.mu.Lock()
	c.now++
	c.most = max(c.most, c.now)
	c.mu.Unlock()
	defer func() { c.mu.Lock(); c.now--; c.mu.Unlock() }()
	return c.Searcher.Search(ctx, t, seed, checkpoints, report)
}

// TestRunSearchDecisionRule: a search whose decision overrules its own
// most visited, optimal child of a clearly better mean is stuck, with the
// decision rule as the mechanism, on the smallest tree that shows it.
func TestRunSearchDecisionRule(t *testing.T) {
	s := searchFunc(func(ctx context.Context, st *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
		return textbookMCTS{}.Search(ctx, st, seed, checkpoints, func(cp props.Checkpoint) error {
			cp.Decision = 0 // whatever the statistics say
			return report(cp)
		})
	})
	rep, err := props.RunSearchTree(bg, s, tree.MustParse("(max 0.5 (max 0 1) 0.25)"), props.Options{Seeds: 1, MaxBudget: 4096})
	if err != nil {
		t.Fatal(err)
	}
	w := rep.Witness
	if rep.Verdict != props.Stuck || w.Condition != props.DecisionRule || w.Tree.String() != "(max 0 1)" {
		t.Fatalf("%s\n%v", rep.Summary, w)
	}
	t.Logf("%v", w)
}

// TestRunSearchStatus: a whole search's check reports the trees, the
// searches and the simulations planned from its start, and, done, every
// one of them, as a rule's check does ("0/0 trees" before).
func TestRunSearchStatus(t *testing.T) {
	for _, jobs := range []int{0, 3} {
		o := searchOptions()
		o.Jobs = jobs
		var first, last props.Status
		o.Status = func(s props.Status) {
			if s.Phase != props.PhaseTrees {
				return
			}
			if first.Phase == "" {
				first = s
			}
			last = s
		}
		rep, err := props.RunSearch(bg, textbookMCTS{}, o)
		if err != nil {
			t.Fatal(err)
		}
		planned := props.Status{Phase: props.PhaseTrees, Total: rep.Trees, SearchesPlanned: rep.Trees * rep.Seeds,
			SimsPlanned: int64(rep.Trees*rep.Seeds) * rep.MaxBudget}
		done := planned
		done.Done, done.Searches, done.Sims = rep.Trees, rep.Trees*rep.Seeds, planned.SimsPlanned
		if rep.Witness != nil || first != planned || last != done {
			t.Errorf("jobs %d: %s; first status %+v, want %+v; last %+v, want %+v", jobs, rep.Summary, first, planned, last, done)
		}
	}
}
