package core

import (
	"fmt"
	"math"
)

// Quantities a Site derives from all its children, which real engines'
// rules read (package rules): the policy the priors make, its mass on the
// visited children, the children's visit sum, the range of their means.
// Each is computed by one pass over the children on the first call at a
// site and kept until the search moves the site to another node, so that
// a rule that reads them per child, and a checker that asks a rule for
// every child's score, pay one pass per site. Rules that never call them
// pay nothing; they need no Needs and no memory per node.

// derived holds a site's derived quantities; have says which are valid.
type derived struct {
	have    uint8
	temp    float64   // the temperature of pol
	pol     []float64 // the policy, one probability per child
	visited float64   // the policy mass of the visited children
	childN  float64   // Σ N(i)
	lo, hi  float64   // the least and greatest mean of the visited children
}

// The bits of derived.have.
const (
	havePolicy uint8 = 1 << iota
	haveChildN
	haveRange
)

// Policy returns the node's policy at temperature temp, one probability
// per child: the children's priors (Site.Prior), absent and non-positive
// ones counted as 0, each raised to the power 1/temp and normalised to sum
// 1; uniform when no child has a positive prior. temp = 1 is the priors
// normalised; lc0's policy softmax temperature is another. The slice
// belongs to the site: read it during Select, do not change or keep it. It
// is computed once per site and temperature (the last one asked). temp
// must be positive and finite.
func (s *Site) Policy(temp float64) []float64 {
	d := &s.derived
	if d.have&havePolicy != 0 && d.temp == temp {
		return d.pol
	}
	if !(temp > 0) || math.IsInf(temp, 1) {
		panic(fmt.Sprintf("core: Site.Policy at temperature %v, want a positive finite one", temp))
	}
	k := s.Len()
	scale := 0.0 // the largest positive prior, so that every term stays ≤ 1
	if s.prior != nil {
		for _, h := range s.prior[:k] {
			if h > scale { // false for NaN, an absent prior
				scale = h
			}
		}
	}
	if cap(d.pol) < k {
		d.pol = make([]float64, k)
	}
	pol := d.pol[:k]
	d.pol = pol
	// One pass gives the terms and, with them, every child's N for the
	// visited mass and ChildN.
	e := 1 / temp
	sum, childN := 0.0, 0.0
	for i := range pol {
		term := 1.0 / float64(k) // uniform when no prior is positive
		if scale > 0 {
			term = 0
			if h := s.prior[i]; h > 0 {
				term = h / scale
				if e != 1 {
					term = math.Pow(term, e)
				}
			}
		}
		pol[i] = term
		sum += term
		childN += s.N(i)
	}
	mass := 0.0
	for i := range pol {
		if scale > 0 {
			pol[i] /= sum
		}
		if s.N(i) > 0 {
			mass += pol[i]
		}
	}
	d.childN = childN
	d.have |= haveChildN
	d.temp, d.visited = temp, min(mass, 1)
	d.have |= havePolicy
	return d.pol
}

// VisitedPolicy returns the policy mass (Policy(temp)) of the children
// with N > 0, at most 1: the argument of the first-play-urgency reduction
// of Leela Zero, lc0 and KataGo.
func (s *Site) VisitedPolicy(temp float64) float64 {
	s.Policy(temp)
	return s.derived.visited
}

// ChildN returns Σ N(i) over the children: the node's count in engines that
// count a node's visits as its children's (Leela Zero, lc0, KataGo, Ludii,
// mctx, OpenSpiel, each with its own offset).
func (s *Site) ChildN() float64 {
	d := &s.derived
	if d.have&haveChildN == 0 {
		d.childN = 0
		for i := range s.Len() {
			d.childN += s.N(i)
		}
		d.have |= haveChildN
	}
	return d.childN
}

// MeanRange returns the least and greatest Mean of the visited children,
// and false when no child is visited: the bounds of mctx's min–max
// normalisation of Q.
func (s *Site) MeanRange() (lo, hi float64, ok bool) {
	d := &s.derived
	if d.have&haveRange == 0 {
		d.lo, d.hi = math.Inf(1), math.Inf(-1)
		for i := range s.Len() {
			if m, ok := s.Mean(i); ok {
				d.lo, d.hi = min(d.lo, m), max(d.hi, m)
			}
		}
		d.have |= haveRange
	}
	return d.lo, d.hi, d.lo <= d.hi
}
