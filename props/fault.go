package props

import (
	"fmt"
	"math"
	"strings"

	"github.com/mctscheck/mctscheck/core"
)

// Fault says how the rule, or the program behind it, broke its contract:
// it panicked, returned a NaN or a child out of range, crashed, hung,
// answered garbage, or declared what its own choices contradict. It is the
// evidence of the verdict Faulted, not a finding about consistency.
type Fault struct {
	// Kind names the class of fault (FaultPanic, FaultHang, …).
	Kind FaultKind `json:"kind"`
	// Message says what happened: "score NaN for child 1", "panic: …".
	Message string `json:"message"`
	// Inputs are the statistics the rule saw, from the chooser's
	// perspective, one line per child.
	Inputs string `json:"inputs"`
	// Node is the path of the node where it happened (e.g. "0.1").
	Node string `json:"node"`
	// Sim is the index of the simulation.
	Sim int64 `json:"sim"`
	// Stderr is the end of the program's standard error, for a rule or a
	// search run by a program; empty otherwise.
	Stderr string `json:"stderr,omitempty"`
}

// FaultKind is the class of a Fault.
type FaultKind string

// The classes of faults.
const (
	FaultPanic    FaultKind = "panic"    // the rule panicked
	FaultNaN      FaultKind = "nan"      // a NaN score or answer
	FaultRange    FaultKind = "range"    // a child, probability or count out of range
	FaultCrash    FaultKind = "crash"    // the program exited or was killed
	FaultHang     FaultKind = "hang"     // no answer within the timeout
	FaultGarbage  FaultKind = "garbage"  // an answer that does not parse, or stray output
	FaultProtocol FaultKind = "protocol" // a bad handshake or protocol version
	FaultLie      FaultKind = "lie"      // a declaration the rule's own choices contradict
)

func (f *Fault) Error() string {
	return fmt.Sprintf("rule fault at node %s in simulation %d: %s\n%s", f.Node, f.Sim, f.Message, f.Inputs)
}

// guarded wraps a rule so that its scores are checked: if the rule is a
// core.Scorer, no score may be NaN (+Inf and −Inf are scores like any
// other, ties going to the lower index); a NaN panics with a *Fault, which
// the search turns into a core.RuleError.
//
// Scoring every child on every call would cost more than the search itself
// (a Score call pays for the rule's formula once per child, and the rule's
// own Select has just paid for it), so the guard checks at checkpoints of
// each node's real visit count: every child's score when the node has 0,
// 1, 2 or 3 simulations and whenever its count reaches a power of two. Each
// node is thus checked about log2(n) + 3 times instead of n times, at every
// scale of its statistics, and the check costs a few percent of a search.
// A NaN that a rule returns only between two checkpoints of a node and
// never at one is not reported; the search treats it as core.Argmax does
// (it loses every comparison, but wins at index 0).
//
// The schedule follows the node's statistics, not the clock, so a check
// reports the same fault at the same simulation for the same seed.
type guarded struct {
	rule core.Rule
	sc   core.Scorer     // rule as a Scorer; nil if it is not one
	st   core.Stochastic // rule as a Stochastic; nil if it is not one
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
// first), so there is nothing to guard, and the search may run UCT's own
// loop over the stored nodes.
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
	if g.sc != nil || g.st != nil {
		if v := s.ParentVisits(); v < 4 || v&(v-1) == 0 {
			for i := range s.Len() {
				if g.sc != nil {
					g.check(s, i)
				}
			}
			if g.st != nil {
				g.checkProbs(s)
			}
		}
	}
	return g.rule.Select(s)
}

// checkProbs panics with a *Fault if the rule's probabilities at s are no
// distribution over its children (nil, "cannot tell", is allowed).
func (g *guarded) checkProbs(s *core.Site) {
	p := g.st.Probs(s, make([]float64, 0, s.Len()))
	if p == nil {
		return
	}
	if msg := badProbs(p, s.Len()); msg != "" {
		panic(&Fault{Message: msg, Inputs: siteInputs(s)})
	}
}

// badProbs says what is wrong with p as the probabilities of k children,
// or "" if nothing is: k of them, each in [0,1], summing to 1 up to
// rounding.
func badProbs(p []float64, k int) string {
	if len(p) != k {
		return fmt.Sprintf("Probs gave %d probabilities for %d children", len(p), k)
	}
	sum := 0.0
	for i, x := range p {
		if !(x >= 0 && x <= 1) {
			return fmt.Sprintf("Probs gave child %d the probability %v", i, x)
		}
		sum += x
	}
	if math.Abs(sum-1) > 1e-6 {
		return fmt.Sprintf("Probs sum to %v, not 1", sum)
	}
	return ""
}

// check panics with a *Fault if child i scores NaN.
func (g *guarded) check(s *core.Site, i int) {
	if v := g.sc.Score(s, i); math.IsNaN(v) {
		panic(&Fault{Message: fmt.Sprintf("score %v for child %d", v, i), Inputs: siteInputs(s)})
	}
}

// siteInputs prints what a rule sees at s.
func siteInputs(s *core.Site) string {
	var b strings.Builder
	pm, _ := s.ParentMean()
	fmt.Fprintf(&b, "  %v node, n=%g, mean=%g, t=%d, depth=%d\n", s.Kind(), s.ParentN(), pm, s.T(), s.Depth())
	for i := range s.Len() {
		fmt.Fprintf(&b, "  child %d: n=%g w=%g visits=%d", i, s.N(i), s.W(i), s.Visits(i))
		if h, ok := s.Prior(i); ok {
			fmt.Fprintf(&b, " prior=%g", h)
		}
		if an, aw := s.AMAF(i); an > 0 {
			fmt.Fprintf(&b, " amaf=%g/%g", aw, an)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// faultOf turns a search error into a Fault when it is the rule's doing.
func faultOf(err error) (*Fault, bool) {
	re, ok := err.(*core.RuleError)
	if !ok {
		return nil, false
	}
	node := core.PathString(re.Path)
	if f, ok := re.Panic.(*Fault); ok {
		f.Node, f.Sim = node, re.Sim
		return f, true
	}
	msg := re.Error()
	if re.Panic != nil {
		msg = fmt.Sprintf("panic: %v", re.Panic)
	}
	return &Fault{Message: msg, Node: node, Sim: re.Sim}, true
}
