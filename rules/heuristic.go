package rules

import (
	"github.com/mctscheck/mctscheck/core"
)

// NegativeHeuristic is a MoGo-style score that adds a pattern value H to
// the empirical mean with a weight that fades as the move is simulated
// (paper §3, "Unconsistency of negative heuristics"):
//
//	score(i) = V̂(i) + h(i)·K/(n(i) + K)
//
// where h is the move's prior from Site.Prior, of any sign (0 for a move
// without one), and V̂ = w/n, taken as 0 for an unvisited child. There is
// no singularity: K/(n+K) ≤ 1. Ties go to the lower index. K ≤ 0, as in the
// zero value, means K = 10, the catalogue's default.
//
// It is inconsistent: an unvisited move with a negative pattern value
// scores h < 0, while every visited move with h ≥ 0 scores at least 0, and
// any visited move's score tends to its mean ≥ 0; so the only good move,
// if patterns and expert rules agree against it (the "empty triangle" of
// MoGo's game against Fan Hui, paper Fig. 2), may never be simulated.
type NegativeHeuristic struct {
	K float64
}

func (r NegativeHeuristic) k() float64 { return orDefault(r.K, 10, "NegativeHeuristic.K") }

func (r NegativeHeuristic) score(s *core.Site, i int, k float64) float64 {
	n := s.N(i)
	var v float64
	if n > 0 {
		v = s.W(i) / n
	}
	h, _ := s.Prior(i)
	return v + h*(k/(n+k))
}

// Select implements core.Rule.
func (r NegativeHeuristic) Select(s *core.Site) int {
	k := r.k()
	return core.Argmax(s.Len(), func(i int) float64 { return r.score(s, i, k) })
}

// Score implements core.Scorer.
func (r NegativeHeuristic) Score(s *core.Site, i int) float64 { return r.score(s, i, r.k()) }

// Needs implements core.Needer: the rule reads the moves' priors.
func (NegativeHeuristic) Needs() core.Needs { return core.Needs{Priors: true} }
