package props_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// virtualLoss are the options of a check under tree parallelism: two
// workers in lockstep with the classic virtual loss.
func virtualLoss(o props.Options) props.Options {
	o.Workers, o.VirtualLoss = 2, core.VirtualLoss{N: 1}
	return o
}

// TestWorkersDeterministic: a check with two lockstep workers gives the
// same report twice, and a different search from the serial check (the
// simulations in flight change what the rule sees).
func TestWorkersDeterministic(t *testing.T) {
	in := rules.MustParse("uct")
	o := catalogueOptions(in)
	o.Trees, o.NoTraps, o.MaxBudget = 6, true, 4096
	run := func(o props.Options) *props.Report {
		rep, err := props.Run(bg, in.Rule, o)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	a, b := run(virtualLoss(o)), run(virtualLoss(o))
	ignore := cmpopts.IgnoreFields(props.Report{}, "Elapsed", "SimsPerSecond")
	if d := cmp.Diff(a, b, ignore, cmp.Comparer(func(x, y *tree.Tree) bool { return x.String() == y.String() })); d != "" {
		t.Fatalf("two lockstep checks differ (-first +second):\n%s", d)
	}
	serial := run(o)
	if a.Sims != serial.Sims {
		t.Errorf("lockstep check ran %d simulations, the serial one %d", a.Sims, serial.Sims)
	}
	if cmp.Equal(a.Curve, serial.Curve) {
		t.Error("the lockstep check's curve is the serial check's: the workers did not search together")
	}
}

// TestWorkersOptions: virtual loss without workers, and too many workers,
// are errors.
func TestWorkersOptions(t *testing.T) {
	for _, o := range []props.Options{
		{VirtualLoss: core.VirtualLoss{N: 1}},
		{Workers: -1},
		{Workers: 65},
	} {
		if _, err := props.Run(bg, core.UCT{C: 1}, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestCatalogueVirtualLoss checks catalogue rules with two lockstep
// workers and a virtual loss, and compares each verdict with the serial
// check's. Virtual loss may change a verdict (that is what it asks), so
// the test asserts what is known: greedy-fpu keeps a witness and uct none.
// With MCTSCHECK_VL=1 it runs the whole catalogue at full scale and logs
// the table (go test -v -run TestCatalogueVirtualLoss ./props/); under
// -race and -short it checks greedy-fpu alone.
func TestCatalogueVirtualLoss(t *testing.T) {
	specs := []string{"greedy-fpu", "uct"}
	if raceDetector || testing.Short() {
		specs = specs[:1] // uct searches every tree to the end: a minute under -race
	}
	if os.Getenv("MCTSCHECK_VL") != "" {
		specs = specs[:0]
		for _, e := range rules.All() {
			specs = append(specs, e.Name)
		}
	}
	var table []string
	for _, spec := range specs {
		in := rules.MustParse(spec)
		o := catalogueOptions(in)
		if os.Getenv("MCTSCHECK_VL") == "" {
			o.Trees = 5 // the traps hold greedy-fpu's witness
		}
		serial, err := props.Run(bg, in.Rule, o)
		if err != nil {
			t.Fatal(err)
		}
		vl, err := props.Run(bg, in.Rule, virtualLoss(o))
		if err != nil {
			t.Fatal(err)
		}
		table = append(table, fmt.Sprintf("%-19s %-17s %-17s %s | %s", spec, serial.Verdict, vl.Verdict, summary(serial), summary(vl)))
		switch spec {
		case "greedy-fpu":
			if vl.Verdict != props.Inconsistent {
				t.Errorf("greedy-fpu under virtual loss: %v, want a witness", vl.Verdict)
			}
		case "uct":
			if vl.Verdict == props.Inconsistent {
				t.Errorf("uct under virtual loss: witness %v", vl.Witness.Tree)
			}
		}
	}
	t.Logf("rule, serial verdict, verdict with 2 lockstep workers and virtual loss 1×0, serial | virtual loss evidence:\n%s", strings.Join(table, "\n"))
}

// summary is a report's witness or its unconverged trees, in one line.
func summary(r *props.Report) string {
	if r.Witness != nil {
		return fmt.Sprintf("witness %v (%v)", r.Witness.Tree, r.Witness.Condition)
	}
	return fmt.Sprintf("%d of %d trees unconverged", r.Inconclusive, r.Trees)
}

// TestJobsSameReport: judging trees in several goroutines gives the serial
// report, for a rule with a witness (the check stops at it) and one
// without.
func TestJobsSameReport(t *testing.T) {
	for _, spec := range []string{"greedy-fpu", "uct"} {
		in := rules.MustParse(spec)
		o := catalogueOptions(in)
		o.Trees, o.MaxBudget = 8, 4096
		serial, err := props.Run(bg, in.Rule, o)
		if err != nil {
			t.Fatal(err)
		}
		o.Jobs = 3
		jobs, err := props.Run(bg, in.Rule, o)
		if err != nil {
			t.Fatal(err)
		}
		ignore := cmpopts.IgnoreFields(props.Report{}, "Elapsed", "SimsPerSecond")
		if d := cmp.Diff(serial, jobs, ignore, cmp.Comparer(func(x, y *tree.Tree) bool { return x.String() == y.String() })); d != "" {
			t.Errorf("%s: Jobs 3 differs from the serial check (-serial +jobs):\n%s", spec, d)
		}
	}
}

// TestMeteredSameReport: a check that reports its progress (Options.Status)
// runs its searches in chunks, and gives the report of one that does not,
// serially and with Jobs, for a deterministic rule with a witness, one
// without, and a randomised one; its last report of the trees counts every
// search and simulation planned for a check that judges every tree.
func TestMeteredSameReport(t *testing.T) {
	for _, spec := range []string{"greedy-fpu", "uct", "eps-greedy"} {
		for _, jobs := range []int{0, 3} {
			in := rules.MustParse(spec)
			o := catalogueOptions(in)
			o.Trees, o.MaxBudget, o.Jobs = 8, 4096, jobs
			plain, err := props.Run(bg, in.Rule, o)
			if err != nil {
				t.Fatal(err)
			}
			var last props.Status
			o.Status = func(s props.Status) {
				if s.Phase == props.PhaseTrees {
					last = s
				}
			}
			metered, err := props.Run(bg, in.Rule, o)
			if err != nil {
				t.Fatal(err)
			}
			ignore := cmpopts.IgnoreFields(props.Report{}, "Elapsed", "SimsPerSecond")
			if d := cmp.Diff(plain, metered, ignore, cmp.Comparer(func(x, y *tree.Tree) bool { return x.String() == y.String() })); d != "" {
				t.Errorf("%s, jobs %d: the metered check differs (-plain +metered):\n%s", spec, jobs, d)
			}
			if last.Done != plain.Trees {
				t.Errorf("%s, jobs %d: last status %+v, report of %d trees", spec, jobs, last, plain.Trees)
			}
			if plain.Witness == nil && (last.Total != plain.Trees || last.Searches != last.SearchesPlanned || last.Sims != last.SimsPlanned ||
				last.SimsPlanned != int64(plain.Trees*plain.Seeds*4096)) {
				t.Errorf("%s, jobs %d: last status %+v, want every search of %d trees × %d seeds", spec, jobs, last, plain.Trees, plain.Seeds)
			}
		}
	}
}
