package bench_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/goboard"
)

// runner is a search that BenchmarkParallel times: serial, root- or
// tree-parallel.
type runner interface {
	Reset(seed uint64)
	Run(ctx context.Context, sims int) error
}

// parallelWorkload is a game and a search size BenchmarkParallel runs its
// cases on: the reference synth tree, whose simulations cost a few hundred
// nanoseconds, and 9×9 Go from the empty board, whose light playouts cost
// about ten microseconds.
type parallelWorkload struct {
	name string
	game func(b *testing.B) core.Game
	sims int
}

var parallelWorkloads = []parallelWorkload{
	{"game=synth/b=8/d=10", func(b *testing.B) core.Game { return synth(b, 8, 10) }, sims},
	{"game=go9", func(b *testing.B) core.Game {
		g, err := goboard.NewGame(goboard.Config{})
		if err != nil {
			b.Fatal(err)
		}
		return g
	}, 10_000},
}

// parallelCase is one parallel configuration of a workload.
type parallelCase struct {
	mode    string // "root" or "tree"
	workers int
	vl      core.VirtualLoss
}

var parallelCases = []parallelCase{
	{"root", 1, core.VirtualLoss{}},
	{"root", 2, core.VirtualLoss{}},
	{"tree", 1, core.VirtualLoss{N: 1}},
	{"tree", 2, core.VirtualLoss{N: 1}},
	{"tree", 1, core.VirtualLoss{}},
	{"tree", 2, core.VirtualLoss{}},
}

// newParallel builds the parallel search of c on workload w with core.UCT,
// practical mode, the arena sized by a probe run.
func newParallel(b *testing.B, w parallelWorkload, c parallelCase) runner {
	games := make([]core.Game, c.workers)
	for i := range games {
		games[i] = w.game(b)
	}
	cfg := practical
	cfg.Seed = seed
	cfg.VirtualLoss = c.vl
	build := func(capacity int) (runner, func() int) {
		cfg.Capacity = capacity
		if c.mode == "root" {
			r, err := core.NewRoot(games, core.UCT{C: math.Sqrt2}, cfg)
			if err != nil {
				b.Fatal(err)
			}
			return r, func() int { return r.Worker(0).Nodes() }
		}
		s, err := core.NewTreeParallel(games, core.UCT{C: math.Sqrt2}, cfg)
		if err != nil {
			b.Fatal(err)
		}
		return s, s.Nodes
	}
	probe, nodes := build(0)
	if err := probe.Run(context.Background(), w.sims); err != nil {
		b.Fatal(err)
	}
	r, _ := build(nodes() + nodes()/8) // tree-parallel trees vary with timing
	return r
}

// BenchmarkParallel measures root and tree parallelism on the reference
// workload (synth b=8 d=10, core.UCT with C = √2, practical mode): one op
// is a serial search of 200,000 simulations and then the parallel search of
// 200,000 simulations in all, so that both see the same load on a shared
// machine. wall-ns/sim is the parallel search's wall time per simulation,
// cpu-ns/sim its CPU time (every thread of the process), and speed-up the
// serial search's wall time divided by the parallel one's, summed over the
// ops. tree-parallel searches with vl=1 use a classic virtual loss (one
// lost simulation per simulation in flight), vl=0 none.
//
// cpu-ratio is the parallel search's CPU time per simulation divided by
// the serial search's: the cost of the parallel code itself (atomic
// operations, shared cache lines, idle workers), which other processes on a
// shared machine hardly change. With k workers on k free cores the
// speed-up is at most k / cpu-ratio.
//
// The first two sub-benchmarks are the controls, each a fixed amount of
// work run once on one goroutine and then split over two. mode=spin is a
// loop of integer arithmetic that touches no memory: its speed-up is what
// the machine gives two goroutines at that moment (2 on an idle 2-core
// machine, less when other processes hold a core). mode=chase is
// memory-bound: a walk through a random cycle of cache lines in a buffer
// the size of the serial search's tree (its nodes × BytesPerNode), each
// step a dependent load that misses the first two cache levels; its
// speed-up is what the machine's shared cache and memory give two
// goroutines. A search's speed-up is read against the two.
func BenchmarkParallel(b *testing.B) {
	b.Run("game=none/mode=spin/workers=2", func(b *testing.B) {
		const n = 50_000_000
		benchControl(b, func(start, n int) uint64 { return spin(n) }, n)
	})
	b.Run("game=none/mode=chase/workers=2", func(b *testing.B) {
		s := newSearch(b, synth(b, 8, 10), core.UCT{C: math.Sqrt2}, core.Config{Growth: core.GrowPractical, Seed: seed})
		if err := s.Run(context.Background(), sims); err != nil {
			b.Fatal(err)
		}
		cycle := newCycle(s.Nodes() * s.BytesPerNode() / lineSize)
		benchControl(b, func(start, n int) uint64 { return chase(cycle, start*len(cycle)/2, n) }, 2_000_000)
		b.ReportMetric(float64(len(cycle)*lineSize)/(1<<20), "MiB") // after the loop, which resets the metrics
	})
	for _, w := range parallelWorkloads {
		for _, c := range parallelCases {
			name := fmt.Sprintf("%s/rule=uct/mode=%s/workers=%d", w.name, c.mode, c.workers)
			if c.mode == "tree" {
				name += fmt.Sprintf("/vl=%g", c.vl.N)
			}
			b.Run(name, func(b *testing.B) { benchParallel(b, w, c) })
		}
	}
}

// benchParallel times one case of BenchmarkParallel: a serial search of
// w.sims simulations, then the parallel one, per op.
func benchParallel(b *testing.B, w parallelWorkload, c parallelCase) {
	ctx := context.Background()
	serial := newSearch(b, w.game(b), core.UCT{C: math.Sqrt2}, core.Config{Growth: core.GrowPractical, Seed: seed})
	if err := serial.Run(ctx, w.sims); err != nil {
		b.Fatal(err)
	}
	par := newParallel(b, w, c)
	b.ReportAllocs()
	var serialWall, parWall, serialCPU, parCPU time.Duration
	for b.Loop() {
		serial.Reset(seed)
		c0 := processCPU()
		t0 := time.Now()
		if err := serial.Run(ctx, w.sims); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		serialCPU += processCPU() - c0
		c0 = processCPU()
		par.Reset(seed)
		if err := par.Run(ctx, w.sims); err != nil {
			b.Fatal(err)
		}
		parCPU += processCPU() - c0
		parWall += time.Since(t1)
		serialWall += t1.Sub(t0)
	}
	n := float64(b.N) * float64(w.sims)
	b.ReportMetric(float64(parWall.Nanoseconds())/n, "wall-ns/sim")
	b.ReportMetric(float64(parCPU.Nanoseconds())/n, "cpu-ns/sim")
	b.ReportMetric(serialWall.Seconds()/parWall.Seconds(), "speed-up")
	b.ReportMetric(parCPU.Seconds()/serialCPU.Seconds(), "cpu-ratio")
}

// benchControl times a control: work(0, n) on one goroutine, then work(0,
// n/2) and work(1, n/2) on two, and reports the speed-up.
func benchControl(b *testing.B, work func(start, n int) uint64, n int) {
	var serialWall, parWall time.Duration
	sink := uint64(0)
	for b.Loop() {
		t0 := time.Now()
		sink += work(0, n)
		t1 := time.Now()
		done := make(chan uint64)
		go func() { done <- work(1, n/2) }()
		sink += work(0, n/2)
		sink += <-done
		parWall += time.Since(t1)
		serialWall += t1.Sub(t0)
	}
	b.ReportMetric(serialWall.Seconds()/parWall.Seconds(), "speed-up")
	if sink == 1 {
		b.Log(sink)
	}
}

// spin is the control's work: n steps of a linear congruential generator.
func spin(n int) uint64 {
	x := uint64(1)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// lineSize is the size of a cache line on the machines we measure on.
const lineSize = 64

// line is one cache line of the chase control: the index of the next line.
type line struct {
	next uint32
	_    [lineSize - 4]byte
}

// newCycle returns n lines (at least 2) linked into one random cycle
// (Sattolo's algorithm, fixed seed), so that a walk visits every line in
// an order the prefetcher cannot guess.
func newCycle(n int) []line {
	n = max(n, 2)
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	c := make([]line, n)
	for i := range c {
		c[i].next = perm[i]
	}
	return c
}

// chase is the memory-bound control's work: n steps through the cycle from
// line start.
func chase(c []line, start, n int) uint64 {
	i := uint32(start)
	for range n {
		i = c[i].next
	}
	return uint64(i)
}

// BenchmarkRMW measures the read-modify-write operations a tree-parallel
// search does per stored node of a path, uncontended, one goroutine, on
// 1024 counters a cache line apart: op=plain is n++ (the serial backup),
// op=xadd is atomic.AddUint32 (a visit count, an in-flight count), op=cas
// is the compare-and-swap loop that adds a float64 (a reward sum).
// ns/op times the number of such operations per simulation is what the
// shared tree's atomics cost, next to the serial search's ns/sim.
func BenchmarkRMW(b *testing.B) {
	const stride = lineSize / 8
	counts := make([]uint64, 1024*stride)
	sums := make([]float64, 1024*stride)
	b.Run("op=plain", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			counts[i&1023*stride]++
		}
	})
	b.Run("op=xadd", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			atomic.AddUint64(&counts[i&1023*stride], 1)
		}
	})
	b.Run("op=cas", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			p := (*uint64)(unsafe.Pointer(&sums[i&1023*stride]))
			for {
				old := atomic.LoadUint64(p)
				if atomic.CompareAndSwapUint64(p, old, math.Float64bits(math.Float64frombits(old)+1)) {
					break
				}
			}
		}
	})
}
