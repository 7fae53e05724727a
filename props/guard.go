package props

import (
	"fmt"
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// guarded wraps a rule so that what it declares is checked against what it
// does, at checkpoints of the search: if the rule is a core.Scorer, no
// score may be NaN (+Inf and −Inf are scores like any other, ties going
// to the lower index) and the child Select picks must have the best score;
// if it is a core.Stochastic, its probabilities must be a distribution over
// the children, Select must never pick a child declared impossible, and
// over the search the declared favourite must be picked as often as
// declared (claims). A failure panics with a *Fault, which the search turns
// into a core.RuleError.
//
// Scoring every child on every call would cost more than the search itself
// (a Score call pays for the rule's formula once per child, and the rule's
// own Select has just paid for it), so the guard checks at checkpoints of
// each node's real visit count: when the node has 0, 1, 2 or 3
// simulations and whenever its count reaches a power of two. Each node is
// thus checked about log2(n) + 3 times instead of n times, at every scale
// of its statistics, and the check costs a few percent of a search. A NaN
// that a rule returns only between two checkpoints of a node and never at
// one is not reported; the search treats it as core.Argmax does (it loses
// every comparison, but wins at index 0).
//
// The schedule follows the node's statistics, not the clock, so a check
// reports the same fault at the same simulation for the same seed. A guard
// serves one search at a time.
type guarded struct {
	rule core.Rule
	sc   core.Scorer     // rule as a Scorer; nil if it is not one
	st   core.Stochastic // rule as a Stochastic; nil if it is not one
	// declared records, at the checkpoints, whether Select picked the
	// child its declared probabilities favour.
	declared claims
	scores   []float64
}

// guard returns r guarded; a pointer, so that each call through the
// core.Rule interface does not copy the two interfaces it holds. A rule
// that is no Scorer has no scores to check: guard returns it as it is,
// sparing each Select a call through the guard, unless it is a
// core.Builtin, whose builtin the guard may refuse.
func guard(r core.Rule) core.Rule {
	sc, _ := r.(core.Scorer)
	st, _ := r.(core.Stochastic)
	if _, ok := r.(core.Builtin); sc == nil && st == nil && !ok {
		return r
	}
	return &guarded{rule: r, sc: sc, st: st}
}

func (g *guarded) Needs() core.Needs { return core.NeedsOf(g.rule) }

// Builtin implements core.Builtin when the guarded rule is core's UCT
// (itself or through core.Builtin) with C in [0, ∞): its scores are never
// NaN (a visited child's is finite or +Inf, an unvisited child comes
// first), and its Select is their argmax, so there is nothing to guard,
// and the search may run UCT's own loop over the stored nodes.
func (g *guarded) Builtin() core.Rule {
	r := g.rule
	if b, ok := r.(core.Builtin); ok {
		r = b.Builtin()
	}
	if u, ok := r.(core.UCT); ok && u.C >= 0 && u.C <= math.MaxFloat64 {
		return u
	}
	return nil
}

func (g *guarded) Select(s *core.Site) int {
	v := s.ParentVisits()
	if (g.sc == nil && g.st == nil) || !(v < 4 || v&(v-1) == 0) {
		return g.rule.Select(s)
	}
	var scores, p []float64
	if g.sc != nil {
		scores = g.scoreAll(s)
	}
	if g.st != nil {
		p = g.probs(s)
	}
	i := g.rule.Select(s)
	if i < 0 || i >= s.Len() {
		return i // the search reports it
	}
	if scores != nil {
		if msg := scoreLie(scores, i); msg != "" {
			panic(&Fault{Kind: FaultLie, Message: msg, Inputs: siteInputs(s)})
		}
	}
	if p != nil {
		if p[i] == 0 {
			panic(&Fault{Kind: FaultLie, Message: impossibleChoice(i), Inputs: siteInputs(s)})
		}
		fav := favourite(p)
		g.declared.add(0, p[fav], i == fav)
	}
	return i
}

// scoreAll returns every child's score, panicking with a *Fault at a NaN.
func (g *guarded) scoreAll(s *core.Site) []float64 {
	g.scores = g.scores[:0]
	for i := range s.Len() {
		v := g.sc.Score(s, i)
		if math.IsNaN(v) {
			panic(&Fault{Kind: FaultNaN, Message: fmt.Sprintf("score %v for child %d", v, i), Inputs: siteInputs(s)})
		}
		g.scores = append(g.scores, v)
	}
	return g.scores
}

// probs returns the rule's probabilities at s, nil if it cannot tell,
// panicking with a *Fault if they are no distribution over its children.
func (g *guarded) probs(s *core.Site) []float64 {
	p := g.st.Probs(s, make([]float64, 0, s.Len()))
	if p == nil {
		return nil
	}
	if err := core.ProbsError(p, s.Len()); err != nil {
		panic(&Fault{Kind: FaultRange, Message: "Probs: " + err.Error(), Inputs: siteInputs(s)})
	}
	return p
}

// audit returns a *Fault if the choices of the search so far contradict
// the probabilities declared at its checkpoints, nil otherwise.
func (g *guarded) audit() *Fault {
	if g.declared.contradicted() < 0 {
		return nil
	}
	return &Fault{Kind: FaultLie, Message: g.declared.describe(0, "the declared favourite (the most probable child at each checkpoint) was")}
}

// auditOf returns the audit of r's declarations if r is a guard.
func auditOf(r core.Rule) *Fault {
	if g, ok := r.(*guarded); ok {
		return g.audit()
	}
	return nil
}

// resetAudit forgets the declarations r's guard recorded, for a new search.
func resetAudit(r core.Rule) {
	if g, ok := r.(*guarded); ok {
		g.declared = claims{}
	}
}
