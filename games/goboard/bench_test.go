package goboard

import (
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
