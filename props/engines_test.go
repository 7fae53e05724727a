package props_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// LongEnginesEnv, set to 1, makes TestEngines also check every preset on
// random trees (props.Run, 100 trees), which takes minutes.
const longEnginesEnv = "MCTSCHECK_ENGINES_LONG"

// engineRow is one row of docs/catalogue.md's table of real engines' traps: the verdict
// of a preset on the engine traps and the default traps, and its witness.
type engineRow struct {
	verdict props.Verdict
	witness string // the shrunk witness in the text format, "" if none
}

// engineTable is docs/catalogue.md's table of the engine traps: what TestEngines
// observes with the seeds and budgets of engineOptions. A change in the
// rules, the traps or the checker that changes a row must change the
// page with it.
var engineTable = map[string]engineRow{
	"leela-zero":                {props.Inconsistent, "(max 0~1 1)"},
	"lc0":                       {props.Inconclusive, ""},
	"lc0-absolute":              {props.Inconclusive, ""},
	"katago":                    {props.Inconsistent, "(max 0~1 1)"},
	"openspiel-uct":             {props.Inconclusive, ""},
	"openspiel-puct":            {props.Inconsistent, "(max 0.75~1 1)"},
	"mctx-muzero":               {props.Inconclusive, ""},
	"mctx-gumbel":               {props.Inconsistent, "(max 0.75~0.05263157894736842 0.75~0.05263157894736842 0~0.05263157894736842 1)"},
	"fuego":                     {props.Inconclusive, ""},
	"fuego-go":                  {props.Inconsistent, "(max (max 0 1) 0.5)"},
	"pachi-ucb1amaf":            {props.Inconsistent, "(max 1 0.75)"},
	"ludii-ucb1tuned":           {props.Inconclusive, ""},
	"ludii-progressive-bias":    {props.Stuck, "(max 0 0.25~-1)"},
	"ludii-progressive-history": {props.Stuck, "(max 0.5 (max 0 1))"},
	"ludii-ag0":                 {props.Inconsistent, "(max 0~1 1)"},
}

// engineOptions are the checker's options for a preset: 8 seeds a tree
// (each but the first in its own child order, which is also how OpenSpiel's
// shuffle at expansion is modelled), budgets 64 to 16,384.
func engineOptions(in *rules.Instance) props.Options {
	return props.Options{Seeds: 8, Seed: 1, RuleSpec: in.Spec, Backup: in.Backup}
}

// engineTrees are the trees every preset is checked on: the engine traps
// (priors of 0 and 1/64, FPU, wide nodes), then the default traps.
func engineTrees() []gen.Trap { return append(gen.EngineTraps(), gen.Traps()...) }

// engineResult is what checking one preset on engineTrees found.
type engineResult struct {
	verdict   props.Verdict
	witness   *props.Witness
	from      string   // the trap the witness came from
	open      []string // traps that did not converge
	recovered []string // recovery horizons the limit probe gave
	trees     int
}

// checkEngine checks in on the engine trees in order, stopping at the
// first witness.
func checkEngine(t *testing.T, in *rules.Instance) engineResult {
	t.Helper()
	res := engineResult{verdict: props.NoCounterexample}
	for _, tr := range engineTrees() {
		rep, err := props.CheckTree(bg, in.Rule, tr.Tree, engineOptions(in))
		if err != nil {
			t.Fatalf("%s on %s: %v", in.Spec, tr.Name, err)
		}
		res.trees++
		for _, r := range rep.Recoveries {
			res.recovered = append(res.recovered, tr.Name+": "+strings.TrimPrefix(r, "given "))
		}
		switch rep.Verdict {
		case props.Inconsistent:
			res.verdict, res.witness, res.from = props.Inconsistent, rep.Witness, tr.Name
			return res
		case props.Stuck:
			if res.witness == nil {
				res.witness, res.from = rep.Witness, tr.Name
			}
		case props.Inconclusive:
			res.open = append(res.open, tr.Name)
		}
	}
	switch {
	case res.witness != nil:
		res.verdict = props.Stuck
	case len(res.open) > 0:
		res.verdict = props.Inconclusive
	}
	return res
}

// agreement compares a verdict with a prediction in docs/theory.md's words.
func agreement(p rules.Prediction, v props.Verdict) string {
	switch {
	case p.Consistent && v == props.Inconsistent, !p.Consistent && v == props.NoCounterexample:
		return "contradicted"
	case v == props.Inconclusive, v == props.Stuck:
		return "not refuted"
	}
	return "reproduced"
}

// TestEngines keeps docs/catalogue.md's table of the engine traps true: every preset
// of rules.Engines gets its prediction, reproduced or not refuted, never
// contradicted, with the verdict and witness the table states, on the
// engine traps and the default traps with fixed seeds. `go test -v -run
// TestEngines ./props` prints the table. With MCTSCHECK_ENGINES_LONG=1 it
// also runs props.Run (traps and 100 random trees with priors) on every
// preset and checks that no prediction is contradicted there.
func TestEngines(t *testing.T) {
	start := time.Now()
	var table []string
	for k, e := range rules.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			if (raceDetector || testing.Short()) && k%3 != 0 {
				t.Skip("one preset in three under -race and -short; all in the normal run")
			}
			in := rules.MustParse(e.Name)
			res := checkEngine(t, in)
			agree := agreement(in.Predicted, res.verdict)
			evidence := fmt.Sprintf("%d trees, %d not converged by 16,384", res.trees, len(res.open))
			if res.witness != nil {
				evidence = fmt.Sprintf("`%s` (%s, from %s)", res.witness.Tree, res.witness.Condition, res.from)
			} else if eng := engineTrapNames(res.open); eng != "" {
				evidence += " (" + eng + ")"
			}
			pos := positivePolicy(t, in)
			table = append(table, fmt.Sprintf("| `%s` | %s | %s | %s | %s | %s |", e.Name, predicted(in.Predicted), res.verdict, agree, evidence, pos))
			if agree == "contradicted" {
				t.Errorf("predicted %s, but %s: %s", in.Predicted, res.verdict, evidence)
				if res.witness != nil {
					t.Log(res.witness)
				}
			}
			want, ok := engineTable[e.Name]
			switch {
			case !ok:
				t.Errorf("no row in engineTable (and the README) for %s", e.Name)
			case want.verdict != res.verdict:
				t.Errorf("verdict %s, the table says %s: %s", res.verdict, want.verdict, evidence)
			case res.witness != nil && res.witness.Tree.String() != want.witness:
				t.Errorf("witness %v, the table says %s", res.witness.Tree, want.witness)
			}
			if res.witness != nil {
				// The witness replays: the same seed, in its order, finds it again.
				w := res.witness
				o := engineOptions(in)
				o.Seeds, o.Seed, o.KeepOrder = 1, w.Seeds[0], true
				rep, err := props.CheckTree(bg, in.Rule, tree.MustParse(w.Tree.String()), o)
				if err != nil || rep.Verdict != res.verdict {
					t.Errorf("the witness %v does not replay: %v %v", w.Tree, rep.Summary, err)
				}
			}
			if os.Getenv(longEnginesEnv) == "1" {
				rep, err := props.Run(bg, in.Rule, props.Options{RuleSpec: in.Spec, Backup: in.Backup})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s on traps and random trees: %s", e.Name, rep.Summary)
				if agreement(in.Predicted, rep.Verdict) == "contradicted" {
					t.Errorf("predicted %s, but on random trees: %s\n%v", in.Predicted, rep.Summary, rep.Witness)
				}
			}
		})
	}
	t.Logf("real engines' rules, judged (%.1fs):\n| preset | predicted | verdict | agreement | witness, or trees not converged | every policy > 0 |\n|---|---|---|---|---|---|\n%s",
		time.Since(start).Seconds(), strings.Join(table, "\n"))
}

// engineTrapNames lists the engine traps among names (the default traps'
// names are counted only).
func engineTrapNames(names []string) string {
	var eng []string
	for _, n := range names {
		for _, tr := range gen.EngineTraps() {
			if tr.Name == n {
				eng = append(eng, n)
			}
		}
	}
	return strings.Join(eng, ", ")
}

// positivePolicy checks in on the engine traps whose only good move has a
// positive policy (1/64, and 1/1024 at the wide node) and says what it
// found: the traps not converged by 16,384 simulations and the limit
// probe's recovery horizons, or a witness.
func positivePolicy(t *testing.T, in *rules.Instance) string {
	t.Helper()
	var open, horizons []string
	for _, tr := range gen.EngineTraps() {
		if !strings.Contains(tr.Name, ",p=") || strings.Contains(tr.Name, ",p=0,") {
			continue
		}
		rep, err := props.CheckTree(bg, in.Rule, tr.Tree, engineOptions(in))
		if err != nil {
			t.Fatalf("%s on %s: %v", in.Spec, tr.Name, err)
		}
		switch rep.Verdict {
		case props.Inconsistent:
			return fmt.Sprintf("witness `%s` (%s, from %s)", rep.Witness.Tree, rep.Witness.Condition, tr.Name)
		case props.Inconclusive:
			open = append(open, tr.Name)
		}
		for _, r := range rep.Recoveries { // the first horizon a trap gives
			if _, after, ok := strings.Cut(r, "picks child"); ok {
				horizons = append(horizons, fmt.Sprintf("%s: picks child%s", tr.Name, after))
				break
			}
		}
	}
	if len(open) == 0 {
		return "all converged"
	}
	out := "not converged: " + strings.Join(open, ", ")
	if len(horizons) > 0 {
		out += "; " + strings.Join(horizons, "; ")
	}
	return out
}

// predicted is the short form of a prediction for the table.
func predicted(p rules.Prediction) string {
	if p.Consistent {
		return "consistent"
	}
	return "inconsistent"
}
