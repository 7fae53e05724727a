package props

import "github.com/mctscheck/mctscheck/core"

// orderedGame is a game with the moves of every position listed in an order
// drawn from a seed and the moves that led there: the implicit game's
// tree.Shuffled. A position reached by two lines of play may list its moves
// in two orders; the game is a tree to the search, so that is no matter.
// Move identities (core.Mover), priors (core.Heuristic) and chance
// probabilities follow their moves, so that AMAF statistics and priors mean
// what they meant: a move's identity is the game's own, or its index in the
// game's own order when the game has none.
type orderedGame struct {
	g     core.Game
	mover core.Mover
	heur  core.Heuristic
	seed  uint64
	h     uint64  // the seed and the game's own indices of the moves played
	perm  []int32 // perm[i] is the game's own index of move i here
	rng   core.RNG
}

var (
	_ core.Mover     = (*orderedGame)(nil)
	_ core.Heuristic = (*orderedGame)(nil)
)

// newOrderedGame returns g with its moves in the order drawn from seed.
func newOrderedGame(g core.Game, seed uint64) *orderedGame {
	o := &orderedGame{g: g, seed: seed}
	o.mover, _ = g.(core.Mover)
	o.heur, _ = g.(core.Heuristic)
	o.Reset()
	return o
}

// mix folds a move into the hash of a line of play (splitmix64's finaliser).
func mix(h uint64, move int32) uint64 {
	h ^= uint64(move) + 0x9E3779B97F4A7C15 + h<<6 + h>>2
	h ^= h >> 30
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 27
	h *= 0x94D049BB133111EB
	return h ^ h>>31
}

// shuffle draws the order of the current position's moves.
func (o *orderedGame) shuffle() {
	k := o.g.NumMoves()
	o.perm = o.perm[:0]
	for i := range int32(k) {
		o.perm = append(o.perm, i)
	}
	if k < 2 {
		return
	}
	o.rng.Seed(o.h)
	for i := k - 1; i > 0; i-- {
		j := o.rng.IntN(i + 1)
		o.perm[i], o.perm[j] = o.perm[j], o.perm[i]
	}
}

// Reset implements core.Game.
func (o *orderedGame) Reset() {
	o.g.Reset()
	o.h = mix(o.seed, -1)
	o.shuffle()
}

// Kind implements core.Game.
func (o *orderedGame) Kind() core.Kind { return o.g.Kind() }

// NumMoves implements core.Game.
func (o *orderedGame) NumMoves() int { return len(o.perm) }

// Play implements core.Game.
func (o *orderedGame) Play(i int) {
	j := o.perm[i]
	o.g.Play(int(j))
	o.h = mix(o.h, j)
	o.shuffle()
}

// Reward implements core.Game.
func (o *orderedGame) Reward() float64 { return o.g.Reward() }

// Prob implements core.Game.
func (o *orderedGame) Prob(i int) float64 { return o.g.Prob(int(o.perm[i])) }

// Move implements core.Mover: the game's identity of the move, or its index
// in the game's own order.
func (o *orderedGame) Move(i int) int {
	if o.mover != nil {
		return o.mover.Move(int(o.perm[i]))
	}
	return int(o.perm[i])
}

// MoveLimit implements core.Mover.
func (o *orderedGame) MoveLimit() int {
	if o.mover != nil {
		return o.mover.MoveLimit()
	}
	return 1 // the search grows its marks as identities come
}

// Prior implements core.Heuristic.
func (o *orderedGame) Prior(i int) (float64, bool) {
	if o.heur != nil {
		return o.heur.Prior(int(o.perm[i]))
	}
	return 0, false
}

// original returns the game's own indices of the line of play path, given
// in this order's indices; it leaves the cursor at the end of the line.
func (o *orderedGame) original(path []int32) []int32 {
	out := make([]int32, len(path))
	o.Reset()
	for d, i := range path {
		out[d] = o.perm[i]
		o.Play(int(i))
	}
	return out
}
