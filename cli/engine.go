package cli

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/mctscheck/mctscheck/engine"
	"github.com/mctscheck/mctscheck/rules"
)

const engineUsage = `Usage: mctscheck engine -gtp 'CMD ... {visits} ... {seed}' -positions FILE [flags]

Engine checks a real Go engine, spoken to over GTP, against positions whose
optimal moves are known exactly (a positions file; engine/testdata/positions.txt
has 57, solved by the project's exhaustive solver). For each position,
budget and seed it starts the engine with {visits}, {seed} and {network}
replaced (the budget, the seed, and a Leela Zero network file the check
writes from the position's priors), sets the position up with play
commands, asks genmove, and reports the share of optimal moves against the
budget. It flags positions where that share stays at 0 or falls as the
budget grows. An engine that crashes, times out, plays an illegal move or
answers garbage is reported and reaped, and the check goes on.

Examples:

  mctscheck engine -positions engine/testdata/positions.txt \
    -gtp 'leelaz --cpu-only -g --noponder -d -r 0 --timemanage off -t 1 -v {visits} -s {seed} -w {network}'
  mctscheck engine -positions engine/testdata/positions.txt -budgets 1 -seeds 1 \
    -gtp 'gnugo --mode gtp --chinese-rules --positional-superko'

Each command's reply has -timeout (setup: all its play commands together).
Exit codes: 0 nothing flagged, 1 a position flagged or an engine fault,
2 bad flags or positions, or an engine command that is not found.
`

func cmdEngine(e *env, args []string) error {
	fs := newFlagSet("engine", engineUsage)
	command := fs.String("gtp", "", "the engine's `command` line, with {visits}, {seed} and {network} placeholders")
	positions := fs.String("positions", "", "the positions `FILE`")
	budgets := fs.String("budgets", "1..1024", "the `budgets`: a doubling range LO..HI or a comma-separated list")
	seeds := fs.Int("seeds", 4, "seeds 1 to `N` at each budget")
	timeout := fs.Duration("timeout", 60*time.Second, "bound on each reply (genmove included)")
	only := fs.String("case", "", "check only the positions of these `cases` (comma-separated)")
	quiet := fs.Bool("q", false, "no progress lines on stderr")
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	if err := fs.parse(e, args); err != nil {
		return err
	}
	if *command == "" || *positions == "" {
		return usagef("engine needs -gtp and -positions (see mctscheck engine -h)")
	}
	words, err := rules.SplitCommand(*command)
	if err != nil {
		return usagef("-gtp: %v", err)
	}
	if _, err := exec.LookPath(words[0]); err != nil {
		return usagef("-gtp: %v", err)
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
	ps, err := engine.ReadPositions(*positions)
	if err != nil {
		return usagef("%v", err)
	}
	if *only != "" {
		want := strings.Split(*only, ",")
		var kept []*engine.Position
		for _, p := range ps {
			for _, c := range want {
				if p.Case == strings.TrimSpace(c) {
					kept = append(kept, p)
				}
			}
		}
		if len(kept) == 0 {
			return usagef("-case %q: no position of these cases", *only)
		}
		ps = kept
	}
	cfg := engine.Config{Command: *command, Budgets: bs, Timeout: *timeout}
	for s := 1; s <= *seeds; s++ {
		cfg.Seeds = append(cfg.Seeds, s)
	}
	if !*quiet {
		cfg.Progress = e.stderr
	}
	rep, err := engine.Run(e.ctx, cfg, ps)
	if err != nil {
		return err
	}
	if *asJSON {
		if err := writeJSON(e.stdout, rep.Doc()); err != nil {
			return err
		}
	} else {
		rep.WriteText(e.stdout)
	}
	if rep.Findings() > 0 {
		return errFinding
	}
	return nil
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
