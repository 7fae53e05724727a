package core_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
)

var bg = context.Background()

// newSearch builds a search or fails the test.
func newSearch(t testing.TB, g core.Game, r core.Rule, cfg core.Config) *core.Search {
	t.Helper()
	s, err := core.New(g, r, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run runs sims simulations or fails the test.
func run(t testing.TB, s *core.Search, sims int) {
	t.Helper()
	if err := s.Run(bg, sims); err != nil {
		t.Fatal(err)
	}
}

// dump returns every stored node of s, for comparisons.
func dump(s *core.Search) []core.NodeInfo {
	var out []core.NodeInfo
	s.Walk(func(n core.NodeInfo) bool {
		n.Path = append([]int32(nil), n.Path...)
		out = append(out, n)
		return true
	})
	return out
}

// amafRule is a RAVE-style blend that makes the search keep AMAF statistics.
type amafRule struct{}

func (amafRule) Needs() core.Needs { return core.Needs{AMAF: true} }
func (amafRule) Select(s *core.Site) int {
	best, bestScore := 0, math.Inf(-1)
	for i := range s.Len() {
		n, w := s.N(i), s.W(i)
		an, aw := s.AMAF(i)
		score := (w + aw + 1) / (n + an + 2)
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// configs are the engine's modes, for tests that must hold in all of them.
var configs = []struct {
	name string
	rule core.Rule
	cfg  core.Config
}{
	{"paper/uct", core.UCT{C: math.Sqrt2}, core.Config{}},
	{"practical/uct", core.UCT{C: math.Sqrt2}, core.Config{Growth: core.GrowPractical}},
	{"practical/expand3/uct", core.UCT{C: 1}, core.Config{Growth: core.GrowPractical, ExpandAfter: 3}},
	{"paper/minimax", core.UCT{C: 1}, core.Config{Backup: core.BackupMinimax}},
	{"paper/amaf", amafRule{}, core.Config{}},
	{"practical/amaf", amafRule{}, core.Config{Growth: core.GrowPractical}},
	{"paper/threshold", core.Threshold{Rule: core.UCT{}, V: 0.3}, core.Config{}},
}

func TestZeroAllocsPerSimulation(t *testing.T) {
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			g, err := games.NewSynth(4, 8) // 87,381 nodes in all: the arena holds them
			if err != nil {
				t.Fatal(err)
			}
			c.cfg.Capacity = 1 << 17
			s := newSearch(t, g, c.rule, c.cfg)
			allocs := testing.AllocsPerRun(5, func() { run(t, s, 20_000) })
			if allocs != 0 {
				t.Errorf("%v allocations per 20,000 simulations, want 0", allocs)
			}
		})
	}
}

// TestZeroAllocsReference is the reference workload (bench's BenchmarkReference): UCT with
// C = √2, practical mode, 200,000 simulations on synth b=8 d=10.
func TestZeroAllocsReference(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 simulations")
	}
	g, _ := games.NewSynth(8, 10)
	s := newSearch(t, g, core.UCT{C: math.Sqrt2}, core.Config{Growth: core.GrowPractical, Capacity: 1 << 21})
	run(t, s, 1000) // warm-up: the path and AMAF buffers reach their size
	s.Reset(1)
	if allocs := testing.AllocsPerRun(1, func() {
		s.Reset(1)
		run(t, s, 200_000)
	}); allocs != 0 {
		t.Errorf("%v allocations in 200,000 simulations, want 0", allocs)
	}
	if s.Nodes() > 1<<21 {
		t.Errorf("%d nodes outgrew the arena", s.Nodes())
	}
}

func TestDeterministic(t *testing.T) {
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			var dumps [2][]core.NodeInfo
			for k := range dumps {
				g := games.NewTicTacToe()
				c.cfg.Seed = 42
				s := newSearch(t, g, c.rule, c.cfg)
				run(t, s, 3000)
				dumps[k] = dump(s)
			}
			if diff := diffDumps(dumps[0], dumps[1]); diff != "" {
				t.Errorf("same seed, different statistics (-first +second):\n%s", diff)
			}
			// Reset must give back the very same search.
			g := games.NewTicTacToe()
			c.cfg.Seed = 7
			s := newSearch(t, g, c.rule, c.cfg)
			run(t, s, 500)
			s.Reset(42)
			run(t, s, 3000)
			if diff := diffDumps(dumps[0], dump(s)); diff != "" {
				t.Errorf("after Reset(42), different statistics (-fresh +reset):\n%s", diff)
			}
		})
	}
}

// TestResetGame checks that a search moved to another game by ResetGame
// is the search New makes on that game: the same statistics, whichever
// game it searched before (another kind of game, or the same game at
// another position).
func TestResetGame(t *testing.T) {
	from, err := games.NewTicTacToeFrom("x...o....")
	if err != nil {
		t.Fatal(err)
	}
	synth := func() core.Game {
		g, err := games.NewSynth(3, 6)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Seed = 42
			s := newSearch(t, synth(), c.rule, c.cfg)
			run(t, s, 700)
			for _, g := range []core.Game{games.NewTicTacToe(), from, synth()} {
				fresh := newSearch(t, g, c.rule, c.cfg)
				run(t, fresh, 2000)
				want := dump(fresh)
				if err := s.ResetGame(g, 42); err != nil {
					t.Fatal(err)
				}
				run(t, s, 2000)
				if diff := diffDumps(want, dump(s)); diff != "" {
					t.Fatalf("ResetGame to %T, different statistics (-New +ResetGame):\n%s", g, diff)
				}
			}
		})
	}
}

// TestResetGameRefused checks ResetGame's errors: a nil game, and a
// tree-parallel search, whose workers have a game each.
func TestResetGameRefused(t *testing.T) {
	s := newSearch(t, games.NewTicTacToe(), core.UCT{C: 1}, core.Config{})
	if err := s.ResetGame(nil, 1); err == nil {
		t.Error("ResetGame(nil) gave no error")
	}
	run(t, s, 10) // still the search it was
	tp, err := core.NewTreeParallel([]core.Game{games.NewTicTacToe(), games.NewTicTacToe()}, core.UCT{C: 1}, core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tp.ResetGame(games.NewTicTacToe(), 1); err == nil || !strings.Contains(err.Error(), "tree-parallel") {
		t.Errorf("ResetGame on a tree-parallel search: %v, want an error that says tree-parallel", err)
	}
}

// sameFloat compares floats exactly, NaN equal to NaN.
func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// diffDumps returns "" when the dumps a and b (of type []core.NodeInfo or
// [][]core.NodeInfo) hold the same statistics, NaN equal to NaN, and cmp's
// diff otherwise. reflect.DeepEqual decides first: cmp alone took half the
// time of the determinism tests under -race.
func diffDumps[T any](a, b T) string {
	if reflect.DeepEqual(nanFree(a), nanFree(b)) {
		return ""
	}
	return cmp.Diff(a, b, cmp.Comparer(sameFloat))
}

// nanFree returns a copy of the dump d with the NaN values of unvisited
// nodes (NodeInfo.Value, the one field that may be NaN) set to -1.
func nanFree(d any) any {
	fix := func(nodes []core.NodeInfo) []core.NodeInfo {
		out := slices.Clone(nodes)
		for i := range out {
			if math.IsNaN(out[i].Value) {
				out[i].Value = -1
			}
		}
		return out
	}
	switch d := d.(type) {
	case []core.NodeInfo:
		return fix(d)
	case [][]core.NodeInfo:
		out := make([][]core.NodeInfo, len(d))
		for i := range d {
			out[i] = fix(d[i])
		}
		return out
	}
	panic(fmt.Sprintf("nanFree: %T is not a dump", d))
}

func TestSeedsDiffer(t *testing.T) {
	var dumps [2][]core.NodeInfo
	for k := range dumps {
		s := newSearch(t, games.NewTicTacToe(), core.UCT{C: 1}, core.Config{Seed: uint64(k), Growth: core.GrowPractical})
		run(t, s, 2000)
		dumps[k] = dump(s)
	}
	if diffDumps(dumps[0], dumps[1]) == "" {
		t.Error("seeds 0 and 1 gave identical roll-out statistics")
	}
}

// TestTicTacToeFindsWin: X to move with a win at cell 2 and O threatening.
func TestTicTacToeFindsWin(t *testing.T) {
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			g, err := games.NewTicTacToeFrom("XX.OO....")
			if err != nil {
				t.Fatal(err)
			}
			s := newSearch(t, g, c.rule, c.cfg)
			run(t, s, 5000)
			d := s.Decide(core.MostVisited)
			g.Reset()
			if d < 0 || g.Move(d) != 2 {
				t.Errorf("decision %d (cell %d), want the winning cell 2", d, g.Move(max(d, 0)))
			}
		})
	}
}

// TestTicTacToeValue: from the empty board both sides draw; UCT's root value
// converges to 1/2.
func TestTicTacToeValue(t *testing.T) {
	s := newSearch(t, games.NewTicTacToe(), core.UCT{C: 0.5}, core.Config{Seed: 3})
	run(t, s, 100_000)
	root, _ := s.Lookup(nil)
	if math.Abs(root.Value-0.5) > 0.05 {
		t.Errorf("root value %.3f after 100,000 simulations, want 0.5 ± 0.05", root.Value)
	}
}

// firstChild always picks child 0.
type firstChild struct{}

func (firstChild) Select(*core.Site) int { return 0 }

// badRule returns an index out of range.
type badRule struct{ i int }

func (r badRule) Select(*core.Site) int { return r.i }

// panicRule panics.
type panicRule struct{}

func (panicRule) Select(*core.Site) int { panic("boom") }

// badVirtual gives virtual experience with k2 > k1.
type badVirtual struct{}

func (badVirtual) Select(*core.Site) int                  { return 0 }
func (badVirtual) Needs() core.Needs                      { return core.Needs{Virtual: badVirtual{}} }
func (badVirtual) Virtual(float64, bool) (k1, k2 float64) { return 1, 2 }

// brokenGame is synth with a reward of 2 at every leaf.
type brokenGame struct{ *games.Synth }

func (brokenGame) Reward() float64 { return 2 }

func TestErrors(t *testing.T) {
	synth := func() core.Game { g, _ := games.NewSynth(3, 3); return g }
	tests := []struct {
		name string
		game core.Game
		rule core.Rule
		want string
		as   any
	}{
		{"index", synth(), badRule{3}, "rule chose child 3 of 3 at node 0", new(*core.RuleError)},
		{"negative index", synth(), badRule{-1}, "rule chose child -1 of 3", new(*core.RuleError)},
		{"panic", synth(), panicRule{}, "rule panicked at node 0 in simulation 0: boom", new(*core.RuleError)},
		{"virtual", synth(), badVirtual{}, "virtual experience k1=1 k2=2", new(*core.RuleError)},
		{"reward", brokenGame{func() *games.Synth { g, _ := games.NewSynth(2, 2); return g }()}, firstChild{}, "terminal reward 2 outside [0,1]", new(*core.GameError)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSearch(t, tt.game, tt.rule, core.Config{})
			err := s.Run(bg, 10)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run error %v, want one containing %q", err, tt.want)
			}
			switch target := tt.as.(type) {
			case **core.RuleError:
				if !errors.As(err, target) {
					t.Errorf("error %T, want *core.RuleError", err)
				}
			case **core.GameError:
				if !errors.As(err, target) {
					t.Errorf("error %T, want *core.GameError", err)
				}
			}
			if again := s.Run(bg, 1); again == nil || again.Error() != err.Error() {
				t.Errorf("second Run gave %v, want the same error", again)
			}
		})
	}
}

func TestBadConfig(t *testing.T) {
	g, _ := games.NewSynth(2, 2)
	for _, cfg := range []core.Config{
		{Growth: 9}, {Backup: 9}, {ExpandAfter: -1}, {Capacity: -1}, {MaxNodes: -1},
	} {
		if _, err := core.New(g, core.UCT{}, cfg); err == nil {
			t.Errorf("New with %+v: no error", cfg)
		}
	}
	if _, err := core.New(nil, core.UCT{}, core.Config{}); err == nil {
		t.Error("New with a nil game: no error")
	}
	if _, err := core.New(g, nil, core.Config{}); err == nil {
		t.Error("New with a nil rule: no error")
	}
	s := newSearch(t, g, core.UCT{}, core.Config{})
	for _, n := range []int{0, -5} {
		if err := s.Run(bg, n); err == nil {
			t.Errorf("Run(%d): no error", n)
		}
	}
}

func TestContextStops(t *testing.T) {
	g, _ := games.NewSynth(4, 8)
	s := newSearch(t, g, core.UCT{C: 1}, core.Config{})
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if err := s.Run(ctx, 1_000_000); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run with a cancelled context: %v, want context.Canceled", err)
	}
	if s.Sims() >= 1_000_000 {
		t.Errorf("ran all %d simulations despite the cancelled context", s.Sims())
	}
}

func TestMaxNodes(t *testing.T) {
	g, _ := games.NewSynth(4, 8)
	s := newSearch(t, g, core.UCT{C: 1}, core.Config{Growth: core.GrowPractical, MaxNodes: 100})
	run(t, s, 5000)
	if s.Nodes() > 100 {
		t.Errorf("%d nodes stored, MaxNodes 100", s.Nodes())
	}
	p := newSearch(t, g, core.UCT{C: 1}, core.Config{MaxNodes: 100})
	if err := p.Run(bg, 5000); err == nil || !strings.Contains(err.Error(), "tree is full") {
		t.Errorf("paper mode past MaxNodes: %v, want a full-tree error", err)
	}
}

func ExampleSearch() {
	g, _ := games.NewTicTacToeFrom("XX.OO....") // X to move; cell 2 wins
	s, _ := core.New(g, core.UCT{C: math.Sqrt2}, core.Config{Seed: 1})
	if err := s.Run(context.Background(), 2000); err != nil {
		fmt.Println(err)
		return
	}
	d := s.Decide(core.MostVisited)
	g.Reset()
	fmt.Println("play cell", g.Move(d))
	// Output: play cell 2
}
