package cli

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/searchexec"
)

const checkSearchUsage = `Usage: mctscheck check -search exec:'CMD' [-tree TREE] [flags]

Check with -search checks a whole Monte-Carlo tree search as it is, written
in any language: its own selection, expansion, roll-outs, backups and
decision. CMD is the program's command line, split into words as a shell
would split it (nothing is expanded); the program speaks the search
protocol of docs/protocol.md on its standard input and output: for each
search it gets a tree, a seed and the checkpoints (64 to -budget,
doubling), searches once, and answers at each checkpoint its root decision
and the root children's visits and means, and, if it says so, every
node's. -jobs programs run side by side, each serving one search at a time.

The trees are the trap families, the families of whole searches' bugs
(shapes random trees rarely have: a chance node above moves that differ by
outcome, cousins with the same moves, a player moving twice, terminals at
mixed depths, rewards on both sides of 1/2, wide nodes) and -trees random
trees, or the one tree -tree gives; a program that declares in its
handshake that it handles no chance nodes, rewards in {0, 1} only, or
players that alternate gets no other tree. Each is searched with -seeds
seeds (each but the first with the children in an order drawn from the
seed; -keep-order keeps the tree's own). Each search's root decision is
judged against the exact solution,
and a wrong one is explained by the mechanism the theory names: Eq. 5 or
Eq. 4 at the root, and below it, with Eq. 7 (a terminal not valued by its
reward), for a program that reports every node. A whole search offers no
limit probe, so the strongest finding is

  stuck              a decision wrong over the last doublings, with a
                     mechanism behind it, through the largest budget run:
                     a return after it is not excluded. The tree is shrunk
                     (the program searches smaller trees with the failed
                     seed) to a minimal witness, with a line that replays it;
  fault              the program crashed, hung, answered garbage, spoke
                     another protocol, decided a child that is no root move,
                     reported counts that do not add up, answered a tree and
                     seed otherwise than before, reported means for the side
                     to move, or did not draw chance outcomes by their
                     probabilities: the tree and the seed it happened on,
                     searched again, with the end of its stderr;
  inconclusive       some tree did not converge and none is stuck;
  no-counterexample  every tree converged.

With -out it writes a report directory (report.md, report.html with the
witness tree drawn with the statistics the program reported, and the
witness's curve, report.json); with -dot it prints the witness tree as
Graphviz DOT. Nodes whose statistics the program does not report (it
does not declare "nodes") are marked "not reported", never drawn as
zeros. The report gives the paper's §4 figure too: of the searches of
lost trees, the share more than 90% confident, by budget (not a
consistency verdict).

The exit code is 1 when the search is stuck, 4 on a fault, 0 otherwise, 2
for bad flags or trees, 3 for internal errors. No process is left behind,
on Ctrl-C too. Ctrl-C prints and writes the report of what finished,
marked partial, and exits 130; -deadline DURATION does the same when the
time is up, and exits with the code of what was found by then (0 if
nothing: the report says "interrupted", not a verdict).

Examples:

  mctscheck check -search exec:'python3 examples/mcts.py'
  mctscheck check -search exec:'python3 examples/mcts.py --bug fpu-never' -json
  mctscheck check -search exec:'./mcts --bug negamax-sign' -tree '(max (max 0 1) 0.5)' -seed 1 -seeds 1 -budget 16384 -keep-order
  mctscheck check -search exec:'python3 examples/mcts.py --bug fpu-never' -out /tmp/fpu   # and /tmp/fpu/report.html
  mctscheck check -search exec:'python3 examples/mcts.py' -deadline 5m -out /tmp/mcts
  mctscheck check -search exec:'python3 examples/mcts.py' -shard 1/8 -out part-1   # part 1 of 8; mctscheck merge joins the parts
`

// searchFlagIn reports whether args give -search: check -search has its
// own flags.
func searchFlagIn(args []string) bool { return flagIn(args, "search") }

func cmdCheckSearch(e *env, args []string) error {
	fs := newFlagSet("check", checkSearchUsage)
	spec := fs.String("search", "", "the search: `exec:CMD`, a program speaking the search protocol of docs/protocol.md")
	treeArg := addTreeFlag(fs)
	trees, seeds, seed, budget := addScaleFlags(fs, "`N` random trees, besides the trap families")
	keepOrder := fs.Bool("keep-order", false, "search every seed with the children in the tree's own order (default: each seed but the first draws an order)")
	binary := fs.Bool("binary", false, "binary deterministic trees only")
	jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "`N` searches at once, each in a program of its own")
	output := addOutputFlags(fs)
	asJSON, asDOT, out := output.asJSON, output.asDOT, output.out
	shard := addShardFlag(fs)
	if err := fs.parse(e, args); err != nil {
		return err
	}
	e, cancel, err := output.start(e)
	if err != nil {
		return err
	}
	defer cancel()
	line, ok := strings.CutPrefix(*spec, "exec:")
	line = strings.TrimSpace(line)
	switch {
	case !ok || line == "":
		return usagef("-search %q: want exec:CMD, the command line of a program that speaks the search protocol (docs/protocol.md)", *spec)
	case *seed == 0:
		return usagef("-seed 0: want at least 1 (0 means the default, 1, to the checker)")
	case *treeArg != "" && fs.isSet("trees"):
		return usagef("-trees: give -tree (one tree) or -trees (random trees), not both")
	case *jobs < 1 || *jobs > 256:
		return usagef("-jobs %d: want 1 to 256 programs side by side", *jobs)
	}
	if err := checkScale(*trees, *seeds); err != nil {
		return err
	}
	if err := checkBudget(*budget); err != nil {
		return err
	}
	tr, err := checkedTree(e, *treeArg, *binary)
	if err != nil {
		return err
	}
	prog, err := searchexec.Command(line, searchexec.Options{})
	if err != nil {
		return usagef("-search: %v", strings.TrimPrefix(err.Error(), "searchexec: "))
	}
	defer prog.Close() // on Ctrl-C too: no program is left behind
	if tr != nil {
		// A tree the program declares it does not handle is bad input; a
		// handshake that fails is the check's first fault, reported with it.
		if h, err := prog.Handles(); err == nil {
			if err := h.Allows(tr); err != nil {
				return usagef("-tree: the program handles %v (its handshake says so), and not this tree: %v", h, err)
			}
		}
	}
	name := "exec:" + line
	o := props.Options{Trees: *trees, Seeds: *seeds, Seed: *seed, MaxBudget: *budget, BinaryOnly: *binary,
		RuleSpec: name, KeepOrder: *keepOrder, Jobs: *jobs, Shard: shard.s}
	if tr != nil && !fs.isSet("seeds") {
		o.Seeds = 0 // RunSearchTree's default: many orders of the one tree
	}
	rep, err := checkWithProgress(e, name, &o, nil, func() (*props.Report, error) {
		if tr != nil {
			return props.RunSearchTree(e.ctx, prog, tr, o)
		}
		return props.RunSearch(e.ctx, prog, o)
	})
	if err != nil {
		return err
	}
	doc := checkDoc{Options: optionsDoc{Trees: *trees, Traps: tr == nil, Seeds: rep.Seeds, Seed: *seed, MinBudget: 64,
		MaxBudget: *budget, Growth: "own", Shard: shard.String()}, ruleResult: searchResult(name, o, rep)}
	if tr != nil {
		doc.Tree, doc.Options.Trees = tr.String(), 1
	}
	command := e.tool.command(checkCommand(fs, "search"))
	replay := o.ReplayTree("")
	replay.Search = true
	if shard.sharded() {
		doc.Command, doc.Replay = command, &replay
	}
	return writeCheck(e, &doc, rep, checkOutput{dir: *out, command: command, json: *asJSON, dot: *asDOT, search: true, jobs: *jobs, replay: &replay})
}

// checkWithProgress runs check, one check named name whose options o it
// gives a progress line on stderr (with the sites answered, for a rule
// that counts them: sitesOf), and adds the replay lines to its report. A
// check that stopped before its end (Ctrl-C, the deadline) is no error:
// its report says what finished (props.Report.Stopped).
func checkWithProgress(e *env, name string, o *props.Options, sites func() int64, check func() (*props.Report, error)) (*props.Report, error) {
	bar := newProgress(e.stderr, e.tool.name(), []string{name})
	o.Status = func(s props.Status) { bar.report(0, s) }
	bar.begin(0, sites)
	rep, err := check()
	if err != nil && rep != nil && rep.Stopped != "" {
		err = nil
	}
	if err == nil {
		e.tool.addReplay(rep)
		bar.finish(0, string(rep.Verdict))
	}
	bar.close()
	return rep, err
}

// searchPrediction is what a check of a whole search holds it to: the
// claim of its author, that it is consistent.
var searchPrediction = rules.Prediction{Consistent: true, Source: "the claim of the program's author",
	Why: "a whole search has no prediction from the papers: its decision should converge to an optimal move"}

// searchResult describes the report of a check of the search name. Its
// growth and backup are the program's own; its agreement with the claim of
// consistency is "reproduced" when every tree converged and "not refuted"
// otherwise: a stuck search's limit is not shown, and a fault says nothing
// about consistency; a check that stopped before a verdict is interrupted.
func searchResult(name string, o props.Options, rep *props.Report) ruleResult {
	a := NotRefuted
	switch rep.Verdict {
	case props.NoCounterexample:
		a = Reproduced
	case props.Interrupted:
		a = Interrupted
	}
	return ruleResult{
		ruleCheck: ruleCheck{Name: name, Spec: name, Backup: "own", Growth: "own", BinaryOnly: o.BinaryOnly,
			Predicted: predictionOf(searchPrediction)},
		Verdict:   rep.Verdict,
		Report:    rep,
		agreement: agreement{Agreement: a},
	}
}

func printCheckSearch(e *env, d *checkDoc, rep *props.Report, jobs int, replay *props.Replay) {
	w := e.stdout
	r := &d.ruleResult
	fmt.Fprintf(w, "search     %s\n", r.Spec)
	fmt.Fprintf(w, "checked    %s\n", searchScale(d, jobs))
	if h := rep.Handles; h != nil {
		fmt.Fprintf(w, "handles    %s\n", handles(*h))
	}
	fmt.Fprintf(w, "verdict    %s\n", r.Summary)
	if d.Tree == "" {
		printUnconverged(e, rep, replay, true)
	}
	if r.Verdict != props.Faulted { // a fault's figures describe no search that kept the contract
		if r.Visited > 0 {
			fmt.Fprintf(w, "frugality  %.0f%% of the nodes visited, %.0f%% in the last doublings\n", 100*r.Visited, 100*r.Recent)
		}
		fmt.Fprintf(w, "speed      %s simulations/s\n", rate(r.SimsPerSecond))
	}
	fmt.Fprintf(w, "§4         %s\n", r.overconfidence())
	if rep.Witness != nil {
		printWitness(w, rep.Witness)
	}
}

// handles says which trees a search declared it handles, the only ones
// checked.
func handles(h props.Handles) string {
	return h.String() + ", as its handshake declares: no other tree was searched"
}

// searchScale says what a search was checked on.
func searchScale(d *checkDoc, jobs int) string {
	what := "the given tree"
	if d.Tree == "" {
		what = fmt.Sprintf("the trap families, those of whole searches and %d random trees", d.Options.Trees)
	}
	side := "" // not said by merge, whose parts ran their own
	if jobs > 0 {
		side = fmt.Sprintf(", %s side by side", plural(jobs, "program"))
	}
	return fmt.Sprintf("%s × %s from %d, budgets %d to %d doubling%s",
		what, plural(d.Options.Seeds, "seed"), d.Options.Seed, d.Options.MinBudget, d.Options.MaxBudget, side)
}
