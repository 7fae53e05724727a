package rules

import (
	"github.com/mctscheck/mctscheck/core"
)

// Smoothed is the paper's Eq. 14, the mean smoothed toward 1/2 that MoGo
// uses when it drops the upper confidence term (paper §3 "Tricks"):
//
//	score(i) = (w(i) + K) / (n(i) + 2K),   K > 0
//
// An unvisited child scores 1/2, so there is no singularity. Ties go to the
// lower index. K ≤ 0, as in the zero value, means K = 1, the catalogue's
// default.
//
// In binary deterministic games it is consistent and frugal: a child that
// stopped being visited keeps a fixed positive score while its losing
// siblings' scores fall to 0, so it is tried again (Eq. 5), and a child that
// keeps winning is never left, so other parts of the tree stay unvisited.
// With rewards strictly between 0 and 1 (or chance nodes) it is not: in
// (max (max 0 1) 0.5) the good move loses its first simulation and scores
// 1/3 for ever, below the leaf's constant 1/2. The paper states Eq. 14's
// consistency without this restriction; see the package doc.
type Smoothed struct {
	K float64
}

func (m Smoothed) k() float64 { return orDefault(m.K, 1, "Smoothed.K") }

func (m Smoothed) score(s *core.Site, i int, k float64) float64 {
	return (s.W(i) + k) / (s.N(i) + 2*k)
}

// Select implements core.Rule.
func (m Smoothed) Select(s *core.Site) int {
	k := m.k()
	return core.Argmax(s.Len(), func(i int) float64 { return m.score(s, i, k) })
}

// Score implements core.Scorer.
func (m Smoothed) Score(s *core.Site, i int) float64 { return m.score(s, i, m.k()) }
