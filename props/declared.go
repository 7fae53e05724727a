package props

import (
	"fmt"
	"math"
)

// Nothing a rule declares is trusted unless its own choices bear it out:
// the probabilities of a core.Stochastic (or of an external program that
// answers "probs" sites) and the scores of a core.Scorer are checked
// against the children its Select picks at the same sites. A declaration
// the choices contradict is a fault of the rule (FaultLie), never evidence
// for a verdict.

// lieErrorRate is the error rate of each test of declared probabilities
// against choices: that of a two-sided z = 5 test, 2·(1 − Φ(5)).
const lieErrorRate = 5.7e-7

// claims tests declared probabilities against choices. Each slot is an
// event whose probability the rule declared at every site where it was
// asked (a child of a node, or "the child the declaration favours"): if
// the declarations are true, the times the event happened differ from the
// sum of its declared probabilities by at most bernstein(variance), except
// at error rate lieErrorRate per slot.
type claims struct {
	slots []claim
}

// claim is one event's record: its declared probabilities summed (exp),
// their Bernoulli variances summed (vr), the times it happened (got), and
// the sites at which it was declared (n).
type claim struct {
	exp, vr, got, n float64
}

// add records one site at which slot's event had declared probability p
// and happened or not.
func (c *claims) add(slot int, p float64, happened bool) {
	for len(c.slots) <= slot {
		c.slots = append(c.slots, claim{})
	}
	s := &c.slots[slot]
	s.exp += p
	s.vr += p * (1 - p)
	s.n++
	if happened {
		s.got++
	}
}

// contradicted returns the first slot whose record contradicts its
// declarations, or -1.
func (c *claims) contradicted() int {
	for i, s := range c.slots {
		if math.Abs(s.got-s.exp) > bernstein(s.vr) {
			return i
		}
	}
	return -1
}

// describe says what slot i's record shows, naming the event with what.
func (c *claims) describe(i int, what string) string {
	s := c.slots[i]
	return fmt.Sprintf("declared probabilities disagree with the rule's choices: %s declared %.3g on average over %d selections, and chosen %d of %d (%.0f ± %.0f expected, at error rate %.1e)",
		what, s.exp/s.n, int(s.n), int(s.got), int(s.n), s.exp, bernstein(s.vr), lieErrorRate)
}

// bernstein is the deviation t of a sum of independent indicators with
// summed variance v from its mean that Bernstein's inequality,
// P(|S − ES| ≥ t) ≤ 2·exp(−t² / (2(v + t/3))), bounds at lieErrorRate. It
// holds at every count, so a few selections with tiny variances prove no
// lie: a declared 0 or 1 needs about 10 contrary choices.
func bernstein(v float64) float64 { return bernsteinAt(v, lieErrorRate) }

// bernsteinAt is bernstein at the error rate rate.
func bernsteinAt(v, rate float64) float64 {
	l := math.Log(2 / rate)
	return l/3 + math.Sqrt(l*l/9+2*l*v)
}

// favourite is the index of the largest of xs (declared probabilities or
// scores), the lowest among ties.
func favourite(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

// scoreLie says how the choice i contradicts the declared scores, or "":
// the chosen child must have the best score, up to a relative 1e-9 (a
// Select written as a faster loop may round differently).
func scoreLie(scores []float64, i int) string {
	best := favourite(scores)
	top, got := scores[best], scores[i]
	if got >= top || math.IsInf(top, -1) {
		return ""
	}
	if !math.IsInf(top, 1) && top-got <= 1e-9*max(1, math.Abs(top)) {
		return ""
	}
	return fmt.Sprintf("declared scores disagree with the rule's choice: Select chose child %d, scored %v, while child %d scored %v", i, got, best, top)
}

// impossibleChoice says that Select chose child i, which the rule declared
// impossible at the same site: a lie no statistics need to show.
func impossibleChoice(i int) string {
	return fmt.Sprintf("declared probabilities disagree with the rule's choice: Select chose child %d, declared impossible (probability 0) at the same site", i)
}
