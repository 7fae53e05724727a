package rules

import "github.com/mctscheck/mctscheck/core"

// Threshold returns Algorithm 2 of the paper (§3 "Tricks", the consistency
// modification) wrapped around inner, with the paper's V_threshold = 0.3
// (DefaultThreshold) and V'_threshold = 1 − 0.3 at min nodes: at a max node
// whose empirical value V̂ is below 0.3, and at a min node whose V̂ (max's
// perspective) is above 0.7, it picks a child uniformly at random; elsewhere
// it defers to inner. Set the result's V and VMin for other thresholds; see
// core.Threshold.
//
// In deterministic games with rewards in {0,1} any V_threshold in (0,1)
// makes Eq. 5 hold whatever inner is, so an inner rule satisfying Eq. 4
// (Prediction.Eq4) becomes consistent. It does not repair Eq. 4: wrapped
// around eps-greedy or boltzmann it stays inconsistent. It is frugal where
// inner is, except below nodes whose player is losing, which it explores
// uniformly.
func Threshold(inner core.Rule) core.Threshold {
	return core.Threshold{Rule: inner, V: DefaultThreshold}
}
