package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

const checkGameUsage = `Usage: mctscheck check -rule SPEC -game GAME (-positions FILE | -moves MOVES) [flags]

Check with -game runs the consistency checker on positions of a real game,
judged against its exact solver: for Connect Four (-game connect4), the
positions of FILE, one a line as in Pascal Pons' test sets ("MOVES SCORE",
or "MOVES"; a SCORE is checked against the solver), or the one position
-moves gives. For Go (-game goN:komi=K,cap=M), a position is the vertices
played from the empty board ("C3,D3,pass"), and the exact values come from
alpha-beta to the end of the game, which the cap M brings M moves after
the position: small endgames only. Each position is searched with -seeds seeds (each but the
first with the moves of every position listed in an order drawn from the
seed; -keep-order keeps the game's own) in practical mode (roll-outs below
the stored tree; -growth paper stores every node), observed at budgets
doubling from 64 to -budget simulations.

The root decision is judged against the solver's optimal moves (Eq. 6),
and Eq. 5 and Eq. 4 at the stored nodes with enough simulations, valued by
the solver (-max-nodes bounds each solve; a position whose moves the
solver cannot value within it is an error). A seed whose root decision
stays wrong is a witness only if the mechanism behind it persists in the
limit, as on trees. A witness position whose whole tree has at most
-export nodes is also exported as an explicit tree and shrunk, with a line
that replays it as a tree.

It prints, per position and in total, the share of optimal root decisions
at each budget, the verdict and the witnesses, with progress on stderr.
The exit code is 1 when the papers' prediction for the rule is
contradicted: a witness for a rule predicted consistent in all games (a
rule predicted consistent on binary deterministic games only is not: Connect
Four has draws; nor is a rule predicted inconsistent that every position
leaves without a witness: a real position need hold no trap). It is 2 for
bad flags, files and positions, 3 for internal errors. Ctrl-C prints the
positions that finished, marked so, and exits 130; -deadline DURATION does
the same when the time is up and exits with the code of what was found by
then (the verdict is "interrupted" unless a position gave a finding).

Examples:

  mctscheck check -rule uct -game connect4 -positions games/connect4/testdata/Test_L3_R1 -limit 50
  mctscheck check -rule greedy-fpu -game connect4 -positions FILE -budget 65536 -json
  mctscheck check -rule greedy-fpu:fpu=1 -game connect4 -moves 233377345754465174223731671122611552 -seed 3 -seeds 1 -order 3
  mctscheck check -rule rave -game go5:komi=1.5,cap=10 -moves D5,B5,D1,E1,E4,A3,C4,A4,E2,C5,C2,C1,D2,D3,A1,B4,A2,B1,C3,D4
`

// checkGameDoc is the JSON document of check -game.
type checkGameDoc struct {
	Game      string         `json:"game"`
	File      string         `json:"positions_file,omitempty"`
	Options   gameOptionsDoc `json:"options"`
	ruleCheck                // the rule and its prediction
	Verdict   props.Verdict  `json:"verdict"`
	agreement
	Summary string `json:"summary"`
	// Stopped is props.StoppedInterrupted or props.StoppedDeadline for a
	// check that Ctrl-C or the deadline stopped: the positions are those
	// that finished. Absent otherwise.
	Stopped string `json:"stopped,omitempty"`
	// Total sums the positions up.
	Total     gameTotal       `json:"total"`
	Positions []*props.Report `json:"positions"`
	Elapsed   time.Duration   `json:"elapsed_ns"`
}

// gameOptionsDoc is how check -game checked.
type gameOptionsDoc struct {
	Seeds     int    `json:"seeds"`
	Seed      uint64 `json:"seed"`
	Order     uint64 `json:"order"`
	KeepOrder bool   `json:"keep_order"`
	MinBudget int    `json:"min_budget"`
	MaxBudget int    `json:"max_budget"`
	Growth    string `json:"growth"`
	Limit     int    `json:"limit"`
	MaxNodes  int64  `json:"max_nodes"`
	Export    int    `json:"export"`
}

// gameTotal is the positions' verdicts and convergence in total.
type gameTotal struct {
	Positions        int `json:"positions"`
	Inconsistent     int `json:"inconsistent"`
	Inconclusive     int `json:"inconclusive"`
	Stuck            int `json:"stuck"`
	NoCounterexample int `json:"no_counterexample"`
	Faulted          int `json:"faulted"`
	// Optimal is, per budget, the share of all searches whose root decision
	// was optimal.
	Optimal []gameShare `json:"optimal"`
	// Decisive counts the positions where some move is not optimal, and
	// OptimalDecisive is Optimal over those alone.
	Decisive        int         `json:"decisive"`
	OptimalDecisive []gameShare `json:"optimal_decisive"`
	Sims            int64       `json:"sims"`
}

// gameShare is the share of optimal decisions at one budget.
type gameShare struct {
	Budget   int64   `json:"budget"`
	Share    float64 `json:"share"`
	Searches int     `json:"searches"`
}

func cmdCheckGame(e *env, args []string) error {
	fs := newFlagSet("check", checkGameUsage)
	ruleSpec := fs.String("rule", "", "the rule `SPEC`, e.g. uct or uct:c=0.7 (see mctscheck rules)")
	game := fs.String("game", "", "the `GAME`: "+gameNames())
	file := fs.String("positions", "", "check the positions of `FILE`, one a line: MOVES [SCORE] (- for stdin)")
	moves := fs.String("moves", "", "check this one position, given by its `MOVES`")
	limit := fs.Int("limit", 0, "check the first `N` positions of the file only (0: all)")
	seeds := fs.Int("seeds", defaultSeeds, "`N` searches (seeds) per position")
	seed := fs.Uint64("seed", 1, "the first `seed`")
	order := fs.Uint64("order", 0, "search every seed with the moves in the order drawn from `O`, as a witness's replay line says (0: see -keep-order)")
	budget := fs.Int("budget", defaultBudget, "the last budget, `N` simulations (64 × a power of two, ≥ 1024)")
	growth, backup := engineFlags(fs)
	keepOrder := fs.Bool("keep-order", false, "search every seed with the moves in the game's own order (default: each seed but the first draws an order)")
	maxNodes := fs.Int64("max-nodes", 100_000_000, "the solver's budget, `N` positions per value it gives (go: 4194304 unless given)")
	export := fs.Int("export", props.DefaultExportNodes, "export a witness position whose tree has at most `N` nodes as an explicit tree, and shrink it (0: never)")
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	deadline := addDeadlineFlag(fs)
	if err := fs.parse(e, args); err != nil {
		return err
	}
	e, cancel, err := e.withDeadline(*deadline)
	if err != nil {
		return err
	}
	defer cancel()
	gm, err := lookupGame(*game)
	if err != nil {
		return err
	}
	if !fs.isSet("max-nodes") {
		*maxNodes = gm.maxNodes()
	}
	in, err := parseRule(*ruleSpec)
	if err != nil {
		return err
	}
	defer in.Close()                                        // an external rule's program stops
	stop := context.AfterFunc(e.ctx, func() { in.Close() }) // at once on Ctrl-C, cutting a round trip short
	defer stop()

	if err := checkScale(1, *seeds); err != nil { // -trees is not a flag here
		return err
	}
	switch {
	case (*file == "") == !fs.isSet("moves"):
		return usagef("-positions, -moves: give one: a file of positions or one position")
	case *limit < 0:
		return usagef("-limit %d: want ≥ 0 (0: all)", *limit)
	case fs.isSet("limit") && *file == "":
		return usagef("-limit: only with -positions")
	case *seed == 0:
		return usagef("-seed 0: want at least 1")
	case *order != 0 && *keepOrder:
		return usagef("-order, -keep-order: give one")
	case *maxNodes < 1:
		return usagef("-max-nodes %d: want ≥ 1", *maxNodes)
	case *export < 0:
		return usagef("-export %d: want ≥ 0 (0: never)", *export)
	}
	if err := checkBudget(*budget); err != nil {
		return err
	}
	var positions []checkedPosition
	if *file != "" {
		if positions, err = readCheckedPositions(gm, *file, e.stdin, *limit); err != nil {
			return err
		}
	} else {
		p, err := gm.position("-moves", *moves, false)
		if err != nil {
			return err
		}
		positions = []checkedPosition{p}
	}
	for _, gp := range positions {
		if gp.over {
			return usagef("%s: position %q: the game is over, no move to judge", gp.where, gp.moves)
		}
	}
	g := core.GrowPractical
	if fs.isSet("growth") {
		g = growth.g
	}
	o := props.GameOptions{Options: props.Options{Seeds: *seeds, Seed: *seed, MaxBudget: *budget, Growth: g,
		Backup: backup.of(in), KeepOrder: *keepOrder, RuleSpec: in.Spec}, Game: gm.name(), Order: *order, ExportNodes: *export}
	if *export == 0 {
		o.ExportNodes = -1
	}
	start := time.Now()
	doc := checkGameDoc{Game: gm.name(), File: *file,
		Options: gameOptionsDoc{Seeds: *seeds, Seed: *seed, Order: *order, KeepOrder: *keepOrder, MinBudget: 64, MaxBudget: *budget,
			Growth: g.String(), Limit: *limit, MaxNodes: *maxNodes, Export: *export},
		ruleCheck: ruleCheck{Name: label(in), Spec: in.Spec, Backup: o.Backup.String(), Growth: g.String(),
			Predicted: predictionOf(in.Predicted)},
		Positions: []*props.Report{}}
	names := make([]string, len(positions))
	for i, gp := range positions {
		names[i] = shorten(gp.moves, 19)
	}
	prog := newProgress(e.stderr, e.tool.name(), names)
	prog.noun = "positions"
	for i, gp := range positions {
		prog.begin(i, sitesOf(in.Rule))
		o.Position = gp.moves
		o.Status = func(s props.Status) { prog.report(i, s) }
		g, oracle, err := gp.open(*maxNodes)
		var rep *props.Report
		if err == nil {
			rep, err = props.CheckGame(e.ctx, in.Rule, g, oracle, o)
		}
		if err == nil && gp.verify != nil {
			err = gp.verify(rep)
		}
		if err != nil && e.ctx.Err() != nil { // Ctrl-C or the deadline: the positions done are reported
			doc.Stopped = stoppedBy(e.ctx)
			prog.finish(i, "interrupted")
			break
		}
		if err != nil {
			prog.close()
			if errors.Is(err, props.ErrBeyondOracle) {
				return usagef("%s: %v (raise -max-nodes)", gp.where, err)
			}
			return fmt.Errorf("%s: %w", gp.where, err)
		}
		e.tool.addReplay(rep)
		prog.finish(i, string(rep.Verdict))
		doc.Positions = append(doc.Positions, rep)
		if rep.Verdict == props.Faulted {
			break // a broken rule: the other positions would not judge it either
		}
	}
	prog.close()
	doc.total(in.Predicted, gm.binary())
	doc.Elapsed = time.Since(start)
	checked := fmt.Sprintf("%d of %s checked", len(doc.Positions), nThings(len(positions), "position"))
	if doc.Stopped != "" {
		doc.stop(checked)
	}
	if *asJSON {
		if err := writeJSON(e.stdout, doc); err != nil {
			return err
		}
	} else {
		printCheckGame(e.stdout, &doc)
	}
	var found error
	switch {
	case doc.Verdict == props.Faulted:
		found = errFault
	case doc.Agreement == Contradicted:
		found = errFinding
	}
	if doc.Stopped != "" {
		return e.stopped(doc.Stopped, checked, found)
	}
	return found
}

// stop settles the verdict of a check that stopped (Ctrl-C, the
// deadline) after checked: a finding on a position that finished stands;
// otherwise what finished is no verdict, and the verdict is interrupted.
func (d *checkGameDoc) stop(checked string) {
	switch d.Verdict {
	case props.Faulted, props.Inconsistent, props.Stuck:
		d.Summary += fmt.Sprintf("; the check %s after %s", stoppedWords(d.Stopped), checked)
		return
	}
	d.Verdict, d.Agreement = props.Interrupted, Interrupted
	d.Summary = fmt.Sprintf("the check %s after %s, no verdict: %s so far", stoppedWords(d.Stopped), checked, d.Total.counts())
}

// shorten cuts s to n runes with an ellipsis.
func shorten(s string, n int) string {
	if s == "" {
		return "(empty)"
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// total sums the positions up and settles the verdict and the agreement.
func (d *checkGameDoc) total(p rules.Prediction, binary bool) {
	t := &d.Total
	for _, rep := range d.Positions {
		t.Positions++
		t.Sims += rep.Sims
		switch rep.Verdict {
		case props.Inconsistent:
			t.Inconsistent++
		case props.Inconclusive:
			t.Inconclusive++
		case props.Stuck:
			t.Stuck++
		case props.Faulted:
			t.Faulted++
		default:
			t.NoCounterexample++
		}
		t.Optimal = addShares(t.Optimal, rep.Curve)
		if len(rep.Optimal) < len(rep.Moves) {
			t.Decisive++
			t.OptimalDecisive = addShares(t.OptimalDecisive, rep.Curve)
		}
	}
	for _, sh := range [][]gameShare{t.Optimal, t.OptimalDecisive} {
		for k := range sh {
			if n := sh[k].Searches; n > 0 {
				sh[k].Share /= float64(n)
			}
		}
	}
	if t.OptimalDecisive == nil {
		t.OptimalDecisive = []gameShare{}
	}
	switch {
	case t.Faulted > 0:
		d.Verdict = props.Faulted
	case t.Inconsistent > 0:
		d.Verdict = props.Inconsistent
	case t.Stuck > 0:
		d.Verdict = props.Stuck
	case t.Inconclusive > 0:
		d.Verdict = props.Inconclusive
	default:
		d.Verdict = props.NoCounterexample
	}
	// Connect Four has draws: not a binary deterministic game.
	d.Agreement = agreementOnChosen(p, d.Verdict, binary || !p.BinaryOnly())
	d.Summary = fmt.Sprintf("%s: %s", d.Verdict, t.counts())
	if t.Faulted > 0 {
		d.Summary += fmt.Sprintf(", %d faulted (not judged: a fault of the rule, not a finding about consistency)", t.Faulted)
	}
}

// counts says the positions' verdicts.
func (t *gameTotal) counts() string {
	return fmt.Sprintf("of %s, %d inconsistent, %d stuck, %d inconclusive, %d no counterexample",
		nThings(t.Positions, "position"), t.Inconsistent, t.Stuck, t.Inconclusive, t.NoCounterexample)
}

// addShares adds the optimal decisions of a curve to the sums in sh.
func addShares(sh []gameShare, curve []props.CurvePoint) []gameShare {
	for k, c := range curve {
		if k == len(sh) {
			sh = append(sh, gameShare{Budget: c.Budget})
		}
		sh[k].Share += (1 - c.Wrong) * float64(c.Searches)
		sh[k].Searches += c.Searches
	}
	return sh
}

// percent formats a share as a whole percentage.
func percent(s float64) string { return fmt.Sprintf("%.0f%%", 100*s) }

func printCheckGame(w io.Writer, d *checkGameDoc) {
	fmt.Fprintf(w, "rule       %s (growth %s, backup %s)\n", d.Spec, d.Growth, d.Backup)
	p := d.Predicted
	fmt.Fprintf(w, "predicted  %s: %s (%s)\n", predictedShort(p), p.Why, p.Source)
	what := "the position" // none finished
	if len(d.Positions) > 0 {
		what = "position " + d.Positions[0].Position
	}
	if d.File != "" {
		what = fmt.Sprintf("%s of %s", nThings(len(d.Positions), "position"), d.File)
	}
	order := ""
	switch {
	case d.Options.Order != 0:
		order = fmt.Sprintf(", move order %d", d.Options.Order)
	case d.Options.KeepOrder:
		order = ", the game's own move order"
	}
	fmt.Fprintf(w, "checked    %s: %s × %s from %d%s, budgets %d to %d doubling\n",
		d.Game, what, nThings(d.Options.Seeds, "seed"), d.Options.Seed, order, d.Options.MinBudget, d.Options.MaxBudget)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := []string{"POSITION", "V", "VERDICT"}
	for _, s := range d.Total.Optimal {
		header = append(header, fmt.Sprint(s.Budget))
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, rep := range d.Positions {
		row := []string{shorten(rep.Position, 44), num(rep.Value), strings.ReplaceAll(string(rep.Verdict), "-", " ")}
		for _, c := range rep.Curve {
			row = append(row, percent(1-c.Wrong))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	row := []string{"total", "", fmt.Sprintf("%d/%d/%d", d.Total.Inconsistent, d.Total.Inconclusive, d.Total.NoCounterexample)}
	for _, s := range d.Total.Optimal {
		row = append(row, percent(s.Share))
	}
	fmt.Fprintln(tw, strings.Join(row, "\t"))
	if t := d.Total; t.Decisive > 0 && t.Decisive < t.Positions {
		row := []string{fmt.Sprintf("%d decisive", t.Decisive), "", ""}
		for _, s := range t.OptimalDecisive {
			row = append(row, percent(s.Share))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
	fmt.Fprintf(w, "\n(budget columns: the share of optimal root decisions over the seeds; total: inconsistent/inconclusive/no counterexample;\n decisive: the positions where some move is not optimal)\n")
	fmt.Fprintf(w, "verdict    %s\n", d.Summary)
	fmt.Fprintf(w, "prediction %s\n", d.Agreement)
	secs := d.Elapsed.Seconds()
	fmt.Fprintf(w, "speed      %s simulations/s (%d simulations in %.1fs)\n", rate(float64(d.Total.Sims)/max(secs, 1e-9)), d.Total.Sims, secs)
	for _, rep := range d.Positions {
		for _, rec := range rep.Recoveries {
			fmt.Fprintf(w, "recovers   %s %s\n", shorten(rep.Position, 20), rec)
		}
		if rep.Witness != nil {
			fmt.Fprintf(w, "\n%s", rep.Witness)
		}
	}
}

// nThings writes n things, e.g. "1 position", "4 positions".
func nThings(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
