package props_test

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// Rules from outside the catalogue, written here as a user would write
// them, with the prediction the theory gives. The sweep judges the checker
// on them too: its verdicts must hold for rules nobody tuned it to.
type outsideRule struct {
	spec       string // a name for tables
	rule       core.Rule
	consistent bool
	binaryOnly bool
	why        string
}

func outsideRules() []outsideRule {
	return []outsideRule{
		{"user:eps-1/n", epsDecay{c: 1, power: 1}, true, false,
			"ε = 1/(n+1): Σε = ∞, so every child keeps being tried (about once per doubling); ε → 0"},
		{"user:eps-1/n2", epsDecay{c: 1, power: 2}, false, false,
			"ε = 1/(n+1)²: Σε < ∞, so after finitely many explorations it is greedy, which a first loss traps"},
		{"user:ucb-nolog:c=0.3", ucbNoLog{c: 0.3}, false, false,
			"V̂ + c/sqrt(n): the bonus of a starved child stays fixed while the others' vanish"},
		{"user:uct-inf-fpu", uctInf{c: math.Sqrt2}, true, false,
			"UCT scoring unvisited children +Inf, the textbook first-play urgency"},
		{"user:uct-sampled", uctSampled{c: 0.3}, true, false,
			"UCT with random tie-breaks among the best: stochastic without declaring it"},
	}
}

// epsDecay is ε-greedy with ε = min(1, c/(n(F)+1)^power), which declares
// nothing: the checker must sample it.
type epsDecay struct{ c, power float64 }

func (e epsDecay) Select(s *core.Site) int {
	eps := min(1, e.c/math.Pow(s.ParentN()+1, e.power))
	if r := s.Rand(); r.Float64() < eps {
		return r.IntN(s.Len())
	}
	return core.ArgmaxScore(s, greedy{})
}

// ucbNoLog is V̂ + c/sqrt(n), unvisited children first.
type ucbNoLog struct{ c float64 }

func (u ucbNoLog) Select(s *core.Site) int { return core.ArgmaxScore(s, u) }
func (u ucbNoLog) Score(s *core.Site, i int) float64 {
	m, ok := s.Mean(i)
	if !ok {
		return math.Inf(1)
	}
	return m + u.c/math.Sqrt(s.N(i))
}

// uctInf is UCT with +Inf for unvisited children.
type uctInf struct{ c float64 }

func (u uctInf) Select(s *core.Site) int { return core.ArgmaxScore(s, u) }
func (u uctInf) Score(s *core.Site, i int) float64 {
	if s.N(i) == 0 {
		return math.Inf(1)
	}
	return core.UCTScore(s.W(i), s.N(i), u.c, core.LogParent(s))
}

// uctSampled is UCT that breaks ties between the best children at random.
type uctSampled struct{ c float64 }

func (u uctSampled) Select(s *core.Site) int {
	best, n := -1, 0
	top := math.Inf(-1)
	for i := range s.Len() {
		v := uctInf(u).Score(s, i)
		switch {
		case v > top:
			best, top, n = i, v, 1
		case v == top:
			n++
			if s.Rand().IntN(n) == 0 {
				best = i
			}
		}
	}
	return best
}
