package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// KataGo is the selection rule of KataGo, Search::selectBestChildToDescend
// and its helpers in lightvector/KataGo@6a1fc5de9fc253723ac475a0683bf0b9d9b7bd19
// cpp/search/searchexplorehelpers.cpp, defaults from cpp/program/setup.cpp
// (cpuctExploration 1.0, cpuctExplorationLog 0.45, cpuctExplorationBase
// 500, cpuctUtilityStdevPrior 0.40, its weight 2.0, cpuctUtilityStdevScale
// 0.85, fpuReductionMax 0.2, rootFpuReductionMax 0.1, fpuLossProp 0).
// Utilities are on KataGo's scale, U = 2V̂ − 1 (winLossUtilityFactor 1):
//
//	score(i) = U(i) + (C + CLog·ln((W + CBase)/CBase))·sqrt(W + 0.01)·f·P(i)/(1 + n(i))
//	f = 1 + Scale·(σ/σ0 − 1),  W = Σ n over the children
//
// An unvisited child is a candidate only if it has the highest policy among
// the unvisited children (the lowest index among equals): "the new child
// with the best policy value"; its utility is the first-play urgency
// U(F) − FPU·sqrt(Σ P over visited children) (RootFPU at the root), U(F)
// the node's mean; every other unvisited child scores −MaxFloat64 (never).
// σ is the node's utility standard deviation with KataGo's prior σ0 of
// weight 2: ((U(F)² + σ0²)·2 + E[u²]·n(F))/(2 + n(F) − 1) − U(F)², σ0 when
// n(F) ≤ 1, where E[u²], KataGo's utilitySqAvg, is 4·Site.ParentVariance()
// + U(F)² (the rule declares Needs.Squares, so the search keeps the sums of
// squares). On a site without squares E[u²] is 1, its value for rewards
// in {0,1} and an upper bound otherwise. Ties go to the lowest index
// (KataGo's children are in expansion order; the checker's child orders
// cover that).
//
// Not modelled: the weights of visits and values. With useUncertainty (on
// by default for GTP and analysis, setup.cpp) each playout's value is
// weighted by the network's short-term uncertainty
// (Search::computeWeightFromNNOutput, cpp/search/searchupdatehelpers.cpp),
// so W is a sum of weights, not a count; here every visit weighs 1, as in
// KataGo with useUncertainty off or a network without short-term error
// heads. valueWeightExponent (0.25, setup.cpp) is used as well:
// Search::recomputeNodeStats calls downweightBadChildrenAndNormalizeWeight,
// which multiplies each child's weight in the node's utility by
// (F(z) + 0.0001)^0.25, F a Student t CDF (Search's
// valueWeightDistribution) and z the child's utility relative to the
// node's in estimated standard deviations, so a node's utility U(F), the
// FPU base and the value backed up, leans towards its best children; here
// it is the plain mean. Nor modelled: score utility,
// the blend of the node's network utility into the FPU base
// (fpuParentWeightByVisitedPolicy: the network's value is not there; the
// node's mean stands for it), noise pruning, futile-visit pruning, forced
// playouts and hint moves at the root, wide root noise, anti-mirror, graph
// search and the eval cache, humanSL, pass hacks, virtual losses. The
// weights change how fast means move, not which child the rule prefers at
// given statistics; the rest removes or adds root children or concerns Go
// alone.
type KataGo struct {
	C, CLog, CBase          float64
	StdevPrior, StdevWeight float64
	StdevScale              float64
	FPU, RootFPU            float64
}

// kataGoAt is KataGo at one site: what its scores share.
type kataGoAt struct {
	s            *core.Site
	pol          []float64
	cand         int // the unvisited child with the best policy, or -1
	scaling, fpu float64
}

func (z kataGoAt) score(i int) float64 {
	m, ok := z.s.Mean(i)
	switch {
	case ok:
		return signed(m) + z.scaling*z.pol[i]/(1+z.s.N(i))
	case i == z.cand:
		return z.fpu + z.scaling*z.pol[i]
	}
	return -math.MaxFloat64
}

func (r KataGo) at(s *core.Site) kataGoAt {
	pol := s.Policy(1)
	mass, w := s.VisitedPolicy(1), s.ChildN()
	// The unvisited child with the best policy, the lowest index among equals.
	cand, candP := -1, -1.0
	for i := range s.Len() {
		if s.N(i) == 0 {
			if p := pol[i]; p > candP {
				cand, candP = i, p
			}
		}
	}
	u := signed(parentValue(s, 0.5))
	sigma := r.StdevPrior
	if nf := s.ParentN(); nf > 1 {
		sqAvg := 1.0 // E[u²] without squares: exact for rewards in {0,1}, an upper bound otherwise
		if v, ok := s.ParentVariance(); ok {
			sqAvg = 4*v + u*u
		}
		v := ((u*u+r.StdevPrior*r.StdevPrior)*r.StdevWeight+sqAvg*nf)/(r.StdevWeight+nf-1) - u*u
		sigma = math.Sqrt(max(v, 0))
	}
	f := 1 + r.StdevScale*(sigma/r.StdevPrior-1)
	scaling := (r.C + r.CLog*math.Log((w+r.CBase)/r.CBase)) * math.Sqrt(w+0.01) * f
	red := r.FPU
	if s.Depth() == 0 {
		red = r.RootFPU
	}
	return kataGoAt{s: s, pol: pol, cand: cand, scaling: scaling, fpu: u - red*math.Sqrt(mass)}
}

// Select implements core.Rule.
func (r KataGo) Select(s *core.Site) int { return core.Argmax(s.Len(), r.at(s).score) }

// Score implements core.Scorer.
func (r KataGo) Score(s *core.Site, i int) float64 { return r.at(s).score(i) }

// Needs implements core.Needer: the rule reads the priors and the
// parent's reward variance.
func (KataGo) Needs() core.Needs { return core.Needs{Priors: true, Squares: true} }
