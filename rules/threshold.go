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
// The paper claims that in deterministic games with rewards in {0,1} any
// V_threshold in (0,1) makes an inner rule satisfying Eq. 4 consistent. It
// does repair the paper's own counterexamples (greedy-fpu's first loss,
// RAVE's zero AMAF value), but with average backups the claim is false: the
// random mode can be absorbing (gen.AbsorbingRandomTrap), so the catalogue
// predicts it inconsistent, and consistent only around a consistent rule
// with minimax backups. It is frugal where inner is, except below nodes
// whose player is losing, which it explores uniformly.
func Threshold(inner core.Rule) core.Threshold {
	return core.Threshold{Rule: inner, V: DefaultThreshold}
}

// absorbing is the prediction's reason for Algorithm 2 with average backups.
const absorbing = "the paper claims consistency on binary deterministic games for an inner rule satisfying Eq. 4, " +
	"but its random mode can be absorbing: at a max node where fewer than a share v of the children win, " +
	"a uniform choice keeps the mean below v for ever (min nodes likewise above v'), so the node's mean never reaches its value " +
	"and a rule satisfying Eq. 4 at the parent prefers a worse sibling; (max (max 0 0 0 0 1) (min 1 1 1 0)) refutes it whatever the inner rule"
