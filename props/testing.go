package props

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
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
	if err == nil {
		err = o.whole("Property")
	}
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
		if res.Verdict.Fails(o.AllowStuck) {
			t.Fatalf("%s on %v: %s", res.Verdict, tr, res.Findings[len(res.Findings)-1].Text)
		}
	}
}

// SeedEnv, set with TreeEnv, makes Check search that tree with this one
// seed in the tree's own child order (Options.KeepOrder), as the failed
// search did: the replay line of every witness sets both.
const SeedEnv = "MCTSCHECK_SEED"

// Check fails t with a minimal counterexample when rule is inconsistent,
// and logs the evidence otherwise, like rapid.Check. It tries the trap
// families, then random trees drawn through rapid (so -rapid.checks,
// -rapid.seed and rapid's fail files work as usual), shrinks a failing tree
// with its own shrinker (subtrees to leaves, many at once, then children
// dropped in groups, then single edits: children hoisted or dropped,
// rewards made simpler) and prints it with lines that replay it. With the
// environment variable MCTSCHECK_TREE set to a tree in the text format (and
// MCTSCHECK_SEED to a seed), it checks that tree alone.
//
// Check also fails t when the check itself cannot be done: bad options, a
// nil rule, an error or a panic inside the checker, no tree checked.
func Check(t rapid.TB, rule core.Rule, opts Options) {
	t.Helper()
	if err := check(t, rule, opts); err != nil {
		t.Fatalf("props.Check: %v", err)
	}
}

// check is Check, returning the errors of the check itself.
func check(t rapid.TB, rule core.Rule, opts Options) (err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic inside the checker: %v", r)
		}
	}()
	if rule == nil {
		return errors.New("nil rule")
	}
	if err := opts.whole("Check"); err != nil {
		return err
	}
	if text := os.Getenv(TreeEnv); text != "" {
		tr, err := tree.Parse(text)
		if err != nil {
			return fmt.Errorf("%s: %v", TreeEnv, err)
		}
		if s := os.Getenv(SeedEnv); s != "" {
			seed, err := strconv.ParseUint(s, 10, 64)
			if err != nil || seed == 0 {
				return fmt.Errorf("%s=%q: want a seed, a positive integer", SeedEnv, s)
			}
			opts.Seed, opts.Seeds, opts.KeepOrder = seed, 1, true
		}
		o, err := opts.withDefaults()
		if err != nil {
			return err
		}
		rep, err := runTrees(context.Background(), rule, o, []namedTree{{name: "given", tr: tr}}, t.Name())
		if err != nil {
			return err
		}
		report(t, rep, o)
		return nil
	}
	o, err := opts.withDefaults()
	if err != nil {
		return err
	}
	ctx := context.Background()
	failures := countFaults(rule)
	if tr := o.traps(); len(tr) > 0 {
		rep, err := runTrees(ctx, rule, o, tr, t.Name())
		if err != nil {
			return err
		}
		if rep.Verdict.Fails(o.AllowStuck) {
			report(t, rep, o)
			return nil
		}
		t.Logf("traps: %s%s", rep.Summary, unconvergedLog(rep, o, t.Name()))
	}
	c := &checker{rule: rule, opts: o}
	rep := &Report{Rule: o.RuleSpec, Seeds: o.Seeds, MaxBudget: int64(o.MaxBudget)}
	start := time.Now()
	trees := gen.Trees(o.Shape)
	// The property never fails inside rapid: a failure there would make
	// rapid shrink by its own draws, call the domain shrinker's result
	// "flaky" and write a fail file that replays no failure. The first
	// witness is kept instead, the later draws skipped, and the witness
	// shrunk and printed below, with a replay line that is exact.
	var found *TreeResult // the first inconsistent (or, failing, stuck) tree
	var checkErr error    // an error of the checker inside the property
	drawn := 0            // the trees judged: the next one's number
	inner := &quietTB{TB: t}
	rapid.Check(inner, func(rt *rapid.T) {
		tr := trees.Draw(rt, "tree")
		if checkErr != nil || found != nil && found.Verdict.ends() {
			return
		}
		res, err := c.judge(ctx, fmt.Sprintf("random %d", drawn), tr)
		drawn++
		if err != nil {
			checkErr = err
			return
		}
		switch {
		case res.Verdict.ends() || res.Verdict == Stuck && found == nil:
			if found != nil {
				rep.add(*found) // a stuck tree, before the inconsistent one
			}
			res.original = tr
			found = &res
		default:
			rep.add(res)
		}
	})
	switch {
	case checkErr != nil:
		return checkErr
	case inner.failed:
		return fmt.Errorf("the property failed outside the checker's verdicts: %s", inner.log)
	case found != nil:
		rep.add(*found)
		w, err := c.witness(ctx, *found, t.Name())
		if err != nil {
			return err
		}
		rep.Witness = w
	}
	if rep.Trees == 0 {
		return errors.New("no tree was checked (is -rapid.checks 0?)")
	}
	rep.Sims = c.sims
	rep.finish(start)
	rep.counted(rule, failures, o)
	report(t, rep, o)
	return nil
}

// unconvergedLog lists, for a log, the trees of rep that did not converge,
// each with its text, and the line that checks the first one alone in the
// go test test with the test's options; "" if every tree converged.
func unconvergedLog(rep *Report, o Options, test string) string {
	if len(rep.Unconverged) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\ndid not converge:")
	for _, u := range rep.Unconverged {
		fmt.Fprintf(&b, "\n  %s: %s", u.Name, u.Tree)
	}
	if line := o.replayTree(rep.Unconverged[0].Tree, test).TestLine(); line != "" {
		b.WriteString("\nthe first alone: " + line)
	}
	return b.String()
}

// report fails t with the witness (a stuck one only without
// Options.AllowStuck), or logs the summary.
func report(t rapid.TB, rep *Report, o Options) {
	t.Helper()
	if rep.Verdict.Fails(o.AllowStuck) {
		t.Fatalf("%s", failure(rep.Witness))
		return
	}
	if rep.Witness != nil {
		t.Logf("%s (allowed by Options.AllowStuck)\n%s", rep.Summary, failure(rep.Witness))
		return
	}
	t.Logf("%s%s", rep.Summary, unconvergedLog(rep, o, t.Name()))
}

// failure is a witness as a failed test shows it: the verdict and the
// tree, the line that replays it in the test, then the mechanism and the
// rest of the evidence. The test's rule is the user's, so no mctscheck
// line: the stock tool would not know it.
func failure(w *Witness) string {
	var b strings.Builder
	name := w.Rule
	if name == "" {
		name = "the rule"
	}
	if w.Verdict == Faulted {
		b.WriteString(w.faultText(name))
		if line := w.Run.TestLine(); line != "" {
			fmt.Fprintf(&b, "replay: %s\n", line)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%s is %s (%s) on a %d-node tree:\n  %v\n", name, w.Verdict, w.Condition, w.Nodes, w.Tree)
	if line := w.Run.TestLine(); line != "" {
		fmt.Fprintf(&b, "replay: %s\n", line)
	}
	if w.Fault != nil {
		fmt.Fprintf(&b, "  %v\n", w.Fault)
	}
	for _, f := range w.Findings {
		fmt.Fprintf(&b, "  %s: %s\n", f.Condition, f.Text)
	}
	fmt.Fprintf(&b, "shrunk from %s (%d nodes) in %d evaluations; seed %d, budgets %d to %d doubling\n",
		w.From, w.Original.Len(), w.Shrinks, w.Seeds[0], w.Budgets[0], w.Budgets[len(w.Budgets)-1])
	return b.String()
}

// quietTB lets rapid.Check run under t without ending the test or
// logging to it (its "OK, passed" would read as a pass beside a witness);
// it keeps what rapid said, for the error when the property failed
// outside the checker's verdicts.
type quietTB struct {
	rapid.TB
	failed bool
	log    string
}

func (q *quietTB) note(s string)                     { q.failed = true; q.log += s + "\n"; q.TB.Log(s) }
func (q *quietTB) Logf(format string, args ...any)   { q.log += fmt.Sprintf(format, args...) + "\n" }
func (q *quietTB) Log(args ...any)                   { q.log += fmt.Sprint(args...) + "\n" }
func (q *quietTB) Fatalf(format string, args ...any) { q.note(fmt.Sprintf(format, args...)) }
func (q *quietTB) Fatal(args ...any)                 { q.note(fmt.Sprint(args...)) }
func (q *quietTB) Errorf(format string, args ...any) { q.note(fmt.Sprintf(format, args...)) }
func (q *quietTB) Error(args ...any)                 { q.note(fmt.Sprint(args...)) }
func (q *quietTB) FailNow()                          { q.failed = true }
func (q *quietTB) Fail()                             { q.failed = true }
func (q *quietTB) Failed() bool                      { return q.failed || q.TB.Failed() }
