package props

import (
	"context"
	"os"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/tree"
	"pgregory.net/rapid"
)

// TreeEnv is the environment variable that makes Check test one tree, given
// in the text format, instead of generating trees: the replay line of every
// witness sets it.
const TreeEnv = "MCTSCHECK_TREE"

// Property returns the consistency property for rapid: it draws a tree of
// opts.Shape and fails when rule is inconsistent on it, printing the tree.
// It panics on bad options. rapid.MakeFuzz turns it into a fuzz target.
func Property(rule core.Rule, opts Options) func(*rapid.T) {
	o, err := opts.withDefaults()
	if err != nil {
		panic(err)
	}
	trees := gen.Trees(o.Shape)
	return func(t *rapid.T) {
		tr := trees.Draw(t, "tree")
		c := &checker{rule: rule, opts: o}
		res, err := c.judge(context.Background(), "drawn", tr)
		if err != nil {
			t.Fatalf("%v", err)
		}
		if res.Verdict == Inconsistent {
			t.Fatalf("inconsistent on %v: %s", tr, res.Findings[len(res.Findings)-1].Text)
		}
	}
}

// Check fails t with a minimal counterexample when rule is inconsistent,
// and logs the evidence otherwise, like rapid.Check. It tries the trap
// families, then random trees through rapid (so -rapid.checks, -rapid.seed
// and rapid's fail files work as usual); it shrinks a failing tree with
// rapid, then by removing subtrees, hoisting children and simplifying
// rewards, and prints it with lines that replay it. With the environment
// variable MCTSCHECK_TREE set to a tree in the text format, it checks that
// tree alone.
func Check(t rapid.TB, rule core.Rule, opts Options) {
	t.Helper()
	o, err := opts.withDefaults()
	if err != nil {
		t.Fatalf("%v", err)
		return
	}
	if rule == nil {
		t.Fatalf("props: nil rule")
		return
	}
	ctx := context.Background()
	if text := os.Getenv(TreeEnv); text != "" {
		tr, err := tree.Parse(text)
		if err != nil {
			t.Fatalf("props: %s: %v", TreeEnv, err)
			return
		}
		if rep := mustRun(t, ctx, rule, o, []namedTree{{"given", tr}}); rep != nil {
			report(t, rep)
		}
		return
	}
	if tr := o.traps(); len(tr) > 0 {
		rep := mustRun(t, ctx, rule, o, tr)
		if rep == nil {
			return
		}
		if rep.Verdict == Inconsistent {
			report(t, rep)
			return
		}
		t.Logf("traps: %s", rep.Summary())
	}
	c := &checker{rule: rule, opts: o}
	var failed *TreeResult
	rep := &Report{Rule: o.RuleSpec, Seeds: o.Seeds, MaxBudget: int64(o.MaxBudget)}
	start := time.Now()
	trees := gen.Trees(o.Shape)
	inner := &quietTB{TB: t}
	rapid.Check(inner, func(rt *rapid.T) {
		tr := trees.Draw(rt, "tree")
		res, err := c.judge(ctx, "random", tr)
		if err != nil {
			rt.Fatalf("%v", err)
		}
		if res.Verdict == Inconsistent {
			failed = &res
			rt.Fatalf("inconsistent on %v", tr)
		}
		if !inner.failed {
			rep.add(res)
		}
	})
	if failed != nil {
		w, err := c.witness(ctx, *failed, t.Name())
		if err != nil {
			t.Fatalf("%v", err)
			return
		}
		rep.Witness = w
	}
	rep.Sims = c.sims
	rep.finish(start)
	report(t, rep)
}

// mustRun is runTrees failing t on errors.
func mustRun(t rapid.TB, ctx context.Context, rule core.Rule, o Options, trees []namedTree) *Report {
	t.Helper()
	rep, err := runTrees(ctx, rule, o, trees, t.Name())
	if err != nil {
		t.Fatalf("%v", err)
		return nil
	}
	return rep
}

// report fails t with the witness, or logs the summary.
func report(t rapid.TB, rep *Report) {
	t.Helper()
	if rep.Verdict == Inconsistent {
		t.Fatalf("%s", rep.Witness)
		return
	}
	t.Logf("%s", rep.Summary())
}

// quietTB lets rapid.Check report through t without ending the test, so
// that Check can shrink the failing tree further and print the witness.
type quietTB struct {
	rapid.TB
	failed bool
}

func (q *quietTB) Fatalf(format string, args ...any) { q.TB.Logf(format, args...); q.failed = true }
func (q *quietTB) Fatal(args ...any)                 { q.TB.Log(args...); q.failed = true }
func (q *quietTB) Errorf(format string, args ...any) { q.TB.Logf(format, args...); q.failed = true }
func (q *quietTB) Error(args ...any)                 { q.TB.Log(args...); q.failed = true }
func (q *quietTB) FailNow()                          { q.failed = true }
func (q *quietTB) Fail()                             { q.failed = true }
func (q *quietTB) Failed() bool                      { return q.failed || q.TB.Failed() }
