package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// Unvisited is the score of a child that a rule tries before every visited
// child (a first-play urgency of +∞): the largest finite float64, so that
// scores stay finite, as the checker's fault checks expect of every scorer
// (props.Fault), while no
// visited child's score reaches it. Children that score Unvisited come in
// index order.
const Unvisited = math.MaxFloat64

// UCT is UCB1 on trees, the paper's Eq. 12 with an exploration constant
// (Grand Challenge paper §3.4; slides, "UCB1" with C = √2):
//
//	score(i) = V̂(i) + C·sqrt(ln n(F) / n(i))
//
// Select is core.UCT's: unvisited children first in index order, ties to
// the lower index, n(F) below 1 counted as 1. Score differs from core.UCT's
// only at unvisited children, which score Unvisited instead of +Inf. C = 0,
// the zero value, is the greedy mean with unvisited children first, which
// is inconsistent (paper §3 "Tricks"); any C > 0 is consistent and visits
// the whole tree infinitely often. The catalogue's uct has C = √2.
type UCT struct {
	C float64
}

// Select implements core.Rule.
func (u UCT) Select(s *core.Site) int { return core.UCT{C: u.C}.Select(s) }

// Builtin implements core.Builtin: the search runs core.UCT's own loop.
func (u UCT) Builtin() core.Rule { return core.UCT{C: u.C} }

// Score implements core.Scorer.
func (u UCT) Score(s *core.Site, i int) float64 {
	if s.N(i) == 0 {
		return Unvisited
	}
	return core.UCT{C: u.C}.Score(s, i)
}

// greedy is the greedy mean with unvisited children first: the first child
// with n = 0 if any, else the highest W/N, ties to the lower index.
func greedy(s *core.Site) int { return core.ArgmaxMean(s) }
