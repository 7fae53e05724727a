package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mctscheck/mctscheck/engine"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

const engineUsage = `Usage: mctscheck engine -gtp 'CMD ... {visits} ... {seed}' -positions FILE [flags]

Engine checks a real Go engine, spoken to over GTP, against positions whose
optimal moves are known exactly (a positions file; engine/testdata/positions.txt
has 57, solved by the project's exhaustive solver). It first solves every
position again, then, for each position, budget and seed, starts the engine
with {visits}, {seed} and {network} replaced (the budget, the seed, and a
Leela Zero network file the check writes from the position's priors), sets
the position up with play commands, asks genmove, and reports the share of
optimal moves against the budget. It flags positions where that share stays
at 0 or falls as the budget grows, or where some seeds never find an optimal
move that others find, and says why the engine missed it where the engine
reports its root visits (Leela Zero does on stderr). An engine that crashes,
times out, plays an illegal move or answers garbage is reported and reaped,
and the check goes on; if its first 3 trials all fault the same way, the
check stops there.

Budgets reach the engine only through {visits}: each trial's command has
it replaced by the budget, so it must be the engine's own budget flag's
argument (Leela Zero: -v {visits}; Pachi: -t ={visits}, its playouts). A
command without {visits} runs once per seed at the engine's own budget.
-budgets defaults to 16..16384 visits: on the positions of
engine/testdata/positions.txt Leela Zero finds the normal-prior moves from
2^11 to 2^14 visits, so smaller budgets flag them all; a position of one's
own may need more (raise HI). An engine may have a range of its own:
Pachi refuses fewer than 500 playouts. Before solving, the check starts
the engine once with the smallest budget; if it refuses to start and
names a minimum, the check stops there (exit 2) and says which -budgets
to give (-budgets 512..16384 for Pachi); a trial that faults naming a
minimum gives the same advice in the report.

A position is flagged when its share stays at 0 at every budget, falls
from its best to the largest budget, or when some seeds never play an
optimal move that others play: at two budgets or more, the seeds that
never find it at any budget; at a single budget, "the seeds disagree".

Progress, with an estimate of the time left, goes to stderr. Ctrl-C stops
the check and writes the trials that finished. The report goes to stdout
and to the -out directory (report.md, report.json and, from mctscheck
itself, share.png and share.svg: the share of optimal moves against the
budget per case of positions).

Examples:

  mctscheck engine -positions engine/testdata/positions.txt \
    -gtp 'leelaz --cpu-only -g --noponder -d -r 0 --timemanage off -t 1 -v {visits} -s {seed} -w {network}'
  mctscheck engine -positions engine/testdata/positions.txt -budgets 1 -seeds 1 \
    -gtp 'gnugo --mode gtp --chinese-rules --positional-superko'
  mctscheck engine -positions engine/testdata/rave-positions.txt -budgets 512..16384 \
    -gtp 'pachi -d 4 -t ={visits} -s {seed} --nodcnn --nopatterns --nojoseki -e uct threads=1,pondering=0,dumpthres=-1,playout=light'

A command not on PATH is looked for in /usr/games and /usr/local/games too,
where Debian puts leelaz and gnugo. Each command's reply has -timeout
(setup: all its play commands together).
Exit codes: 0 nothing flagged and no fault; 1 a position flagged (faults
or not); 2 bad flags, a bad positions file (wrong stated answers, or a
position the solver cannot solve within -solve-nodes), or an engine command
that is not found; 4 faults of the engine and nothing flagged, or a check
stopped by its first faults; 130 Ctrl-C.
`

// defaultEngineBudgets are engine's budgets unless -budgets says: the
// range of docs/engines.md's tables, over which Leela Zero finds the
// normal-prior moves of engine/testdata/positions.txt (2^11 to 2^14).
const defaultEngineBudgets = "16..16384"

// defaultEngineOut is engine's report directory unless -out says.
const defaultEngineOut = "mctscheck-engine-report"

// gamesDirs are where Debian's packages put games such as leelaz and
// gnugo, which root's PATH does not include.
var gamesDirs = []string{"/usr/games", "/usr/local/games"}

func cmdEngine(e *env, args []string) error {
	fs := newFlagSet("engine", engineUsage)
	command := fs.String("gtp", "", "the engine's `command` line, with {visits}, {seed} and {network} placeholders")
	positions := fs.String("positions", "", "the positions `FILE`")
	budgets := fs.String("budgets", defaultEngineBudgets, "the `budgets`, each put in the command's {visits}: a doubling range LO..HI or a comma-separated list")
	seeds := fs.Int("seeds", 4, "seeds 1 to `N` at each budget")
	timeout := fs.Duration("timeout", 60*time.Second, "bound on each reply (genmove included)")
	only := fs.String("case", "", "check only the positions of these `cases` (comma-separated)")
	solveNodes := fs.Int("solve-nodes", engine.DefaultSolveNodes, "the solver's bound on the positions it searches for one position (`N`)")
	out := fs.String("out", defaultEngineOut, "the report `DIR`ectory; empty for none")
	quiet := fs.Bool("q", false, "no progress lines on stderr")
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	if err := fs.parse(e, args); err != nil {
		return err
	}
	if *command == "" || *positions == "" {
		return usagef("engine needs -gtp and -positions (see mctscheck engine -h)")
	}
	cmdline, found, err := findEngine(*command)
	if err != nil {
		return usagef("-gtp: %v", err)
	}
	if found != "" && !*quiet {
		fmt.Fprintf(e.stderr, "%s: engine: %s is not on PATH; using %s\n", e.tool.name(), strings.Fields(*command)[0], found)
	}
	bs, err := parseVisitBudgets(*budgets)
	if err != nil {
		return usagef("-budgets: %v", err)
	}
	if *seeds < 1 || *seeds > 1000 {
		return usagef("-seeds %d, want 1 to 1000", *seeds)
	}
	if *timeout <= 0 {
		return usagef("-timeout %v, want a positive duration", *timeout)
	}
	if *solveNodes < 1 {
		return usagef("-solve-nodes %d, want at least 1", *solveNodes)
	}
	if *out != "" {
		if err := writableDir(*out); err != nil {
			return usagef("-out %s: %v", *out, err)
		}
	}
	ps, err := engine.ReadPositions(*positions)
	if err != nil {
		return usagef("%v", err)
	}
	if *only != "" {
		if ps, err = positionsOfCases(ps, *only); err != nil {
			return err
		}
	}
	cfg := engine.Config{Command: cmdline, Budgets: bs, Timeout: *timeout, Solve: engine.SolveLimits{Nodes: *solveNodes}}
	for s := 1; s <= *seeds; s++ {
		cfg.Seeds = append(cfg.Seeds, s)
	}
	var prog *engineProgress
	if !*quiet {
		prog = newEngineProgress(e.stderr, e.tool.name()+": engine: ")
		cfg.Progress = prog.update
	}
	rep, err := engine.Run(e.ctx, cfg, ps)
	if prog != nil {
		prog.close()
	}
	if be, ok := errors.AsType[*engine.BudgetError](err); ok {
		return usagef("-budgets %s: %v", *budgets, be)
	}
	if pe, ok := errors.AsType[*engine.PositionError](err); ok {
		if errors.As(err, new(*engine.NodeLimitError)) {
			return usagef("%s: %v (-solve-nodes raises the bound)", *positions, pe)
		}
		return usagef("%s: %v", *positions, pe)
	}
	if err != nil && (rep == nil || !rep.Interrupted) {
		return err
	}
	if werr := writeEngineReport(e, rep, *asJSON, *out); werr != nil {
		return werr
	}
	switch {
	case rep.Interrupted:
		written := ""
		if *out != "" {
			written = " and to " + *out
		}
		return &interruption{fmt.Sprintf("interrupted after %d of %d trials; the finished ones are written above%s", rep.Done, rep.Total, written)}
	case rep.Stopped != "":
		return &faultError{fmt.Sprintf("stopped after %d of %d trials: %s: %s", rep.Done, rep.Total, rep.Stopped, rep.FirstFault())}
	case rep.Flagged() > 0:
		return errFinding
	case rep.Faults > 0:
		return &faultError{fmt.Sprintf("%d of %d trials faulted (the report lists them) and no position is flagged", rep.Faults, rep.Done)}
	}
	return nil
}

// faultError ends a command with exit code 4, a fault of what was
// checked, after its message on stderr.
type faultError struct{ msg string }

func (e *faultError) Error() string { return e.msg }

// findEngine checks that the command's program exists. A program named
// without a directory that is not on PATH is looked for in gamesDirs;
// if found there, the command is returned with its path, and found is it.
func findEngine(command string) (cmdline, found string, err error) {
	words, err := rules.SplitCommand(command)
	if err != nil {
		return "", "", err
	}
	if _, err := exec.LookPath(words[0]); err == nil {
		return command, "", nil
	} else if strings.ContainsRune(words[0], filepath.Separator) {
		return "", "", err
	}
	for _, dir := range gamesDirs {
		p := filepath.Join(dir, words[0])
		if _, err := exec.LookPath(p); err == nil {
			words[0] = p
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = props.ShellQuote(w)
			}
			return strings.Join(quoted, " "), p, nil
		}
	}
	return "", "", fmt.Errorf("%s: not found on PATH, nor in %s", words[0], strings.Join(gamesDirs, " or "))
}

// positionsOfCases keeps the positions of the cases listed.
func positionsOfCases(ps []*engine.Position, list string) ([]*engine.Position, error) {
	want := strings.Split(list, ",")
	var kept []*engine.Position
	for _, p := range ps {
		for _, c := range want {
			if p.Case == strings.TrimSpace(c) {
				kept = append(kept, p)
			}
		}
	}
	if len(kept) == 0 {
		return nil, usagef("-case %q: no position of these cases", list)
	}
	return kept, nil
}

// writeEngineReport prints the report (text or JSON) on stdout and, with
// a directory, writes report.md, report.json and the figure there.
func writeEngineReport(e *env, rep *engine.Report, asJSON bool, dir string) error {
	var text, js bytes.Buffer
	rep.WriteText(&text)
	if err := writeJSON(&js, rep.Doc()); err != nil {
		return err
	}
	if asJSON {
		e.stdout.Write(js.Bytes())
	} else {
		e.stdout.Write(text.Bytes())
	}
	if dir == "" {
		return nil
	}
	if err := os.WriteFile(filepath.Join(dir, "report.json"), js.Bytes(), 0o644); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	var figs []string
	if plot := e.tool.PlotEngine; plot != nil && rep.Stopped == "" {
		var err error
		if figs, err = plot(dir, rep.ClassShares()); err != nil {
			return fmt.Errorf("-out: the figure: %w", err)
		}
	}
	var md bytes.Buffer
	fmt.Fprintf(&md, "# %s engine\n\nEngine: `%s`  \nBudgets (visits): %s; seeds 1 to %d.\n\n",
		e.tool.name(), rep.Config.Command, joinInts(rep.Config.Budgets), len(rep.Config.Seeds))
	if len(figs) > 0 {
		fmt.Fprintf(&md, "![The share of optimal moves against the budget, per case of positions](%s)\n\n", figs[0])
	}
	fmt.Fprintf(&md, "```text\n%s```\n", text.String())
	if err := os.WriteFile(filepath.Join(dir, "report.md"), md.Bytes(), 0o644); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	if !asJSON {
		fmt.Fprintf(e.stdout, "Report: %s (%s)\n", path.Join(dir, "report.md"), strings.Join(append([]string{"report.md", "report.json"}, figs...), ", "))
	}
	return nil
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// parseVisitBudgets reads "LO..HI" (doubling from LO) or "A,B,C" (increasing).
func parseVisitBudgets(s string) ([]int, error) {
	var out []int
	if lo, hi, ok := strings.Cut(s, ".."); ok {
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a < 1 || b < a || b > 1<<24 {
			return nil, fmt.Errorf("%q: want LO..HI with 1 ≤ LO ≤ HI ≤ 2^24", s)
		}
		for v := a; v <= b; v *= 2 {
			out = append(out, v)
		}
		return out, nil
	}
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 || v > 1<<24 || len(out) > 0 && v <= out[len(out)-1] {
			return nil, fmt.Errorf("%q: want increasing budgets from 1 to 2^24", s)
		}
		out = append(out, v)
	}
	return out, nil
}
