package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// This file is the one home of what real engines' selection rules read
// besides core.Site's own methods: the parent's value with a fallback, the
// engines' [-1,1] value scale, the two tie-breaks engines use besides
// core.Argmax's lowest index (the highest policy first; uniformly at
// random), and the Bernoulli bound of a variance the search did not keep.
// The policy, its visited mass, the children's visit sum and the range of
// their means are core.Site's (Site.Policy, VisitedPolicy, ChildN,
// MeanRange), computed once per site however many times a rule or a checker
// asks.
//
// Each engine rule keeps what its scores share at a site (the policy, its
// constants) in a small struct whose score method it passes to the argmax:
// a closure returned by a helper would be allocated on every Select.

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
// the child with the highest policy probability pol[i], then to the lowest
// index: the order Leela Zero and lc0 give a node's children (sorted by
// policy, best first, at expansion) and break ties in (the first child with
// a strictly higher score wins).
func argmaxByPolicy(s *core.Site, score func(i int) float64, pol []float64) int {
	best, bs, bp := 0, math.Inf(-1), math.Inf(-1)
	for i := range s.Len() {
		v, p := score(i), pol[i]
		if i == 0 || v > bs || v == bs && p > bp {
			best, bs, bp = i, v, p
		}
	}
	return best
}

// variance is child i's reward variance on [0,1] (core.Site.Variance, kept
// when the rule's Needs ask for squares), or, where the site has none, the
// Bernoulli bound m(1 − m) of a child with real mean m: exact for rewards in
// {0,1} and an upper bound otherwise. A child without visits has neither:
// callers ask only for visited ones.
func variance(s *core.Site, i int) float64 {
	if v, ok := s.Variance(i); ok {
		return v
	}
	m, _ := s.Mean(i)
	return m * (1 - m)
}

// scoresOf appends score(i) for each of s's children to dst and returns
// it, so that the tie-breaks below score every child once.
func scoresOf(s *core.Site, score func(i int) float64, dst []float64) []float64 {
	for i := range s.Len() {
		dst = append(dst, score(i))
	}
	return dst
}

// nearMax returns how many children tie for the highest score in sc and,
// with dst non-nil, marks them in dst (1 for a tied child, 0 otherwise), in
// the sequential manner of Pachi's uctd_set_best_child: a child more than
// eps above the running best starts a new set; one at least best − eps
// joins it. With eps = 0 the set is the exact maxima, as in Ludii's
// selection strategies. Engines that break such ties uniformly at random
// draw from this set.
func nearMax(sc []float64, eps float64, dst []float64) int {
	best, m := math.Inf(-1), 0
	for i, v := range sc {
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
	var buf [16]float64
	sc := scoresOf(s, score, buf[:0])
	m := nearMax(sc, eps, nil)
	j := 0
	if m > 1 {
		j = s.Rand().IntN(m)
	}
	best := math.Inf(-1)
	seen := -1
	var pick int
	for i, v := range sc {
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
	var buf [16]float64
	sc := scoresOf(s, score, buf[:0])
	dst = dst[:0]
	for range sc {
		dst = append(dst, 0)
	}
	m := nearMax(sc, eps, dst)
	for i := range dst {
		dst[i] /= float64(m)
	}
	return dst
}
