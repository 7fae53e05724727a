package bench_test

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/connect4"
)

// connect4Search is the position of the Connect Four search benchmark: the
// L2_R2 position that takes the median number of nodes to solve (line 312
// of games/connect4/testdata/Test_L2_R2, 15 stones, lost by 5 for the
// player to move), a middle game whose tree no search stores whole.
const connect4Search = "125775554151456"

// countingGame counts the moves played through it.
type countingGame struct {
	core.Game
	moves int64
}

func (c *countingGame) Play(i int) { c.moves++; c.Game.Play(i) }

// movesPerSearch counts the moves one search of sims simulations plays,
// descents and roll-outs together: the same in every operation of
// benchSearch, which searches with the same seed each time.
func movesPerSearch(tb testing.TB, g core.Game, r core.Rule, cfg core.Config) int64 {
	tb.Helper()
	cg := &countingGame{Game: g}
	cfg.Seed = seed
	if err := newSearch(tb, cg, r, cfg).Run(context.Background(), sims); err != nil {
		tb.Fatal(err)
	}
	return cg.moves
}

// BenchmarkPlayoutConnect4 is BenchmarkPlayout for Connect Four from the
// empty board (connect4.Game): uniform random moves to the end of the game,
// one play-out per simulation, through the engine (loop=engine) and written
// directly against the game (loop=bare). Besides ns/sim it reports the
// moves per play-out (moves/sim) and, for loop=bare, the moves played per
// second of the thread's CPU time (moves/s); the engine's moves/s is its
// moves/sim over its ns/sim.
func BenchmarkPlayoutConnect4(b *testing.B) {
	b.Run("game=connect4/loop=engine", func(b *testing.B) {
		cfg := practical
		cfg.MaxNodes = 1
		g := connect4.NewGame(connect4.Position{})
		rule := core.UCT{C: math.Sqrt2}
		moves := movesPerSearch(b, g, rule, cfg)
		benchSearch(b, g, rule, cfg)
		b.ReportMetric(float64(moves)/sims, "moves/sim")
	})
	b.Run("game=connect4/loop=bare", func(b *testing.B) {
		g := connect4.NewGame(connect4.Position{})
		rng := core.NewRNG(seed)
		sum, moves := 0.0, 0
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		b.ReportAllocs()
		c0 := threadCPU()
		for b.Loop() {
			rng.Seed(seed)
			for range sims {
				g.Reset()
				for g.Kind() != core.Terminal {
					g.Play(rng.IntN(g.NumMoves()))
					moves++
				}
				sum += g.Reward()
			}
		}
		cpu := threadCPU() - c0
		b.ReportMetric(float64(cpu)/(float64(b.N)*sims), "ns/sim")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(b.N)*sims), "wall-ns/sim")
		b.ReportMetric(float64(moves)/(float64(b.N)*sims), "moves/sim")
		b.ReportMetric(float64(moves)/cpu.Seconds(), "moves/s")
		if sum < 0 {
			b.Fatal("negative reward")
		}
	})
}

// BenchmarkSearchConnect4 is BenchmarkSearch for Connect Four: UCT in
// practical mode from a fixed middle-game position (connect4Search), one
// search of 200,000 simulations per op.
func BenchmarkSearchConnect4(b *testing.B) {
	b.Run("game=connect4/rule=uct/mode=practical", func(b *testing.B) {
		benchSearch(b, connect4.NewGame(connect4.MustParse(connect4Search)), core.UCT{C: math.Sqrt2}, practical)
	})
}
