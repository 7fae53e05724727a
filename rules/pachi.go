package rules

import (
	"github.com/mctscheck/mctscheck/core"
)

// Pachi is the ucb1amaf tree policy of Pachi, ucb1rave_evaluate and
// ucb1rave_descend in pasky/pachi@b69e353981e6728058e142b14632eb125b011c02
// uct/policy/ucb1amaf.c, with its defaults for boards under 15×15
// (explore_p 0, equiv_rave 3000, sylvain_rave on, fpu +∞) and the "even"
// prior of uct/prior.c (every move starts with eqex = 14 playouts of value
// 1/2). Values are in [0,1]:
//
//	score(i) = β·V'(i) + (1 − β)·V̂(i),  β = r/(r + n + n·r/Equiv)   (r > 0)
//	score(i) = V̂(i) (r = 0),  +∞ (Unvisited) if n + r = 0
//
// where n and V̂ count the prior's playouts (given to the search as virtual
// experience, K1 = Eqex, K2 = Eqex/2) with the real ones, and r and V' are
// the child's AMAF count and mean (Site.AMAF). With explore_p 0 there is
// no exploration term: the rule is greedy on the blend. Ties within
// FLT_EPSILON (2^-23) of the best go to a child drawn uniformly among them
// (uctd_set_best_child; Pachi's pass avoidance is not needed here), so the
// rule is stochastic; Probs gives the distribution.
//
// Not modelled: the pattern, joseki and DCNN priors (they need Pachi's data
// files; without them only the even prior is used), criticality in RAVE
// (crit_rave: it needs the final board's ownership), distance weighting of
// AMAF updates (distance_rave 3: earlier moves count more), ko-threat
// handling, virtual loss and the distributed mode's virtual wins. They
// reweight the AMAF statistics or add Go knowledge; the checker judges the
// blend that remains, on the AMAF statistics the engine keeps.
type Pachi struct {
	Equiv, Eqex float64
}

// pachiEps is FLT_EPSILON, Pachi's tie tolerance.
const pachiEps = 0x1p-23

func (r Pachi) score(s *core.Site, i int) float64 {
	n := s.N(i)
	an, aw := s.AMAF(i)
	switch {
	case n > 0 && an > 0:
		beta := an / (an + n + n*an/r.Equiv)
		return beta*(aw/an) + (1-beta)*(s.W(i)/n)
	case n > 0:
		return s.W(i) / n
	case an > 0:
		return aw / an
	}
	return Unvisited
}

// Select implements core.Rule.
func (r Pachi) Select(s *core.Site) int {
	return randomTie(s, func(i int) float64 { return r.score(s, i) }, pachiEps)
}

// Probs implements core.Stochastic: uniform over the near-ties for the best
// score.
func (r Pachi) Probs(s *core.Site, dst []float64) []float64 {
	return tieProbs(s, func(i int) float64 { return r.score(s, i) }, pachiEps, dst)
}

// Needs implements core.Needer: AMAF statistics, and the even prior as
// virtual experience.
func (r Pachi) Needs() core.Needs {
	n := core.Needs{AMAF: true}
	if !(r.Eqex <= 0) { // a NaN Eqex gives NaN experience: a *core.RuleError
		n.Virtual = r
	}
	return n
}

// Virtual implements core.VirtualExperience: Eqex playouts of value 1/2.
func (r Pachi) Virtual(float64, bool) (k1, k2 float64) { return r.Eqex, r.Eqex / 2 }
