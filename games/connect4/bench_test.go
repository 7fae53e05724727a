package connect4

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkPlayout plays uniformly random games from the empty board through
// the core.Game cursor and reports the moves played per second.
func BenchmarkPlayout(b *testing.B) {
	g := NewGame(Position{})
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	moves := 0
	for b.Loop() {
		moves += playout(g, r)
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/op")
}

// benchPositions are, for each test set, its position that takes the median
// number of nodes to solve from an empty table.
var benchPositions = []struct{ set, moves string }{
	{"L3_R1", "5416733371775475526647216664154211432"}, // line 347, score 1, 11 nodes
	{"L2_R1", "7112723762211635722163641576"},          // line 966, score -6, 60 nodes
	{"L2_R2", median}, // line 312, score -5, about 13,000 nodes
}

// BenchmarkSolve solves one fixed position of each test set from an empty
// table (the default Config: the table starts at 512 KiB and grows with
// the work) and reports the nodes searched per solve. Each iteration calls
// Reset, so the time includes the amortised cost of clearing the table's
// memory once every 255 solves.
func BenchmarkSolve(b *testing.B) {
	for _, bp := range benchPositions {
		b.Run("set="+bp.set, func(b *testing.B) {
			p := MustParse(bp.moves)
			s := newSolver(b, Config{})
			ctx := context.Background()
			b.ReportAllocs()
			nodes := int64(0)
			for b.Loop() {
				s.Reset()
				if _, err := s.Score(ctx, p); err != nil {
					b.Fatal(err)
				}
				nodes += s.Nodes()
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
