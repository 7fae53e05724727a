package goboard

import "github.com/mctscheck/mctscheck/core"

// Playout plays a light playout from the current position to the end of the
// game and returns its Reward for Black: each player in turn plays a
// uniformly random legal move (simple ko, no suicide) that does not fill one
// of its own single-point eyes, and passes only when there is no such move;
// the game ends on two consecutive passes or at the move cap, and is scored
// by area. The board is left at the final position; copy it first
// (c := *b) to keep the start.
//
// The choice is exactly uniform: a partial Fisher–Yates shuffle of the list
// of empty points draws candidates without replacement until one is
// playable, so a move costs a few random draws and array reads. Playout does
// not allocate and makes no interface or indirect call per move.
func (b *Board) Playout(rng *core.RNG) float64 {
	for !b.over() {
		b.playLight(rng)
	}
	return b.Reward()
}

// playLight plays one light-playout move for the player to move.
func (b *Board) playLight(rng *core.RNG) {
	if p := b.drawLight(rng); p != 0 {
		b.play(p)
		return
	}
	b.pass()
}

// drawLight draws the light playout's move for the player to move: the
// padded index of a uniformly random empty point that the player may play
// without filling its own single-point eye, or 0 (a border cell) for the
// pass when there is none. The draw reorders the list of empty points but
// changes nothing else.
func (b *Board) drawLight(rng *core.RNG) int {
	c := b.toMove
	for k := b.nEmpty; k > 0; k-- {
		i := rng.IntN(k)
		p := int(b.empty[i])
		if b.nb[p]>>8 != 0 || b.playableFull(c, p) {
			return p
		}
		// Move p behind the live part of the draw: swap it with the last
		// candidate still in the urn.
		q := b.empty[k-1]
		b.empty[i], b.empty[k-1] = q, int16(p)
		b.epos[q], b.epos[p] = int16(i), int16(k-1)
	}
	return 0
}

// playableFull reports whether c may play at the empty point p without
// filling its own single-point eye, for a point without empty neighbours
// (the slow path of the light playout's test).
func (b *Board) playableFull(c Color, p int) bool {
	return !b.eye(c, p) && (int(b.ko) != p || b.koFor != c) && b.legalEmpty(c, p)
}

// playable reports whether c may play at the empty point p without filling
// its own single-point eye: the light playout's candidate test, also the
// filter of the moves listed at tree nodes.
func (b *Board) playable(c Color, p int) bool {
	return b.nb[p]>>8 != 0 || b.playableFull(c, p)
}
