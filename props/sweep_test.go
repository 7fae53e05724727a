package props_test

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/outside"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// sweepGrid is every catalogue rule over a grid of its parameters: both
// sides of each rule's boundary between consistent and inconsistent
// (uct's c = 0, boltzmann-decay's c = 1), Algorithm 2 around consistent and
// inconsistent inner rules, and decay schedules at several rates. Each spec
// carries the catalogue's prediction for its parameters.
var sweepGrid = []string{
	"uct:c=0.05", "uct:c=0.1", "uct:c=0.3", "uct:c=1.4142135623730951", "uct:c=4", "uct:c=0",
	"greedy-fpu:fpu=0", "greedy-fpu:fpu=0.5", "greedy-fpu:fpu=1",
	"smoothed:k=0.5", "smoothed:k=1", "smoothed:k=8",
	"rave:k=10", "rave:k=100", "rave:k=1000",
	"rave-floor:k=10,floor=0.05", "rave-floor:k=100,floor=0.1", "rave-floor:k=1000,floor=0.3",
	"mc-rave:k=10", "mc-rave:k=1000",
	"prior:c=1.4142135623730951,n0=1", "prior:n0=10", "prior:n0=100", "prior:c=0.3,n0=10",
	"negative-heuristic:k=1", "negative-heuristic:k=10", "negative-heuristic:k=100",
	"eps-greedy:eps=0.05", "eps-greedy:eps=0.2", "eps-greedy:eps=0.5",
	"eps-greedy-decay:c=0.3", "eps-greedy-decay:c=1", "eps-greedy-decay:c=3",
	"boltzmann:tau=0.05", "boltzmann:tau=0.1", "boltzmann:tau=0.3",
	"boltzmann-decay:c=0.5", "boltzmann-decay:c=1", "boltzmann-decay:c=3",
	"eps-greedy-minimax:eps=0.05", "eps-greedy-minimax:eps=0.5",
	"boltzmann-minimax:tau=0.05", "boltzmann-minimax:tau=0.3",
	"threshold:v=0.3,rule=greedy-fpu", "threshold:v=0.1,rule=greedy-fpu", "threshold:v=0.3,rule=uct",
	"threshold:v=0.3,rule=uct:c=0.1", "threshold:v=0.3,rule=rave", "threshold:v=0.3,rule=smoothed",
	"threshold:v=0.3,rule=eps-greedy", "threshold:v=0.3,rule=boltzmann",
	"threshold:v=0.3,rule=eps-greedy-minimax", "threshold:v=0.3,rule=boltzmann-minimax:tau=0.3",
}

// wrappedPrefix names a catalogue rule's wrapped twin in the sweep's rows.
const wrappedPrefix = "wrapped:"

// selectOnly is a rule with every optional interface hidden: what the
// checker sees of a user's rule that implements Select alone.
type selectOnly struct{ r core.Rule }

func (w selectOnly) Select(s *core.Site) int { return w.r.Select(s) }

// selectNeeder is selectOnly that keeps the rule's Needs, without which
// the search would not keep the statistics the rule reads.
type selectNeeder struct{ selectOnly }

func (w selectNeeder) Needs() core.Needs { return core.NeedsOf(w.r) }

// hide wraps r so that only Select, and Needs if r has it, show.
func hide(r core.Rule) core.Rule {
	if _, ok := r.(core.Needer); ok {
		return selectNeeder{selectOnly{r}}
	}
	return selectOnly{r}
}

// sweepJob is one rule of the sweep with its prediction: "consistent",
// "inconsistent" or, for a planted fault, "fault".
type sweepJob struct {
	family, spec string
	rule         core.Rule
	search       props.Searcher // a whole search, checked by RunSearch, instead of rule
	opts         props.Options
	predicted    string
}

// familyOf is the family of a spec: its rule's name.
func familyOf(spec string) string {
	family, _, _ := strings.Cut(spec, ":")
	return family
}

// predictedWord names a prediction of consistency.
func predictedWord(consistent bool) string {
	if consistent {
		return "consistent"
	}
	return "inconsistent"
}

func sweepJobs(t *testing.T) []sweepJob {
	var jobs []sweepJob
	for _, spec := range sweepGrid {
		in, err := rules.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		family := familyOf(spec)
		pred := predictedWord(in.Predicted.Consistent)
		jobs = append(jobs, sweepJob{family: family, spec: in.Spec, rule: in.Rule, opts: catalogueOptions(in), predicted: pred})
		jobs = append(jobs, sweepJob{family: family + " (wrapped)", spec: wrappedPrefix + in.Spec, rule: hide(in.Rule), opts: catalogueOptions(in), predicted: pred})
	}
	for _, r := range outsideRules() {
		jobs = append(jobs, sweepJob{family: "outside the catalogue", spec: r.spec, rule: r.rule,
			opts: props.Options{RuleSpec: r.spec, BinaryOnly: r.binaryOnly}, predicted: predictedWord(r.consistent)})
	}
	for _, r := range outside.Rules() {
		jobs = append(jobs, sweepJob{family: "outside the catalogue", spec: r.Name, rule: r.Rule,
			opts: props.Options{RuleSpec: r.Name, BinaryOnly: r.BinaryOnly}, predicted: predictedWord(r.Consistent)})
	}
	for _, r := range faultyRules() {
		jobs = append(jobs, sweepJob{family: "planted faults", spec: r.spec, rule: r.rule, opts: props.Options{RuleSpec: r.spec}, predicted: "fault"})
	}
	return append(jobs, searchSweepJobs(t)...)
}

// sweepPart is one line of a shard's output of the sweep: one check's
// part (its report, with the evidence props.Merge reads).
type sweepPart struct {
	Family    string        `json:"family"`
	Spec      string        `json:"spec"`
	Predicted string        `json:"predicted"`
	Seed      uint64        `json:"seed"`
	Search    bool          `json:"search,omitempty"` // a whole search's check (RunSearch)
	Report    *props.Report `json:"report"`
}

// TestSweep measures the checker's error rates over the parameter space:
// every spec of sweepGrid and every rule of outsideRules, each checked with
// MCTSCHECK_SWEEP seeds (each seed a new set of MCTSCHECK_SWEEP_TREES random
// trees, default 30, plus the traps, and new search seeds and orders).
// MCTSCHECK_SWEEP_SHARD=K/N runs part K of N of every check
// (props.Options.Shard, which mctscheck's -shard sets), so a sweep splits
// over processes and machines (scripts/consistency-sweep.sh,
// .github/workflows/sweep.yml); without it, the whole check (part 1/1).
// It writes one JSON line per check's part to MCTSCHECK_SWEEP_OUT (a
// sweepPart), and the number of checks it will run to
// MCTSCHECK_SWEEP_OUT.planned first. TestSweepMerge merges the parts
// (props.Merge, as mctscheck merge does) and turns them into tables.
// MCTSCHECK_SWEEP_SPECS, a ';'-separated list of specs (canonical, as in
// the rows) or families, restricts the sweep to them. It runs only when
// MCTSCHECK_SWEEP is set.
func TestSweep(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("MCTSCHECK_SWEEP"))
	if n <= 0 {
		t.Skip("set MCTSCHECK_SWEEP=N to sweep N seeds (scripts/consistency-sweep.sh)")
	}
	trees := 30
	if v, err := strconv.Atoi(os.Getenv("MCTSCHECK_SWEEP_TREES")); err == nil && v > 0 {
		trees = v
	}
	shard := props.Shard{K: 1, N: 1}
	if s := os.Getenv("MCTSCHECK_SWEEP_SHARD"); s != "" {
		var err error
		if shard, err = props.ParseShard(s); err != nil {
			t.Fatalf("MCTSCHECK_SWEEP_SHARD: %v", err)
		}
	}
	out := os.Stdout
	if path := os.Getenv("MCTSCHECK_SWEEP_OUT"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		out = f
	}
	jobs := sweepJobs(t)
	if only := os.Getenv("MCTSCHECK_SWEEP_SPECS"); only != "" {
		want := strings.Split(only, ";")
		jobs = slices.DeleteFunc(jobs, func(j sweepJob) bool {
			return !slices.Contains(want, j.spec) && !slices.Contains(want, j.family)
		})
		if len(jobs) == 0 {
			t.Fatalf("MCTSCHECK_SWEEP_SPECS=%q selects no rule of the sweep", only)
		}
	}
	if path := os.Getenv("MCTSCHECK_SWEEP_OUT"); path != "" {
		// The checks this shard will run a part of, for the script's progress.
		if err := os.WriteFile(path+".planned", []byte(strconv.Itoa(n*len(jobs))+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	enc := json.NewEncoder(out)
	for k := range n {
		seed := uint64(1000 * (k + 1))
		for _, j := range jobs {
			o := j.opts
			o.Seed, o.Trees, o.Shard = seed, trees, shard
			var rep *props.Report
			var err error
			if j.search != nil {
				rep, err = props.RunSearch(bg, j.search, o)
			} else {
				rep, err = props.Run(bg, j.rule, o)
			}
			if err != nil {
				t.Fatalf("%s seed %d: %v", j.spec, seed, err)
			}
			if err := enc.Encode(sweepPart{j.family, j.spec, j.predicted, seed, j.search != nil, rep}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// sweepRow is one check of the sweep, merged from its parts.
type sweepRow struct {
	family, spec, predicted string
	seed                    uint64
	search                  bool
	verdict                 props.Verdict
	nodes                   int     // the witness's, 0 without one
	seconds                 float64 // the parts' time, summed
}

// sweepRows reads the parts that TestSweep wrote to the files (plain, or
// gzipped with a name ending in .gz), merges each check's (props.Merge)
// and returns one row per check, logging the witnesses that are errors.
func sweepRows(t *testing.T, files []string) []sweepRow {
	type key struct {
		spec string
		seed uint64
	}
	parts := map[key][]sweepPart{}
	var keys []key
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = fh
		if strings.HasSuffix(f, ".gz") {
			if r, err = gzip.NewReader(fh); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		dec := json.NewDecoder(r)
		for line := 1; ; line++ {
			var p sweepPart
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil || p.Report == nil {
				t.Fatalf("%s: line %d: not a part of a check (%v)", f, line, err)
			}
			k := key{p.Spec, p.Seed}
			if parts[k] == nil {
				keys = append(keys, k)
			}
			parts[k] = append(parts[k], p)
		}
		fh.Close()
	}
	var rows []sweepRow
	for _, k := range keys {
		ps := parts[k]
		reps := make([]*props.Report, len(ps))
		for i, p := range ps {
			reps[i] = p.Report
		}
		rep, err := props.Merge(reps...)
		if err != nil {
			t.Fatalf("%s seed %d: %v", k.spec, k.seed, err)
		}
		p := ps[0]
		row := sweepRow{p.Family, p.Spec, p.Predicted, p.Seed, p.Search, rep.Verdict, 0, rep.Elapsed.Seconds()}
		if w := rep.Witness; w != nil {
			row.nodes = w.Nodes
			if p.Predicted == "consistent" && (rep.Verdict == props.Inconsistent || p.Search && rep.Verdict == props.Stuck) ||
				p.Predicted != "fault" && rep.Verdict == props.Faulted {
				t.Logf("%s: %s seed %d:\n%s", rep.Verdict, p.Spec, p.Seed, w)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// TestSweepMerge reads the parts of MCTSCHECK_SWEEP_MERGE (a glob of files
// TestSweep wrote, plain or gzipped), merges each check's, and writes to
// MCTSCHECK_SWEEP_TABLE (default stdout) the error rates per rule family
// and per spec: false alarms (a witness for a rule predicted consistent)
// and misses (none for a rule predicted inconsistent), with exact
// (Clopper–Pearson) 95% upper bounds.
func TestSweepMerge(t *testing.T) {
	glob := os.Getenv("MCTSCHECK_SWEEP_MERGE")
	if glob == "" {
		t.Skip("set MCTSCHECK_SWEEP_MERGE to the parts TestSweep wrote (scripts/consistency-sweep.sh)")
	}
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("MCTSCHECK_SWEEP_MERGE=%q: no files (%v)", glob, err)
	}
	type count struct {
		family, pred                       string
		checks, errors, inc, stuck, faults int
		seconds                            float64
		maxNodes                           int
	}
	verdicts := map[string]props.Verdict{} // spec and seed: the verdict
	var twins, twinsAgree int
	bySpec := map[string]*count{}
	var specs []string
	for _, r := range sweepRows(t, files) {
		c := bySpec[r.spec]
		if c == nil {
			c = &count{family: r.family, pred: r.predicted}
			bySpec[r.spec] = c
			specs = append(specs, r.spec)
		}
		c.checks++
		strongest := props.Inconsistent
		if r.search {
			strongest = props.Stuck // a whole search's strongest finding
		}
		switch v := r.verdict; c.pred {
		case "consistent":
			if v == props.Faulted && strongest == props.Stuck {
				c.errors++ // a promise of the protocol said broken by a search that keeps it
			}
			if v == props.Inconsistent {
				c.errors++ // a false alarm
			}
		case "inconsistent":
			if v != strongest {
				c.errors++ // a miss
			}
		case "fault":
			if v != props.Faulted {
				c.errors++ // a planted fault not found
			}
		}
		switch r.verdict {
		case props.Faulted:
			c.faults++
		case props.Inconclusive:
			c.inc++
		case props.Stuck:
			c.stuck++
		}
		verdicts[r.spec+"\t"+strconv.FormatUint(r.seed, 10)] = r.verdict
		c.seconds = max(c.seconds, r.seconds)
		c.maxNodes = max(c.maxNodes, r.nodes)
	}
	slices.Sort(specs)
	for key, v := range verdicts {
		if twin, ok := verdicts[wrappedPrefix+key]; ok {
			twins++
			if twin == v {
				twinsAgree++
			}
		}
	}
	var b strings.Builder
	row := func(name, pred string, c count) {
		kind := map[string]string{"consistent": "false alarms", "inconsistent": "misses", "fault": "not found"}[pred]
		fmt.Fprintf(&b, "| %s | %s | %d | %s %d (≤ %s%%) | %d (≤ %s%%) | %d | %d | %d | %.1f |\n", name, pred, c.checks, kind, c.errors,
			percent(clopperPearsonUpper(c.errors, c.checks)), c.stuck, percent(clopperPearsonUpper(c.stuck, c.checks)), c.faults, c.inc, c.maxNodes, c.seconds)
	}
	header := "| %s | predicted | checks | errors (95%% upper bound) | stuck (95%% upper bound) | faults | inconclusive | largest witness | slowest check (s) |\n|---|---|---|---|---|---|---|---|---|\n"
	fmt.Fprintf(&b, "### By family\n\n"+header, "family")
	type key struct{ family, pred string }
	families := map[key]*count{}
	var keys []key
	for _, s := range specs {
		c := bySpec[s]
		k := key{c.family, c.pred}
		f := families[k]
		if f == nil {
			f = &count{}
			families[k] = f
			keys = append(keys, k)
		}
		f.checks += c.checks
		f.errors += c.errors
		f.inc += c.inc
		f.stuck += c.stuck
		f.faults += c.faults
		f.seconds = max(f.seconds, c.seconds)
		f.maxNodes = max(f.maxNodes, c.maxNodes)
	}
	slices.SortFunc(keys, func(a, b key) int { return strings.Compare(a.family+a.pred, b.family+b.pred) })
	for _, k := range keys {
		row(k.family, k.pred, *families[k])
	}
	fmt.Fprintf(&b, "\nErrors: a false alarm is an inconsistent verdict on a rule predicted consistent; a miss, any other verdict than inconsistent on one predicted inconsistent (stuck counted among them, and in its own column); a planted fault not found, any other verdict than fault on a rule with a planted fault. Faults: checks whose verdict is fault, which the catalogue's rules and those outside it must never get. The families \"search: …\" are rules run as whole searches in package core and checked by RunSearch (every node reported, or, \"root only\", the root's children alone), and the textbook search of examples/: there a fault on a search predicted consistent is an error (its answers keep every promise of the protocol), stuck is the strongest finding and a miss any other verdict on a search predicted inconsistent.\n")
	fmt.Fprintf(&b, "\nWrapped twins (every optional interface but Needs hidden) with their rule's verdict: %d of %d checks.\n", twinsAgree, twins)
	fmt.Fprintf(&b, "\n### By spec\n\n"+header, "spec")
	for _, s := range specs {
		row("`"+s+"`", bySpec[s].pred, *bySpec[s])
	}
	if path := os.Getenv("MCTSCHECK_SWEEP_TABLE"); path != "" {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	fmt.Print(b.String())
}

// clopperPearsonUpper is the exact (Clopper–Pearson) 95% upper bound
// on a rate after k events in n trials: the p at which P(X ≤ k) = 0.025
// for X ~ Binomial(n, p), which is the 97.5% quantile of the Beta(k+1,
// n−k) distribution (Clopper and Pearson, Biometrika 26, 1934); 1 when
// k = n.
func clopperPearsonUpper(k, n int) float64 {
	if n == 0 || k >= n {
		return 1
	}
	return distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(0.975)
}

// percent writes a share as a percentage with two significant digits and
// no exponent: 0.37, 5.5, 31, 100.
func percent(share float64) string {
	v := 100 * share
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', max(0, 1-int(math.Floor(math.Log10(v)))), 64)
}

// TestClopperPearson checks the bound against known values: 0 events in n
// trials give 1 − 0.025^(1/n), 3.7% for n = 100.
func TestClopperPearson(t *testing.T) {
	for _, c := range []struct {
		k, n int
		want float64
	}{{0, 100, 1 - math.Pow(0.025, 0.01)}, {0, 1000, 1 - math.Pow(0.025, 0.001)}, {5, 5, 1}} {
		if got := clopperPearsonUpper(c.k, c.n); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("upper(%d, %d) = %v, want %v", c.k, c.n, got, c.want)
		}
	}
	// 1 event in 100: the exact bound is 5.45%.
	if got := clopperPearsonUpper(1, 100); math.Abs(got-0.0545) > 5e-4 {
		t.Errorf("upper(1, 100) = %v, want 0.0545", got)
	}
	// At the bound, the binomial tail P(X ≤ k) is 0.025.
	for _, c := range []struct{ k, n int }{{1, 100}, {3, 650}, {0, 10}, {9, 10}, {40, 630}} {
		p := clopperPearsonUpper(c.k, c.n)
		if tail := (distuv.Binomial{N: float64(c.n), P: p}).CDF(float64(c.k)); math.Abs(tail-0.025) > 1e-9 {
			t.Errorf("upper(%d, %d) = %v, where P(X ≤ %d) = %v, want 0.025", c.k, c.n, p, c.k, tail)
		}
	}
}

// TestPercent: shares print as percentages with two significant digits,
// never in exponent form.
func TestPercent(t *testing.T) {
	for share, want := range map[float64]string{1: "100", 0.3085: "31", 0.0545: "5.5", 0.0037: "0.37", 0: "0", 0.99999: "100"} {
		if got := percent(share); got != want {
			t.Errorf("percent(%v) = %s, want %s", share, got, want)
		}
	}
}
