package bench_test

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// The benchmarked rules. They read the same statistics as their namesakes in
// package rules; they are written here so that the benchmarks depend on
// nothing but core and gen, and each is one small direct loop.

// smoothed is the paper's Eq. 14 with K = 1: score (w+1)/(n+2), ties to the
// lower index.
type smoothed struct{}

func (smoothed) Select(s *core.Site) int {
	best, bestScore := 0, math.Inf(-1)
	for i := range s.Len() {
		if v := (s.W(i) + 1) / (s.N(i) + 2); v > bestScore {
			best, bestScore = i, v
		}
	}
	return best
}

// raveK is the equivalence parameter of rave: AMAF and real statistics weigh
// the same after raveK real simulations.
const raveK = 50

// rave is the paper's Eq. 13 blend β·V' + (1−β)·V̂ with β = K/(n+K), where V̂
// and the AMAF value V' are both smoothed as (w+1)/(n+2).
type rave struct{}

func (rave) Needs() core.Needs { return core.Needs{AMAF: true} }

func (rave) Select(s *core.Site) int {
	best, bestScore := 0, math.Inf(-1)
	for i := range s.Len() {
		n, w := s.N(i), s.W(i)
		an, aw := s.AMAF(i)
		beta := raveK / (n + raveK)
		v := beta*(aw+1)/(an+2) + (1-beta)*(w+1)/(n+2)
		if v > bestScore {
			best, bestScore = i, v
		}
	}
	return best
}

// epsGreedy plays a uniformly random child with probability Eps and
// otherwise the child of highest mean, unvisited children first in index
// order.
type epsGreedy struct{ Eps float64 }

func (e epsGreedy) Select(s *core.Site) int {
	if s.Rand().Float64() < e.Eps {
		return s.Rand().IntN(s.Len())
	}
	best, bestScore := 0, math.Inf(-1)
	for i := range s.Len() {
		m, ok := s.Mean(i)
		if !ok {
			return i
		}
		if m > bestScore {
			best, bestScore = i, m
		}
	}
	return best
}

// ruleCase is one benchmarked rule and its key in benchmark names.
type ruleCase struct {
	name string
	rule core.Rule
}

// benchRules are the rules of the rule sweep, in the order of the tables.
var benchRules = []ruleCase{
	{"uct", core.UCT{C: math.Sqrt2}},
	{"smoothed", smoothed{}},
	{"rave", rave{}},
	{"eps-greedy", epsGreedy{Eps: 0.2}},
	{"threshold", core.Threshold{Rule: core.UCT{C: math.Sqrt2}, V: 0.3}},
}
