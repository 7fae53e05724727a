package goboard

import (
	"context"
	"math"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// BenchmarkPlayout times Board.Playout from the empty board: one light
// playout per iteration, on a copy of the empty board, with a fixed seed.
func BenchmarkPlayout(b *testing.B) {
	for _, bc := range []struct {
		name string
		size int
	}{{"go9", 9}, {"go19", 19}} {
		b.Run("game="+bc.name, func(b *testing.B) {
			start, err := NewBoard(Config{Size: bc.size})
			if err != nil {
				b.Fatal(err)
			}
			rng := core.NewRNG(1)
			var pos Board
			moves := 0
			b.ReportAllocs()
			for b.Loop() {
				pos = *start
				pos.Playout(rng)
				moves += pos.MovesPlayed()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
			b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
		})
	}
}

// BenchmarkRollout times one roll-out from the empty 9×9 board as core's
// practical mode drives it, one move at a time through interface calls:
// policy=fast through a FastGame with FastLight (the board's own draw),
// policy=light through the Game with Light (the Game listing every
// position's moves with positional superko); policy=playout hands the
// whole roll-out to Game.Rollout, that is Board.Playout.
func BenchmarkRollout(b *testing.B) {
	g, err := NewGame(Config{})
	if err != nil {
		b.Fatal(err)
	}
	through := func(cg core.Game, policy core.Policy) func(rng *core.RNG) float64 {
		return func(rng *core.RNG) float64 {
			for cg.Kind() != core.Terminal {
				if cg.NumMoves() <= 0 {
					b.Fatal("no moves")
				}
				cg.Play(policy.Choose(cg, rng))
			}
			return cg.Reward()
		}
	}
	fast := NewFastGame(g)
	for _, bc := range []struct {
		name string
		roll func(rng *core.RNG) float64
	}{
		{"fast", through(fast, FastLight{})},
		{"light", through(g, Light{})},
		{"playout", g.Rollout},
	} {
		b.Run("game=go9/policy="+bc.name, func(b *testing.B) {
			rng := core.NewRNG(1)
			moves := 0
			b.ReportAllocs()
			for b.Loop() {
				fast.Reset() // and g
				bc.roll(rng)
				moves += g.b.MovesPlayed()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
			b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
		})
	}
}

// BenchmarkSearch times a practical-mode UCT search (C = √2) from the
// empty 9×9 board: 1,000 simulations an iteration on a fresh tree, the
// arena preallocated. policy=fast rolls out through a FastGame with
// FastLight, the search a match and the GTP engine run; policy=light
// through the Game with Light. It reports simulations per second of wall
// time and per second of the process's CPU time (cpu-sims/s), which other
// jobs on the machine disturb less.
func BenchmarkSearch(b *testing.B) {
	for _, bc := range []struct {
		name   string
		game   func(*Game) core.Game
		policy core.Policy
	}{
		{"fast", func(g *Game) core.Game { return NewFastGame(g) }, FastLight{}},
		{"light", func(g *Game) core.Game { return g }, Light{}},
	} {
		g, err := NewGame(Config{})
		if err != nil {
			b.Fatal(err)
		}
		s, err := core.New(bc.game(g), core.UCT{C: math.Sqrt2}, core.Config{Seed: 1, Growth: core.GrowPractical, Rollout: bc.policy, Capacity: 1 << 17})
		if err != nil {
			b.Fatal(err)
		}
		const sims = 1000
		b.Run("game=go9/rule=uct/policy="+bc.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := processCPU()
			for b.Loop() {
				s.Reset(1)
				if err := s.Run(context.Background(), sims); err != nil {
					b.Fatal(err)
				}
			}
			n := float64(b.N) * sims
			b.ReportMetric(n/b.Elapsed().Seconds(), "sims/s")
			if cpu := processCPU() - cpu0; cpu > 0 {
				b.ReportMetric(n/cpu.Seconds(), "cpu-sims/s")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/sim")
		})
	}
}
