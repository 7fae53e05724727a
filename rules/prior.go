package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// Prior is UCT over virtual experience, the Grand Challenge paper's §4.2:
// each new child starts with N* = N0 virtual simulations and W* = N0·H
// virtual reward, H(s,a) = W*/N* being the move's prior value, so that
// (the paper's K1 and K2 of Eqs. 1–2)
//
//	score(i) = (w(i) + N0·H) / (n(i) + N0) + C·sqrt(ln n(F)) / sqrt(n(i) + N0)
//
// with n(F) the parent's count (virtual experience included) below 1
// counted as 1. H comes from the game's core.Heuristic (an explicit tree's ~prior
// annotations), mapped by the H function when it is set; by default a
// heuristic value is clamped to [0,1] and a move without one gets H = 1/2.
// Whatever H returns is clamped to [0,1], NaN meaning 1/2. N0 < 0 counts
// as 0; with N0 = 0 unvisited children score Unvisited and come first, as
// in UCT. Ties go to the lower index.
//
// It is consistent while the prior's weight vanishes: N0 is fixed, so
// N0/(n + N0) → 0 as the real visits grow, and C > 0 visits every child
// infinitely often. With C = 0 it is not: a good move with H = 0 scores 0
// until visited, as in Eq. 13's failure. The zero value has C = 0 and
// N0 = 0 (the greedy mean with unvisited children first); the catalogue's
// prior has C = √2 and N0 = 10.
type Prior struct {
	C  float64
	N0 float64
	// H, if set, maps the game's heuristic value h of a move (ok false when
	// the move has none) to its prior value H(s,a) in [0,1].
	H func(h float64, ok bool) float64
}

// score is child i's score; cs is C·sqrt(ln n(F)), computed once per site.
func (p Prior) score(s *core.Site, i int, cs float64) float64 {
	n := s.N(i)
	if n == 0 {
		return Unvisited
	}
	return core.UCTScoreScaled(s.W(i), n, cs)
}

func (p Prior) cs(s *core.Site) float64 {
	checkNumber(p.C, "Prior.C")
	return core.UCTFactor(s, p.C)
}

// Select implements core.Rule.
func (p Prior) Select(s *core.Site) int {
	cs := p.cs(s)
	return core.Argmax(s.Len(), func(i int) float64 { return p.score(s, i, cs) })
}

// Score implements core.Scorer.
func (p Prior) Score(s *core.Site, i int) float64 { return p.score(s, i, p.cs(s)) }

// Needs implements core.Needer: virtual experience from the priors, none
// when N0 ≤ 0 (a NaN N0 gives NaN experience, which the search reports as
// a *core.RuleError).
func (p Prior) Needs() core.Needs {
	if p.N0 <= 0 {
		return core.Needs{}
	}
	return core.Needs{Virtual: p}
}

// Virtual implements core.VirtualExperience: K1 = N0 and K2 = N0·H.
func (p Prior) Virtual(h float64, ok bool) (k1, k2 float64) {
	var v float64
	switch {
	case p.H != nil:
		v = p.H(h, ok)
	case ok:
		v = h
	default:
		v = 0.5
	}
	if math.IsNaN(v) {
		v = 0.5
	}
	v = min(max(v, 0), 1)
	n0 := max(p.N0, 0)
	return n0, min(n0*v, n0)
}
