package core_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// panickyNeeds is a rule whose Needs panics.
type panickyNeeds struct{ core.UCT }

func (panickyNeeds) Needs() core.Needs { panic("no needs today") }

// TestNeedsPanicIsError: a rule's Needs that panics is an error out of New
// and NewTreeParallel, not a panic.
func TestNeedsPanicIsError(t *testing.T) {
	r := panickyNeeds{core.UCT{C: 1}}
	if _, err := core.New(&endless{b: 2}, r, core.Config{}); err == nil || !strings.Contains(err.Error(), "Needs panicked: no needs today") {
		t.Errorf("New: %v, want the Needs panic as an error", err)
	}
	if _, err := core.NewTreeParallel([]core.Game{&endless{b: 2}, &endless{b: 2}}, r, core.Config{}); err == nil || !strings.Contains(err.Error(), "Needs panicked") {
		t.Errorf("NewTreeParallel: %v, want the Needs panic as an error", err)
	}
}

// asUCT is a rule that names core's UCT through Builtin.
type asUCT struct{ c float64 }

func (a asUCT) Select(s *core.Site) int { return core.UCT{C: a.c}.Select(s) }
func (a asUCT) Builtin() core.Rule      { return core.UCT{C: a.c} }

// TestBadUCTConstant: New refuses a UCT whose C is not a finite number
// ≥ 0, given directly, by pointer or through Builtin; 0 and large finite
// constants run.
func TestBadUCTConstant(t *testing.T) {
	for _, c := range []float64{math.NaN(), -1, math.Inf(1), math.Inf(-1)} {
		for _, r := range []core.Rule{core.UCT{C: c}, &core.UCT{C: c}, asUCT{c}, core.Threshold{Rule: core.UCT{C: c}, V: 0.3}} {
			if _, err := core.New(&endless{b: 2}, r, core.Config{}); err == nil || !strings.Contains(err.Error(), "exploration constant") {
				t.Errorf("New with %T C=%v: %v, want an error about C", r, c, err)
			}
		}
	}
	for _, r := range []core.Rule{core.Threshold{Rule: core.UCT{C: 1}, V: math.NaN()}, core.Threshold{V: 0.3}} {
		if _, err := core.New(&endless{b: 2}, r, core.Config{}); err == nil || !strings.Contains(err.Error(), "Threshold") {
			t.Errorf("New with %+v: %v, want an error about the Threshold", r, err)
		}
	}
	for _, c := range []float64{0, 1, math.MaxFloat64} {
		s, err := core.New(&hintGame{limit: 1}, core.UCT{C: c}, core.Config{})
		if err != nil {
			t.Fatalf("C=%v: %v", c, err)
		}
		if err := s.Run(context.Background(), 50); err != nil {
			t.Errorf("C=%v: Run: %v", c, err)
		}
	}
}

// hintGame is a two-level game whose priors and move identities are
// whatever the test sets: max picks one of two terminals.
type hintGame struct {
	depth int
	prior float64
	limit int
	move  int // the identity of every move
}

func (g *hintGame) Reset()        { g.depth = 0 }
func (g *hintGame) Play(int)      { g.depth++ }
func (g *hintGame) NumMoves() int { return 2 }
func (g *hintGame) Kind() core.Kind {
	if g.depth == 0 {
		return core.Max
	}
	return core.Terminal
}
func (g *hintGame) Reward() float64           { return 0.5 }
func (g *hintGame) Prob(int) float64          { return 0.5 }
func (g *hintGame) Prior(int) (float64, bool) { return g.prior, true }
func (g *hintGame) Move(int) int              { return g.move }
func (g *hintGame) MoveLimit() int            { return g.limit }
func (priorsRule) Needs() core.Needs          { return core.Needs{Priors: true} }
func (priorsRule) Select(*core.Site) int      { return 0 }
func (bigNeeds) Needs() core.Needs {
	return core.Needs{AMAF: true, Priors: true, Squares: true, Virtual: bigNeeds{}}
}
func (bigNeeds) Select(*core.Site) int                  { return 0 }
func (bigNeeds) Virtual(float64, bool) (k1, k2 float64) { return 0, 0 }

type (
	priorsRule struct{}
	bigNeeds   struct{}
)

// TestBadPriorsAndMoves: a non-finite prior and a move identity outside
// [0, MoveLimit) end Run with a *core.GameError, in the stored tree and in
// a roll-out; a MoveLimit that AMAF cannot hold is an error from New,
// before its marks are allocated.
func TestBadPriorsAndMoves(t *testing.T) {
	for _, h := range []float64{math.NaN(), math.Inf(1)} {
		s, err := core.New(&hintGame{prior: h, limit: 1}, priorsRule{}, core.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(context.Background(), 2); err == nil || !strings.Contains(err.Error(), "want a finite number") {
			t.Errorf("prior %v: Run = %v, want an error about the prior", h, err)
		}
	}
	for _, cfg := range []core.Config{paper, practical} {
		s, err := core.New(&hintGame{limit: 3, move: 3}, amafRule{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(context.Background(), 2); err == nil || !strings.Contains(err.Error(), "move identity 3") {
			t.Errorf("%v: move 3 under MoveLimit 3: Run = %v, want an error about the identity", cfg.Growth, err)
		}
	}
	s, err := core.New(&hintGame{limit: 3, move: 2}, amafRule{}, practical)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(context.Background(), 10); err != nil {
		t.Errorf("move 2 under MoveLimit 3: %v", err)
	}
	for _, limit := range []int{1 << 40, -1, math.MaxInt32} {
		if _, err := core.New(&hintGame{limit: limit}, amafRule{}, core.Config{}); err == nil || !strings.Contains(err.Error(), "MoveLimit") {
			t.Errorf("MoveLimit %d: New = %v, want an error", limit, err)
		}
	}
}

// TestMaxCapacityIsAnError: MaxCapacity nodes of a rule that keeps every
// statistic (2^31 nodes of 68 bytes, 146 GB) is an error from New, with no
// memory limit set, rather than the runtime's fatal out-of-memory.
func TestMaxCapacityIsAnError(t *testing.T) {
	if !core.KnowsMachineMemory() {
		t.Skip("this system does not report its memory")
	}
	_, err := core.New(&endless{b: 2}, bigNeeds{}, core.Config{Capacity: core.MaxCapacity})
	if err == nil || !strings.Contains(err.Error(), "bytes up front") {
		t.Errorf("Capacity MaxCapacity: %v, want an error about the memory", err)
	}
}

// shape is a game of one max node per level: a chain of the given depth
// (one move a level, then a terminal), or a root with width terminal
// children. It counts the moves played.
type shape struct {
	depth, width int
	at, plays    int
}

func (g *shape) Reset()   { g.at = 0 }
func (g *shape) Play(int) { g.at++; g.plays++ }
func (g *shape) NumMoves() int {
	if g.width > 0 {
		return g.width
	}
	return 1
}
func (g *shape) Kind() core.Kind {
	if g.width > 0 && g.at == 1 || g.width == 0 && g.at == g.depth {
		return core.Terminal
	}
	return core.Max
}
func (g *shape) Reward() float64  { return 1 }
func (g *shape) Prob(int) float64 { return 1 }

// roundRobin picks child t mod k in simulation t: a rule that costs one
// step however wide the node.
type roundRobin struct{}

func (roundRobin) Select(s *core.Site) int { return int(s.T() % int64(s.Len())) }

// TestWalkLinear: Walk over a 10^5-deep chain and over a root with 10^5
// children (paper mode stores each in one or 10^5 simulations) plays a
// number of moves linear in the nodes stored; it replayed the path from
// the root for every node, 5·10^9 moves for the chain.
func TestWalkLinear(t *testing.T) {
	const n = 100_000
	for _, g := range []*shape{{depth: n}, {width: n}} {
		sims := 1
		if g.width > 0 {
			sims = n
		}
		s, err := core.New(g, roundRobin{}, core.Config{MaxDepth: 2 * n})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(context.Background(), sims); err != nil {
			t.Fatal(err)
		}
		g.plays = 0
		nodes, deepest := 0, 0
		s.Walk(func(info core.NodeInfo) bool {
			nodes++
			deepest = max(deepest, len(info.Path))
			return true
		})
		if nodes != s.Nodes() || nodes < n {
			t.Errorf("depth %d width %d: Walk saw %d nodes of %d", g.depth, g.width, nodes, s.Nodes())
		}
		if g.plays > 2*nodes {
			t.Errorf("depth %d width %d: Walk played %d moves for %d nodes, want at most 2 a node", g.depth, g.width, g.plays, nodes)
		}
	}
}

// TestWalkAgreesWithLookup: every node Walk reports is the node Lookup
// finds at its path, on explicit trees read through their arrays and
// through the methods alone.
func TestWalkAgreesWithLookup(t *testing.T) {
	tr, err := tree.Parse("(max (min 0 (chance 0.5:1 0.5:(max 0 1))) (min 1 (max 0 0.5) 0) 0.25)")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []core.Game{tr.Game(), methodsOnly{tr.Game()}} {
		s, err := core.New(g, core.UCT{C: 1}, core.Config{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(context.Background(), 200); err != nil {
			t.Fatal(err)
		}
		seen := 0
		s.Walk(func(info core.NodeInfo) bool {
			seen++
			path := append([]int32(nil), info.Path...)
			want, ok := s.Lookup(path)
			if !ok || fmt.Sprint(want) != fmt.Sprint(info) {
				t.Errorf("%T: Walk gave %+v, Lookup %+v (%v)", g, info, want, ok)
			}
			return true
		})
		if seen != s.Nodes() {
			t.Errorf("%T: Walk saw %d nodes of %d", g, seen, s.Nodes())
		}
	}
}
