package core

import (
	"fmt"
	"math"
)

// Rule chooses a child at max and min nodes. The search calls Select once per
// node on the simulated path (never at chance or terminal nodes) with a Site
// that exposes every child's statistics from the chooser's perspective, so a
// rule always takes the argmax of its score (docs/theory.md).
//
// Select must return an index in [0, s.Len()). It may draw from s.Rand() and
// nothing else, so that the search stays deterministic under its seed. A rule
// that panics or returns an index out of range ends Run with a *RuleError.
//
// Deterministic scorers (the paper's score(w, n, n_F, I, t)), stochastic rules
// (ε-greedy, Boltzmann) and wrappers around either (Threshold) all implement
// Select; a rule may also implement Needer.
type Rule interface {
	Select(s *Site) int
}

// Needs lists the optional statistics a rule reads. The search keeps only
// what some rule asks for, so that plain rules pay nothing for them (the
// bytes per node each costs are in the package doc, "Memory"). Quantities
// a Site derives from its children (Site.Policy, Site.VisitedPolicy,
// Site.ChildN, Site.MeanRange) need no declaration: they cost no memory per
// node and are computed on a site's first call, once per site.
type Needs struct {
	// AMAF asks for all-moves-as-first statistics (Site.AMAF).
	AMAF bool
	// Priors asks for the game's heuristic values (Site.Prior); the game must
	// implement Heuristic for them to be present.
	Priors bool
	// Virtual, if set, gives new children virtual experience.
	Virtual VirtualExperience
	// Squares asks for every node's sum of squared rewards, so that
	// Site.Variance and Site.ParentVariance hold the sample variance of
	// the rewards instead of reporting none.
	Squares bool
}

// Needer is implemented by rules that read optional statistics.
type Needer interface {
	Needs() Needs
}

// VirtualExperience starts new children with virtual simulations: K1 and K2
// in the paper's Eqs. 1–2, N* and W* in the Grand Challenge paper §4.2. A
// rule supplies one through Needs.Virtual. The search calls Virtual once per
// child when it adds the child to the tree, with the child's heuristic value h
// (ok is false when the game has none), and adds k1 to n_t and k2 to w_t from
// then on. Both are from the chooser's perspective; k1 must be ≥ 0 and k2 in
// [0, k1], or Run fails with a *RuleError.
type VirtualExperience interface {
	Virtual(h float64, ok bool) (k1, k2 float64)
}

// NeedsOf returns what r reads: r.Needs() if r is a Needer, nothing otherwise.
// Wrappers forward their inner rule's needs with it.
func NeedsOf(r Rule) Needs {
	if n, ok := r.(Needer); ok {
		return n.Needs()
	}
	return Needs{}
}

// Builtin is implemented by rules that are one of core's rules under
// another name, as the catalogue's UCT is core.UCT: Builtin returns that
// rule, whose Select must pick the same child as the implementing rule's
// on every site. The search then runs core's rule directly, without an
// interface call per node, and with the loop it has for it (for UCT, over
// the stored nodes without building a Site). A nil result means none.
type Builtin interface {
	Rule
	Builtin() Rule
}

// Scorer is implemented by rules that are, like the paper's
// score(w, n, n_F, I, t), the argmax of a per-child score; checkers and fuzz
// targets read the scores through it. A rule's Select should agree with
// ArgmaxScore but may be written as a direct loop for speed.
type Scorer interface {
	Rule
	// Score returns child i's score from the chooser's perspective.
	Score(s *Site, i int) float64
}

// Stochastic is implemented by rules that draw their choice at random
// (ε-greedy, Boltzmann, Algorithm 2's random child). They are not Scorers,
// whose Select must be the argmax of Score; instead Probs gives the
// distribution Select draws from, so that checkers can ask what the rule
// would do without sampling it.
type Stochastic interface {
	Rule
	// Probs appends to dst[:0] the probability that Select picks each child
	// of s, and returns it: finite, non-negative, summing to 1 up to
	// rounding. It returns nil when it cannot tell, as a wrapper around a
	// rule of unknown kind does.
	Probs(s *Site, dst []float64) []float64
}

// ProbsTolerance is how far from 1 the probabilities a Stochastic rule
// gives may sum: generous to rounding, in any language and precision, and
// far below what a distribution with a child too many or too few shows.
const ProbsTolerance = 1e-6

// ProbsError says what is wrong with p as the probabilities of k children,
// or returns nil: there must be k of them, each in [0, 1], summing to 1
// within ProbsTolerance. Checkers and the external rules' pipe share it.
func ProbsError(p []float64, k int) error {
	if len(p) != k {
		return fmt.Errorf("%d probabilities for %d children", len(p), k)
	}
	sum := 0.0
	for i, x := range p {
		if !(x >= 0 && x <= 1) {
			return fmt.Errorf("child %d has the probability %v, want one in [0, 1]", i, x)
		}
		sum += x
	}
	if !(math.Abs(sum-1) <= ProbsTolerance) {
		return fmt.Errorf("the probabilities sum to %v, want 1 within %g", sum, ProbsTolerance)
	}
	return nil
}

// ArgmaxScore returns the child with the highest score, the lowest index
// among ties. It makes one interface call per child; rules in the hot loop
// may prefer a direct loop.
func ArgmaxScore(s *Site, sc Scorer) int {
	return Argmax(len(s.kids), func(i int) float64 { return sc.Score(s, i) })
}

// Argmax returns the i in [0, n) with the highest score(i), the lowest index
// among ties, so +Inf and -Inf are scores like any other. A NaN score never
// wins against a number, except at index 0, where it is the starting best.
// It is the one home of the argmax that scorers' Select methods share.
func Argmax(n int, score func(i int) float64) int {
	best, bestScore := 0, math.Inf(-1)
	for i := range n {
		if v := score(i); v > bestScore || i == 0 {
			best, bestScore = i, v
		}
	}
	return best
}

// ArgmaxVisited returns the first child of s with N(i) = 0, if any, and
// otherwise Argmax of score over the children: the shape of the rules that
// try every child once before they compare scores.
func ArgmaxVisited(s *Site, score func(i int) float64) int {
	for i := range s.kids {
		if s.N(i) == 0 {
			return i
		}
	}
	return Argmax(len(s.kids), score)
}

// ArgmaxMean is the greedy choice: the first child of s with N(i) = 0, if
// any, and otherwise the highest mean W(i)/N(i), ties to the lower index;
// ArgmaxVisited with the mean for score, written out, as the greedy part of
// ε-greedy calls it at every node.
func ArgmaxMean(s *Site) int {
	best, bestV := 0, math.Inf(-1)
	for i := range s.kids {
		n := s.N(i)
		if n == 0 {
			return i
		}
		if v := s.W(i) / n; v > bestV {
			best, bestV = i, v
		}
	}
	return best
}
