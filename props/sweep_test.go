package props_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// TestSweep measures the criterion's error rates: every catalogue rule over
// MCTSCHECK_SWEEP further seeds (each a new set of random trees and search
// seeds), counting false alarms (a witness for a rule predicted consistent)
// and missed witnesses (none for a rule predicted inconsistent), the largest
// witness and the longest time to one. It fails on any disagreement with the
// traps included; misses on random trees alone are rates to report. It runs only when MCTSCHECK_SWEEP is
// set (scripts/consistency-sweep.sh); MCTSCHECK_SWEEP_TREES sets the random
// trees per seed (default 30) and MCTSCHECK_SWEEP_FROM skips that many seeds,
// so that a sweep can be split over processes.
func TestSweep(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("MCTSCHECK_SWEEP"))
	if n <= 0 {
		t.Skip("set MCTSCHECK_SWEEP=N to sweep N seeds (scripts/consistency-sweep.sh)")
	}
	trees := 30
	if v, err := strconv.Atoi(os.Getenv("MCTSCHECK_SWEEP_TREES")); err == nil && v > 0 {
		trees = v
	}
	type tally struct {
		runs, wrong         int
		inconclusive        int
		maxNodes            int
		maxTime             time.Duration
		conditions          map[props.Condition]int
		predictedConsistent bool
	}
	// Each rule is swept with the traps; each inconsistent rule also on
	// random trees alone ("name, no traps"), the harder test of misses.
	type job struct {
		name, spec string
		noTraps    bool
	}
	var jobs []job
	tallies := map[string]*tally{}
	for _, e := range rules.All() {
		jobs = append(jobs, job{e.Name, e.Name, false})
		if !e.Predicted.Consistent {
			jobs = append(jobs, job{e.Name + ", no traps", e.Name, true})
		}
	}
	var names []string
	for _, j := range jobs {
		names = append(names, j.name)
		tallies[j.name] = &tally{conditions: map[props.Condition]int{}}
	}
	from, _ := strconv.Atoi(os.Getenv("MCTSCHECK_SWEEP_FROM")) // to split a sweep over processes
	for k := range n {
		seed := uint64(1000 * (from + k + 1))
		for _, j := range jobs {
			name := j.name
			in := rules.MustParse(j.spec)
			o := catalogueOptions(in)
			o.Seed, o.Trees, o.NoTraps = seed, trees, j.noTraps
			start := time.Now()
			rep, err := props.Run(bg, in.Rule, o)
			if err != nil {
				t.Fatal(err)
			}
			el := time.Since(start)
			ta := tallies[name]
			ta.runs++
			ta.predictedConsistent = in.Predicted.Consistent
			if rep.Verdict == props.Inconclusive {
				ta.inconclusive++
			}
			if (rep.Verdict == props.Inconsistent) == in.Predicted.Consistent {
				ta.wrong++
				t.Logf("seed %d: %s predicted %s, got %s", seed, name, in.Predicted, rep.Summary())
				if rep.Witness != nil {
					t.Logf("%s", rep.Witness)
				}
			}
			if w := rep.Witness; w != nil {
				ta.conditions[w.Condition]++
				ta.maxNodes = max(ta.maxNodes, w.Nodes)
				ta.maxTime = max(ta.maxTime, el)
			}
		}
		if (k+1)%10 == 0 {
			t.Logf("%d/%d seeds swept", k+1, n)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d seeds × (traps + %d random trees) × 4 searches, budgets 64..16384 (confirmation to 262144)\n", n, trees)
	fmt.Fprintf(&b, "%-30s %-12s %8s %8s %12s %9s %9s  %s\n", "rule", "predicted", "runs", "errors", "inconclusive", "max nodes", "max time", "conditions")
	for _, name := range names {
		ta := tallies[name]
		pred := "inconsistent"
		kind := "missed"
		if ta.predictedConsistent {
			pred, kind = "consistent", "false alarms"
		}
		fmt.Fprintf(&b, "%-30s %-12s %8d %8d %12d %9d %9s  %v (%s)\n", name, pred, ta.runs, ta.wrong, ta.inconclusive,
			ta.maxNodes, ta.maxTime.Round(time.Millisecond), ta.conditions, kind)
	}
	t.Logf("sweep:\n%s", b.String())
	if out := os.Getenv("MCTSCHECK_SWEEP_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	for _, name := range names {
		if tallies[name].wrong > 0 && !strings.HasSuffix(name, "no traps") {
			t.Errorf("%s: %d of %d runs disagree with the papers", name, tallies[name].wrong, tallies[name].runs)
		}
	}
}
