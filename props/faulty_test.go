package props_test

import "github.com/mctscheck/mctscheck/core"

// faultyRule is a rule with a planted fault: the checker must give it the
// verdict fault, whatever its consistency.
type faultyRule struct {
	spec string
	rule core.Rule
	why  string
}

// faultyRules are the sweep's planted faults: lies about probabilities and
// scores, panics, NaN scores and children out of range.
func faultyRules() []faultyRule {
	return []faultyRule{
		{"fault:uniform-liar", uniformLiar{}, "always child 0, declaring uniform probabilities"},
		{"fault:eps-liar", epsLiar{}, "ε-greedy drawing with ε = 0.02, declaring ε = 0.3"},
		{"fault:impossible-liar", impossibleLiar{}, "child 0, declared impossible"},
		{"fault:score-liar", scoreLiar{}, "child 0, declaring the last child's score the best"},
		{"fault:panic", panicRule{}, "panics at depth 1"},
		{"fault:nan", nanRule{}, "scores NaN once a child has two simulations"},
		{"fault:range", outOfRange{}, "answers child k of k after 100 simulations of a node"},
	}
}

// epsLiar draws as ε-greedy with ε = 0.02 but declares ε = 0.3.
type epsLiar struct{}

func (epsLiar) Select(s *core.Site) int { return epsGreedy{0.02}.Select(s) }
func (epsLiar) Probs(s *core.Site, dst []float64) []float64 {
	return honestEps{0.3}.Probs(s, dst)
}

// outOfRange answers a child out of range once a node has 100 simulations.
type outOfRange struct{}

func (outOfRange) Select(s *core.Site) int {
	if s.ParentVisits() >= 100 {
		return s.Len()
	}
	return greedy{}.Select(s)
}
