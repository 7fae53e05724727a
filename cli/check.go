package cli

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

const checkUsage = `Usage: mctscheck check -rule SPEC [-tree TREE] [flags]
       mctscheck check -rule SPEC -game connect4 (-positions FILE | -moves MOVES) [flags]
       mctscheck check -search exec:'CMD' [-tree TREE] [flags]

Check runs the consistency checker on one rule: on the trap families of the
literature and on -trees random trees, or on the one tree -tree gives. Each
tree is searched with -seeds seeds (with -tree, 16 by default), each but the
first with the children in an order drawn from the seed (-keep-order keeps
the tree's own), and observed at budgets doubling from 64 to -budget
simulations; with -game, positions of a real game (see mctscheck check
-game connect4 -h); with -search, a whole search run by a program in any
language (see mctscheck check -search exec: -h). A seed whose root
decision stays wrong is a witness only if the mechanism behind it (Eq. 5
or Eq. 4) persists in the limit, when the rule is asked what it would do
at counts far beyond the run. It prints the verdict with its evidence:

  inconsistent       a witness: a tree, shrunk to a minimal one, on which the
                     root decision stays wrong, the condition of the paper's
                     theorem that failed (Eq. 5 or Eq. 4), and a line that
                     replays it;
  stuck              a witness whose decision stays wrong through the
                     horizon (2^62 simulations of a node), its limit not
                     shown;
  inconclusive       some tree did not converge and none is a witness;
  no-counterexample  every tree converged;
  fault              the rule broke its contract (a panic, NaN, a child out
                     of range; a program that crashed, hung, wrote stray
                     output; a declaration its own choices contradict): not
                     a finding about consistency.

With -out it writes a report directory as run does (report.md,
report.html with the witness tree drawn, report.json); with -dot it prints
the witness tree as Graphviz DOT. Each also gives the paper's §4 figure:
of the searches of lost trees, the share more than 90% confident, by
budget (not a consistency verdict).

Ctrl-C stops the check, prints and writes the report of what finished,
marked partial, and exits 130: a check stopped before a verdict has the
verdict "interrupted"; a witness found but not yet shrunk is given as
found. -deadline DURATION stops it the same way when the time is up, so
that a check fits a CI job: it then exits with the code of what it found
by then, 0 if nothing (the report says "interrupted", not a verdict).

The verdict is compared with the papers' prediction for the rule:
reproduced, not refuted (inconclusive, or stuck), contradicted, or not
judged (a fault). The exit code is 1 when the prediction is contradicted
(a witness against a rule predicted consistent, or every tree converged
for one predicted inconsistent), 4 on a fault, 0 otherwise, 2 for bad
flags, specs or trees. For an exec: rule (docs/protocol.md),
-rule-timeout bounds a round trip and -rule-stderr shows what the program
writes on its standard error. Trees are binary deterministic
(no chance nodes, rewards in {0,1}) when the papers' prediction for the rule
is about those games only; -binary=false checks all trees.

Examples:

  mctscheck check -rule greedy-fpu
  mctscheck check -rule uct:c=0.3 -trees 300 -seeds 8
  mctscheck check -rule threshold:v=0.3,rule=rave -budget 65536
  mctscheck check -rule greedy-fpu:fpu=1 -tree '(max (max 0 1) 0.5)' -seed 1 -seeds 4 -budget 16384
  mctscheck check -rule greedy-fpu -out /tmp/greedy    # and /tmp/greedy/report.html
  mctscheck check -rule greedy-fpu -dot > witness.dot  # and dot -Tsvg witness.dot > witness.svg
  mctscheck check -rule uct -trees 1000 -deadline 9m -out /tmp/uct
  mctscheck check -rule uct -trees 1000 -shard 2/4 -out part-2   # part 2 of 4; mctscheck merge joins the parts
`

// checkDoc is the JSON document of check: the tree and the options, then
// the result's fields.
type checkDoc struct {
	// Command is the check's command line, and Replay the line that
	// checks one tree alone with the check's options (its tree empty), in
	// a shard's document only (for merge, which writes the whole check's
	// report and text).
	Command string        `json:"command,omitempty"`
	Replay  *props.Replay `json:"replay,omitempty"`
	Tree    string        `json:"tree,omitempty"`
	Options optionsDoc    `json:"options"`
	ruleResult
}

func cmdCheck(e *env, args []string) error {
	if gameFlagIn(args) && flagIn(args, "shard") {
		return usagef("-shard: not with -game, whose positions are checked whole; split the -positions file instead")
	}
	if gameFlagIn(args) {
		return cmdCheckGame(e, args)
	}
	if searchFlagIn(args) {
		return cmdCheckSearch(e, args)
	}
	fs := newFlagSet("check", checkUsage)
	ruleSpec := fs.String("rule", "", "the rule `SPEC`, e.g. uct or uct:c=0.7 (see mctscheck rules)")
	treeArg := addTreeFlag(fs)
	trees, seeds, seed, budget := addScaleFlags(fs, "`N` random trees, besides the trap families")
	growth, backup := engineFlags(fs)
	workers := fs.Int("tree-workers", 0, "`K` ≥ 2: search tree-parallel with K workers in lockstep (deterministic for a given K), with the virtual loss below; 0 or 1: serial")
	vlN := fs.Float64("virtual-loss", 1, "with -tree-workers: `N` virtual simulations per simulation in flight")
	vlValue := fs.Float64("virtual-value", 0, "with -tree-workers: the reward `V` of each virtual simulation, chooser's side")
	keepOrder := fs.Bool("keep-order", false, "search every seed with the children in the tree's own order (default: each seed but the first draws an order)")
	binary := fs.Bool("binary", false, "binary deterministic trees only (default: as the rule's prediction says)")
	ruleStderr := fs.Bool("rule-stderr", false, "show an exec: rule's standard error here as the program writes it (by default only its last lines, with a fault)")
	ruleTimeout := fs.Duration("rule-timeout", 10*time.Second, "an exec: rule's `TIMEOUT` for one round trip (a batch of sites and its answers); a program slower than that hangs: a fault")
	output := addOutputFlags(fs)
	asJSON, asDOT, out := output.asJSON, output.asDOT, output.out
	shard := addShardFlag(fs)
	prof := profileFlagOn(fs)
	if err := fs.parse(e, args); err != nil {
		return err
	}
	e, cancel, err := output.start(e)
	if err != nil {
		return err
	}
	defer cancel()
	in, err := parseRule(*ruleSpec)
	if err != nil {
		return err
	}
	defer in.Close()                                        // an external rule's program stops
	stop := context.AfterFunc(e.ctx, func() { in.Close() }) // at once on Ctrl-C or at the deadline, cutting a round trip short
	defer stop()
	if err := execOptions(in, fs, e, *ruleStderr, *ruleTimeout); err != nil {
		return err
	}
	if err := checkScale(*trees, *seeds); err != nil {
		return err
	}
	switch {
	case *seed == 0:
		return usagef("-seed 0: want at least 1 (0 means the default, 1, to the checker)")
	case *treeArg != "" && fs.isSet("trees"):
		return usagef("-trees: give -tree (one tree) or -trees (random trees), not both")
	case *workers < 0 || *workers > 64:
		return usagef("-tree-workers %d: want 0 to 64", *workers)
	case !(*vlN >= 0 && *vlN <= 1<<20):
		return usagef("-virtual-loss %v: want 0 to 2^20 virtual simulations", *vlN)
	case !(*vlValue >= 0 && *vlValue <= 1):
		return usagef("-virtual-value %v: want a reward in [0,1]", *vlValue)
	case (fs.isSet("virtual-loss") || fs.isSet("virtual-value")) && *workers < 2:
		return usagef("-virtual-loss, -virtual-value: only with -tree-workers K ≥ 2, which they tune")
	}
	if err := checkBudget(*budget); err != nil {
		return err
	}
	tr, err := checkedTree(e, *treeArg, *binary)
	if err != nil {
		return err
	}
	o := props.Options{Trees: *trees, Seeds: *seeds, Seed: *seed, MaxBudget: *budget, Growth: growth.g,
		Backup: backup.of(in), BinaryOnly: in.Predicted.BinaryOnly(), RuleSpec: in.Spec, KeepOrder: *keepOrder,
		Workers: *workers, Shard: shard.s,
		Jobs: runtime.GOMAXPROCS(0)} // the catalogue's rules may be called from several goroutines
	if c, ok := in.Rule.(interface{ Concurrency() int }); ok {
		o.Jobs = max(o.Jobs, c.Concurrency()) // an external rule's sites travel in batches of concurrent searches
	}
	if *workers >= 2 {
		o.VirtualLoss = core.VirtualLoss{N: *vlN, Value: *vlValue}
	}
	if *treeArg != "" && !fs.isSet("seeds") {
		o.Seeds = 0 // CheckTree's default: many orders of the one tree
	}
	if fs.isSet("binary") {
		o.BinaryOnly = *binary
	}
	rep, err := checkWithProgress(e, label(in), &o, sitesOf(in.Rule), func() (rep *props.Report, err error) {
		err = withProfile(prof, func() (err error) {
			if tr != nil {
				rep, err = props.CheckTree(e.ctx, in.Rule, tr, o)
			} else {
				rep, err = props.Run(e.ctx, in.Rule, o)
			}
			return err
		})
		return rep, err
	})
	if err != nil {
		return err
	}
	doc := checkDoc{Options: optionsDoc{Trees: *trees, Traps: tr == nil, Seeds: rep.Seeds, Seed: *seed, MinBudget: 64,
		MaxBudget: *budget, Growth: growth.g.String(), Shard: shard.String()}, ruleResult: newRuleResult(in, o, rep)}
	if tr != nil {
		doc.Tree, doc.Options.Trees = tr.String(), 1
		doc.Agreement = checkAgreement(in, tr, rep.Verdict)
	}
	command := e.tool.command(checkCommand(fs, "rule"))
	replay := o.ReplayTree("")
	if shard.sharded() {
		doc.Command, doc.Replay = command, &replay
	}
	return writeCheck(e, &doc, rep, checkOutput{dir: *out, command: command, expectation: e.tool.expectation([]*rules.Instance{in}),
		json: *asJSON, dot: *asDOT, replay: &replay})
}

// checkAgreement compares the verdict v of a check of in with its
// prediction on the one tree tr (on the checker's own trees, newRuleResult
// compares it).
func checkAgreement(in *rules.Instance, tr *tree.Tree, v props.Verdict) Agreement {
	return agreementOnChosen(in.Predicted, v, in.Predicted.AppliesTo(tr.BinaryDeterministic()))
}

// checkOutput is what a check writes besides its document: the report
// directory, if any, with the command line and the expectation its
// report.md names, and the form of the output on stdout. search is true
// for check -search, whose report, text and exit codes are its own, with
// jobs the programs it ran side by side (0: not said).
type checkOutput struct {
	dir, command, expectation string
	json, dot, search         bool
	jobs                      int
	// replay is the line that checks an unconverged tree alone with the
	// check's options, its tree empty; nil when none is known.
	replay *props.Replay
}

// writeCheck writes the outputs of check (and of merge of checks) for the
// document d of report rep, and returns the error that sets the exit
// code: a stop, a fault, a contradicted prediction (a stuck search); none
// for a shard, whose verdict is its part's.
func writeCheck(e *env, d *checkDoc, rep *props.Report, w checkOutput) error {
	var files []string
	if w.dir != "" {
		var err error
		if w.search {
			files, err = writeReport(w.dir, newSearchReport(e, w.command, d, w.jobs), d, e.tool.Plot)
		} else {
			files, err = writeCheckReport(e, w.dir, w.command, w.expectation, d)
		}
		if err != nil {
			return fmt.Errorf("-out: %w", err)
		}
	}
	switch {
	case w.json:
		if err := writeJSON(e.stdout, d); err != nil {
			return err
		}
	case w.dot:
		if err := writeWitnessDOT(e, e.stdout, rep); err != nil {
			return err
		}
	default:
		if w.search {
			printCheckSearch(e, d, rep, w.jobs, w.replay)
		} else {
			printCheck(e, d, rep, w.replay)
		}
		if w.dir != "" {
			fmt.Fprint(e.stdout, "\n"+reportLine(w.dir, files))
		}
		if d.Options.Shard != "" {
			fmt.Fprint(e.stdout, "\n"+shardNote(d.Options.Shard, "check"))
		}
	}
	var found error
	switch {
	case d.Options.Shard != "": // the part's verdict is not the check's: merge judges
	case rep.Verdict == props.Faulted:
		found = errFault
	case w.search && rep.Verdict == props.Stuck:
		found = errFinding
	case !w.search && d.Agreement == Contradicted:
		found = errFinding
	}
	return checkEnd(e, rep, w.dir, found)
}

// checkEnd is the end of a check whose report rep is out: found, the
// exit code of what it found, or, for a check that stopped before its end
// (Ctrl-C, the deadline), what env.stopped makes of it, saying what
// finished and where the partial report is (out, if not empty).
func checkEnd(e *env, rep *props.Report, out string, found error) error {
	if rep.Stopped == "" {
		return found
	}
	what := fmt.Sprintf("%d of %s checked", rep.Trees, plural(rep.TreesPlanned, "tree"))
	if w := rep.Witness; w != nil {
		what += fmt.Sprintf(", %s (%s) found on %s, not shrunk", rep.Verdict, w.Condition, w.From)
	} else {
		what += ", no witness so far"
	}
	return e.stopped(rep.Stopped, what+"; "+written(out), found)
}

// execOptions applies -rule-stderr and -rule-timeout to an exec: rule,
// which Parse made with the default options and has not started, and
// refuses them for any other rule.
func execOptions(in *rules.Instance, fs *flagSet, e *env, stderr bool, timeout time.Duration) error {
	x, ok := in.Rule.(*rules.ExecRule)
	switch {
	case !ok && (stderr || fs.isSet("rule-timeout")):
		return usagef("-rule-stderr, -rule-timeout: only for an exec: rule, which a program computes")
	case !ok:
		return nil
	case timeout <= 0:
		return usagef("-rule-timeout %v: want a positive duration, such as 10s", timeout)
	}
	o := rules.ExecOptions{Timeout: timeout}
	if stderr {
		o.Stderr = e.stderr
	}
	argv := x.Command()
	nx, err := o.New(argv[0], argv[1:]...)
	if err != nil {
		return usagef("-rule: %v", err)
	}
	x.Close() // never started
	in.Rule = nx
	return nil
}

func printCheck(e *env, d *checkDoc, rep *props.Report, replay *props.Replay) {
	w := e.stdout
	r := &d.ruleResult
	fmt.Fprintf(w, "rule       %s (growth %s, backup %s)\n", r.Spec, r.Growth, r.Backup)
	p := r.Predicted
	fmt.Fprintf(w, "predicted  %s: %s (%s)\n", predictedShort(p), p.Why, p.Source)
	what, only := "the given tree", ""
	if d.Tree == "" {
		what = fmt.Sprintf("the trap families and %d random trees", d.Options.Trees)
		if r.BinaryOnly {
			only = " (binary deterministic only)"
		}
	}
	fmt.Fprintf(w, "checked    %s × %s from %d%s, budgets %d to %d doubling\n",
		what, plural(d.Options.Seeds, "seed"), d.Options.Seed, only, d.Options.MinBudget, d.Options.MaxBudget)
	fmt.Fprintf(w, "verdict    %s\n", r.Summary)
	if d.Tree == "" {
		printUnconverged(e, rep, replay, false)
	}
	switch {
	case d.Options.Shard != "":
		fmt.Fprintf(w, "prediction not judged in a shard: its verdict is of its part only\n")
	case rep.Verdict == props.Stuck:
		fmt.Fprintf(w, "prediction %s; in practice, stuck: the decision stays wrong through %d simulations of a node\n", r.Agreement, rep.Witness.Horizon)
	case r.interrupted():
		fmt.Fprintf(w, "prediction not compared: the check stopped before a verdict\n")
	default:
		fmt.Fprintf(w, "prediction %s\n", r.Agreement)
	}
	for _, rec := range r.Recoveries {
		fmt.Fprintf(w, "recovers   %s\n", rec)
	}
	if r.frugalityKnown() {
		fmt.Fprintf(w, "frugality  %.0f%% of the nodes visited, %.0f%% in the last doublings%s\n", 100*r.Visited, 100*r.Recent, r.soFar())
	}
	if r.Sims > 0 {
		fmt.Fprintf(w, "speed      %s simulations/s\n", r.speed())
	}
	fmt.Fprintf(w, "§4         %s\n", r.overconfidence())
	if rep.Witness != nil {
		printWitness(w, rep.Witness)
	}
}

// shownUnconverged is how many trees that did not converge the text names
// with their text; -json and -out list every one.
const shownUnconverged = 5

// printWitness writes a check's witness after a blank line, written as
// it is formatted (megabytes for a tree of millions of nodes), not copied.
func printWitness(w io.Writer, wit *props.Witness) {
	io.WriteString(w, "\n")
	io.WriteString(w, strings.TrimRight(wit.String(), "\n"))
	io.WriteString(w, "\n")
}

// printUnconverged writes, under the verdict, the trees of a check that
// did not converge, the first ones with their text, how many it leaves
// out, and the line that checks the first one alone: replay with the
// first's text (search: a whole search's check; replay nil: no line).
func printUnconverged(e *env, rep *props.Report, replay *props.Replay, search bool) {
	u := rep.Unconverged
	if len(u) == 0 || u[0].Tree == "" {
		return
	}
	w := e.stdout
	for _, t := range u[:min(len(u), shownUnconverged)] {
		fmt.Fprintf(w, "           %s: %s\n", t.Name, t.Tree)
	}
	if more := len(u) - shownUnconverged; more > 0 {
		fmt.Fprintf(w, "           and %d more: -json and -out list every one\n", more)
	}
	if replay == nil {
		return
	}
	r := *replay
	r.Tree, r.Search = u[0].Tree, search
	fmt.Fprintf(w, "           the first alone: %s\n", e.tool.replayLine(r))
}
