package core_test

import (
	"context"
	"errors"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/core"
)

// chanceGame has above max positions with one move each above a chance
// position with the given probabilities, whose children are terminal with
// reward 1/2.
type chanceGame struct {
	above int
	probs []float64
	depth int
}

func (g *chanceGame) Reset()   { g.depth = 0 }
func (g *chanceGame) Play(int) { g.depth++ }
func (g *chanceGame) Kind() core.Kind {
	switch {
	case g.depth < g.above:
		return core.Max
	case g.depth == g.above:
		return core.Chance
	}
	return core.Terminal
}
func (g *chanceGame) NumMoves() int {
	switch g.Kind() {
	case core.Max:
		return 1
	case core.Chance:
		return len(g.probs)
	}
	return 0
}
func (g *chanceGame) Reward() float64    { return 0.5 }
func (g *chanceGame) Prob(i int) float64 { return g.probs[i] }

// endless is a game that never ends: b moves at every position, max and
// min taking turns.
type endless struct {
	b     int
	depth int
}

func (g *endless) Reset()        { g.depth = 0 }
func (g *endless) Play(int)      { g.depth++ }
func (g *endless) NumMoves() int { return g.b }
func (g *endless) Kind() core.Kind {
	if g.depth%2 == 1 {
		return core.Min
	}
	return core.Max
}
func (g *endless) Reward() float64  { panic("endless: Reward") }
func (g *endless) Prob(int) float64 { panic("endless: Prob") }

var (
	paper     = core.Config{Seed: 1}
	practical = core.Config{Seed: 1, Growth: core.GrowPractical}
)

// TestBadChanceProbabilities is the bad-input table of chance
// probabilities: every probability must be a finite number in [0,1] and
// they must sum to 1 within core.ProbTolerance, in the stored tree (checked
// when the node is expanded) and in roll-outs (checked at every chance
// position). Each bad row must end Run with a *core.GameError that names
// the node and carries the probabilities; each good row must run.
func TestBadChanceProbabilities(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		probs []float64
		want  string // in the message; "" for good probabilities
	}{
		{[]float64{0.9, 0.9}, "probabilities sum to 1.8, want 1 within 1e-09: [0.9 0.9]"},
		{[]float64{nan, 0.5}, "probability NaN of child 0, want a number in [0,1]: [NaN 0.5]"},
		{[]float64{0.5, nan}, "probability NaN of child 1"},
		{[]float64{-0.5, 1.5}, "probability -0.5 of child 0"},
		{[]float64{inf, 0}, "probability +Inf of child 0"},
		{[]float64{0, inf}, "probability +Inf of child 1"},
		{[]float64{0.3, 0.3}, "probabilities sum to 0.6"},
		{[]float64{0.5, 0.5 + 2e-9}, "probabilities sum to 1.000000002"},
		{[]float64{1e-12, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, "[1e-12 0.1 0.1 0.1 0.1 0.1 0.1 0.1 … (10 in all)]"},
		{[]float64{0.5, 0.5}, ""},
		{[]float64{0.5, 0.5 + 1e-12}, ""},
		{[]float64{1}, ""},
		{[]float64{0, 1, 0}, ""},
	}
	// Where the chance position is: in paper mode it is stored at
	// depth above; in practical mode the first roll-out from the root
	// meets it above moves below the stored root.
	places := []struct {
		name    string
		cfg     core.Config
		above   int
		path    []int32
		rollout int
	}{
		{"paper/root", paper, 0, nil, 0},
		{"paper/depth2", paper, 2, []int32{0, 0}, 0},
		{"practical/root", practical, 0, nil, 0},
		{"practical/rollout2", practical, 2, nil, 2},
	}
	for _, tt := range tests {
		for _, pl := range places {
			g := &chanceGame{above: pl.above, probs: tt.probs}
			s := newSearch(t, g, core.UCT{C: 1}, pl.cfg)
			err := s.Run(bg, 64)
			if tt.want == "" {
				if err != nil {
					t.Errorf("%s %v: %v, want no error", pl.name, tt.probs, err)
				}
				continue
			}
			ge, ok := errors.AsType[*core.GameError](err)
			if !ok || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s %v: error %v, want a *core.GameError saying %q", pl.name, tt.probs, err, tt.want)
				continue
			}
			if !slices.Equal(ge.Path, pl.path) || ge.Rollout != pl.rollout || ge.Sim != 0 ||
				!slices.EqualFunc(ge.Probs, tt.probs, sameFloat) {
				t.Errorf("%s %v: error at path %v + %d roll-out moves, simulation %d, probs %v; want %v + %d, 0, %v",
					pl.name, tt.probs, ge.Path, ge.Rollout, ge.Sim, ge.Probs, pl.path, pl.rollout, tt.probs)
			}
			if again := s.Run(bg, 1); again != err {
				t.Errorf("%s %v: Run after the error = %v, want the same error (the search is spoiled)", pl.name, tt.probs, again)
			}
		}
	}
}

// TestChanceErrorKeepsFewProbs: a chance position with 10^5 children
// gives an error that keeps the first 1024 probabilities and prints 8.
func TestChanceErrorKeepsFewProbs(t *testing.T) {
	probs := make([]float64, 100_000)
	for i := range probs {
		probs[i] = 1e-5
	}
	probs[len(probs)-1] = 0.5
	s := newSearch(t, &chanceGame{probs: probs}, core.UCT{C: 1}, paper)
	err := s.Run(bg, 1)
	ge, ok := errors.AsType[*core.GameError](err)
	if !ok || len(ge.Probs) != 1024 || len(err.Error()) > 300 || !strings.Contains(err.Error(), "(100000 in all)") {
		t.Errorf("error %.400v with %d probabilities, want a *core.GameError of under 300 bytes keeping 1024", err, len(ge.Probs))
	}
}

// TestEndlessGame is the bad-input table of games that never end: a
// position MaxDepth moves deep that is not terminal ends the search with
// a *core.GameError, in the stored tree (paper mode) and in roll-outs
// (practical mode), serial and tree-parallel, with the default MaxDepth
// too; memory stays bounded by it.
func TestEndlessGame(t *testing.T) {
	tests := []struct {
		name     string
		cfg      core.Config
		workers  int // 0: serial
		maxDepth int // the bound in effect
		path     int // length of the error's path
		rollout  int // and its roll-out moves: path + rollout = maxDepth
	}{
		{"paper", core.Config{MaxDepth: 1000}, 0, 1000, 1000, 0},
		{"practical", core.Config{Growth: core.GrowPractical, MaxDepth: 1000}, 0, 1000, 0, 1000},
		{"practical/default", core.Config{Growth: core.GrowPractical}, 0, core.DefaultMaxDepth, 0, core.DefaultMaxDepth},
		{"practical/depth1", core.Config{Growth: core.GrowPractical, MaxDepth: 1}, 0, 1, 0, 1},
		{"paper/tree", core.Config{MaxDepth: 1000}, 2, 1000, 1000, 0},
		{"practical/tree", core.Config{Growth: core.GrowPractical, MaxDepth: 1000}, 2, 1000, 0, 1000},
		{"practical/lockstep", core.Config{Growth: core.GrowPractical, MaxDepth: 1000, Lockstep: true}, 2, 1000, 0, 1000},
	}
	for _, tt := range tests {
		var s *core.Search
		if tt.workers == 0 {
			s = newSearch(t, &endless{b: 2}, core.UCT{C: 1}, tt.cfg)
		} else {
			s = newTree(t, []core.Game{&endless{b: 2}, &endless{b: 2}}, core.UCT{C: 1}, tt.cfg)
		}
		err := s.Run(bg, 100)
		ge, ok := errors.AsType[*core.GameError](err)
		if !ok || !strings.Contains(err.Error(), "the game has not ended (Config.MaxDepth") {
			t.Errorf("%s: error %.300v, want a *core.GameError about MaxDepth", tt.name, err)
			continue
		}
		if len(ge.Path) != tt.path || ge.Rollout != tt.rollout {
			t.Errorf("%s: error at depth %d + %d, want %d + %d", tt.name, len(ge.Path), ge.Rollout, tt.path, tt.rollout)
		}
		if len(err.Error()) > 300 {
			t.Errorf("%s: error message of %d bytes, want a short one", tt.name, len(err.Error()))
		}
		if n := s.Nodes(); n > 3*tt.maxDepth {
			t.Errorf("%s: %d stored nodes, want at most 3 × MaxDepth", tt.name, n)
		}
	}
}

// TestRolloutHonoursContext: a roll-out of a game that never ends, with no
// depth bound to speak of, stops at the context's deadline, and the
// search is not spoiled: it runs again, on a finite game's worth of work.
func TestRolloutHonoursContext(t *testing.T) {
	for _, workers := range []int{0, 2} {
		cfg := core.Config{Growth: core.GrowPractical, MaxDepth: math.MaxInt32}
		var s *core.Search
		if workers == 0 {
			s = newSearch(t, &endless{b: 3}, core.UCT{C: 1}, cfg)
		} else {
			s = newTree(t, []core.Game{&endless{b: 3}, &endless{b: 3}}, core.UCT{C: 1}, cfg)
		}
		ctx, cancel := context.WithTimeout(bg, 20*time.Millisecond)
		start := time.Now()
		err := s.Run(ctx, 10)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
			t.Errorf("workers %d: Run = %v after %v, want the deadline's error soon after 20ms", workers, err, time.Since(start))
		}
		if s.Sims() != 0 {
			t.Errorf("workers %d: %d simulations counted, want 0", workers, s.Sims())
		}
		ctx, cancel = context.WithCancel(bg)
		cancel()
		if err := s.Run(ctx, 10); !errors.Is(err, context.Canceled) {
			t.Errorf("workers %d: second Run = %v, want context.Canceled, not a spoiled search's error", workers, err)
		}
	}
}

// TestBadLimits is the bad-input table of Config's limits: each is an
// error from New, before any memory is reserved.
func TestBadLimits(t *testing.T) {
	tests := []struct {
		cfg  core.Config
		want string
	}{
		{core.Config{Capacity: 1 << 40}, "want at most MaxCapacity"},
		{core.Config{Capacity: core.MaxCapacity + 1}, "want at most MaxCapacity"},
		{core.Config{Capacity: -1}, "negative"},
		{core.Config{MaxNodes: -1}, "negative"},
		{core.Config{MaxDepth: -1}, "MaxDepth -1"},
		{core.Config{MaxDepth: 1 << 31}, "MaxDepth 2147483648"},
	}
	for _, tt := range tests {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := core.New(&endless{b: 2}, core.UCT{C: 1}, tt.cfg)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New with %+v: %v, want an error saying %q", tt.cfg, err, tt.want)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("New with %+v allocated %d bytes before failing", tt.cfg, grew)
		}
	}
}

// TestCapacityOverMemoryLimit: with a Go memory limit set, a Capacity
// whose arena would exceed it is an error.
func TestCapacityOverMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(1 << 30)
	defer debug.SetMemoryLimit(old)
	_, err := core.New(&endless{b: 2}, core.UCT{C: 1}, core.Config{Capacity: 1 << 27}) // 2 GiB
	if err == nil || !strings.Contains(err.Error(), "needs 2147483648 bytes up front (16 a node), more than the Go memory limit of 1073741824 bytes") {
		t.Errorf("Capacity 2^27 under a 1 GiB limit: %v, want an error naming both", err)
	}
	if _, err := core.New(&endless{b: 2}, core.UCT{C: 1}, core.Config{Capacity: 1 << 10}); err != nil {
		t.Errorf("Capacity 2^10 under a 1 GiB limit: %v", err)
	}
}
