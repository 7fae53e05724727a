package rules_test

import (
	"context"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
	"github.com/mctscheck/mctscheck/rules"
)

// BenchmarkPresetSearch measures searches of 20,000 simulations of the
// benchmarks' reference game (synth, b=8, d=10, practical mode) under the
// presets that read the site's derived quantities or declare squares; the
// game has no priors, so their policy is uniform. ns/sim is the wall time
// per simulation, cpu-ns/sim the process's CPU time (run with -cpu 1, so
// that other processes on a shared machine count less), B/node the
// arena's bytes per node.
func BenchmarkPresetSearch(b *testing.B) {
	const sims = 20000
	for _, name := range []string{"lc0", "katago", "mctx-muzero", "ludii-ucb1tuned"} {
		b.Run("preset="+name, func(b *testing.B) {
			g, err := games.NewSynth(8, 10)
			if err != nil {
				b.Fatal(err)
			}
			s, err := core.New(g, rules.MustParse(name).Rule, core.Config{Growth: core.GrowPractical})
			if err != nil {
				b.Fatal(err)
			}
			c0 := cpuTime()
			for b.Loop() {
				s.Reset(1)
				if err := s.Run(context.Background(), sims); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(b.N)*sims), "ns/sim")
			b.ReportMetric(float64(cpuTime()-c0)/(float64(b.N)*sims), "cpu-ns/sim")
			b.ReportMetric(float64(s.BytesPerNode()), "B/node")
		})
	}
}
