package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// RAVE is the paper's Eq. 13, the classical blend of the empirical mean V̂
// and the RAVE (all-moves-as-first) value V' of the move (paper §3,
// "Unconsistency of some forms of progressive bias"):
//
//	score(i) = n/(n+K)·V̂(i) + K/(n+K)·V'(i)  =  (w(i) + K·V'(i)) / (n(i) + K)
//
// with V' = AMAFW/AMAFN from Site.AMAF, and V' = 0 while the move has no
// AMAF data. The second form has no singularity at n = 0: an unvisited
// child scores V'. Ties go to the lower index. K ≤ 0, as in the zero value,
// means K = 100, the catalogue's default.
//
// With Floor = 0 this is the catalogue's rave, which is inconsistent: the
// only good move may have V' = 0, so it scores 0 while unvisited, and a bad
// move with V' > 0 outscores it for ever. With Floor > 0 (rave-floor, paper
// §3 "Tricks": 0.1) V' is replaced by max(V', Floor), also when there is no
// AMAF data; in binary deterministic games this makes the rule consistent
// and frugal, since a good move scores at least Floor while unvisited and
// losing moves fall to 0.
type RAVE struct {
	K     float64
	Floor float64
}

func (r RAVE) k() float64 {
	checkNumber(r.Floor, "RAVE.Floor")
	return orDefault(r.K, 100, "RAVE.K")
}

func (r RAVE) score(s *core.Site, i int, k float64) float64 {
	var v float64
	if an, aw := s.AMAF(i); an > 0 {
		v = aw / an
	}
	v = max(v, r.Floor)
	return (s.W(i) + k*v) / (s.N(i) + k)
}

// Select implements core.Rule.
func (r RAVE) Select(s *core.Site) int {
	k := r.k()
	return core.Argmax(s.Len(), func(i int) float64 { return r.score(s, i, k) })
}

// Score implements core.Scorer.
func (r RAVE) Score(s *core.Site, i int) float64 { return r.score(s, i, r.k()) }

// Needs implements core.Needer: RAVE reads AMAF statistics.
func (RAVE) Needs() core.Needs { return core.Needs{AMAF: true} }

// MCRAVE is MC-RAVE, the Grand Challenge paper's §4.1 Eq. 1, with Gelly
// and Silver's hand-selected schedule for β, which decays from 1 to 0:
//
//	score(i) = (1 − β)·w(i)/n(i) + β·Ṽ(i),   β = sqrt(K / (3n(i) + K))
//
// with Ṽ = AMAFW/AMAFN from Site.AMAF, and Ṽ = 0 while the move has no AMAF
// data. K is the equivalence parameter: β = 1/2 at n = K. At n = 0, β = 1
// and the score is Ṽ (the first term, 0/0, has weight 0). Ties go to the
// lower index. K ≤ 0, as in the zero value, means K = 100, the catalogue's
// default.
//
// It fails like Eq. 13 (RAVE): while a move is unvisited its score is its
// AMAF value, so the only good move with Ṽ = 0 is never tried as long as a
// bad move scores above 0.
type MCRAVE struct {
	K float64
}

func (r MCRAVE) k() float64 { return orDefault(r.K, 100, "MCRAVE.K") }

func (r MCRAVE) score(s *core.Site, i int, k float64) float64 {
	var v float64
	if an, aw := s.AMAF(i); an > 0 {
		v = aw / an
	}
	n := s.N(i)
	if n == 0 {
		return v
	}
	beta := math.Sqrt(k / (3*n + k))
	return (1-beta)*(s.W(i)/n) + beta*v
}

// Select implements core.Rule.
func (r MCRAVE) Select(s *core.Site) int {
	k := r.k()
	return core.Argmax(s.Len(), func(i int) float64 { return r.score(s, i, k) })
}

// Score implements core.Scorer.
func (r MCRAVE) Score(s *core.Site, i int) float64 { return r.score(s, i, r.k()) }

// Needs implements core.Needer: MC-RAVE reads AMAF statistics.
func (MCRAVE) Needs() core.Needs { return core.Needs{AMAF: true} }
