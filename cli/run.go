package cli

import (
	"context"
	"fmt"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/internal/suggest"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

const runUsage = `Usage: mctscheck [run] [-out DIR] [-rules LIST] [-rule SPEC]... [flags]

Run checks every rule of the catalogue (or those chosen with -rules and
-rule) with the consistency checker, on the trap families of the literature
and on random trees, and compares each verdict with what the papers predict.
It prints a table on stdout (rule, prediction, verdict, witness, frugality,
speed), with the minimal witness of each inconsistent rule, and writes a
report directory: report.md, report.html (the same with a drawing of each
witness tree and a chart of each rule's convergence, its witness's beside
the average), report.json and convergence plots (convergence.png and
convergence.svg, in a command built with the plots of package cli/plot).
Progress goes to stderr.

Each verdict is compared with the prediction in four words: reproduced
(a witness for a rule predicted inconsistent, no counterexample for one
predicted consistent), not refuted (inconclusive: no witness, some tree did
not converge; or stuck: a decision wrong through the horizon, its limit not
shown), contradicted, or not judged (a fault: the rule broke its contract,
which is no finding about consistency). The exit code is 4 when some rule faulted, else 1 when some prediction is
contradicted, 130 after Ctrl-C, 2 for bad flags or specs, 0 otherwise.
Rules run in parallel; the report is the same for the same flags on any
machine, apart from timings.

Ctrl-C stops the run: it prints and writes what finished, marked partial
(the rules without a verdict are "interrupted"), and exits 130.
-deadline DURATION stops it the same way when the time is up, and exits
with the code of the verdicts it has: 1 if one contradicts its
prediction, 4 on a fault, 0 otherwise.

Examples:

  mctscheck                                   # the whole catalogue, defaults
  mctscheck -rules 'uct,eps-*' -out /tmp/r    # some rules
  mctscheck -rule uct:c=0.1 -rule uct:c=4     # rules with parameters
  mctscheck -json > report.json
  mctscheck run -shard 1/3 -out part-1        # part 1 of 3; mctscheck merge joins the parts
`

// runDoc is the JSON document of run, and report.json.
type runDoc struct {
	Command string       `json:"command"`
	Options optionsDoc   `json:"options"`
	Rules   []ruleResult `json:"rules"`
	// Reproduced, NotRefuted and Contradicted count the rules by their
	// agreement with the papers' prediction.
	Reproduced   int `json:"reproduced"`
	NotRefuted   int `json:"not_refuted"`
	Contradicted int `json:"contradicted"`
	// Faulted counts the rules that faulted (agreement "not judged").
	Faulted int `json:"faulted"`
	// Interrupted counts the rules whose check Ctrl-C or the deadline
	// stopped before a verdict. Partial is true when some check stopped
	// before its end, and Stopped says why: props.StoppedInterrupted
	// (Ctrl-C) or props.StoppedDeadline. All three are left out of
	// complete runs.
	Interrupted int    `json:"interrupted,omitempty"`
	Partial     bool   `json:"partial,omitempty"`
	Stopped     string `json:"stopped,omitempty"`
	ElapsedNS   int64  `json:"elapsed_ns"`

	traps, binaryTraps int
	checkedOn          string   // what the rules were checked on, if not traps and random trees (check -tree)
	replayNote         string   // the parenthesis after "Replay" in report.md
	title              string   // the tool's name, in report.md's title
	figures            []string // the plot files written, for report.md
	expectation        string   // what the verdicts are compared with, in words
}

// runDefaults are run's flag defaults: the checker's own scale, at which
// props states its error rates, and which takes about 6 s of CPU for the
// whole catalogue.
const (
	defaultTrees  = 100
	defaultSeeds  = 4
	defaultBudget = 16384
	defaultOut    = "mctscheck-report"
)

func cmdRun(e *env, args []string) error {
	return runChecks(e, newFlagSet("run", runUsage), args)
}

// runChecks is run, or presets with the flag set fs of presets.
func runChecks(e *env, fs *flagSet, args []string) error {
	out := fs.String("out", defaultOut, "the report `DIR`ectory; empty for none")
	trees, seeds, seed, budget := addScaleFlags(fs, "`N` random trees per rule, besides the trap families")
	growth := growthFlagOn(fs)
	ruleList := new(string)
	if fs.Name() == "run" {
		fs.StringVar(ruleList, "rules", "", "a comma-separated `LIST` of rule names or patterns (eps-*) from the catalogue; default all")
	}
	var specs []string
	fs.Func("rule", "check the rule `SPEC` too (repeatable), e.g. -rule uct:c=0.1", func(s string) error {
		specs = append(specs, s)
		return nil
	})
	fs.repeat("rule")
	presets := new(bool)
	if fs.Name() == "presets" {
		*presets = true
	} else {
		fs.BoolVar(presets, "presets", false, "check the presets of real engines' rules instead of the papers' catalogue, with the engine traps as well (the presets command)")
		fs.renamed("engines", "presets")
	}
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "`N` rules checked at once")
	shard := addShardFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON document instead of the table")
	deadline := addDeadlineFlag(fs)
	prof := profileFlagOn(fs)
	if err := fs.parse(e, args); err != nil {
		return err
	}
	e, cancel, err := e.withDeadline(*deadline)
	if err != nil {
		return err
	}
	defer cancel()
	if err := checkScale(*trees, *seeds); err != nil {
		return err
	}
	switch {
	case *workers < 1:
		return usagef("-workers %d: want at least 1", *workers)
	case *seed == 0:
		return usagef("-seed 0: want at least 1 (0 means the default, 1, to the checker)")
	}
	if err := checkBudget(*budget); err != nil {
		return err
	}
	var insts []*rules.Instance
	var extra []gen.Trap
	if *presets {
		if *ruleList != "" {
			return usagef("-rules: give -presets or -rules, not both")
		}
		var err error
		if insts, err = engineRules(); err != nil {
			return err
		}
		extra = gen.EngineTraps()
	}
	more, err := selectRules(e.tool, *ruleList, specs, *presets)
	if err != nil {
		return err
	}
	insts = append(insts, more...)
	if *out != "" {
		if err := writableDir(*out); err != nil {
			return usagef("-out %s: %v", *out, err)
		}
	}

	doc := &runDoc{Command: e.tool.command(runCommand(fs, specs)), replayNote: e.tool.replayNote(),
		title: e.tool.name(), expectation: e.tool.expectation(insts), Options: optionsDoc{Trees: *trees, Traps: true, Seeds: *seeds, Seed: *seed,
			MinBudget: 64, MaxBudget: *budget, Growth: growth.g.String(), Shard: shard.String()}}
	doc.countTraps(extra)
	var names []string
	for _, in := range insts {
		names = append(names, label(in))
	}
	start := time.Now()
	prog := newProgress(e.stderr, e.tool.name(), names)
	err = withProfile(prof, func() (err error) {
		doc.Rules, err = checkAll(e, insts, *workers, prog, func(in *rules.Instance) props.Options {
			return props.Options{Traps: extra, Trees: *trees, Seeds: *seeds, Seed: *seed, MaxBudget: *budget, Growth: growth.g,
				Backup: in.Backup, BinaryOnly: in.Predicted.BinaryOnly(), RuleSpec: in.Spec, Shard: shard.s}
		})
		return err
	})
	prog.close()
	if err != nil {
		return err
	}
	doc.ElapsedNS = time.Since(start).Nanoseconds()
	doc.count()
	if !doc.Partial {
		fmt.Fprintf(e.stderr, "%s: checked %s in %.1fs\n", e.tool.name(), plural(len(doc.Rules), "rule"), time.Since(start).Seconds())
	}
	return writeRun(e, doc, *out, *asJSON)
}

// count counts the rules by their agreement with the prediction, and
// marks the report partial if some check stopped before its end.
func (doc *runDoc) count() {
	for _, r := range doc.Rules {
		switch r.Agreement {
		case Reproduced:
			doc.Reproduced++
		case NotRefuted:
			doc.NotRefuted++
		case Interrupted:
			doc.Interrupted++
		case NotJudged:
			doc.Faulted++
		default:
			doc.Contradicted++
		}
		if r.Stopped != "" { // a check stopped before its end, with a verdict or not: the report is partial
			doc.Partial, doc.Stopped = true, r.Stopped
		}
	}
}

// writeRun writes the outputs of run (and of merge of runs) for doc: the
// report directory out, if any, and the JSON document or the table; and
// returns the error that sets the exit code: a stop, a fault, a
// contradicted prediction; none for a shard, whose verdicts are its
// part's.
func writeRun(e *env, doc *runDoc, out string, asJSON bool) error {
	var files []string
	if out != "" {
		var err error
		if files, err = writeReport(out, doc, doc, e.tool.Plot); err != nil {
			return fmt.Errorf("-out: %w", err)
		}
	}
	if asJSON {
		if err := writeJSON(e.stdout, doc); err != nil {
			return err
		}
	} else {
		printTable(e.stdout, doc)
		if out != "" {
			fmt.Fprint(e.stdout, reportLine(out, files))
		}
		if doc.Options.Shard != "" {
			fmt.Fprint(e.stdout, "\n"+shardNote(doc.Options.Shard, "run"))
		}
	}
	var found error
	switch {
	case doc.Options.Shard != "": // the part's verdicts are not the run's: merge judges
	case doc.Faulted > 0:
		found = errFault
	case doc.Contradicted > 0:
		found = errFinding
	}
	if doc.Partial {
		return e.stopped(doc.Stopped, fmt.Sprintf("%d of %d rules checked, %d contradicted; %s",
			len(doc.Rules)-doc.Interrupted, len(doc.Rules), doc.Contradicted, written(out)), found)
	}
	return found
}

// engineRules returns the default instances of the real engines' presets.
func engineRules() ([]*rules.Instance, error) {
	var out []*rules.Instance
	for _, en := range rules.Engines() {
		in, err := rules.Parse(en.Name)
		if err != nil {
			return nil, fmt.Errorf("the preset %s: %w", en.Name, err)
		}
		out = append(out, in)
	}
	return out, nil
}

// selectRules returns the default instances of the entries that list names
// (when it is empty and there are no specs: the tool's own rules, or the
// whole catalogue if it has none), then the specs.
func selectRules(t *Tool, list string, specs []string, noDefault bool) ([]*rules.Instance, error) {
	var out []*rules.Instance
	entries := t.entries()
	if list == "" && len(t.Rules) > 0 {
		entries = t.own()
	}
	if list != "" || len(specs) == 0 && !noDefault {
		var pats []string
		if list != "" {
			for _, p := range strings.Split(list, ",") {
				if p = strings.TrimSpace(p); p != "" {
					pats = append(pats, p)
				}
			}
			if len(pats) == 0 {
				return nil, usagef("-rules %q names no rule: give names or patterns, comma-separated, such as 'uct,eps-*' (or '*' for all)", list)
			}
		}
		matched := make([]bool, len(pats))
		for _, en := range entries {
			keep := len(pats) == 0
			for i, p := range pats {
				if ok, err := path.Match(p, en.Name); err != nil {
					return nil, usagef("-rules: bad pattern %q: %v", p, err)
				} else if ok {
					keep, matched[i] = true, true
				}
			}
			if !keep {
				continue
			}
			in, err := rules.Parse(en.Name)
			switch {
			case err != nil && t.isOwn(en.Name):
				return nil, usagef("your rule %s: %v", en.Name, err)
			case err != nil:
				return nil, fmt.Errorf("the catalogue's %s: %w", en.Name, err)
			}
			out = append(out, in)
		}
		for i, ok := range matched {
			if !ok {
				var known []string
				for _, en := range entries {
					known = append(known, en.Name)
				}
				return nil, usagef("-rules: %q matches no rule%s (known: %s)", pats[i], suggest.DidYouMean(pats[i], known), strings.Join(known, ", "))
			}
		}
	}
	for _, s := range specs {
		in, err := rules.Parse(s)
		if err != nil {
			return nil, usagef("-rule: %v", err)
		}
		out = append(out, in)
	}
	return out, nil
}

// checkAll checks every instance on workers goroutines and returns the
// results in the order of insts. The first error cancels the rest. Ctrl-C
// (e.ctx done) is no error: the checks it stops are interrupted results.
func checkAll(e *env, insts []*rules.Instance, workers int, prog *progress, opts func(*rules.Instance) props.Options) ([]ruleResult, error) {
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	results := make([]ruleResult, len(insts))
	errs := make([]error, len(insts))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(insts)) {
		wg.Go(func() {
			for i := range next {
				in := insts[i]
				o := opts(in)
				o.Status = func(s props.Status) { prog.report(i, s) }
				prog.begin(i, sitesOf(in.Rule))
				rep, err := props.Run(ctx, in.Rule, o)
				if err != nil && e.ctx.Err() != nil && rep != nil { // stopped: what finished
					e.tool.addReplay(rep)
					results[i] = newRuleResult(in, o, rep)
					prog.finish(i, progressResult(&results[i]))
					continue
				}
				if err != nil {
					errs[i] = fmt.Errorf("%s: %w", label(in), err)
					prog.finish(i, "error: "+err.Error())
					cancel()
					continue
				}
				e.tool.addReplay(rep)
				results[i] = newRuleResult(in, o, rep)
				prog.finish(i, progressResult(&results[i]))
			}
		})
	}
	for i := range insts {
		if ctx.Err() != nil {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if e.ctx.Err() != nil { // Ctrl-C or the deadline: the rules never started are interrupted too
		for i, r := range results {
			if r.Report == nil {
				results[i] = notStarted(insts[i], opts(insts[i]), stoppedBy(e.ctx))
			}
		}
		return results, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

// progressResult is a rule's result in a progress line.
func progressResult(r *ruleResult) string {
	s := r.observed()
	if r.Witness != nil {
		s += ", " + r.witnessCell()
	}
	switch r.Agreement {
	case Contradicted:
		s += ", prediction CONTRADICTED"
	case NotJudged:
		s += ", NOT JUDGED: " + oneLine(r.Witness.Fault.Message)
	}
	return s
}

// runCommand is the command line that reproduces a run: the flags that
// change the result, with their values.
func runCommand(fs *flagSet, specs []string) string {
	parts := []string{"mctscheck " + fs.Name()}
	for _, name := range []string{"trees", "seeds", "seed", "budget", "growth"} {
		parts = append(parts, "-"+name+" "+fs.Lookup(name).Value.String())
	}
	if f := fs.Lookup("presets"); f != nil && f.Value.String() == "true" {
		parts = append(parts, "-presets")
	}
	if f := fs.Lookup("rules"); f != nil && f.Value.String() != "" {
		parts = append(parts, "-rules '"+f.Value.String()+"'")
	}
	for _, s := range specs {
		parts = append(parts, "-rule '"+s+"'")
	}
	if f := fs.Lookup("shard"); f.Value.String() != "" {
		parts = append(parts, "-shard "+f.Value.String())
	}
	return strings.Join(parts, " ")
}

// writableDir makes dir if need be and checks that a file can be written in
// it, so that a bad -out fails before the run rather than after it.
func writableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".mctscheck-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

const presetsUsage = `Usage: mctscheck presets [-out DIR] [-rule SPEC]... [flags]

Presets checks the presets of real engines' selection rules (Leela Zero,
lc0, KataGo, OpenSpiel, mctx, Fuego, Pachi and Ludii, each with the
constants of its source; mctscheck rules leela-zero describes one) as run
checks the catalogue: on the engine traps, the trap families and random
trees, and compares each verdict with the preset's prediction. It is
run -presets; -rule adds rules to the presets. The table, the report
directory and the exit code are run's (mctscheck run -h). To check a real
engine itself, over GTP, use mctscheck engine.

Examples:

  mctscheck presets
  mctscheck presets -out /tmp/presets -json
  mctscheck presets -rule katago:c=0.5      # a preset with other constants too
`

// cmdPresets is run -presets: every preset of a real engine's selection
// rule (rules.Engines), on the engine traps, the trap families and random
// trees, with the agreement of each verdict with the preset's prediction.
func cmdPresets(e *env, args []string) error {
	return runChecks(e, newFlagSet("presets", presetsUsage), args)
}
