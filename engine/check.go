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
	// Solve bounds the exact solver's work on each position (its Progress
	// is set by Run).
	Solve SolveLimits
	// Progress, if not nil, is called as the check goes: while the
	// positions are solved, and after each trial.
	Progress func(Status)
}

// Status is how far a check has got, as Config.Progress gets it.
type Status struct {
	// Solving is the position being solved, and Nodes the positions the
	// solver has searched for it so far; Solving is empty once the trials
	// have begun.
	Solving string
	Nodes   int
	// Position is the number of the position being solved or played,
	// from 1, of Positions (distinct boards while solving).
	Position, Positions int
	// Done and Total count the trials; Elapsed is the time since the
	// trials began, and Left an estimate of the time they still need, or
	// -1 before the first trial has finished.
	Done, Total int
	Elapsed     time.Duration
	Left        time.Duration
	// Finished is the position just finished, or nil; Budgets are the
	// check's budgets.
	Finished *PositionResult
	Budgets  []int
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
	// Visits is the number of root visits the engine reported (the sum
	// over the root children it listed), and OptimalVisits those of the
	// optimal moves; both -1 when the engine reported none. A listing that
	// leaves a move out gives it 0 visits: Leela Zero lists every child
	// with a visit.
	Visits, OptimalVisits int
	// EnginePrior is the prior the engine reported for the optimal moves
	// (Leela Zero's "N:", summed), or -1 when it listed none of them.
	EnginePrior float64
	// OptimalAMAF is the AMAF (RAVE) value the engine reported for the
	// optimal moves at the root, for the player to move, over
	// OptimalAMAFPlayouts playouts (Pachi's tree dump); both -1 when it
	// reported none. AMAF rates a move by the playouts in which the player
	// played it at any later turn.
	OptimalAMAF         float64
	OptimalAMAFPlayouts int
	// Fault is empty, or says what went wrong: the engine crashed, timed
	// out, answered garbage or an illegal move, or failed a command.
	// FaultKind is its first word: one of the Fault* constants.
	Fault     string
	FaultKind string
}

// The kinds of a trial's fault.
const (
	FaultStart   = "start"   // the engine did not start
	FaultTimeout = "timeout" // no reply within the timeout
	FaultError   = "error"   // an error reply ("? ...") to a command
	FaultCrash   = "crash"   // the engine ended
	FaultGarbage = "garbage" // a reply that is not GTP, or not a move
	FaultIllegal = "illegal" // a move that is not legal in the position
)

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
	// at 0 or falls as the budget grows, or some seeds never find an
	// optimal move that others find.
	Flag string
	// SeedsNever are the seeds that never played an optimal move at any
	// budget while other seeds did (SeedsFound); both empty otherwise.
	SeedsNever, SeedsFound []int
}

// Report is the result of a check.
type Report struct {
	Config    Config
	Positions []*PositionResult
	Faults    int
	// Done and Total count the trials played and planned.
	Done, Total int
	// Interrupted says that the context ended before every trial was
	// played: the report holds the trials that finished.
	Interrupted bool
	// Stopped, if not empty, says why the check stopped early: its first
	// trials all faulted the same way.
	Stopped string
}

// FirstTrials is how many trials open a check: when they all fault the
// same way (the same kind of fault), the check stops there, since the
// engine's setup is broken (a bad network file, a program that does not
// speak GTP) and every later trial would fault too.
const FirstTrials = 3

// Flagged counts the flagged positions.
func (r *Report) Flagged() int {
	n := 0
	for _, p := range r.Positions {
		if p.Flag != "" {
			n++
		}
	}
	return n
}

// PositionError is a position that cannot be checked: the solver cannot
// solve it within its limits, or its stated answers differ from the
// solver's. The positions file is at fault, not the engine.
type PositionError struct {
	Name string
	Line int // of the position's header in its file
	Err  error
}

func (e *PositionError) Error() string {
	return fmt.Sprintf("position %s (line %d): %v", e.Name, e.Line, e.Err)
}

func (e *PositionError) Unwrap() error { return e.Err }

// Run checks the engine on the positions. When the command has {visits},
// it first starts the engine once with the smallest budget: an engine that
// refuses it at its start and names a minimum (Pachi: "Error: minimum 500
// playouts.") is a *BudgetError, with the budgets to give instead. It then
// solves every position (a *PositionError for one it cannot solve, or
// whose stated answers are wrong), then, for each position, budget and seed, starts the engine,
// sets the position up with play commands, asks genmove for the player to
// move and compares the move with the exact solution. A fault (a crash, a
// timeout, garbage, an illegal move) is recorded in its trial; the engine
// is always reaped, and the check goes on, unless the first FirstTrials
// trials all fault the same way (Report.Stopped). When ctx ends during the
// trials, Run returns the trials that finished, with Interrupted set, and
// ctx's error.
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
	argv := func(budget, seed int, p *Position) ([]string, error) {
		network := ""
		if usesNetwork {
			var err error
			if network, err = writeNetwork(dir, p); err != nil {
				return nil, err
			}
		}
		args := make([]string, len(words))
		for k, w := range words {
			w = strings.ReplaceAll(w, "{visits}", strconv.Itoa(budget))
			w = strings.ReplaceAll(w, "{seed}", strconv.Itoa(seed))
			args[k] = strings.ReplaceAll(w, "{network}", network)
		}
		return args, nil
	}
	if strings.Contains(cfg.Command, "{visits}") && len(positions) > 0 {
		args, err := argv(cfg.Budgets[0], cfg.Seeds[0], positions[0])
		if err != nil {
			return nil, err
		}
		if err := probe(ctx, args, cfg.Budgets[0], cfg.Timeout); err != nil {
			if be, ok := err.(*BudgetError); ok {
				be.Suggest = SuggestBudgets(cfg.Budgets, be.Minimum)
			}
			return nil, err
		}
	}
	sols, err := solveAll(ctx, cfg, positions)
	if err != nil {
		return nil, err
	}
	rep := &Report{Config: cfg, Total: len(positions) * len(cfg.Budgets) * len(cfg.Seeds)}
	clock := newETA(cfg.Budgets, len(positions)*len(cfg.Seeds))
	status := func(i int, p *Position, finished *PositionResult) {
		if cfg.Progress != nil {
			cfg.Progress(Status{Position: i + 1, Positions: len(positions), Done: rep.Done, Total: rep.Total,
				Elapsed: clock.elapsed(), Left: clock.left(), Finished: finished, Budgets: cfg.Budgets})
		}
	}
	for i, p := range positions {
		sol := sols[i]
		pr := &PositionResult{Position: p, Solution: sol, Priors: p.Priors(sol.Moves)}
		for j, m := range sol.Moves {
			if slices.Contains(sol.Optimal, m) {
				pr.OptimalPrior += pr.Priors[j]
			}
		}
		rep.Positions = append(rep.Positions, pr)
		for _, budget := range cfg.Budgets {
			for _, seed := range cfg.Seeds {
				args, err := argv(budget, seed, p)
				if err != nil {
					return nil, err
				}
				began := time.Now()
				t := trial(ctx, args, p, sol, cfg.Timeout)
				if err := ctx.Err(); err != nil {
					pr.finish(cfg)
					rep.Interrupted = true
					return rep, err
				}
				clock.record(budget, time.Since(began))
				t.Budget, t.Seed = budget, seed
				if t.Fault != "" {
					rep.Faults++
				}
				pr.Trials = append(pr.Trials, t)
				rep.Done++
				if rep.Stopped = rep.firstFaults(); rep.Stopped != "" {
					pr.finish(cfg)
					return rep, nil
				}
				status(i, p, nil)
			}
		}
		pr.finish(cfg)
		status(i, p, pr)
	}
	return rep, nil
}

// finish computes the position's flag from its trials.
func (pr *PositionResult) finish(cfg Config) {
	pr.Flag = flag(pr, cfg)
}

// firstFaults returns, once the first FirstTrials trials (or all, if
// fewer are planned) are played and all faulted the same way, why the
// check stops; otherwise "".
func (r *Report) firstFaults() string {
	n := min(FirstTrials, r.Total)
	if r.Done != n {
		return ""
	}
	kind := ""
	for _, pr := range r.Positions {
		for _, t := range pr.Trials {
			if t.Fault == "" || kind != "" && t.FaultKind != kind {
				return ""
			}
			kind = t.FaultKind
		}
	}
	stop := fmt.Sprintf("the first %d %s all faulted the same way (%s), so the engine's setup is broken", n, plural(n, "trial"), kind)
	if h := r.BudgetHint(); h != "" {
		stop += " (" + h + ")"
	}
	return stop
}

// FirstFault returns the fault of the first trial that faulted, or "".
func (r *Report) FirstFault() string {
	for _, pr := range r.Positions {
		for _, t := range pr.Trials {
			if t.Fault != "" {
				return t.Fault
			}
		}
	}
	return ""
}

// solveAll solves the positions (once per board and player to move) and
// checks the answers the file states, before any trial, so that a bad
// positions file fails at once.
func solveAll(ctx context.Context, cfg Config, positions []*Position) ([]*Solution, error) {
	distinct := map[string]bool{}
	for _, p := range positions {
		distinct[p.boardKey()] = true
	}
	solved := map[string]*Solution{} // positions that differ only in priors
	out := make([]*Solution, len(positions))
	for i, p := range positions {
		key := p.boardKey()
		sol := solved[key]
		if sol == nil {
			lim := cfg.Solve
			report := func(nodes int) {
				if cfg.Progress != nil {
					cfg.Progress(Status{Solving: p.Name, Nodes: nodes, Position: len(solved) + 1, Positions: len(distinct), Left: -1})
				}
			}
			lim.Progress = func(nodes int) error {
				report(nodes)
				return ctx.Err()
			}
			report(0)
			var err error
			if sol, err = p.Solve(lim); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, &PositionError{Name: p.Name, Line: p.Line, Err: err}
			}
			solved[key] = sol
		}
		if err := p.agrees(sol); err != nil {
			return nil, &PositionError{Name: p.Name, Line: p.Line, Err: err}
		}
		out[i] = sol
	}
	return out, nil
}

// boardKey identifies the position's board and player to move.
func (p *Position) boardKey() string { return fmt.Sprint(p.Stones, p.ToMove) }

// agrees checks the file's stated answers against the solution.
func (p *Position) agrees(sol *Solution) error {
	want := outcome(sol.Value)
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
	t := Trial{Move: -1, Winrate: -1, Visits: -1, OptimalVisits: -1, EnginePrior: -1, OptimalAMAF: -1, OptimalAMAFPlayouts: -1}
	proc, err := start(args)
	if err != nil {
		t.Fault, t.FaultKind = "start: "+err.Error(), FaultStart
		return t
	}
	defer proc.close()
	setup, _, _ := p.Setup()
	deadline := time.Now().Add(timeout)
	fail := func(command string, err error) Trial {
		switch {
		case errors.Is(err, errTimeout):
			t.FaultKind = FaultTimeout
			t.Fault = fmt.Sprintf("no reply to %q within %v", command, timeout)
		case errors.As(err, new(*gtp.Error)):
			t.FaultKind = FaultError
			t.Fault = fmt.Sprintf("reply: %v", err)
		case errors.Is(err, io.EOF) || strings.Contains(err.Error(), "broken pipe") || strings.Contains(err.Error(), "file already closed"):
			t.FaultKind = FaultCrash
			t.Fault = fmt.Sprintf("the engine ended during %q (%s)", command, proc.exited())
		default:
			t.FaultKind = FaultGarbage
			t.Fault = err.Error()
		}
		t.Fault = t.FaultKind + ": " + t.Fault
		proc.kill() // an engine that faulted is not asked to quit
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
	if !strings.EqualFold(reply, "resign") {
		m, err := goboard.ParseVertex(reply, Size)
		if err != nil {
			t.Fault, t.FaultKind = fmt.Sprintf("garbage: genmove answered %q", reply), FaultGarbage
			return t
		}
		if !slices.Contains(sol.Moves, m) {
			t.Fault, t.FaultKind = fmt.Sprintf("illegal: genmove answered %s, which is not a legal move here (legal: %s)", Vertex(m), vertices(sol.Moves)), FaultIllegal
			return t
		}
		t.Move = m
		t.Optimal = slices.Contains(sol.Optimal, m)
	} else {
		t.Optimal = sol.Value == 0 // resigning a lost position loses no more
	}
	// Let the engine finish writing its stderr before reading it.
	proc.close()
	stats := proc.roots.list()
	t.Winrate = stats.winrate(reply)
	t.Visits, t.OptimalVisits, t.EnginePrior = stats.visits(sol.Optimal)
	t.OptimalAMAF, t.OptimalAMAFPlayouts = stats.amaf(sol.Optimal)
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

// Cell renders the position's share of optimal moves at budget b:
// "optimal/played" over the trials without fault, "fault" when every trial
// at b faulted, and "–" when no trial at b has run (a check interrupted or
// stopped before it).
func (pr *PositionResult) Cell(b int) string {
	n, k := pr.counts(b)
	if n > 0 {
		return fmt.Sprintf("%d/%d", k, n)
	}
	for _, t := range pr.Trials {
		if t.Budget == b {
			return "fault"
		}
	}
	return "–"
}

// Shares renders the position's cells at the budgets (see Cell).
func (pr *PositionResult) Shares(budgets []int) string {
	var s []string
	for _, b := range budgets {
		s = append(s, pr.Cell(b))
	}
	return strings.Join(s, " ")
}
