package rules_test

import (
	"context"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/rules"
)

// BenchmarkPresetSearch measures searches in practical mode under the
// presets that read the site's derived quantities or declare squares: on
// the benchmarks' reference game (synth, b=8, d=10, 20,000 simulations),
// which has no priors, so that the policy is uniform, and on 5×5 Go (2,000
// simulations), whose priors make a real policy. ns/sim is the wall time
// per simulation, cpu-ns/sim the process's CPU time (run with -cpu 1, so
// that other processes on a shared machine count less), B/node the
// arena's bytes per node.
func BenchmarkPresetSearch(b *testing.B) {
	type game struct {
		name string
		sims int
		make func() (core.Game, error)
	}
	for _, g := range []game{
		{"synth", 20000, func() (core.Game, error) { return games.NewSynth(8, 10) }},
		{"go5", 2000, func() (core.Game, error) { return goboard.NewGame(goboard.Config{Size: 5}) }},
	} {
		for _, name := range []string{"lc0", "katago", "mctx-muzero", "ludii-ucb1tuned"} {
			b.Run("game="+g.name+"/preset="+name, func(b *testing.B) {
				gm, err := g.make()
				if err != nil {
					b.Fatal(err)
				}
				s, err := core.New(gm, rules.MustParse(name).Rule, core.Config{Growth: core.GrowPractical})
				if err != nil {
					b.Fatal(err)
				}
				c0 := cpuTime()
				for b.Loop() {
					s.Reset(1)
					if err := s.Run(context.Background(), g.sims); err != nil {
						b.Fatal(err)
					}
				}
				n := float64(b.N) * float64(g.sims)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/sim")
				b.ReportMetric(float64(cpuTime()-c0)/n, "cpu-ns/sim")
				b.ReportMetric(float64(s.BytesPerNode()), "B/node")
			})
		}
	}
}
