package bench_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
	"github.com/mctscheck/mctscheck/tree"
)

const (
	// sims is the number of simulations of one benchmarked search.
	sims = 200_000
	// seed is the seed of every benchmarked search.
	seed = 1
	// randomSeed is the seed of the generated tree of game=random.
	randomSeed = 2010
)

// practical is the practical mode of the workloads: roll out on a leaf's
// first visit, add all its children on its second.
var practical = core.Config{Growth: core.GrowPractical}

// paper is Algorithm 1 verbatim: every node of every path is stored.
var paper = core.Config{Growth: core.GrowPaper}

// synth returns the synth game or fails the benchmark.
func synth(tb testing.TB, b, d int) *games.Synth {
	tb.Helper()
	g, err := games.NewSynth(b, d)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// randomTree is the explicit tree of game=random, built once.
var randomTree = sync.OnceValues(func() (*tree.Tree, error) {
	return buildRandom(rand.New(rand.NewPCG(randomSeed, randomSeed)), 8)
})

// buildRandom builds a pseudo-random tree of max, min and chance nodes and
// dyadic leaves, at most depth deep, from rng. Max and min alternate by
// depth; a node below the root is a leaf with probability 1/10 and a chance
// node with probability 1/8; decision nodes have 2 to 6 children, chance
// nodes 2 or 4 equally likely ones; rewards are multiples of 1/4.
func buildRandom(rng *rand.Rand, depth int) (*tree.Tree, error) {
	b := tree.NewBuilder()
	var node func(d int) tree.Ref
	node = func(d int) tree.Ref {
		if d == depth || d > 0 && rng.IntN(10) == 0 {
			return b.Leaf(float64(rng.IntN(5)) / 4)
		}
		if d > 0 && rng.IntN(8) == 0 {
			k := 2 << rng.IntN(2)
			edges := make([]tree.Edge, k)
			for i := range edges {
				edges[i] = tree.P(1/float64(k), node(d+1))
			}
			return b.Chance(edges...)
		}
		kids := make([]tree.Ref, 2+rng.IntN(5))
		for i := range kids {
			kids[i] = node(d + 1)
		}
		if d%2 == 0 {
			return b.Max(kids...)
		}
		return b.Min(kids...)
	}
	return b.Build(node(0))
}

// random returns a cursor on the tree of game=random or fails the benchmark.
func random(tb testing.TB) *tree.Cursor {
	tb.Helper()
	t, err := randomTree()
	if err != nil {
		tb.Fatal(err)
	}
	return t.Game()
}

// newSearch returns a search or fails the benchmark.
func newSearch(tb testing.TB, g core.Game, r core.Rule, cfg core.Config) *core.Search {
	tb.Helper()
	s, err := core.New(g, r, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// benchSearch measures one search of sims simulations from an empty tree
// per operation, every one with the same seed, so every operation does the
// same work. The arena is sized beforehand to the tree the search grows, so
// that the loop allocates nothing; B/node is every byte core.New and the
// first search allocate, divided by the nodes stored.
func benchSearch(b *testing.B, g core.Game, r core.Rule, cfg core.Config) {
	benchSearchN(b, g, r, cfg, sims)
}

// benchSearchN is benchSearch with searches of n simulations.
func benchSearchN(b *testing.B, g core.Game, r core.Rule, cfg core.Config, sims int) {
	ctx := context.Background()
	// The thread's CPU clock measures this goroutine only while it is locked
	// to the thread; locking first keeps its one-off costs out of the loop.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	threadCPU()
	cfg.Seed = seed
	probe := newSearch(b, g, r, cfg)
	if err := probe.Run(ctx, sims); err != nil {
		b.Fatal(err)
	}
	cfg.Capacity = probe.Nodes()
	probe = nil

	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	s := newSearch(b, g, r, cfg)
	if err := s.Run(ctx, sims); err != nil {
		b.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	nodes := s.Nodes()
	runtime.GC() // no collection of the set-up's garbage during the timed loop

	b.ReportAllocs()
	c0 := threadCPU()
	for b.Loop() {
		s.Reset(seed)
		if err := s.Run(ctx, sims); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(threadCPU()-c0)/(float64(b.N)*float64(sims)), "ns/sim")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(b.N)*float64(sims)), "wall-ns/sim")
	if nodes > 1 { // a play-out search stores only the root
		b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(nodes), "B/node")
	}
}

// BenchmarkSearch measures the reference workload (game=synth, b=8, d=10)
// and tic-tac-toe under every benchmarked rule, and a generated explicit tree
// in paper and practical mode, one search of 200,000 simulations per op.
func BenchmarkSearch(b *testing.B) {
	for _, rc := range benchRules {
		b.Run(fmt.Sprintf("game=synth/b=8/d=10/rule=%s/mode=practical", rc.name), func(b *testing.B) {
			benchSearch(b, synth(b, 8, 10), rc.rule, practical)
		})
	}
	for _, rc := range benchRules {
		b.Run(fmt.Sprintf("game=ttt/rule=%s/mode=practical", rc.name), func(b *testing.B) {
			benchSearch(b, games.NewTicTacToe(), rc.rule, practical)
		})
	}
	for _, mode := range []core.Config{paper, practical} {
		b.Run(fmt.Sprintf("game=random/rule=uct/mode=%v", mode.Growth), func(b *testing.B) {
			benchSearch(b, random(b), core.UCT{C: math.Sqrt2}, mode)
		})
	}
}

// Scaling sweeps: depth at the reference branching, branching at the
// reference depth. The reference point (8, 10) is in both.
var (
	scaleDepths    = []int{4, 6, 8, 10, 12, 14}
	scaleBranching = []int{2, 4, 8, 16, 32}
	// scaleSims are the budgets of the reference point beyond 200,000: the
	// tree outgrows the caches, then the first arena chunk.
	scaleSims = []int{1_000_000, 10_000_000}
)

// BenchmarkScaling measures UCT in practical mode on synth trees of depth
// 4..14 (b=8) and branching 2..32 (d=10), so that the cost per simulation can
// be read as a function of either: benchstat -col /d or -col /b. The
// reference point also runs searches of 10^6 and 10^7 simulations
// (sims=N/game=…, first so that -bench 'Scaling/game=' leaves them out),
// whose trees outgrow the caches and the first arena chunk.
func BenchmarkScaling(b *testing.B) {
	type point struct{ b, d int }
	var points []point
	for _, d := range scaleDepths {
		points = append(points, point{8, d})
	}
	for _, br := range scaleBranching {
		if br != 8 {
			points = append(points, point{br, 10})
		}
	}
	for _, p := range points {
		b.Run(fmt.Sprintf("game=synth/b=%d/d=%d/rule=uct/mode=practical", p.b, p.d), func(b *testing.B) {
			benchSearch(b, synth(b, p.b, p.d), core.UCT{C: math.Sqrt2}, practical)
		})
	}
	for _, n := range scaleSims {
		b.Run(fmt.Sprintf("sims=%d/game=synth/b=8/d=10/rule=uct/mode=practical", n), func(b *testing.B) {
			benchSearchN(b, synth(b, 8, 10), core.UCT{C: math.Sqrt2}, practical, n)
		})
	}
}

// BenchmarkPlayout measures the roll-out loop alone: uniform random moves
// from the root to a terminal, one play-out per simulation. loop=engine runs
// it through core (a practical-mode search whose tree may not grow past the
// root, so every simulation is a roll-out and a one-node backup); loop=bare is
// the same walk written directly against the game, the floor the engine's
// loop is measured against.
func BenchmarkPlayout(b *testing.B) {
	games := []struct {
		name string
		game func(testing.TB) core.Game
	}{
		{"game=synth/b=8/d=10", func(tb testing.TB) core.Game { return synth(tb, 8, 10) }},
		{"game=ttt", func(testing.TB) core.Game { return games.NewTicTacToe() }},
	}
	for _, gc := range games {
		b.Run(gc.name+"/loop=engine", func(b *testing.B) {
			cfg := practical
			cfg.MaxNodes = 1
			benchSearch(b, gc.game(b), core.UCT{C: math.Sqrt2}, cfg)
		})
		b.Run(gc.name+"/loop=bare", func(b *testing.B) {
			g := gc.game(b)
			rng := core.NewRNG(seed)
			sum := 0.0
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			c0 := threadCPU()
			for b.Loop() {
				rng.Seed(seed)
				for range sims {
					sum += playout(g, rng)
				}
			}
			b.ReportMetric(float64(threadCPU()-c0)/(float64(b.N)*sims), "ns/sim")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(b.N)*sims), "wall-ns/sim")
			if sum < 0 {
				b.Fatal("negative reward")
			}
		})
	}
}

// playout plays uniformly random moves from the root of g to a terminal and
// returns its reward. Neither synth nor tic-tac-toe has chance nodes.
func playout(g core.Game, rng *core.RNG) float64 {
	g.Reset()
	for g.Kind() != core.Terminal {
		g.Play(rng.IntN(g.NumMoves()))
	}
	return g.Reward()
}
