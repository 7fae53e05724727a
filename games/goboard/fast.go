package goboard

import "github.com/mctscheck/mctscheck/core"

// FastGame is a Game whose roll-outs are light playouts played on the
// board itself: in the stored tree it is the Game (positional superko, eye
// fills not listed, priors); below it, with the FastLight policy, every
// position has one move, the light playout's, drawn as Board.Playout draws
// it (simple ko only, no list of the position's moves, no superko hash).
// core still sees every roll-out move, its identity included, so AMAF and
// RAVE statistics are complete.
//
// FastLight's first call in a simulation switches the FastGame to its
// roll-out; Reset switches back and restores the Game. The roll-out is
// played on the Game's own board, so that a simulation copies no board
// but the one Reset restores. Until Reset, the Game's methods that list
// moves (Legal, Move, Prior of the Game itself) panic, as after
// Game.Rollout.
type FastGame struct {
	g    *Game
	roll bool // in a roll-out: g.b is ahead of g's history
	next int  // padded index of the move drawn for the roll-out's position, 0 for the pass
}

var (
	_ core.PolicyPlayouter = FastLight{}
	_ core.Playouter       = (*fastRollout)(nil)
	_ core.Game            = (*FastGame)(nil)
	_ core.Mover           = (*FastGame)(nil)
	_ core.Heuristic       = (*FastGame)(nil)
)

// NewFastGame returns a FastGame over g, which it drives as its cursor.
func NewFastGame(g *Game) *FastGame { return &FastGame{g: g} }

// Reset implements core.Game: back to the Game's start position.
func (f *FastGame) Reset() {
	f.roll = false
	f.g.Reset()
}

// Kind implements core.Game.
func (f *FastGame) Kind() core.Kind { return f.g.Kind() }

// NumMoves implements core.Game: the Game's listed moves in the stored
// tree; in a roll-out, the one move drawn.
func (f *FastGame) NumMoves() int {
	if !f.roll {
		return f.g.NumMoves()
	}
	if f.g.b.over() {
		return 0
	}
	return 1
}

// Play implements core.Game.
func (f *FastGame) Play(i int) {
	if !f.roll {
		f.g.Play(i)
		return
	}
	if b := &f.g.b; f.next != 0 {
		b.play(f.next)
	} else {
		b.pass()
	}
}

// Reward implements core.Game: Board.Reward of the current position.
func (f *FastGame) Reward() float64 { return f.g.b.Reward() }

// Prob implements core.Game; Go has no chance nodes.
func (f *FastGame) Prob(int) float64 { return 0 }

// Move implements core.Mover.
func (f *FastGame) Move(i int) int {
	if !f.roll {
		return f.g.Move(i)
	}
	if f.next == 0 {
		return f.g.b.Pass()
	}
	return f.g.b.ident(f.next)
}

// MoveLimit implements core.Mover: Size²+1.
func (f *FastGame) MoveLimit() int { return f.g.MoveLimit() }

// Prior implements core.Heuristic: the Game's (stored-tree positions only).
func (f *FastGame) Prior(i int) (float64, bool) { return f.g.Prior(i) }

// fastRollout is a FastGame as the core.Playouter of FastLight's roll-outs.
// (FastGame itself must not be one: core would take it for the player of
// the default policy's roll-outs.)
type fastRollout FastGame

// Playout implements core.Playouter: FastLight's roll-out, the moves and
// draws of FastLight.Choose and FastGame.Play, without the interface calls.
func (r *fastRollout) Playout(rng *core.RNG, limit int) (float64, bool) {
	f := (*FastGame)(r)
	f.startRoll()
	b := &f.g.b
	for range limit {
		if b.over() {
			return b.Reward(), true
		}
		b.playLight(rng)
	}
	if b.over() {
		return b.Reward(), true
	}
	return 0, false
}

// startRoll switches f to its roll-out, if it is not in it yet.
func (f *FastGame) startRoll() {
	if !f.roll {
		f.roll = true
		f.g.stale, f.g.listed = true, false
	}
}

// FastLight is the light-playout roll-out policy of a FastGame
// (core.Config.Rollout): each player in turn plays a uniformly random
// point that is legal under simple ko and does not fill one of its own
// single-point eyes, and passes only when there is none, as Board.Playout
// does. On any other game it is Light.
type FastLight struct{}

// Choose implements core.Policy.
func (FastLight) Choose(g core.Game, rng *core.RNG) int {
	f, ok := g.(*FastGame)
	if !ok {
		return Light{}.Choose(g, rng)
	}
	f.startRoll()
	f.next = f.g.b.drawLight(rng)
	return 0
}

// Playouter implements core.PolicyPlayouter: on a FastGame, the search
// hands it the whole roll-out (when it keeps no AMAF statistics, which
// need every move's identity); on any other game, nil.
func (FastLight) Playouter(g core.Game) core.Playouter {
	if f, ok := g.(*FastGame); ok {
		return (*fastRollout)(f)
	}
	return nil
}
