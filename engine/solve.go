package engine

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mctscheck/mctscheck/games/goboard"
)

// ErrTooBig is returned by Solve when a position's game tree is beyond the
// solver's limits (too many nodes, or too many empty points after a
// capture); such a position cannot be used.
var ErrTooBig = errors.New("engine: position too big to solve exactly")

// Solution is the exact solution of a position under Leela Zero's rules:
// area scoring (Tromp–Taylor), komi 7.5, positional superko over the whole
// game (the setup moves included), the game ending on two consecutive
// passes.
type Solution struct {
	// Moves are the legal moves of the player to move (superko included)
	// and the pass, in increasing order of identity; Values their outcome
	// for the player to move under optimal play: 1 a win, 0 a loss, 1/2 a
	// draw.
	Moves  []int
	Values []float64
	// Value is the outcome for the player to move: the best of Values.
	Value float64
	// Optimal are the moves whose value is Value.
	Optimal []int
	// Nodes is the number of positions searched; Bounded the number
	// decided by the pass-alive bound instead of being searched further.
	Nodes, Bounded int
	// Line is a principal variation: optimal play from the position to
	// the end of the game (two passes), or to a position the pass-alive
	// bound decides, then followed by passes to the end.
	Line []int
	// Final is the position at the end of Line, and FinalScore its area
	// score (Black's area minus White's minus komi).
	Final      *goboard.Board
	FinalScore float64
}

// SolveLimits bound the solver's work.
type SolveLimits struct {
	Nodes    int // positions searched, at most (0: DefaultSolveNodes)
	MaxEmpty int // empty points in a searched position, at most (0: 24)
	// Progress, if not nil, is called every ProgressEvery positions
	// searched with their number so far; an error it returns stops the
	// solver, and Solve returns that error.
	Progress func(nodes int) error
}

// DefaultSolveNodes is the solver's default bound on the positions it
// searches for one position: about 60 times what the hardest position of
// testdata/positions.txt needs (docs/engines.md has the counts).
const DefaultSolveNodes = 1_000_000

// ProgressEvery is how many positions the solver searches between two
// calls of SolveLimits.Progress.
const ProgressEvery = 10_000

// NodeLimitError is the error of a solve that reached its bound on the
// positions searched; it is an ErrTooBig.
type NodeLimitError struct {
	Limit int
	After string // the root move being solved when the bound was reached
}

func (e *NodeLimitError) Error() string {
	return fmt.Sprintf("%v: more than %d positions searched (while solving %s)", ErrTooBig, e.Limit, e.After)
}

// Is makes a NodeLimitError an ErrTooBig.
func (e *NodeLimitError) Is(target error) bool { return target == ErrTooBig }

type solver struct {
	hist    map[uint64]int
	tt      map[ttKey]float64
	nodes   int
	bounded int
	lim     SolveLimits
	over    bool  // the node limit was reached, or Progress stopped the solver
	stopped error // the error Progress returned
}

// ttKey identifies a position for the transposition table: the stones,
// the player to move and whether the last move was a pass.
type ttKey struct {
	hash   uint64
	black  bool
	passed bool
}

// Solve solves the position exactly by minimax over every legal move
// (including those that fill one's own eyes, which Leela Zero also tries)
// and the pass. A position is decided without further search only when
// one player's pass-alive area alone wins whatever happens on the rest of
// the board: the stones of chains that are alive even if their owner
// always passes (Benson's algorithm, with single-point eyes as the vital
// regions) and the single-point eyes they enclose, which the opponent can
// never fill. A line that captures so much that more than lim.MaxEmpty
// points are empty is left unsearched: the solution stands only if it does
// not depend on such a line (a winning move elsewhere settles the node),
// and Solve fails with ErrTooBig otherwise. Results are shared between
// transpositions only for subtrees where no stone was captured, since
// only a capture can recreate an earlier position, so only then is the
// result independent of the history (positional superko).
func (p *Position) Solve(lim SolveLimits) (*Solution, error) {
	if lim.Nodes == 0 {
		lim.Nodes = DefaultSolveNodes
	}
	if lim.MaxEmpty == 0 {
		lim.MaxEmpty = 24
	}
	setup, b, err := p.Setup()
	if err != nil {
		return nil, err
	}
	s := &solver{hist: map[uint64]int{}, tt: map[ttKey]float64{}, lim: lim}
	// The empty board and every position of the setup are earlier
	// positions of the game.
	e, _ := goboard.NewBoard(goboard.Config{Size: Size, Komi: Komi, MaxMoves: 100 * Size * Size})
	s.hist[e.Hash()]++
	for _, m := range setup {
		_ = e.PlayAs(m.Color, m.Point)
		s.hist[e.Hash()]++
	}
	sol := &Solution{}
	best := -1.0
	moves := s.moves(b)
	slices.Sort(moves)
	for _, m := range moves {
		r := s.child(b, m, false)
		if !r.known {
			return nil, s.tooBig(m)
		}
		v := forMover(r.v, b.ToMove())
		sol.Moves = append(sol.Moves, m)
		sol.Values = append(sol.Values, v)
		best = max(best, v)
	}
	sol.Value = best
	for i, m := range sol.Moves {
		if sol.Values[i] == best {
			sol.Optimal = append(sol.Optimal, m)
		}
	}
	sol.Line, sol.Final, err = s.line(b)
	if err != nil {
		return nil, err
	}
	sol.FinalScore = sol.Final.Score()
	sol.Nodes, sol.Bounded = s.nodes, s.bounded
	return sol, nil
}

func (s *solver) tooBig(m int) error {
	if s.stopped != nil {
		return s.stopped
	}
	if s.over {
		return &NodeLimitError{Limit: s.lim.Nodes, After: Vertex(m)}
	}
	return fmt.Errorf("%w: the value of %s depends on a line that captures enough to leave more than %d empty points", ErrTooBig, Vertex(m), s.lim.MaxEmpty)
}

// forMover turns Black's reward into the outcome for c.
func forMover(v float64, c goboard.Color) float64 {
	if c == goboard.White {
		return 1 - v
	}
	return v
}

// moves lists the legal moves at b under positional superko, in
// increasing order, and the pass; the moves that fill one of the mover's
// own single-point eyes come after the others, since they are rarely good
// and alpha-beta prunes best with good moves first.
func (s *solver) moves(b *goboard.Board) []int {
	var plain, eyes, big []int
	c := b.ToMove()
	empty := emptyCount(b)
	for m := range Size * Size {
		if b.At(m) != goboard.Empty || !b.IsLegal(m) {
			continue
		}
		t := *b
		_ = t.Play(m)
		if s.hist[t.Hash()] > 0 {
			continue // positional superko
		}
		if empty > 0 && emptyCount(&t) > s.lim.MaxEmpty {
			big = append(big, m)
		} else if ownEye(b, m, c) {
			eyes = append(eyes, m)
		} else {
			plain = append(plain, m)
		}
	}
	out := append(plain, b.Pass())
	out = append(out, eyes...)
	return append(out, big...)
}

// ownEye reports whether every neighbour of m on the board is a stone of c.
func ownEye(b *goboard.Board, m int, c goboard.Color) bool {
	for _, q := range neighbours(m) {
		if b.At(q) != c {
			return false
		}
	}
	return true
}

func neighbours(m int) []int {
	x, y := m%Size, m/Size
	out := make([]int, 0, 4)
	if x > 0 {
		out = append(out, m-1)
	}
	if x < Size-1 {
		out = append(out, m+1)
	}
	if y > 0 {
		out = append(out, m-Size)
	}
	if y < Size-1 {
		out = append(out, m+Size)
	}
	return out
}

// result is a node's value for Black, whether it is known (not cut off
// by the limits), and whether a stone was captured in the subtree.
type result struct {
	v        float64
	known    bool
	captured bool
}

// child plays m at b and returns the value of the position it leads to.
func (s *solver) child(b *goboard.Board, m int, passed bool) result {
	c := *b
	_ = c.Play(m)
	h := c.Hash()
	s.hist[h]++
	r := s.value(&c, m == b.Pass())
	s.hist[h]--
	if m != b.Pass() && emptyCount(&c) != emptyCount(b)-1 {
		r.captured = true
	}
	return r
}

// value returns Black's reward under optimal play from b, whose position
// is in the history.
func (s *solver) value(b *goboard.Board, passed bool) result {
	s.nodes++
	if s.nodes > s.lim.Nodes || s.over {
		s.over = true
		return result{}
	}
	if s.lim.Progress != nil && s.nodes%ProgressEvery == 0 {
		if err := s.lim.Progress(s.nodes); err != nil {
			s.stopped, s.over = err, true
			return result{}
		}
	}
	if b.Status() != goboard.Playing {
		return result{v: b.Reward(), known: true}
	}
	if v, ok := passAliveBound(b); ok {
		s.bounded++
		return result{v: v, known: true}
	}
	if emptyCount(b) > s.lim.MaxEmpty {
		return result{}
	}
	key := ttKey{b.Hash(), b.ToMove() == goboard.Black, passed}
	if v, ok := s.tt[key]; ok {
		return result{v: v, known: true}
	}
	black := b.ToMove() == goboard.Black
	win, lose := 1.0, 0.0
	if !black {
		win, lose = 0, 1
	}
	out := result{v: lose, known: true}
	for _, m := range s.moves(b) {
		r := s.child(b, m, passed)
		out.captured = out.captured || r.captured
		if !r.known {
			out.known = false
			continue
		}
		if r.v == win {
			out = result{v: win, known: true, captured: out.captured}
			break
		}
		if r.v == 0.5 {
			out.v = 0.5
		}
	}
	if out.known && !out.captured {
		s.tt[key] = out.v
	}
	return out
}

// line follows optimal play from b to the end of the game, or to a
// position the bound decides, and then passes out.
func (s *solver) line(b *goboard.Board) ([]int, *goboard.Board, error) {
	cur := *b
	var line []int
	var pushed []uint64
	defer func() {
		for _, h := range pushed {
			s.hist[h]--
		}
	}()
	for cur.Status() == goboard.Playing {
		if _, ok := passAliveBound(&cur); ok && len(line) > 0 {
			break
		}
		want := -1.0
		var pick int
		for _, m := range s.moves(&cur) {
			r := s.child(&cur, m, false)
			if !r.known {
				return nil, nil, s.tooBig(m)
			}
			if v := forMover(r.v, cur.ToMove()); v > want {
				want, pick = v, m
			}
			if want == 1 {
				break
			}
		}
		_ = cur.Play(pick)
		s.hist[cur.Hash()]++
		pushed = append(pushed, cur.Hash())
		line = append(line, pick)
	}
	for cur.Status() == goboard.Playing {
		_ = cur.Play(cur.Pass())
		line = append(line, cur.Pass())
	}
	return line, &cur, nil
}

func emptyCount(b *goboard.Board) int {
	n := 0
	for m := range Size * Size {
		if b.At(m) == goboard.Empty {
			n++
		}
	}
	return n
}

// passAliveBound decides the game when one player's pass-alive area alone
// wins it: Black wins if 2·B − 361 > komi and White wins if 361 − 2·W <
// komi, where B and W are the players' pass-alive areas (at the end of the
// game Black's area is at least B and White's at most 361 − B).
func passAliveBound(b *goboard.Board) (float64, bool) {
	n := Size * Size
	if bl := passAliveArea(b, goboard.Black); float64(2*bl-n) > b.Komi() {
		return 1, true
	}
	if wh := passAliveArea(b, goboard.White); float64(n-2*wh) < b.Komi() {
		return 0, true
	}
	return 0, false
}

// passAliveArea returns the stones of c's chains that are pass-alive by
// Benson's algorithm, with the single empty points whose neighbours are
// all c's stones as the only regions considered, plus those points when
// all their neighbours are in pass-alive chains. Such a chain cannot be
// captured even if c always passes: to fill one of its eyes the opponent
// must first capture a neighbouring chain, which has another eye.
func passAliveArea(b *goboard.Board, c goboard.Color) int {
	var chain [Size * Size]int // chain id + 1, 0 for none
	var stones []int           // stones per chain id
	for m := range Size * Size {
		if b.At(m) != c || chain[m] != 0 {
			continue
		}
		id := len(stones)
		stones = append(stones, 0)
		stack := []int{m}
		chain[m] = id + 1
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			stones[id]++
			for _, r := range neighbours(q) {
				if b.At(r) == c && chain[r] == 0 {
					chain[r] = id + 1
					stack = append(stack, r)
				}
			}
		}
	}
	// Eyes: empty points whose neighbours are all c's stones.
	var eyes [][]int // the chains around each eye
	for m := range Size * Size {
		if b.At(m) != goboard.Empty || !ownEye(b, m, c) {
			continue
		}
		var around []int
		for _, q := range neighbours(m) {
			if id := chain[q] - 1; !slices.Contains(around, id) {
				around = append(around, id)
			}
		}
		eyes = append(eyes, around)
	}
	alive := make([]bool, len(stones))
	for i := range alive {
		alive[i] = true
	}
	eyeOK := make([]bool, len(eyes))
	for i := range eyeOK {
		eyeOK[i] = true
	}
	for changed := true; changed; {
		changed = false
		vital := make([]int, len(stones))
		for i, around := range eyes {
			if !eyeOK[i] {
				continue
			}
			for _, id := range around {
				vital[id]++
			}
		}
		for id := range alive {
			if alive[id] && vital[id] < 2 {
				alive[id] = false
				changed = true
			}
		}
		for i, around := range eyes {
			if eyeOK[i] && slices.ContainsFunc(around, func(id int) bool { return !alive[id] }) {
				eyeOK[i] = false
				changed = true
			}
		}
	}
	area := 0
	for id, a := range alive {
		if a {
			area += stones[id]
		}
	}
	for _, ok := range eyeOK {
		if ok {
			area++
		}
	}
	return area
}
