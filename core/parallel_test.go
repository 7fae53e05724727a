package core_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
)

// tttGames returns k fresh tic-tac-toe cursors.
func tttGames(k int) []core.Game {
	gs := make([]core.Game, k)
	for i := range gs {
		gs[i] = games.NewTicTacToe()
	}
	return gs
}

// synthGames returns k fresh synth cursors.
func synthGames(t testing.TB, k, b, d int) []core.Game {
	gs := make([]core.Game, k)
	for i := range gs {
		g, err := games.NewSynth(b, d)
		if err != nil {
			t.Fatal(err)
		}
		gs[i] = g
	}
	return gs
}

// must returns v or fails the test with err.
func must[T any](t testing.TB, v T, err error) T {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func newTree(t testing.TB, gs []core.Game, r core.Rule, cfg core.Config) *core.Search {
	t.Helper()
	s, err := core.NewTreeParallel(gs, r, cfg)
	return must(t, s, err)
}

func newRoot(t testing.TB, gs []core.Game, r core.Rule, cfg core.Config) *core.RootSearch {
	t.Helper()
	s, err := core.NewRoot(gs, r, cfg)
	return must(t, s, err)
}

var classicLoss = core.VirtualLoss{N: 1}

// TestTreeOneWorkerIsSerial: a worker never sees its own virtual loss, so a
// tree-parallel search with one worker is the serial search, statistic for
// statistic, in every mode.
func TestTreeOneWorkerIsSerial(t *testing.T) {
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Seed = 5
			s := newSearch(t, games.NewTicTacToe(), c.rule, c.cfg)
			run(t, s, 1500)
			cfg := c.cfg
			cfg.VirtualLoss = classicLoss
			p := newTree(t, tttGames(1), c.rule, cfg)
			if err := p.Run(bg, 500); err != nil {
				t.Fatal(err)
			}
			if err := p.Run(bg, 1000); err != nil {
				t.Fatal(err)
			}
			if diff := diffDumps(dump(s), dump(p)); diff != "" {
				t.Errorf("tree-parallel with one worker differs from serial (-serial +tree):\n%s", diff)
			}
		})
	}
}

// TestRootOneWorkerIsSerial: root parallelism with k = 1 is the serial search.
func TestRootOneWorkerIsSerial(t *testing.T) {
	c := configs[1]
	c.cfg.Seed = 9
	s := newSearch(t, games.NewTicTacToe(), c.rule, c.cfg)
	run(t, s, 2000)
	r := newRoot(t, tttGames(1), c.rule, c.cfg)
	if err := r.Run(bg, 2000); err != nil {
		t.Fatal(err)
	}
	if diff := diffDumps(dump(s), dump(r.Worker(0))); diff != "" {
		t.Errorf("root-parallel with one worker differs from serial (-serial +root):\n%s", diff)
	}
	if s.Decide(core.MostVisited) != r.Decide(core.MostVisited) {
		t.Error("different decisions")
	}
}

// TestRootDeterministic: for a given k, a root-parallel search gives the
// same statistics whatever the scheduling, here under GOMAXPROCS 1 and 2.
func TestRootDeterministic(t *testing.T) {
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Seed = 11
			var dumps [2][][]core.NodeInfo
			var decisions [2]int
			for i, procs := range []int{1, 2} {
				prev := runtime.GOMAXPROCS(procs)
				r := newRoot(t, tttGames(3), c.rule, c.cfg)
				for _, n := range []int{300, 601} {
					if err := r.Run(bg, n); err != nil {
						t.Fatal(err)
					}
				}
				runtime.GOMAXPROCS(prev)
				if r.Sims() != 901 {
					t.Errorf("%d simulations, want 901", r.Sims())
				}
				for j := range r.Workers() {
					dumps[i] = append(dumps[i], dump(r.Worker(j)))
				}
				decisions[i] = r.Decide(core.MostVisited)
			}
			if diff := diffDumps(dumps[0], dumps[1]); diff != "" {
				t.Errorf("GOMAXPROCS 1 and 2 differ (-1 +2):\n%s", diff)
			}
			if decisions[0] != decisions[1] {
				t.Errorf("decisions %v", decisions)
			}
			if diffDumps(dumps[0][0], dumps[0][1]) == "" {
				t.Error("workers 0 and 1 searched alike: their seeds should differ")
			}
		})
	}
}

// TestRootDecideSums: the decision reads the root children's visits summed
// over the searches.
func TestRootDecideSums(t *testing.T) {
	g, _ := games.NewTicTacToeFrom("XX.OO....")
	gs := []core.Game{g}
	for range 3 {
		g, _ := games.NewTicTacToeFrom("XX.OO....")
		gs = append(gs, g)
	}
	r := newRoot(t, gs, core.UCT{C: math.Sqrt2}, core.Config{Seed: 1})
	if got := r.Decide(core.MostVisited); got != -1 {
		t.Errorf("Decide before any run: %d, want -1", got)
	}
	if err := r.Run(bg, 4000); err != nil {
		t.Fatal(err)
	}
	var visits []int64
	for j := range r.Workers() {
		s := r.Worker(j)
		if s.Sims() != 1000 {
			t.Errorf("worker %d ran %d simulations, want 1000", j, s.Sims())
		}
		s.Walk(func(n core.NodeInfo) bool {
			if len(n.Path) == 1 {
				for len(visits) <= int(n.Path[0]) {
					visits = append(visits, 0)
				}
				visits[n.Path[0]] += n.Visits
			}
			return true
		})
	}
	best := 0
	for i, v := range visits {
		if v > visits[best] {
			best = i
		}
	}
	if d := r.Decide(core.MostVisited); d != best {
		t.Errorf("Decide = %d, want the most visited child over all searches, %d (%v)", d, best, visits)
	}
	g.Reset()
	if g.Move(best) != 2 {
		t.Errorf("decision is cell %d, want the winning cell 2", g.Move(best))
	}
}

// checkTree checks the invariants a tree-parallel search must keep however
// its workers interleave: the root counts every simulation, in paper mode
// an inner node's visits are its children's, and no virtual loss is left
// once Run returns (the statistics equal a fresh read).
func checkTree(t *testing.T, s *core.Search, sims int64, paper bool) {
	t.Helper()
	if s.Sims() != sims {
		t.Errorf("Sims = %d, want %d", s.Sims(), sims)
	}
	root, _ := s.Lookup(nil)
	if root.Visits != sims {
		t.Errorf("root visits %d, want %d", root.Visits, sims)
	}
	nodes := dump(s)
	byPath := map[string]core.NodeInfo{}
	for _, n := range nodes {
		byPath[fmt.Sprint(n.Path)] = n
	}
	for _, n := range nodes {
		if n.Children == 0 || !paper || n.Kind == core.Terminal {
			continue
		}
		var sum int64
		for i := range n.Children {
			sum += byPath[fmt.Sprint(append(append([]int32(nil), n.Path...), int32(i)))].Visits
		}
		if sum != n.Visits {
			t.Errorf("node %v: %d visits, its children %d", n.Path, n.Visits, sum)
			return
		}
	}
}

// TestTreeParallel runs every mode with 2 and 4 workers and virtual loss,
// twice in a row, and checks the tree's invariants; under -race it is the
// race test of the tree-parallel search.
func TestTreeParallel(t *testing.T) {
	for _, c := range configs {
		for _, k := range []int{2, 4} {
			for _, vl := range []core.VirtualLoss{{}, classicLoss, {N: 3, Value: 0.5}} {
				t.Run(fmt.Sprintf("%s/k=%d/vl=%v", c.name, k, vl), func(t *testing.T) {
					cfg := c.cfg
					cfg.VirtualLoss = vl
					s := newTree(t, tttGames(k), c.rule, cfg)
					if s.Workers() != k {
						t.Errorf("Workers = %d, want %d", s.Workers(), k)
					}
					for _, n := range []int{600, 600} {
						if err := s.Run(bg, n); err != nil {
							t.Fatal(err)
						}
					}
					checkTree(t, s, 1200, c.cfg.Growth == core.GrowPaper)
					s.Reset(3)
					run(t, s, 300)
					checkTree(t, s, 300, c.cfg.Growth == core.GrowPaper)
				})
			}
		}
	}
}

// TestLockstep: a lockstep tree-parallel search is deterministic, keeps
// the tree's invariants, and with one worker is the serial search.
func TestLockstep(t *testing.T) {
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Seed, cfg.VirtualLoss, cfg.Lockstep = 13, classicLoss, true
			var dumps [2][]core.NodeInfo
			for i := range dumps {
				s := newTree(t, tttGames(3), c.rule, cfg)
				run(t, s, 700)
				run(t, s, 501)
				checkTree(t, s, 1201, c.cfg.Growth == core.GrowPaper)
				dumps[i] = dump(s)
			}
			if diff := diffDumps(dumps[0], dumps[1]); diff != "" {
				t.Errorf("same seed, different statistics (-first +second):\n%s", diff)
			}
			c.cfg.Seed = 13
			serial := newSearch(t, games.NewTicTacToe(), c.rule, c.cfg)
			run(t, serial, 800)
			one := newTree(t, tttGames(1), c.rule, cfg)
			run(t, one, 800)
			if diff := diffDumps(dump(serial), dump(one)); diff != "" {
				t.Errorf("lockstep with one worker differs from serial (-serial +lockstep):\n%s", diff)
			}
		})
	}
}

// TestVirtualLossSpreads: in a lockstep batch on a fresh tree, a virtual
// loss sends the workers to different children (each sees the others'
// simulations in flight as lost ones), while without it they all take the
// first unvisited child, which none has backed up yet.
func TestVirtualLossSpreads(t *testing.T) {
	for _, c := range []struct {
		vl   core.VirtualLoss
		want []int64
	}{
		{classicLoss, []int64{1, 1, 1, 1}},
		{core.VirtualLoss{}, []int64{4, 0, 0, 0}},
	} {
		s := newTree(t, synthGames(t, 4, 4, 3), core.UCT{C: 1}, core.Config{VirtualLoss: c.vl, Lockstep: true})
		run(t, s, 4)
		var got []int64
		for i := range int32(4) {
			n, _ := s.Lookup([]int32{i})
			got = append(got, n.Visits)
		}
		if !cmp.Equal(got, c.want) {
			t.Errorf("%v: root children's visits after one batch %v, want %v", c.vl, got, c.want)
		}
	}
}

// TestTreeParallelFindsWin: with virtual loss the workers still find the
// winning move.
func TestTreeParallelFindsWin(t *testing.T) {
	gs := make([]core.Game, 2)
	for i := range gs {
		gs[i], _ = games.NewTicTacToeFrom("XX.OO....")
	}
	s := newTree(t, gs, core.UCT{C: math.Sqrt2}, core.Config{Growth: core.GrowPractical, VirtualLoss: classicLoss})
	run(t, s, 5000)
	d := s.Decide(core.MostVisited)
	g := gs[0].(*games.TicTacToe)
	g.Reset()
	if d < 0 || g.Move(d) != 2 {
		t.Errorf("decision %d, want the winning cell 2", d)
	}
}

// TestTreeParallelLargeTree grows a tree through many arena chunks while
// workers read it.
func TestTreeParallelLargeTree(t *testing.T) {
	s := newTree(t, synthGames(t, 2, 8, 10), core.UCT{C: math.Sqrt2}, core.Config{Growth: core.GrowPractical, VirtualLoss: classicLoss})
	run(t, s, 20_000)
	checkTree(t, s, 20_000, false)
	if s.Nodes() < 1<<15 { // chunks of 16, 16, 32, … nodes: a dozen of them
		t.Errorf("%d nodes, want a large tree", s.Nodes())
	}
}

// TestTreeParallelErrors: a rule that fails in one worker stops all of
// them and spoils the search, as in a serial search.
func TestTreeParallelErrors(t *testing.T) {
	for _, r := range []struct {
		rule core.Rule
		want string
	}{
		{panicRule{}, "rule panicked"},
		{badRule{9}, "rule chose child 9"},
	} {
		s := newTree(t, synthGames(t, 3, 3, 3), r.rule, core.Config{VirtualLoss: classicLoss})
		err := s.Run(bg, 1000)
		if err == nil || !strings.Contains(err.Error(), r.want) {
			t.Fatalf("Run: %v, want %q", err, r.want)
		}
		if again := s.Run(bg, 1); again == nil || again.Error() != err.Error() {
			t.Errorf("second Run: %v, want the same error", again)
		}
	}
	s := newTree(t, synthGames(t, 2, 4, 8), core.UCT{C: 1}, core.Config{})
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if err := s.Run(ctx, 1_000_000); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run with a cancelled context: %v", err)
	}
	if err := s.Run(bg, 10); err != nil {
		t.Errorf("a cancelled run spoiled the search: %v", err)
	}
}

// TestTreeParallelCancelled: a run stopped by its context halfway leaves
// the tree's invariants intact: the backups the workers held back near the
// root are written out, and no simulation stays in flight.
func TestTreeParallelCancelled(t *testing.T) {
	for _, c := range configs[:3] {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.VirtualLoss = classicLoss
			s := newTree(t, synthGames(t, 2, 4, 8), c.rule, cfg)
			ctx, cancel := context.WithTimeout(bg, 5*time.Millisecond)
			defer cancel()
			if err := s.Run(ctx, 1<<30); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Run: %v, want the deadline", err)
			}
			checkTree(t, s, s.Sims(), cfg.Growth == core.GrowPaper)
			before := s.Sims()
			run(t, s, 500)
			checkTree(t, s, before+500, cfg.Growth == core.GrowPaper)
		})
	}
}

func TestParallelBadConfig(t *testing.T) {
	if _, err := core.NewTreeParallel(nil, core.UCT{}, core.Config{}); err == nil {
		t.Error("NewTreeParallel with no games: no error")
	}
	if _, err := core.NewRoot(nil, core.UCT{}, core.Config{}); err == nil {
		t.Error("NewRoot with no games: no error")
	}
	for _, vl := range []core.VirtualLoss{{N: -1}, {N: 1, Value: 2}, {N: math.NaN()}, {N: math.Inf(1)}} {
		if _, err := core.NewTreeParallel(tttGames(2), core.UCT{}, core.Config{VirtualLoss: vl}); err == nil {
			t.Errorf("NewTreeParallel with %+v: no error", vl)
		}
	}
	if _, err := core.NewTreeParallel([]core.Game{games.NewTicTacToe(), nil}, core.UCT{}, core.Config{}); err == nil {
		t.Error("NewTreeParallel with a nil game: no error")
	}
}

// TestParallelAllocs: the parallel searches allocate nothing per
// simulation; a Run costs at most a few allocations for its goroutines,
// whatever its budget.
func TestParallelAllocs(t *testing.T) {
	cfg := core.Config{Growth: core.GrowPractical, Capacity: 1 << 18, VirtualLoss: classicLoss}
	tr := newTree(t, synthGames(t, 2, 4, 8), core.UCT{C: 1}, cfg)
	rt := newRoot(t, synthGames(t, 2, 4, 8), core.UCT{C: 1}, cfg)
	for _, c := range []struct {
		name  string
		reset func()
		run   func(int) error
	}{
		{"tree", func() { tr.Reset(1) }, func(n int) error { return tr.Run(bg, n) }},
		{"root", func() { rt.Reset(1) }, func(n int) error { return rt.Run(bg, n) }},
	} {
		c.reset()
		if err := c.run(2000); err != nil { // warm-up: buffers reach their size
			t.Fatal(err)
		}
		per := map[int]float64{}
		for _, n := range []int{500, 5000} {
			per[n] = testing.AllocsPerRun(3, func() {
				c.reset()
				if err := c.run(n); err != nil {
					t.Fatal(err)
				}
			})
		}
		if per[500] > 4 || per[5000] > 4 { // one per simulation would be 500 and 5,000
			t.Errorf("%s: %v allocations per run of 500 and %v per run of 5,000 simulations, want a few per run", c.name, per[500], per[5000])
		}
	}
}
