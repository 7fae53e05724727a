package games

import (
	"fmt"

	"github.com/mctscheck/mctscheck/core"
)

// Constants of the synth reference workload.
const (
	synthRoot   = 0x243F6A8885A308D3
	synthGolden = 0x9E3779B97F4A7C15
	synthLeaf   = 0xD1B54A32D192ED03
)

// Synth is the reference workload of the benchmarks, defined exactly so that
// other engines can search the same tree: a uniform tree of branching B and
// depth D whose root has hash 0x243F6A8885A308D3; child i (0-based) of a node
// with hash h has hash Mix(h + (i+1)·0x9E3779B97F4A7C15); max moves at even
// depths, min at odd ones; max wins (reward 1, else 0) a leaf with hash h iff
// Mix(h ^ 0xD1B54A32D192ED03) is odd. A move's identity is its index.
//
// A Synth is its own cursor (it implements core.Game and core.Mover) and
// costs nothing to play: one hash per move.
type Synth struct {
	b, d  int
	hash  uint64
	depth int
	_     [32]byte // whole cache lines: see core.NewRoot
}

// NewSynth returns the synth game of branching b ≥ 1 and depth d ≥ 0.
func NewSynth(b, d int) (*Synth, error) {
	if b < 1 || b > 1<<16 || d < 0 || d > 1<<16 {
		return nil, fmt.Errorf("games: synth branching %d and depth %d, want 1 ≤ b ≤ 65536 and 0 ≤ d ≤ 65536", b, d)
	}
	g := &Synth{b: b, d: d}
	g.Reset()
	return g, nil
}

// Mix is the splitmix64 finaliser.
func Mix(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xBF58476D1CE4E5B9
	z ^= z >> 27
	z *= 0x94D049BB133111EB
	z ^= z >> 31
	return z
}

// Hash is the hash of the current position.
func (g *Synth) Hash() uint64 { return g.hash }

// Reset implements core.Game.
func (g *Synth) Reset() { g.hash, g.depth = synthRoot, 0 }

// Kind implements core.Game.
func (g *Synth) Kind() core.Kind {
	switch {
	case g.depth >= g.d:
		return core.Terminal
	case g.depth%2 == 0:
		return core.Max
	}
	return core.Min
}

// NumMoves implements core.Game.
func (g *Synth) NumMoves() int {
	if g.depth >= g.d {
		return 0
	}
	return g.b
}

// Play implements core.Game.
func (g *Synth) Play(i int) {
	g.hash = Mix(g.hash + uint64(i+1)*synthGolden)
	g.depth++
}

// Reward implements core.Game.
func (g *Synth) Reward() float64 { return float64(Mix(g.hash^synthLeaf) & 1) }

// Playout implements core.Playouter: uniform moves to the end, drawn as
// the search draws them, without an interface call per move.
func (g *Synth) Playout(rng *core.RNG, limit int) (float64, bool) {
	h, depth := g.hash, g.depth
	for ; depth < g.d; depth++ {
		if limit--; limit < 0 {
			g.hash, g.depth = h, depth
			return 0, false
		}
		h = Mix(h + uint64(rng.IntN(g.b)+1)*synthGolden)
	}
	g.hash, g.depth = h, depth
	return float64(Mix(h^synthLeaf) & 1), true
}

// Prob implements core.Game; synth has no chance nodes.
func (g *Synth) Prob(int) float64 { return 0 }

// Move implements core.Mover: a move's identity is its index.
func (g *Synth) Move(i int) int { return i }

// MoveLimit implements core.Mover.
func (g *Synth) MoveLimit() int { return g.b }
