package core

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"
)

// neverEnding is a game that never ends: two moves at every max position.
type neverEnding struct{}

func (neverEnding) Reset()           {}
func (neverEnding) Play(int)         {}
func (neverEnding) Kind() Kind       { return Max }
func (neverEnding) NumMoves() int    { return 2 }
func (neverEnding) Reward() float64  { panic("neverEnding: Reward") }
func (neverEnding) Prob(int) float64 { panic("neverEnding: Prob") }

// TestContextLeavesNoVirtualLoss: a tree-parallel roll-out that the
// context cuts short takes its simulation's virtual loss off the path, so
// that the next Run sees no simulation in flight.
func TestContextLeavesNoVirtualLoss(t *testing.T) {
	cfg := Config{Growth: GrowPractical, MaxDepth: math.MaxInt32, VirtualLoss: VirtualLoss{N: 1}}
	s, err := NewTreeParallel([]Game{neverEnding{}, neverEnding{}}, UCT{C: 1}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := s.Run(ctx, 10); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run = %v, want the deadline's error", err)
	}
	for i := range s.next {
		if n := *s.fly.at(i); n != 0 {
			t.Errorf("node %d: %d simulations in flight after Run, want 0", i, n)
		}
	}
}
