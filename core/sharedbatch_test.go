package core_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/core"
)

// BenchmarkHold compares, on the synth reference (b=8 d=10, UCT with
// C = √2, practical mode, 100,000 simulations a search), two tree-parallel
// workers that hold back their backups of the top levels (hold=true) with
// the same two workers that do not (hold=false), with and without virtual
// loss. Each op is one search; wall-ns/sim is its wall time a simulation.
// -count repeats each half in a row: for the halves to alternate, run the
// test binary once per sample,
//
//	go test -c -o core.test ./core
//	for i in $(seq 10); do ./core.test -test.run '^$' -test.bench Hold -test.benchtime 10x; done > hold.txt
//	benchstat -col /hold hold.txt
//
// Two workers only run at once on two free cores: on a busy
// machine the comparison measures the cost of holding back, not what it
// saves.
func BenchmarkHold(b *testing.B) {
	const sims = 100_000
	for _, vl := range []float64{0, 1} {
		for _, hold := range []bool{false, true} {
			b.Run(fmt.Sprintf("vl=%g/hold=%v", vl, hold), func(b *testing.B) {
				cfg := core.Config{Growth: core.GrowPractical, Seed: 1, Capacity: 3 * sims, VirtualLoss: core.VirtualLoss{N: vl}}
				s := newTree(b, synthGames(b, 2, 8, 10), core.UCT{C: math.Sqrt2}, cfg)
				core.SetHold(s, hold)
				b.ReportAllocs()
				var wall time.Duration
				for b.Loop() {
					s.Reset(1)
					t0 := time.Now()
					run(b, s, sims)
					wall += time.Since(t0)
				}
				b.ReportMetric(float64(wall.Nanoseconds())/float64(b.N)/sims, "wall-ns/sim")
			})
		}
	}
}
