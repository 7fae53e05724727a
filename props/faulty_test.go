package props_test

import (
	"context"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
)

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

// TestPlantedFaultsFound: every planted fault gets the verdict fault, at
// the sweep's first three seeds (each a new set of 30 random trees, as
// the sweep checks them). The lies are found by tests at error rate
// 5.7e-7 (declared.go), so a miss here is no bad luck.
func TestPlantedFaultsFound(t *testing.T) {
	for _, r := range faultyRules() {
		for _, seed := range []uint64{1000, 2000, 3000} {
			rep, err := props.Run(context.Background(), r.rule, props.Options{RuleSpec: r.spec, Seed: seed, Trees: 30})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != props.Faulted {
				t.Errorf("%s (%s), seed %d: %s, want a fault", r.spec, r.why, seed, rep.Summary)
			}
		}
	}
}
