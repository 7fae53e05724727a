package goboard

import (
	"fmt"

	"github.com/mctscheck/mctscheck/core"
)

// Priors of the Heuristic, from the point of view of the player who moves.
// Board.Prior gives the first that applies, in this order.
const (
	// PriorEyeFill is the prior of filling one's own single-point eye (see
	// Board.Prior). Such moves are not listed at tree nodes, so a Game never
	// reports it; Board.Prior does.
	PriorEyeFill = -1.0
	// PriorCapture is the prior of a move that captures at least one stone.
	PriorCapture = 1.0
	// PriorEscape is the prior of a move that extends a chain in atari
	// (one liberty) to a chain with at least two liberties.
	PriorEscape = 0.5
	// PriorSelfAtari is the prior of a move that captures nothing and leaves
	// the chain it joins with a single liberty.
	PriorSelfAtari = -0.5
	// PriorNone is the prior of every other move, the pass included.
	PriorNone = 0.0
)

// Game is Go from a start position as a core.Game, with positional superko
// in the stored tree: Black is the max player (core.Max when Black is to
// move, core.Min when White is), and a terminal position's reward is 1 when
// Black wins on area score with komi, 0 when White wins, 1/2 for a draw
// (only with an integer komi). A position is terminal after two
// consecutive passes or at the move cap (Board.Status says which).
//
// The moves listed at a position, in increasing order of identity with the
// pass last, are every point where the player to move may play — not
// occupied, not suicide, not the simple-ko point — except those that fill
// one of its own single-point eyes (Board.Prior's eye) and those that would
// recreate a position of the game so far (positional superko, from the
// empty board through the start position and the moves since), and then the
// pass, which is always listed. Move identities (core.Mover) are point
// identities 0 to Size²−1 (row by row from A1, see Vertex) and Size² for the
// pass; MoveLimit is Size²+1. Priors (core.Heuristic) are Board.Prior's.
//
// Listing a position's moves costs one legality and eye test per empty
// point, and a hash of the position after the move only at points that have
// lost a stone to a capture (elsewhere no repetition is possible); Play,
// Reset and listing do not allocate. With the Light roll-out policy a
// practical-mode search rolls out through this list, one move at a time;
// Rollout plays the fast Board.Playout instead.
type Game struct {
	start Board
	b     Board

	hist      []uint64   // hashes of the positions of the game, from the empty board
	nStart    int        // len(hist) at the start position
	seen      [64]uint64 // 4096-bit filter of the hashes in hist
	startSeen [64]uint64 // seen at the start position
	moves     []int16    // the listed moves of the current position
	listed    bool       // moves is up to date
	stale     bool       // a Rollout left hist behind the board
}

var (
	_ core.Game      = (*Game)(nil)
	_ core.Mover     = (*Game)(nil)
	_ core.Heuristic = (*Game)(nil)
)

// NewGame returns the game from the position after moves on the empty board
// of cfg, played as Board.PlayMoves does but with positional superko too: a
// move that recreates an earlier position is an error wrapping ErrSuperko.
func NewGame(cfg Config, moves ...string) (*Game, error) {
	cfg, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	g := &Game{
		hist:  make([]uint64, 0, cfg.MaxMoves+1),
		moves: make([]int16, 0, cfg.Size*cfg.Size+1),
	}
	b := &g.start
	b.init(cfg)
	g.record(b.hash)
	for i, s := range moves {
		c, m, err := b.parseMove(s)
		if err == nil {
			err = b.LegalAs(c, m)
		}
		if err == nil && m != b.Pass() && g.repeats(b.hashAfter(c, b.index(m))) {
			err = fmt.Errorf("goboard: %s: %w", Vertex(m, b.size), ErrSuperko)
		}
		if err != nil {
			return nil, fmt.Errorf("goboard: move %d: %w", i+1, unwrap(err))
		}
		if err := b.PlayAs(c, m); err != nil {
			return nil, fmt.Errorf("goboard: move %d: %w", i+1, unwrap(err))
		}
		g.record(b.hash)
	}
	g.nStart = len(g.hist)
	g.startSeen = g.seen
	g.Reset()
	return g, nil
}

// record appends a position's hash to the history.
func (g *Game) record(h uint64) {
	g.hist = append(g.hist, h)
	g.seen[h>>6&63] |= 1 << (h & 63)
}

// superko reports whether a legal move by c at the empty point p would
// recreate a position of the game. The position after the move has a
// stone of c at p, so it can equal an earlier one only if a stone at p has
// been captured since: moves at points that never lost a stone to a
// capture skip the hash.
func (g *Game) superko(c Color, p int) bool {
	b := &g.b
	return b.emptied[p>>6]&(1<<(p&63)) != 0 && g.repeats(b.hashAfter(c, p))
}

// repeats reports whether a position with hash h occurred in the game.
func (g *Game) repeats(h uint64) bool {
	if g.seen[h>>6&63]&(1<<(h&63)) == 0 {
		return false
	}
	for _, x := range g.hist {
		if x == h {
			return true
		}
	}
	return false
}

// Legal returns nil if the player to move may play m at the current
// position under positional superko, and otherwise an error wrapping
// ErrOccupied, ErrSuicide, ErrKo, ErrSuperko or ErrOver. Unlike the list of
// moves (NumMoves), it allows filling one's own eyes.
func (g *Game) Legal(m int) error {
	g.fresh()
	b := &g.b
	if err := b.Legal(m); err != nil || m == b.Pass() {
		return err
	}
	if g.superko(b.toMove, b.index(m)) {
		return fmt.Errorf("goboard: %s: %w", Vertex(m, b.size), ErrSuperko)
	}
	return nil
}

// Board returns a copy of the current position.
func (g *Game) Board() *Board {
	b := g.b
	return &b
}

// Reset implements core.Game: back to the start position.
func (g *Game) Reset() {
	g.b = g.start
	g.hist = g.hist[:g.nStart]
	g.seen = g.startSeen
	g.listed = false
	g.stale = false
}

// Kind implements core.Game.
func (g *Game) Kind() core.Kind {
	switch {
	case g.b.over():
		return core.Terminal
	case g.b.toMove == Black:
		return core.Max
	}
	return core.Min
}

// NumMoves implements core.Game: the number of listed moves (see Game), 0 at
// terminal positions.
func (g *Game) NumMoves() int {
	if g.b.over() {
		return 0
	}
	g.list()
	return len(g.moves)
}

// list fills g.moves with the moves of the current position.
func (g *Game) list() {
	if g.listed {
		return
	}
	g.fresh()
	b := &g.b
	c := b.toMove
	// The tests of playable and superko, written out so that their common
	// cases (an empty neighbour; a point that never lost a stone) take no
	// call, into the list's whole capacity (Size²+1).
	moves := g.moves[:cap(g.moves)]
	n, m := 0, 0
	for y := range b.size {
		p := (y+1)*b.stride + 1
		for range b.size {
			if b.color[p] == Empty && (b.nb[p]>>8 != 0 || b.playableFull(c, p)) &&
				(b.emptied[p>>6]&(1<<(p&63)) == 0 || !g.repeats(b.hashAfter(c, p))) {
				moves[n] = int16(m)
				n++
			}
			p++
			m++
		}
	}
	moves[n] = int16(m)
	g.moves = moves[:n+1]
	g.listed = true
}

// fresh panics when a Rollout has left the history behind the board.
func (g *Game) fresh() {
	if g.stale {
		panic("goboard: Game used after Rollout without Reset")
	}
}

// Play implements core.Game: the player to move plays listed move i.
func (g *Game) Play(i int) {
	g.list()
	m := int(g.moves[i])
	b := &g.b
	if m == b.Pass() {
		b.pass()
	} else {
		b.play(b.index(m))
	}
	g.record(b.hash)
	g.listed = false
}

// Reward implements core.Game: Board.Reward of the current position.
func (g *Game) Reward() float64 { return g.b.Reward() }

// Prob implements core.Game; Go has no chance nodes.
func (g *Game) Prob(int) float64 { return 0 }

// Move implements core.Mover: the identity of listed move i, a point
// identity or Size² for the pass.
func (g *Game) Move(i int) int {
	g.list()
	return int(g.moves[i])
}

// MoveLimit implements core.Mover: Size²+1.
func (g *Game) MoveLimit() int { return g.b.size*g.b.size + 1 }

// Prior implements core.Heuristic: Board.Prior of listed move i, which
// every listed move has.
func (g *Game) Prior(i int) (float64, bool) {
	return g.b.Prior(g.Move(i)), true
}

// Rollout plays Board.Playout from the current position and returns its
// reward: the fast light playout (simple ko only, no superko), for engines
// that can hand a whole roll-out to the game. It leaves the cursor at the
// final position, which Kind (core.Terminal) and Reward describe; Play, Move
// and Prior panic there until Reset.
func (g *Game) Rollout(rng *core.RNG) float64 {
	g.stale = true
	g.listed = false
	return g.b.Playout(rng)
}

// Light is the light-playout roll-out policy (core.Config.Rollout) for a
// Game: a uniformly random listed move other than the pass, and the pass
// only when it is the only listed move. Through a Game that is Board.Playout's
// distribution, restricted by positional superko. On any other game it
// chooses uniformly among all moves.
type Light struct{}

// Choose implements core.Policy.
func (Light) Choose(g core.Game, rng *core.RNG) int {
	k := g.NumMoves()
	if _, ok := g.(*Game); ok && k > 1 {
		return rng.IntN(k - 1)
	}
	return rng.IntN(k)
}

// hashAfter returns the hash of the position after c plays at the empty
// point p, captures included; p must be legal for c. An opponent chain next
// to p is captured when its pseudo-liberties are all adjacencies to p
// (legalEmpty's test); it is hashed out once, at its first neighbour.
func (b *Board) hashAfter(c Color, p int) uint64 {
	h := b.hash ^ zobrist[c][p]
	o := 3 - c
	n := b.around(p)
	var r [4]int16
	for i, q := range n {
		r[i] = b.chain[q]
	}
	for i, q := range n {
		if b.color[q] != o || b.libs[r[i]] > 4 {
			continue
		}
		k, first := int16(0), true
		for j := range r {
			if r[j] == r[i] {
				k++
				first = first && j >= i
			}
		}
		if !first || b.libs[r[i]] != k {
			continue
		}
		for s := int(r[i]); ; {
			h ^= zobrist[o][s]
			if s = int(b.next[s]); s == int(r[i]) {
				break
			}
		}
	}
	return h
}

// Prior returns the heuristic value of move m for the player to move, from
// that player's point of view; m must be legal. The first that applies:
// PriorEyeFill if m fills one of the mover's single-point eyes (every
// neighbour on the board the mover's, and fewer than two of the diagonal
// points the opponent's in the middle, none on the edge); PriorCapture if it
// captures; PriorEscape if it joins a chain of the mover's in atari and the
// joined chain has at least two liberties; PriorSelfAtari if the chain it
// makes has exactly one liberty; PriorNone otherwise, for the pass and for
// an occupied point.
func (b *Board) Prior(m int) float64 {
	if m < 0 || m >= b.size*b.size {
		return PriorNone
	}
	c, o := b.toMove, 3-b.toMove
	p := b.index(m)
	if b.color[p] != Empty {
		return PriorNone
	}
	if b.eye(c, p) {
		return PriorEyeFill
	}
	n := b.around(p)
	for _, q := range n {
		if col := b.color[q]; col == Black || col == White {
			b.libs[b.chain[q]]--
		}
	}
	capture := false
	for _, q := range n {
		capture = capture || b.color[q] == o && b.libs[b.chain[q]] == 0
	}
	for _, q := range n {
		if col := b.color[q]; col == Black || col == White {
			b.libs[b.chain[q]]++
		}
	}
	if capture {
		return PriorCapture
	}
	// The liberties of the chain the move makes, counted up to two.
	var l libs2
	l.skip = p
	atari := false
	for i, q := range n {
		switch b.color[q] {
		case Empty:
			l.add(q)
		case c:
			r := b.chain[q]
			dup := false
			for _, t := range n[:i] {
				dup = dup || b.color[t] == c && b.chain[t] == r
			}
			if !dup {
				atari = atari || b.chainLibs(int(r), 2) == 1
				b.chainLibsInto(int(r), &l)
			}
		}
	}
	switch {
	case atari && l.n >= 2:
		return PriorEscape
	case l.n == 1:
		return PriorSelfAtari
	}
	return PriorNone
}

// libs2 collects distinct liberties up to two, ignoring skip.
type libs2 struct {
	a, skip int
	n       int
}

// add notes liberty q.
func (l *libs2) add(q int) {
	switch {
	case q == l.skip || l.n >= 2 || l.n == 1 && l.a == q:
	case l.n == 0:
		l.a, l.n = q, 1
	default:
		l.n = 2
	}
}

// chainLibsInto adds the liberties of the chain with root r to l, stopping
// once l holds two.
func (b *Board) chainLibsInto(r int, l *libs2) {
	for s := r; l.n < 2; {
		for _, t := range b.around(s) {
			if b.color[t] == Empty {
				l.add(t)
			}
		}
		if s = int(b.next[s]); s == r {
			break
		}
	}
}

// chainLibs returns the number of liberties of the chain with root r,
// counted up to limit ≤ 2.
func (b *Board) chainLibs(r, limit int) int {
	l := libs2{skip: -1}
	b.chainLibsInto(r, &l)
	return min(l.n, limit)
}
