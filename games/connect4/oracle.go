package connect4

import (
	"context"
	"errors"
	"fmt"
)

// Oracle gives the exact value of the positions of a [Game], as the
// consistency checker (props.CheckGame) asks for them: the position is
// named by the path of move indices that reaches it from the game's start
// position (move i is the i-th non-full column, as in [Game.Play]), and
// its value is for the player to move at the start position, [core.Max]: 1
// a win, 0.5 a draw, 0 a loss.
//
// It solves with its own [Solver], whose node budget ([Config.MaxNodes])
// bounds each call, and remembers the values it gave. An Oracle is not safe
// for concurrent use.
type Oracle struct {
	start  Position
	solver *Solver
	known  map[uint64]int8 // position key → score for the player to move
}

// oracleMemo bounds the values an Oracle remembers; past it, it forgets them
// all and starts again (the solver's table still helps).
const oracleMemo = 1 << 20

// NewOracle returns an oracle for the game from start, solving with a
// solver configured by c.
func NewOracle(start Position, c Config) (*Oracle, error) {
	s, err := NewSolver(c)
	if err != nil {
		return nil, err
	}
	return &Oracle{start: start, solver: s, known: make(map[uint64]int8)}, nil
}

// From returns an oracle for the game from start that shares o's solver and
// the values o remembers, which are values of positions whatever the start:
// an oracle for many positions in turn, at the cost of one table.
func (o *Oracle) From(start Position) *Oracle {
	return &Oracle{start: start, solver: o.solver, known: o.known}
}

// Value returns the value, for the player to move at the start position, of
// the position path leads to, with ok true. When the solver's node budget
// runs out it returns ok false and no error: the position is beyond the
// oracle's budget. The error is for a path that is not a line of play from
// the start position, or the context's when ctx is done.
func (o *Oracle) Value(ctx context.Context, path []int32) (v float64, ok bool, err error) {
	p, err := o.position(path)
	if err != nil {
		return 0, false, err
	}
	key := p.cur + p.mask
	score, seen := o.known[key]
	if !seen {
		sc, err := o.solver.Score(ctx, p)
		switch {
		case errors.Is(err, ErrBudget):
			return 0, false, nil
		case err != nil:
			return 0, false, err
		}
		if len(o.known) >= oracleMemo {
			clear(o.known)
		}
		score = int8(sc)
		o.known[key] = score
	}
	v = Value(int(score))
	if len(path)%2 == 1 { // the other player is to move there
		v = 1 - v
	}
	return v, true, nil
}

// position returns the position path leads to from the start position.
func (o *Oracle) position(path []int32) (Position, error) {
	p := o.start
	for d, i := range path {
		if p.Over() {
			return Position{}, fmt.Errorf("connect4: oracle: path %v: move %d after the end of the game", path, d)
		}
		c, k := -1, int32(0)
		for col := range Width {
			if p.CanPlay(col) {
				if k == i {
					c = col
					break
				}
				k++
			}
		}
		if c < 0 {
			return Position{}, fmt.Errorf("connect4: oracle: path %v: move %d is index %d, but the position has %d moves", path, d, i, k)
		}
		p.play(c)
	}
	return p, nil
}
