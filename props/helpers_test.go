package props_test

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// greedy is the greedy rule with first-play urgency 1 and K1 = K2 = 0, kept
// local so that these tests do not depend on the catalogue.
type greedy struct{}

func (greedy) Select(s *core.Site) int { return core.ArgmaxScore(s, greedy{}) }
func (greedy) Score(s *core.Site, i int) float64 {
	if m, ok := s.Mean(i); ok {
		return m
	}
	return 1
}

// epsGreedy explores uniformly with probability eps.
type epsGreedy struct{ eps float64 }

func (e epsGreedy) Select(s *core.Site) int {
	if s.Rand().Float64() < e.eps {
		return s.Rand().IntN(s.Len())
	}
	return greedy{}.Select(s)
}

// nanRule scores NaN once a child has two simulations.
type nanRule struct{}

func (nanRule) Select(s *core.Site) int { return core.ArgmaxScore(s, nanRule{}) }
func (nanRule) Score(s *core.Site, i int) float64 {
	if s.Visits(i) >= 2 {
		return math.NaN()
	}
	return 1 / (1 + s.N(i))
}

// panicRule panics at depth 1.
type panicRule struct{}

func (panicRule) Select(s *core.Site) int {
	if s.Depth() == 1 {
		panic("tuned rule broke")
	}
	return 0
}
