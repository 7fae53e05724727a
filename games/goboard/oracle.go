package goboard

import (
	"context"
	"errors"
	"fmt"
)

// Oracle gives the exact value of positions of a Game, as the consistency
// checker (props.CheckGame) asks for them, by alpha-beta search to the end
// of the game under the Game's own rules: the moves it lists (legal points
// but the mover's eye fills, positional superko from the empty board on,
// the pass always), two passes or the move cap to end, the area score with
// komi. A position is named by the path of move indices that reaches it
// from the start position, in the Game's order; its value is
// Board.Reward's, for Black: 1, 1/2 or 0.
//
// The search has no transposition table, since under positional superko a
// position's value depends on the whole game before it, so it is exact and
// exponential: it suits endgames of small boards with a few empty points
// and a move cap a few moves ahead (Config.MaxMoves). Each call searches at
// most maxNodes positions; beyond that Value says the position is beyond
// its budget (ok false).
type Oracle struct {
	start    Board
	hist     []uint64 // the positions from the empty board through the start
	maxNodes int64
	nodes    int64
	known    map[string]float64
}

// errBeyond ends a search that ran out of nodes.
var errBeyond = errors.New("beyond the oracle's budget")

// NewOracle returns an oracle for the game of cfg from the position after
// moves (as NewGame reads them), searching at most maxNodes positions per
// call.
func NewOracle(cfg Config, moves []string, maxNodes int64) (*Oracle, error) {
	if maxNodes < 1 {
		return nil, fmt.Errorf("goboard: Oracle: %d nodes, want at least 1", maxNodes)
	}
	if _, err := NewGame(cfg, moves...); err != nil { // superko included
		return nil, err
	}
	b, err := NewBoard(cfg)
	if err != nil {
		return nil, err
	}
	o := &Oracle{maxNodes: maxNodes, known: map[string]float64{}}
	o.hist = append(o.hist, b.Hash())
	for _, mv := range moves {
		if err := b.PlayMoves(mv); err != nil {
			return nil, err
		}
		o.hist = append(o.hist, b.Hash())
	}
	o.start = *b
	return o, nil
}

// Moves returns the moves the Game lists at the position after path: the
// point identities in increasing order, then the pass.
func (o *Oracle) Moves(path []int32) ([]int, error) {
	b, hist, err := o.walk(path)
	if err != nil {
		return nil, err
	}
	return listMoves(&b, hist), nil
}

// Value implements props.Oracle.
func (o *Oracle) Value(ctx context.Context, path []int32) (float64, bool, error) {
	key := fmt.Sprint(path)
	if v, ok := o.known[key]; ok {
		return v, true, nil
	}
	b, hist, err := o.walk(path)
	if err != nil {
		return 0, false, err
	}
	o.nodes = 0
	v, err := o.solve(ctx, &b, hist, 0, 1)
	switch {
	case errors.Is(err, errBeyond):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	}
	o.known[key] = v
	return v, true, nil
}

// walk plays path from the start position.
func (o *Oracle) walk(path []int32) (Board, []uint64, error) {
	b := o.start
	hist := append([]uint64(nil), o.hist...)
	for d, i := range path {
		moves := listMoves(&b, hist)
		if i < 0 || int(i) >= len(moves) {
			return b, nil, fmt.Errorf("goboard: Oracle: path %v: move %d of %d at depth %d", path, i, len(moves), d)
		}
		if err := b.Play(moves[i]); err != nil {
			return b, nil, err
		}
		hist = append(hist, b.Hash())
	}
	return b, hist, nil
}

// listMoves lists the moves of a Game at b with history hist, written anew
// from the rules (not with Game's list) so that the oracle checks it.
func listMoves(b *Board, hist []uint64) []int {
	if b.Status() != Playing {
		return nil
	}
	var out []int
	for m := range b.Pass() {
		if b.At(m) != Empty || !b.IsLegal(m) || b.Prior(m) == PriorEyeFill {
			continue
		}
		c := *b
		if err := c.Play(m); err != nil || repeats(hist, c.Hash()) {
			continue
		}
		out = append(out, m)
	}
	return append(out, b.Pass())
}

func repeats(hist []uint64, h uint64) bool {
	for _, x := range hist {
		if x == h {
			return true
		}
	}
	return false
}

// solve returns the value of b for Black, by alpha-beta within [alpha,
// beta]: exact inside the window, a bound outside it.
func (o *Oracle) solve(ctx context.Context, b *Board, hist []uint64, alpha, beta float64) (float64, error) {
	if b.Status() != Playing {
		return b.Reward(), nil
	}
	if o.nodes++; o.nodes > o.maxNodes {
		return 0, errBeyond
	}
	if o.nodes&1023 == 0 {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	}
	moves := listMoves(b, hist)
	// The pass first: it ends the game after a pass, and is often the
	// best move in an endgame; then captures; then the rest.
	order := make([]int, 0, len(moves))
	order = append(order, b.Pass())
	for _, m := range moves[:len(moves)-1] {
		if b.Prior(m) == PriorCapture {
			order = append(order, m)
		}
	}
	for _, m := range moves[:len(moves)-1] {
		if b.Prior(m) != PriorCapture {
			order = append(order, m)
		}
	}
	black := b.ToMove() == Black
	best := 1.0
	if black {
		best = 0
	}
	for _, m := range order {
		c := *b
		if err := c.Play(m); err != nil {
			return 0, err
		}
		v, err := o.solve(ctx, &c, append(hist, c.Hash()), alpha, beta)
		if err != nil {
			return 0, err
		}
		if black {
			best = max(best, v)
			alpha = max(alpha, v)
		} else {
			best = min(best, v)
			beta = min(beta, v)
		}
		if alpha >= beta {
			break
		}
	}
	return best, nil
}
