package bench_test

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
)

// memoryEnv makes the test binary a child that runs one search and reports
// its memory (TestMain below): BenchmarkMemory's message to the child it
// starts, not a knob for users.
const memoryEnv = "MCTSCHECK_BENCH_MEMORY"

// large adds largeSims to BenchmarkMemory and checkTreeLarge to
// BenchmarkCheckTree.
var large = flag.Bool("large", false, "BenchmarkMemory also runs the largest search that fits in 1 GiB (about a minute a run), BenchmarkCheckTree the wide tree at the defaults (several CPU minutes)")

func TestMain(m *testing.M) {
	if v := os.Getenv(memoryEnv); v != "" {
		os.Exit(memoryChild(v))
	}
	if v := os.Getenv(checkTreeEnv); v != "" {
		os.Exit(checkTreeChild(v))
	}
	os.Exit(m.Run())
}

// memoryChild runs a UCT search of the given number of simulations on
// synth b=8 d=10 in practical mode, with no Capacity, and prints the nodes
// stored and the process's peak resident memory.
func memoryChild(arg string) int {
	n, err := strconv.Atoi(arg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	g, err := games.NewSynth(8, 10)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	s, err := core.New(g, core.UCT{C: math.Sqrt2}, core.Config{Growth: core.GrowPractical, Seed: seed})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := s.Run(context.Background(), n); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	rss, err := peakRSS()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("nodes %d maxrss-kib %d\n", s.Nodes(), rss)
	return 0
}

// memorySims are the searches BenchmarkMemory measures; -large adds
// largeSims, the largest search that fits in 1 GiB (a minute a run).
var memorySims = []int{1_000_000, 10_000_000}

const largeSims = 26_000_000

// BenchmarkMemory measures the peak memory of one UCT search on synth b=8
// d=10 in practical mode, without Config.Capacity, so that the arena grows
// as the tree does. Each op runs the search in a child process (this test
// binary, started again) and reads its peak resident set (getrusage's
// ru_maxrss): tree-MiB is 16 bytes a stored node, peak-MiB the process's
// peak, and peak/tree their ratio. The child is a whole Go process, so
// peak-MiB includes the runtime's own few MiB. With the test flag -large
// (go test -run '^$' -bench Memory ./bench -args -large) it also runs
// 26,000,000 simulations, the largest search of this workload that fits
// in 1 GiB.
func BenchmarkMemory(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	ns := memorySims
	if *large {
		ns = append(ns, largeSims)
	}
	for _, n := range ns {
		b.Run(fmt.Sprintf("game=synth/b=8/d=10/rule=uct/mode=practical/sims=%d", n), func(b *testing.B) {
			var nodes, peak float64
			for b.Loop() {
				var nn, kib int64
				if err := runChild(exe, []string{memoryEnv + "=" + strconv.Itoa(n)}, "nodes %d maxrss-kib %d", &nn, &kib); err != nil {
					b.Fatal(err)
				}
				nodes, peak = float64(nn), max(peak, float64(kib)/1024)
			}
			tree := nodes * 16 / (1 << 20)
			b.ReportMetric(tree, "tree-MiB")
			b.ReportMetric(peak, "peak-MiB")
			b.ReportMetric(peak/tree, "peak/tree")
		})
	}
}
