package rules

import (
	"github.com/mctscheck/mctscheck/core"
)

// GreedyFPU is the plain greedy score with a first-play urgency, the
// paper's Eq. 3 with K1 = K2 = 0 in Eqs. 1–2 (paper §3 "Tricks"):
//
//	score(i) = w(i)/n(i)   if n(i) > 0
//	score(i) = FPU         if n(i) = 0
//
// Ties go to the lower index. It is inconsistent: if the only good move
// loses its first simulation it scores 0 for ever, while a bad move that
// won its first simulation and always loses afterwards keeps a score 1/n > 0.
// The zero value has FPU 0; the catalogue's greedy-fpu has FPU 1.
type GreedyFPU struct {
	FPU float64
}

func (g GreedyFPU) score(s *core.Site, i int) float64 {
	if n := s.N(i); n > 0 {
		return s.W(i) / n
	}
	return g.FPU
}

// Select implements core.Rule.
func (g GreedyFPU) Select(s *core.Site) int {
	checkNumber(g.FPU, "GreedyFPU.FPU")
	return core.Argmax(s.Len(), func(i int) float64 { return g.score(s, i) })
}

// Score implements core.Scorer.
func (g GreedyFPU) Score(s *core.Site, i int) float64 {
	checkNumber(g.FPU, "GreedyFPU.FPU")
	return g.score(s, i)
}
