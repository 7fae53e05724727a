package props_test

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

var bg = context.Background()

func TestOptionsErrors(t *testing.T) {
	for _, o := range []props.Options{
		{Trees: -1}, {Seeds: -2}, {MinBudget: 100, MaxBudget: 1000}, {MinBudget: 64, MaxBudget: 32},
		{MaxBudget: 1 << 30}, {Window: 1}, {MinBudget: 1024, MaxBudget: 4096}, {Growth: 7},
		{Shape: gen.Shape{Grid: 3}}, {Shape: gen.Shape{MaxDepth: -1}}, {Shape: gen.Shape{MaxDepth: 1000}},
		{Criterion: props.Criterion{Gap: 2}},
	} {
		if _, err := props.Run(bg, core.UCT{C: 1}, o); err == nil {
			t.Errorf("Run with %+v: no error", o)
		}
	}
	if _, err := props.Run(bg, nil, props.Options{}); err == nil {
		t.Error("Run with a nil rule: no error")
	}
	if _, err := props.CheckTree(bg, core.UCT{}, tree.MustParse("(chance 0.5:1 0.5:0)"), props.Options{}); err == nil {
		t.Error("CheckTree with a chance root: no error")
	}
	for _, tr := range []*tree.Tree{nil, new(tree.Tree)} {
		if _, err := props.CheckTree(bg, core.UCT{}, tr, props.Options{}); err == nil {
			t.Errorf("CheckTree of %#v: no error", tr)
		}
	}
}

func TestWitnesses(t *testing.T) {
	tests := []struct {
		name      string
		rule      core.Rule
		verdict   props.Verdict
		condition props.Condition
		maxNodes  int
	}{
		{"greedy", greedy{}, props.Inconsistent, props.Eq5, 7},
		{"eps-greedy", epsGreedy{0.2}, props.Inconsistent, props.Eq4, 7},
		{"nan", nanRule{}, props.Faulted, props.RuleFault, 7},
		{"panic", panicRule{}, props.Faulted, props.RuleFault, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := props.Options{Trees: 20, RuleSpec: tt.name}
			if raceDetector || testing.Short() {
				o.Trees, o.MaxBudget = 5, 2048 // the traps hold every witness below
			}
			rep, err := props.Run(bg, tt.rule, o)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != tt.verdict {
				t.Fatalf("verdict %s, want %s: %s", rep.Verdict, tt.verdict, rep.Summary)
			}
			if tt.verdict == props.Faulted && (!rep.Witness.Fault.Reproduced || !strings.HasPrefix(rep.Summary, "fault")) {
				t.Errorf("a deterministic rule's fault: reproduced %v, summary %q", rep.Witness.Fault.Reproduced, rep.Summary)
			}
			w := rep.Witness
			if w.Condition != tt.condition || w.Nodes > tt.maxNodes {
				t.Errorf("witness %v with condition %s, want %s and ≤ %d nodes\n%s", w.Tree, w.Condition, tt.condition, tt.maxNodes, w)
			}
			// The witness replays: checking the shrunk tree alone gives it again.
			again, err := props.CheckTree(bg, tt.rule, w.Tree, props.Options{})
			if err != nil || again.Verdict != tt.verdict {
				t.Errorf("replay of %v: %v, %v", w.Tree, again.Summary, err)
			}
			if r := w.Run; r.Rule != tt.name || r.Tree != w.Tree.String() || r.Seed != w.Seeds[0] || r.Seeds != 1 || !r.KeepOrder {
				t.Errorf("witness replay %+v, want the rule, the tree and its seed alone in its order", r)
			}
		})
	}
}

func TestFaultReportsInputs(t *testing.T) {
	rep, err := props.CheckTree(bg, nanRule{}, tree.MustParse("(max 1 0)"), props.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Witness.Fault
	if f == nil || !strings.Contains(f.Message, "score NaN") || !strings.Contains(f.Inputs, "child 0: n=2") {
		t.Fatalf("fault %+v, want a NaN score with the inputs", f)
	}
}

// TestCoquelinMunosInconclusive: UCT is consistent but too slow on the chain
// to converge at the default budgets; the honest answer is inconclusive.
func TestCoquelinMunosInconclusive(t *testing.T) {
	tr, err := gen.CoquelinMunosChain(8)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := props.CheckTree(bg, core.UCT{C: math.Sqrt2}, tr.Tree, props.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Inconclusive {
		t.Errorf("UCT on %s: %s, want inconclusive", tr.Name, rep.Summary)
	}
}

func TestConverges(t *testing.T) {
	rep, err := props.CheckTree(bg, core.UCT{C: math.Sqrt2}, tree.MustParse("(max (min 1 0) (min 1 1) 0.5)"), props.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.NoCounterexample || rep.OptimalFrom == 0 {
		t.Errorf("UCT on a small tree: %s", rep.Summary)
	}
}

func TestDeterministicReport(t *testing.T) {
	var texts [2]string
	for i := range texts {
		rep, err := props.Run(bg, epsGreedy{0.2}, props.Options{Trees: 5, RuleSpec: "eps"})
		if err != nil {
			t.Fatal(err)
		}
		texts[i] = rep.Witness.String()
	}
	if texts[0] != texts[1] {
		t.Errorf("two runs, two witnesses:\n%s\n%s", texts[0], texts[1])
	}
}

// recorder is a rapid.TB that records instead of failing.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	fatal  string
	logs   []string
	failed bool
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.fatal, r.failed = fmt.Sprintf(format, args...), true
	r.mu.Unlock()
}
func (r *recorder) Logf(format string, args ...any) {
	r.mu.Lock()
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}
func (r *recorder) Log(args ...any)                   { r.Logf("%s", fmt.Sprint(args...)) }
func (r *recorder) Errorf(format string, args ...any) { r.Logf(format, args...); r.failed = true }
func (r *recorder) Error(args ...any)                 { r.Log(args...); r.failed = true }
func (r *recorder) Fatal(args ...any)                 { r.Fatalf("%s", fmt.Sprint(args...)) }
func (r *recorder) FailNow()                          { r.failed = true }
func (r *recorder) Fail()                             { r.failed = true }
func (r *recorder) Failed() bool                      { return r.failed }

func TestCheckFailsWithWitness(t *testing.T) {
	rec := &recorder{TB: t}
	props.Check(rec, greedy{}, props.Options{RuleSpec: "greedy-fpu"})
	if !rec.failed || !strings.Contains(rec.fatal, "inconsistent (Eq. 5)") ||
		!strings.Contains(rec.fatal, props.TreeEnv+"='") {
		t.Fatalf("Check of greedy: failed=%v, message:\n%s", rec.failed, rec.fatal)
	}
}

// TestCheckFailsWithFault: Check's message on a rule that panics, scores
// NaN or lies starts with the fault, then what happened and the tree.
func TestCheckFailsWithFault(t *testing.T) {
	for _, r := range []core.Rule{panicRule{}, nanRule{}, uniformLiar{}} {
		rec := &recorder{TB: t}
		props.Check(rec, r, props.Options{})
		if !rec.failed || !strings.HasPrefix(rec.fatal, "fault (") || !strings.Contains(rec.fatal, "on the ") {
			t.Errorf("Check of %T: failed=%v, message:\n%s", r, rec.failed, rec.fatal)
		}
	}
}

// TestCheckRandomTrees runs Check without traps, so the witness must come
// from rapid's random trees and their shrinking.
func TestCheckRandomTrees(t *testing.T) {
	fixRapidSeed(t, "1")
	rec := &recorder{TB: t}
	props.Check(rec, epsGreedy{0.2}, props.Options{NoTraps: true, RuleSpec: "eps"})
	if !rec.failed || !strings.Contains(rec.fatal, "inconsistent") {
		t.Fatalf("Check of ε-greedy on random trees: failed=%v, message:\n%s\nlogs:\n%s", rec.failed, rec.fatal, strings.Join(rec.logs, "\n"))
	}
}

// TestCheckNamesUnconverged: Check logs every tree that did not converge,
// a random one too, by its text, and a line that checks the first alone;
// set as that line sets it, MCTSCHECK_TREE checks that tree with the
// test's seeds, which do not converge on it either.
func TestCheckNamesUnconverged(t *testing.T) {
	fixRapidSeed(t, "1")
	o := props.Options{NoTraps: true, MinBudget: 16, MaxBudget: 256} // small budgets: trees left unconverged under -short's 20 draws too
	rec := &recorder{TB: t}
	props.Check(rec, core.UCT{C: 0.5}, o)
	log := strings.Join(rec.logs, "\n")
	first := regexp.MustCompile(`(?m)^  (random \d+): (\(.*\))$`).FindStringSubmatch(log)
	if rec.failed || !strings.HasPrefix(log, "inconclusive: ") || first == nil ||
		!strings.Contains(log, "the first alone: "+props.TreeEnv+"="+props.ShellQuote(first[2])+" go test ./props -run '^TestCheckNamesUnconverged$'") {
		t.Fatalf("Check of UCT: failed=%v %q, log:\n%s", rec.failed, rec.fatal, log)
	}
	if strings.Contains(log, "(random, ") || strings.Contains(log, "random)") {
		t.Errorf("a tree named \"random\" alone:\n%s", log)
	}
	t.Setenv(props.TreeEnv, first[2])
	rec = &recorder{TB: t}
	props.Check(rec, core.UCT{C: 0.5}, o)
	if rec.failed || len(rec.logs) != 1 || !strings.HasPrefix(rec.logs[0], "inconclusive: 1 of 1 tree") {
		t.Errorf("%s alone: failed=%v %q, logs %q", first[1], rec.failed, rec.fatal, rec.logs)
	}
}

func TestCheckTreeEnv(t *testing.T) {
	t.Setenv(props.TreeEnv, "(max (min 1 0) 1)")
	rec := &recorder{TB: t}
	props.Check(rec, greedy{}, props.Options{})
	if rec.failed || len(rec.logs) != 1 || !strings.HasPrefix(rec.logs[0], "no counterexample: 1 tree × 4 seeds") {
		t.Fatalf("Check with %s: failed=%v %q, logs %q", props.TreeEnv, rec.failed, rec.fatal, rec.logs)
	}
	t.Setenv(props.TreeEnv, "(max 1")
	rec = &recorder{TB: t}
	props.Check(rec, greedy{}, props.Options{})
	if !rec.failed || !strings.Contains(rec.fatal, "offset 6") {
		t.Fatalf("Check with a malformed tree: %q", rec.fatal)
	}
}

func ExampleRun() {
	rep, err := props.Run(context.Background(), greedy{}, props.Options{Trees: 10, RuleSpec: "greedy-fpu"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Verdict, rep.Witness.Condition, rep.Witness.Tree)
	// Output: inconsistent Eq. 5 (max (max 0 1) 0.5)
}

func TestCurve(t *testing.T) {
	rep, err := props.Run(bg, core.UCT{C: math.Sqrt2}, props.Options{Trees: 10, NoTraps: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Curve) != 9 || rep.Curve[0].Budget != 64 || rep.Curve[8].Budget != 16384 {
		t.Fatalf("curve %+v, want 9 points from 64 to 16384", rep.Curve)
	}
	first, last := rep.Curve[0], rep.Curve[8]
	if last.Searches != 40 || last.Wrong > first.Wrong || last.OptimalShare < first.OptimalShare {
		t.Errorf("UCT's curve does not improve with the budget: first %+v, last %+v", first, last)
	}
}

// needsPanics panics in Needs, which the checker calls outside any search:
// a failure of the check itself, not a verdict about the rule.
type needsPanics struct{ greedy }

func (needsPanics) Needs() core.Needs { panic("broken Needs") }

// TestCheckFailsOnCheckerPanic: a panic inside the checker fails the test
// with what happened; it is never "no counterexample: 0 trees". So does a
// check of no tree at all.
func TestCheckFailsOnCheckerPanic(t *testing.T) {
	for _, o := range []props.Options{{}, {NoTraps: true}} {
		rec := &recorder{TB: t}
		props.Check(rec, needsPanics{}, o)
		if !rec.failed || !strings.Contains(rec.fatal, "broken Needs") {
			t.Errorf("NoTraps=%v: failed=%v, message %q, logs %q", o.NoTraps, rec.failed, rec.fatal, rec.logs)
		}
	}
	t.Setenv(props.SeedEnv, "x")
	t.Setenv(props.TreeEnv, "(max 1 0)")
	rec := &recorder{TB: t}
	props.Check(rec, greedy{}, props.Options{})
	if !rec.failed || !strings.Contains(rec.fatal, props.SeedEnv) {
		t.Errorf("a bad %s: failed=%v, message %q", props.SeedEnv, rec.failed, rec.fatal)
	}
}

// infFPU is UCT with the textbook +Inf score for unvisited children.
type infFPU struct{}

func (infFPU) Select(s *core.Site) int { return core.ArgmaxScore(s, infFPU{}) }
func (infFPU) Score(s *core.Site, i int) float64 {
	if s.N(i) == 0 {
		return math.Inf(1)
	}
	return core.UCTScore(s.W(i), s.N(i), math.Sqrt2, core.LogParent(s))
}

// TestInfiniteScores: +Inf is a score like any other (UCT with +Inf first
// play urgency is judged on its merits: no fault, no witness), while a NaN
// is a fault reported with its inputs.
func TestInfiniteScores(t *testing.T) {
	rep, err := props.Run(bg, infFPU{}, props.Options{Trees: 10})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict == props.Inconsistent {
		t.Fatalf("UCT with +Inf FPU: %s", rep.Witness)
	}
	rep, err = props.CheckTree(bg, nanRule{}, tree.MustParse("(max 1 0)"), props.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Faulted || rep.Witness.Condition != props.RuleFault || rep.Witness.Fault.Kind != props.FaultNaN {
		t.Fatalf("NaN scores: %s", rep.Summary)
	}
}

// TestOrderDependentTrap: greedy ties to the lower index, so on this tree
// only some child orders trap it (10 of 32); the checker searches several
// orders and finds one, and the witness replays in its printed order.
func TestOrderDependentTrap(t *testing.T) {
	tr := tree.MustParse("(max (min (max 1 0) (max 0 1)) (min 0 (max 1 0)))")
	rep, err := props.CheckTree(bg, greedy{}, tr, props.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Inconsistent {
		t.Fatalf("greedy on %s: %s", tr, rep.Summary)
	}
	w := rep.Witness
	again, err := props.CheckTree(bg, greedy{}, w.Tree, props.Options{Seed: w.Seeds[0], Seeds: 1, KeepOrder: true})
	if err != nil || again.Verdict != props.Inconsistent {
		t.Fatalf("replaying %s with seed %d in its order: %v %v", w.Tree, w.Seeds[0], again.Summary, err)
	}
	// In the given order alone, it converges: the trap is the order's.
	given, err := props.CheckTree(bg, greedy{}, tr, props.Options{KeepOrder: true})
	if err != nil || given.Verdict == props.Inconsistent {
		t.Fatalf("greedy in the given order: %v %v", given.Summary, err)
	}
}
