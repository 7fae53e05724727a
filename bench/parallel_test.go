package bench_test

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/core"
)

// runner is a search that BenchmarkParallel times: serial, root- or
// tree-parallel.
type runner interface {
	Reset(seed uint64)
	Run(ctx context.Context, sims int) error
}

// parallelCase is one parallel configuration of the reference workload.
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

// newParallel builds the parallel search of c on synth b=8 d=10 with
// core.UCT, practical mode, the arena sized by a probe run.
func newParallel(b *testing.B, c parallelCase) runner {
	games := make([]core.Game, c.workers)
	for i := range games {
		games[i] = synth(b, 8, 10)
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
		s, err := core.NewTree(games, core.UCT{C: math.Sqrt2}, cfg)
		if err != nil {
			b.Fatal(err)
		}
		return s, s.Nodes
	}
	probe, nodes := build(0)
	if err := probe.Run(context.Background(), sims); err != nil {
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
// The first sub-benchmark, mode=spin, is the control: a loop of integer
// arithmetic that touches no memory, run once on one goroutine and then
// split over two. Its speed-up is what the machine gives two goroutines at
// that moment (2 on an idle 2-core machine, less when other processes hold
// a core), so that a search's speed-up can be read against it.
func BenchmarkParallel(b *testing.B) {
	b.Run("game=none/mode=spin/workers=2", func(b *testing.B) {
		const n = 50_000_000
		var serialWall, parWall time.Duration
		sink := uint64(0)
		for b.Loop() {
			t0 := time.Now()
			sink += spin(n)
			t1 := time.Now()
			done := make(chan uint64)
			go func() { done <- spin(n / 2) }()
			sink += spin(n / 2)
			sink += <-done
			parWall += time.Since(t1)
			serialWall += t1.Sub(t0)
		}
		b.ReportMetric(serialWall.Seconds()/parWall.Seconds(), "speed-up")
		if sink == 1 {
			b.Log(sink)
		}
	})
	for _, c := range parallelCases {
		name := fmt.Sprintf("game=synth/b=8/d=10/rule=uct/mode=%s/workers=%d", c.mode, c.workers)
		if c.mode == "tree" {
			name += fmt.Sprintf("/vl=%g", c.vl.N)
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			serial := newSearch(b, synth(b, 8, 10), core.UCT{C: math.Sqrt2}, core.Config{Growth: core.GrowPractical, Seed: seed})
			if err := serial.Run(ctx, sims); err != nil {
				b.Fatal(err)
			}
			par := newParallel(b, c)
			b.ReportAllocs()
			var serialWall, parWall, parCPU time.Duration
			for b.Loop() {
				serial.Reset(seed)
				t0 := time.Now()
				if err := serial.Run(ctx, sims); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				c0 := processCPU()
				par.Reset(seed)
				if err := par.Run(ctx, sims); err != nil {
					b.Fatal(err)
				}
				parCPU += processCPU() - c0
				parWall += time.Since(t1)
				serialWall += t1.Sub(t0)
			}
			n := float64(b.N) * sims
			b.ReportMetric(float64(parWall.Nanoseconds())/n, "wall-ns/sim")
			b.ReportMetric(float64(parCPU.Nanoseconds())/n, "cpu-ns/sim")
			b.ReportMetric(serialWall.Seconds()/parWall.Seconds(), "speed-up")
		})
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
