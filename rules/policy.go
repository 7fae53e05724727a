package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// This file is the one home of the quantities that real engines' selection
// rules compute from a node's children and that core.Site does not hold:
// the policy a node's priors make, the policy mass of the visited children
// (the FPU reduction's argument), the children's visit sum, the parent's
// value with a fallback, the engines' [-1,1] value scale, and the two
// tie-breaks engines use besides core.Argmax's lowest index (the highest
// prior first; uniformly at random). Each is computed per Select call, in
// one or two passes over the children, without allocating.

// policy is the normaliser of a node's policy, DESIGN.md's rule: the priors
// of the children (Site.Prior, read when the rule's Needs ask for priors),
// negative ones and absent ones counted as 0, normalised to sum 1; uniform
// when no child has a positive prior. A tempered policy raises each term
// to the power e before normalising (lc0's policy softmax temperature T on
// the raw network policy is e = 1/T); e = 1 is the plain policy.
type policy struct {
	e       float64 // exponent, > 0
	scale   float64 // the largest positive prior, so that terms stay ≤ 1
	sum     float64 // Σ (prior/scale)^e over the children
	uniform float64 // 1/k when no child has a positive prior, else 0
}

// newPolicy reads the priors of s's children once.
func newPolicy(s *core.Site, e float64) policy {
	p := policy{e: e}
	for i := range s.Len() {
		if h, ok := s.Prior(i); ok && h > p.scale {
			p.scale = h
		}
	}
	if !(p.scale > 0) {
		p.uniform = 1 / float64(s.Len())
		return p
	}
	for i := range s.Len() {
		p.sum += p.term(s, i)
	}
	return p
}

// term is child i's unnormalised policy weight.
func (p policy) term(s *core.Site, i int) float64 {
	h, ok := s.Prior(i)
	if !ok || !(h > 0) {
		return 0
	}
	if p.e == 1 {
		return h / p.scale
	}
	return math.Pow(h/p.scale, p.e)
}

// at returns child i's policy probability.
func (p policy) at(s *core.Site, i int) float64 {
	if p.uniform > 0 {
		return p.uniform
	}
	return p.term(s, i) / p.sum
}

// visitedMass returns the policy mass of the children with N > 0 and the
// sum of their counts: the argument of the FPU reduction of Leela Zero,
// lc0 and KataGo (√ of the visited mass), and those engines' parent count
// (they count a node's visits as the sum over its children).
func (p policy) visitedMass(s *core.Site) (mass, visits float64) {
	for i := range s.Len() {
		if n := s.N(i); n > 0 {
			mass += p.at(s, i)
			visits += n
		}
	}
	return min(mass, 1), visits
}

// childVisits returns Σ N(i) over s's children.
func childVisits(s *core.Site) float64 {
	var sum float64
	for i := range s.Len() {
		sum += s.N(i)
	}
	return sum
}

// parentValue is the node's mean from the chooser's side (Site.ParentMean),
// or def when the node has no simulations yet. Engines read it for their
// first-play urgency; at a node without simulations every child is
// unvisited, so def only has to be finite.
func parentValue(s *core.Site, def float64) float64 {
	if m, ok := s.ParentMean(); ok {
		return m
	}
	return def
}

// signed maps a mean in [0,1] (mctscheck's rewards) to the [-1,1] scale in
// which lc0, KataGo, OpenSpiel and Ludii keep values (loss −1, draw 0, win
// 1), so that their constants (cpuct, FPU values and reductions) are used
// with the numbers their sources give.
func signed(v float64) float64 { return 2*v - 1 }

// argmaxByPolicy is the argmax of score over s's children with ties to
// the child with the highest policy probability, then to the lowest index:
// the order Leela Zero and lc0 give a node's children (sorted by policy,
// best first, at expansion) and break ties in (the first child with a
// strictly higher score wins).
func argmaxByPolicy(s *core.Site, score func(i int) float64, pol policy) int {
	best, bs, bp := 0, math.Inf(-1), math.Inf(-1)
	for i := range s.Len() {
		v, p := score(i), pol.at(s, i)
		if i == 0 || v > bs || v == bs && p > bp {
			best, bs, bp = i, v, p
		}
	}
	return best
}

// nearMax returns how many children tie for the highest score and, with
// dst non-nil, marks them in dst (1 for a tied child, 0 otherwise), in the
// sequential manner of Pachi's uctd_set_best_child: a child more than eps
// above the running best starts a new set; one at least best − eps joins
// it. With eps = 0 the set is the exact maxima, as in Ludii's selection
// strategies. Engines that break such ties uniformly at random draw from
// this set.
func nearMax(k int, score func(i int) float64, eps float64, dst []float64) int {
	best, m := math.Inf(-1), 0
	for i := range k {
		v := score(i)
		switch {
		case i == 0 || v-best > eps:
			best, m = v, 1
			if dst != nil {
				clear(dst[:i])
				dst[i] = 1
			}
		case v-best >= -eps:
			m++
			if dst != nil {
				dst[i] = 1
			}
		default:
			if dst != nil {
				dst[i] = 0
			}
		}
	}
	return m
}

// randomTie returns a child drawn uniformly from nearMax's set, drawing
// from s.Rand() only when there is a tie.
func randomTie(s *core.Site, score func(i int) float64, eps float64) int {
	m := nearMax(s.Len(), score, eps, nil)
	j := 0
	if m > 1 {
		j = s.Rand().IntN(m)
	}
	best := math.Inf(-1)
	seen := -1
	var pick int
	for i := range s.Len() {
		v := score(i)
		switch {
		case i == 0 || v-best > eps:
			best, seen = v, 0
			if j == 0 {
				pick = i
			}
		case v-best >= -eps:
			seen++
			if seen == j {
				pick = i
			}
		}
	}
	return pick
}

// tieProbs appends to dst[:0] the uniform distribution over nearMax's set.
func tieProbs(s *core.Site, score func(i int) float64, eps float64, dst []float64) []float64 {
	k := s.Len()
	dst = dst[:0]
	for range k {
		dst = append(dst, 0)
	}
	m := nearMax(k, score, eps, dst)
	for i := range dst {
		dst[i] /= float64(m)
	}
	return dst
}
