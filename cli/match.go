package cli

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/match"
)

const matchUsage = `Usage: mctscheck match -a SPEC -b SPEC [-game go9|goN:komi=K|connect4] [-games N] [-budget N | -budgets N,M,...] [flags]

Match plays rule A against rule B: -games games per budget, A moving first
in the even-numbered games and B in the odd ones, each move chosen by a
search of the budget's simulations from the current position (practical
growth with roll-outs, light playouts on Go; the most visited child). It
prints A's score per game (a win 1, a draw 1/2) with its 95% Wilson
interval, per budget, and A's score as first and as second player.

The result depends on the flags only: game i is seeded from -seed and i,
whatever the number of workers, and -first K plays games K to K+N-1 of the
same match, so a long match can be run in parts. With -out it writes the
games: DIR/budget-N/game-I.sgf for Go, DIR/budget-N/games.txt (one line a
game: index, first player, result, move string) for Connect Four.
Progress goes to stderr.

This is the experiment of the paper's Table 1: Algorithm 2 around a rule
against the rule alone.

Examples:

  mctscheck match -a threshold:v=0.3,rule=mc-rave -b mc-rave -game go9 -games 600 -budgets 1000,4000 -out games
  mctscheck match -a uct -b uct:c=0.2 -game connect4 -games 100 -budget 2000 -json
`

// matchDoc is the JSON document of match.
type matchDoc struct {
	Game    string        `json:"game"`
	A       string        `json:"a"`
	B       string        `json:"b"`
	Games   int           `json:"games"`
	First   int           `json:"first"`
	Seed    uint64        `json:"seed"`
	Budgets []matchBudget `json:"budgets"`
	Elapsed time.Duration `json:"elapsed_ns"`
}

// matchBudget is the result of the games at one budget, from A's side.
type matchBudget struct {
	Budget     int      `json:"budget"`
	Games      int      `json:"games"`
	Wins       int      `json:"wins"`
	Draws      int      `json:"draws"`
	Losses     int      `json:"losses"`
	Rate       float64  `json:"rate"`
	Low        float64  `json:"low"`
	High       float64  `json:"high"`
	FirstRate  *float64 `json:"first_rate"`
	SecondRate *float64 `json:"second_rate"`
	Moves      float64  `json:"moves"`
	Ends       []count  `json:"ends"`
	ElapsedNS  int64    `json:"elapsed_ns"`
}

// count is how many games ended one way.
type count struct {
	End   string `json:"end"`
	Games int    `json:"games"`
}

func cmdMatch(e *env, args []string) error {
	fs := newFlagSet("match", matchUsage)
	aSpec := fs.String("a", "", "rule A's `SPEC`, e.g. threshold:v=0.3,rule=mc-rave")
	bSpec := fs.String("b", "", "rule B's `SPEC`, e.g. mc-rave")
	gameName := fs.String("game", "go9", "the `GAME`: "+gameNames())
	games := fs.Int("games", 100, "`N` games per budget")
	first := fs.Int("first", 0, "the index `K` of the first game (to run a match in parts)")
	budget := fs.Int("budget", 1000, "`N` simulations per move")
	budgetList := fs.String("budgets", "", "a comma-separated `LIST` of budgets, one match each (instead of -budget)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "`N` games played at once")
	seed := fs.Uint64("seed", 1, "the match's `seed`")
	out := fs.String("out", "", "write the games to `DIR`")
	asJSON := fs.Bool("json", false, "print one JSON document instead of the table")
	prof := profileFlagOn(fs)
	if err := fs.parse(e, args); err != nil {
		return err
	}
	if *aSpec == "" || *bSpec == "" {
		return usagef("-a and -b: give both rules' specs, e.g. -a threshold:v=0.3,rule=mc-rave -b mc-rave")
	}
	a, err := matchPlayer("-a", *aSpec)
	if err != nil {
		return err
	}
	b, err := matchPlayer("-b", *bSpec)
	if err != nil {
		return err
	}
	gm, err := lookupGame(*gameName)
	if err != nil {
		return err
	}
	game, err := gm.forMatch()
	if err != nil {
		return usagef("-game %q: %v", *gameName, err)
	}
	name := gm.name()
	switch {
	case *games < 1 || *games > match.MaxGames:
		return usagef("-games %d: want 1 to %d", *games, match.MaxGames)
	case *first < 0 || *first > match.MaxGames:
		return usagef("-first %d: want 0 to %d", *first, match.MaxGames)
	case *workers < 1:
		return usagef("-workers %d: want at least 1", *workers)
	}
	budgets := []int{*budget}
	if fs.isSet("budgets") {
		if fs.isSet("budget") {
			return usagef("-budget and -budgets: give one of them")
		}
		if budgets, err = parseBudgets(*budgetList); err != nil {
			return err
		}
	}
	for _, b := range budgets {
		if b < match.MinBudget || b > match.MaxBudget {
			return usagef("-budget %d: want %d to %d simulations (a search needs %d to try a move)", b, match.MinBudget, match.MaxBudget, match.MinBudget)
		}
	}
	if *out != "" {
		if err := writableDir(*out); err != nil {
			return usagef("-out %s: %v", *out, err)
		}
	}

	doc := matchDoc{Game: name, A: a.Name, B: b.Name, Games: *games, First: *first, Seed: *seed}
	start := time.Now()
	err = withProfile(prof, func() error {
		for _, bud := range budgets {
			t0 := time.Now()
			last := -1
			cfg := match.Config{Game: game, A: a, B: b, Games: *games, First: *first, Budget: bud, Workers: *workers, Seed: *seed,
				Progress: func(done int, _ *match.Record) {
					// A line every 5% of the games and at the end.
					if step := done * 20 / *games; step != last {
						last = step
						fmt.Fprintf(e.stderr, "%s: match: %s, budget %d: %d/%d games (%.0fs)\n", e.tool.name(),
							name, bud, done, *games, time.Since(t0).Seconds())
					}
				}}
			res, err := match.Play(e.ctx, cfg)
			if err != nil {
				if _, ok := errors.AsType[*core.RuleError](err); ok {
					fmt.Fprintf(e.stderr, "%s: match: a rule failed: %v\n", e.tool.name(), err)
					return errFault
				}
				return err
			}
			mb := budgetResult(bud, res)
			mb.ElapsedNS = int64(time.Since(t0))
			doc.Budgets = append(doc.Budgets, mb)
			fmt.Fprintf(e.stderr, "%s: match: %s, budget %d: A %s\n", e.tool.name(), name, bud, rateText(&mb))
			if *out != "" {
				if err := writeGames(*out, name, bud, a.Name, b.Name, res); err != nil {
					return fmt.Errorf("-out: %w", err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	doc.Elapsed = time.Since(start)
	if *asJSON {
		return writeJSON(e.stdout, doc)
	}
	printMatch(e, &doc)
	return nil
}

// matchPlayer parses a rule spec for -a or -b.
func matchPlayer(flag, spec string) (match.Player, error) {
	in, err := parseRule(spec)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			return match.Player{}, usagef("%s%s", flag, strings.TrimPrefix(ue.msg, "-rule"))
		}
		return match.Player{}, err
	}
	return match.Player{Name: in.Spec, Rule: in.Rule, Backup: in.Backup}, nil
}

// parseBudgets reads -budgets: at least one budget.
func parseBudgets(list string) ([]int, error) {
	if strings.TrimSpace(list) == "" {
		return nil, usagef("-budgets %q: give a comma-separated list of budgets, e.g. 1000,4000", list)
	}
	var out []int
	for f := range strings.SplitSeq(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, usagef("-budgets %q: %q is not a number of simulations", list, f)
		}
		out = append(out, n)
	}
	return out, nil
}

// budgetResult turns a match's result into its part of the document.
func budgetResult(budget int, res *match.Result) matchBudget {
	mb := matchBudget{Budget: budget, Games: res.Games, Wins: res.Wins, Draws: res.Draws, Losses: res.Losses,
		Rate: res.Rate, Low: res.Low, High: res.High, FirstRate: finite(res.FirstRate), SecondRate: finite(res.SecondRate)}
	moves := 0
	for i := range res.Records {
		r := &res.Records[i]
		moves += len(r.Moves)
		k := 0
		for k < len(mb.Ends) && mb.Ends[k].End != r.End {
			k++
		}
		if k == len(mb.Ends) {
			mb.Ends = append(mb.Ends, count{End: r.End})
		}
		mb.Ends[k].Games++
	}
	mb.Moves = float64(moves) / float64(max(res.Games, 1))
	return mb
}

// rateText is A's score with its interval, e.g. "52.3% [48.3%, 56.3%] (±4.0%)".
func rateText(mb *matchBudget) string {
	return fmt.Sprintf("%.1f%% [%.1f%%, %.1f%%] (±%.1f%%) over %d games", 100*mb.Rate, 100*mb.Low, 100*mb.High,
		100*(mb.High-mb.Low)/2, mb.Games)
}

// writeGames writes the games of one budget under dir.
func writeGames(dir, game string, budget int, a, b string, res *match.Result) error {
	sub := filepath.Join(dir, fmt.Sprintf("budget-%d", budget))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return err
	}
	if game != "connect4" {
		for i := range res.Records {
			r := &res.Records[i]
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("game-%04d.sgf", r.Index)), []byte(r.Text), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	var s strings.Builder
	fmt.Fprintf(&s, "# Connect Four, budget %d; A = %s, B = %s\n", budget, a, b)
	fmt.Fprintf(&s, "# game first result moves (columns 1-7, first player first; result for the first player)\n")
	for i := range res.Records {
		r := &res.Records[i]
		who := "B"
		if r.AFirst {
			who = "A"
		}
		fmt.Fprintf(&s, "%d %s %s %s\n", r.Index, who, resultText(r.First), r.Text)
	}
	name := "games.txt"
	if len(res.Records) > 0 && res.Records[0].Index > 0 {
		name = fmt.Sprintf("games-%d.txt", res.Records[0].Index)
	}
	return os.WriteFile(filepath.Join(sub, name), []byte(s.String()), 0o644)
}

// resultText writes an outcome for the first player as 1-0, 1/2 or 0-1.
func resultText(first float64) string {
	switch first {
	case 1:
		return "1-0"
	case 0:
		return "0-1"
	}
	return "1/2"
}

func printMatch(e *env, d *matchDoc) {
	w := e.stdout
	fmt.Fprintf(w, "game      %s\n", d.Game)
	fmt.Fprintf(w, "A         %s\n", d.A)
	fmt.Fprintf(w, "B         %s\n", d.B)
	fmt.Fprintf(w, "games     %d per budget (from %d), colours alternating, seed %d\n", d.Games, d.First, d.Seed)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "budget\tgames\tA wins\tdraws\tB wins\tA's score\t95% interval\tA first\tA second\tmoves\t")
	for _, b := range d.Budgets {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%.1f%%\t[%.1f%%, %.1f%%]\t%s\t%s\t%.1f\t\n", b.Budget, b.Games, b.Wins, b.Draws, b.Losses,
			100*b.Rate, 100*b.Low, 100*b.High, pct(b.FirstRate), pct(b.SecondRate), b.Moves)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "A's score: a win 1, a draw 1/2, per game; 95% Wilson interval.")
}

// pct formats a rate as a percentage, "-" when there is none.
func pct(v *float64) string {
	if v == nil || math.IsNaN(*v) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100**v)
}
