package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// EpsGreedy is ε-greedy exploration with a constant ε (paper §3 and Fig. 1;
// slides, "ε-greedy"): with probability Eps a child drawn uniformly from
// all children, otherwise the greedy one: the first unvisited child if any
// (a first-play urgency of +∞), else the highest mean w/n, ties to the
// lower index. It draws only from s.Rand(): one Float64, and one IntN when
// it explores. (The slides draw the random child among the non-greedy ones;
// the paper, followed here, among all of them. Both fail alike.)
//
// With average backups it is inconsistent for every Eps (the catalogue's
// eps-greedy): constant exploration is not greedy in the limit, and on the
// deep trap of the paper's Fig. 1 the bad side's mean stays above the good
// side's. It is not frugal either: every child is visited infinitely often.
// With minimax backups (eps-greedy-minimax, core.BackupMinimax) it is
// consistent for 0 < Eps < 1 (slides). Eps ≤ 0, as in the zero value, is
// the greedy rule alone; Eps ≥ 1 is uniformly random. The catalogue's
// default is 0.2, the slides' value.
type EpsGreedy struct {
	Eps float64
}

// Select implements core.Rule.
func (e EpsGreedy) Select(s *core.Site) int {
	checkNumber(e.Eps, "EpsGreedy.Eps")
	return epsSelect(s, e.Eps)
}

// Probs implements core.Stochastic: Eps/k for every child, plus 1 − Eps for the
// greedy one.
func (e EpsGreedy) Probs(s *core.Site, dst []float64) []float64 {
	checkNumber(e.Eps, "EpsGreedy.Eps")
	return epsProbs(s, e.Eps, dst)
}

// EpsGreedyDecay is ε-greedy whose ε decays with the number n(F) of
// simulations through the node (paper §3, "Saving up memory with MCTS
// algorithms": consistency is recovered with ε → 0 "sufficiently quickly
// but sufficiently slowly as well"; slides, "decaying ε"):
//
//	ε = min(1, C / sqrt(n(F) + 1))
//
// and otherwise as EpsGreedy. The rate is suitable on both counts. At the
// node's t-th visit each child is drawn with probability at least
// ε_t/k = C/(k·sqrt(t+1)), and Σ_t 1/sqrt(t+1) = ∞, so by the conditional
// Borel–Cantelli lemma every child of a node visited infinitely often is
// visited infinitely often (Eq. 5), and so is every node of the tree,
// each child getting about sqrt of its parent's visits (n^(1/2), n^(1/4), …
// down the tree; ε = 1/t would give only log n, log log n, …). And ε → 0:
// the random visits number O(sqrt(n(F))) = o(n(F)), so a clearly worse
// child gets a vanishing share (Eq. 4) and the rule is greedy in the limit.
// It is consistent but not frugal. C ≤ 0, as in the zero value, means
// C = 1, the catalogue's default.
type EpsGreedyDecay struct {
	C float64
}

func (e EpsGreedyDecay) eps(s *core.Site) float64 {
	c := orDefault(e.C, 1, "EpsGreedyDecay.C")
	return min(1, c/math.Sqrt(s.ParentN()+1))
}

// Select implements core.Rule.
func (e EpsGreedyDecay) Select(s *core.Site) int { return epsSelect(s, e.eps(s)) }

// Probs implements core.Stochastic.
func (e EpsGreedyDecay) Probs(s *core.Site, dst []float64) []float64 {
	return epsProbs(s, e.eps(s), dst)
}

func epsSelect(s *core.Site, eps float64) int {
	if eps > 0 {
		if r := s.Rand(); r.Float64() < eps {
			return r.IntN(s.Len())
		}
	}
	return greedy(s)
}

func epsProbs(s *core.Site, eps float64, dst []float64) []float64 {
	eps = min(max(eps, 0), 1)
	k := s.Len()
	dst = dst[:0]
	for range k {
		dst = append(dst, eps/float64(k))
	}
	dst[greedy(s)] += 1 - eps
	return dst
}
