package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/gtp"
	"github.com/mctscheck/mctscheck/rules"
)

// Config is an engine check.
type Config struct {
	// Command is the engine's command line, in which {visits}, {seed} and
	// {network} are replaced by the budget, the seed and the path of the
	// position's Leela Zero network (written by the check).
	Command string
	// Budgets are the search budgets, in increasing order; Seeds the
	// seeds played at each budget.
	Budgets []int
	Seeds   []int
	// Timeout bounds each command's reply (genmove included); 0 means 60 s.
	Timeout time.Duration
	// Progress, if not nil, gets one line per position.
	Progress io.Writer
}

// Trial is one genmove.
type Trial struct {
	Budget, Seed int
	// Move is the engine's move (361 for the pass, -1 for resign or a
	// fault), Reply its text.
	Move    int
	Reply   string
	Optimal bool
	// Winrate is the win rate the engine reported for its move on stderr
	// (Leela Zero's "V:"), or -1.
	Winrate float64
	// Fault is empty, or says what went wrong: the engine crashed, timed
	// out, answered garbage or an illegal move, or failed a command.
	Fault string
}

// PositionResult is what the engine did on one position.
type PositionResult struct {
	Position *Position
	Solution *Solution
	// Priors are the priors of Solution.Moves from the position's network;
	// OptimalPrior their sum over the optimal moves.
	Priors       []float64
	OptimalPrior float64
	Trials       []Trial
	// Flag, if not empty, is a finding: the share of optimal moves stays
	// at 0 or falls as the budget grows.
	Flag string
}

// Report is the result of a check.
type Report struct {
	Config    Config
	Positions []*PositionResult
	Faults    int
}

// Findings counts the flagged positions and the faults.
func (r *Report) Findings() int {
	n := r.Faults
	for _, p := range r.Positions {
		if p.Flag != "" {
			n++
		}
	}
	return n
}

// Run checks the engine on the positions: for each position, budget and
// seed it starts the engine, sets the position up with play commands,
// asks genmove for the player to move and compares the move with the
// exact solution. A fault (a crash, a timeout, garbage, an illegal move)
// is recorded in its trial; the engine is always reaped, and the check
// goes on. Run returns an error only for bad configurations and
// unsolvable positions, or when ctx ends.
func Run(ctx context.Context, cfg Config, positions []*Position) (*Report, error) {
	if cfg.Timeout == 0 {
		cfg.Timeout = 60 * time.Second
	}
	words, err := rules.SplitCommand(cfg.Command)
	if err != nil {
		return nil, err
	}
	if len(cfg.Budgets) == 0 || len(cfg.Seeds) == 0 {
		return nil, errors.New("engine: no budgets or no seeds")
	}
	usesNetwork := strings.Contains(cfg.Command, "{network}")
	if !strings.Contains(cfg.Command, "{visits}") {
		cfg.Budgets = cfg.Budgets[:1] // the engine decides its budget
	}
	dir := ""
	if usesNetwork {
		if dir, err = os.MkdirTemp("", "mctscheck-engine-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	}
	rep := &Report{Config: cfg}
	solved := map[string]*Solution{} // positions that differ only in priors
	for i, p := range positions {
		key := fmt.Sprint(p.Stones, p.ToMove)
		sol := solved[key]
		if sol == nil {
			if sol, err = p.Solve(SolveLimits{}); err != nil {
				return nil, fmt.Errorf("position %s: %w", p.Name, err)
			}
			solved[key] = sol
		}
		if err := p.agrees(sol); err != nil {
			return nil, fmt.Errorf("position %s: %w", p.Name, err)
		}
		pr := &PositionResult{Position: p, Solution: sol, Priors: p.Priors(sol.Moves)}
		for j, m := range sol.Moves {
			if slices.Contains(sol.Optimal, m) {
				pr.OptimalPrior += pr.Priors[j]
			}
		}
		network := ""
		if usesNetwork {
			if network, err = writeNetwork(dir, p); err != nil {
				return nil, err
			}
		}
		for _, budget := range cfg.Budgets {
			for _, seed := range cfg.Seeds {
				args := make([]string, len(words))
				for k, w := range words {
					w = strings.ReplaceAll(w, "{visits}", strconv.Itoa(budget))
					w = strings.ReplaceAll(w, "{seed}", strconv.Itoa(seed))
					args[k] = strings.ReplaceAll(w, "{network}", network)
				}
				t := trial(ctx, args, p, sol, cfg.Timeout)
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				t.Budget, t.Seed = budget, seed
				if t.Fault != "" {
					rep.Faults++
				}
				pr.Trials = append(pr.Trials, t)
			}
		}
		pr.Flag = flag(pr, cfg)
		rep.Positions = append(rep.Positions, pr)
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "[%d/%d] %s: %s\n", i+1, len(positions), p.Name, pr.shares(cfg))
		}
	}
	return rep, nil
}

// agrees checks the file's stated answers against the solution.
func (p *Position) agrees(sol *Solution) error {
	want := map[float64]string{1: "win", 0: "loss", 0.5: "draw"}[sol.Value]
	if p.Value != "" && p.Value != want {
		return fmt.Errorf("the file says %s, the solver %s", p.Value, want)
	}
	if len(p.Optimal) > 0 && !slices.Equal(p.Optimal, sol.Optimal) {
		return fmt.Errorf("the file's optimal moves %s differ from the solver's %s", vertices(p.Optimal), vertices(sol.Optimal))
	}
	return nil
}

func vertices(ms []int) string {
	var s []string
	for _, m := range ms {
		s = append(s, Vertex(m))
	}
	return strings.Join(s, " ")
}

// trial runs one genmove.
func trial(ctx context.Context, args []string, p *Position, sol *Solution, timeout time.Duration) Trial {
	t := Trial{Move: -1, Winrate: -1}
	proc, err := start(args)
	if err != nil {
		t.Fault = "cannot start: " + err.Error()
		return t
	}
	defer proc.close()
	setup, _, _ := p.Setup()
	deadline := time.Now().Add(timeout)
	fail := func(command string, err error) Trial {
		switch {
		case errors.Is(err, errTimeout):
			t.Fault = fmt.Sprintf("timeout: no reply to %q within %v", command, timeout)
		case errors.As(err, new(*gtp.Error)):
			t.Fault = fmt.Sprintf("error reply: %v", err)
		case errors.Is(err, io.EOF) || strings.Contains(err.Error(), "broken pipe") || strings.Contains(err.Error(), "file already closed"):
			t.Fault = fmt.Sprintf("crash: the engine ended during %q (%s)", command, proc.exited())
		default:
			t.Fault = fmt.Sprintf("garbage: %v", err)
		}
		if s := lastLines(proc.stderr.String(), 3); s != "" {
			t.Fault += "; stderr: " + s
		}
		return t
	}
	commands := []string{"boardsize 19", "clear_board", "komi 7.5"}
	for _, m := range setup {
		commands = append(commands, "play "+m.GTP())
	}
	for _, c := range commands {
		if _, err := proc.send(ctx, c, deadline); err != nil {
			return fail(c, err)
		}
	}
	color := "b"
	if p.ToMove == goboard.White {
		color = "w"
	}
	c := "genmove " + color
	reply, err := proc.send(ctx, c, time.Now().Add(timeout))
	if err != nil {
		return fail(c, err)
	}
	t.Reply = reply
	if strings.EqualFold(reply, "resign") {
		t.Optimal = sol.Value == 0 // resigning a lost position loses no more
		t.Winrate = winrate(proc.stderr.String(), reply)
		return t
	}
	m, err := goboard.ParseVertex(reply, Size)
	if err != nil {
		t.Fault = fmt.Sprintf("garbage: genmove answered %q", reply)
		return t
	}
	if !slices.Contains(sol.Moves, m) {
		t.Fault = fmt.Sprintf("illegal move: genmove answered %s, which is not a legal move here (legal: %s)", Vertex(m), vertices(sol.Moves))
		return t
	}
	t.Move = m
	t.Optimal = slices.Contains(sol.Optimal, m)
	// Let the engine finish writing its stderr before reading it.
	proc.close()
	t.Winrate = winrate(proc.stderr.String(), Vertex(m))
	return t
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// counts returns, for budget b, the trials without fault, and those among
// them whose move is optimal.
func (pr *PositionResult) counts(b int) (played, optimal int) {
	for _, t := range pr.Trials {
		if t.Budget != b || t.Fault != "" {
			continue
		}
		played++
		if t.Optimal {
			optimal++
		}
	}
	return
}

// shares renders the shares of optimal moves by budget.
func (pr *PositionResult) shares(cfg Config) string {
	var s []string
	for _, b := range cfg.Budgets {
		n, k := pr.counts(b)
		s = append(s, fmt.Sprintf("%d/%d", k, n))
	}
	return strings.Join(s, " ")
}

// flag returns a finding about the position, or "".
func flag(pr *PositionResult, cfg Config) string {
	sol := pr.Solution
	if len(sol.Optimal) == len(sol.Moves) {
		return "" // every move is optimal
	}
	what := "an optimal move"
	if len(sol.Optimal) == 1 {
		what = "the only " + map[float64]string{1: "winning", 0: "", 0.5: "drawing"}[sol.Value] + " move " + Vertex(sol.Optimal[0])
		what = strings.Replace(what, "only  move", "only optimal move", 1)
	}
	last := cfg.Budgets[len(cfg.Budgets)-1]
	zero := true
	bestShare, bestBudget := -1.0, 0
	for _, b := range cfg.Budgets {
		n, k := pr.counts(b)
		if n == 0 {
			continue
		}
		if k > 0 {
			zero = false
		}
		if sh := float64(k) / float64(n); sh > bestShare {
			bestShare, bestBudget = sh, b
		}
	}
	if bestShare < 0 {
		return "" // every trial failed: the faults say so
	}
	if zero {
		n, _ := pr.counts(last)
		return fmt.Sprintf("0 of %d seeds at every budget up to %s: the engine does not find %s", n, budgetString(last), what)
	}
	n, k := pr.counts(last)
	if n > 0 && float64(k)/float64(n) < bestShare {
		bn, bk := pr.counts(bestBudget)
		return fmt.Sprintf("the share of %s falls from %d/%d at %s to %d/%d at %s", what, bk, bn, budgetString(bestBudget), k, n, budgetString(last))
	}
	return ""
}

// budgetString writes a budget as a power of two when it is one.
func budgetString(b int) string {
	if b > 0 && b&(b-1) == 0 && b >= 4 {
		e := 0
		for 1<<e < b {
			e++
		}
		return fmt.Sprintf("2^%d visits", e)
	}
	return fmt.Sprintf("%d visits", b)
}
