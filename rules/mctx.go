package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// mctx's selection functions, google-deepmind/mctx@b53073fd5035618228a717e29254e36ceb6f0645
// mctx/_src/action_selection.py and mctx/_src/qtransforms.py. In mctx a
// node's visit count includes its own first visit (node_visits = 1 + Σ n
// over the children), and Q-values are from the chooser's side (the
// two-player discount −1). MuZero's node value, node_values, is the
// backed-up mean: the network's value at expansion averaged with every
// value backed up through the node (search.py, backward), which is the
// node's mean here. Gumbel's, raw_values, is the network's own value; the
// site has no network, so the node's mean stands for it. Neither rule
// depends on the value scale: both normalise Q by its minimum and maximum.

// mctxMinMax returns the smallest and largest of v and of the visited
// children's means (Site.MeanRange): qtransform_by_parent_and_siblings'
// bounds, in which unvisited children take the node's value v.
func mctxMinMax(s *core.Site, v float64) (lo, hi float64) {
	lo, hi, ok := s.MeanRange()
	if !ok {
		return v, v
	}
	return min(lo, v), max(hi, v)
}

// MctxMuZero is muzero_action_selection with qtransform_by_parent_and_siblings:
//
//	score(i) = q̂(i) + sqrt(N)·(C + ln((N + Base + 1)/Base))·P(i)/(n(i) + 1)
//	q̂(i) = (V̂(i) − lo)/max(hi − lo, 1e-8), 0 (the minimum) if n(i) = 0
//
// with lo and hi the least and greatest of the node's value (node_values,
// the node's mean) and the visited children's means, N = 1 + Σ n, and P
// the node's policy (the normalised priors, Site.Policy(1)) as
// softmax(prior_logits). mctx adds 1e-7·U[0,1) noise to break ties at
// random; here ties go to the lowest index, and the checker's child orders
// stand for the noise.
//
// At the root, muzero_policy mixes the policy with Dirichlet noise,
// (1 − f)·P + f·Dir(0.3), dirichlet_fraction f = 0.25 by default
// (policies.py), and floors the result at float32's smallest normal before
// taking logits: a root child's policy is never 0. The noise is one random
// draw a search; the preset uses its mean, 1/k for k children, at the root
// (Site.Depth() = 0): P_root = (1 − Noise)·P + Noise/k. A real draw can
// give a child far less than its mean, so the preset's root recovers
// sooner than mctx may; only interior nodes, whose policy is
// softmax(prior_logits) of the network, can have a policy of 0 (a logit
// below the best by more than about 103 underflows float32, as with the
// −1e9 mctx #29 advises for invalid actions).
//
// Not modelled: the tie-breaking noise, the masking of invalid actions,
// the noise's randomness (above) and the final action (sampled in
// proportion to visits by muzero_policy: the decision here is the most
// visited child, the limit of that sampling at temperature 0).
type MctxMuZero struct {
	C, Base float64
	// Noise is the root's dirichlet_fraction, in [0,1]; the zero value has
	// none, the preset mctx's default 0.25.
	Noise float64
}

// mctxMuZeroAt is MctxMuZero at one site: what its scores share.
type mctxMuZeroAt struct {
	s             *core.Site
	pol           []float64
	lo, den, mult float64
	keep, floor   float64 // the policy is keep·P + floor: 1 and 0 below the root
}

func (r MctxMuZero) at(s *core.Site) mctxMuZeroAt {
	pol := s.Policy(1)
	lo, hi := mctxMinMax(s, parentValue(s, 0.5))
	n := 1 + s.ChildN()
	z := mctxMuZeroAt{s: s, pol: pol, lo: lo, den: max(hi-lo, 1e-8),
		mult: math.Sqrt(n) * (r.C + math.Log((n+r.Base+1)/r.Base)), keep: 1}
	if s.Depth() == 0 && r.Noise > 0 {
		z.keep, z.floor = 1-r.Noise, r.Noise/float64(s.Len())
	}
	return z
}

func (z mctxMuZeroAt) score(i int) float64 {
	var q float64
	if m, ok := z.s.Mean(i); ok {
		q = (m - z.lo) / z.den
	}
	return q + z.mult*(z.keep*z.pol[i]+z.floor)/(z.s.N(i)+1)
}

// Select implements core.Rule.
func (r MctxMuZero) Select(s *core.Site) int { return core.Argmax(s.Len(), r.at(s).score) }

// Score implements core.Scorer.
func (r MctxMuZero) Score(s *core.Site, i int) float64 { return r.at(s).score(i) }

// Needs implements core.Needer: the rule reads the priors.
func (MctxMuZero) Needs() core.Needs { return core.Needs{Priors: true} }

// float32Tiny is the smallest normal float32, numpy's finfo(float32).tiny:
// the floor mctx puts under prior probabilities in the mixed value.
const float32Tiny = 0x1p-126

// MctxGumbel is gumbel_muzero_interior_action_selection with
// qtransform_completed_by_mix_value, the rule of Gumbel MuZero below the
// root:
//
//	score(i) = π(i) − n(i)/(1 + Σ n),   π = softmax(ln P + σ),
//	σ(i) = (VisitInit + max n)·Scale·q̂(i)
//
// where q̂ are the completed Q-values rescaled to [0,1] by their minimum
// and maximum (denominator at least 1e-8): a visited child's mean, and for
// an unvisited child the mixed value (v + Σ n·Σ' P(j)V̂(j)/Σ' P(j))/(Σ n + 1),
// Σ' over the visited children with P floored at the smallest normal
// float32, v the node's value. Ties go to the lowest index (jnp.argmax).
//
// The root of Gumbel MuZero is not this rule: it samples max_num_considered
// actions (16) without replacement by Gumbel-top-k on the logits, then
// runs sequential halving over them with a schedule computed from the
// whole simulation budget, and decides by argmax of gumbel + logits + σ(q̂)
// among the survivors, not by visits. That needs state kept across
// simulations (the Gumbel sample, the halving phase) and the budget in
// advance, neither of which a rule sees at a site, and a decision rule
// that is not "most visited": it cannot be written as a core.Rule. At a
// node with more than 16 children it considers only the sampled 16, so an
// only good move outside the sample is never searched at any budget.
//
// Not modelled: the root procedure above, the network's value (the node's
// mean stands for it), and invalid-action masking.
type MctxGumbel struct {
	Scale, VisitInit float64
}

func (r MctxGumbel) scores(s *core.Site, dst []float64) []float64 {
	k := s.Len()
	pol := s.Policy(1)
	var sumN, maxN, wsum, psum float64
	for i := range k {
		n := s.N(i)
		sumN += n
		maxN = max(maxN, n)
		if m, ok := s.Mean(i); ok {
			p := max(pol[i], float32Tiny)
			wsum += p * m
			psum += p
		}
	}
	raw := parentValue(s, 0.5)
	mix := raw
	if psum > 0 {
		mix = (raw + sumN*wsum/psum) / (sumN + 1)
	}
	completed := func(i int) float64 {
		if m, ok := s.Mean(i); ok {
			return m
		}
		return mix
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range k {
		c := completed(i)
		lo, hi = min(lo, c), max(hi, c)
	}
	den := max(hi-lo, 1e-8)
	scale := (r.VisitInit + maxN) * r.Scale
	// π = softmax(ln P + σ), computed as P·e^(σ − max σ) normalised.
	dst = dst[:0]
	var top, z float64
	for i := range k {
		if pol[i] > 0 { // the largest term is then 1·P > 0, so z > 0
			top = max(top, scale*(completed(i)-lo)/den)
		}
	}
	for i := range k {
		e := 0.0 // ln 0 = −∞: a child of policy 0 has no weight, however large its σ (which may overflow)
		if pol[i] > 0 {
			e = pol[i] * math.Exp(scale*(completed(i)-lo)/den-top)
		}
		dst = append(dst, e)
		z += e
	}
	for i := range dst {
		dst[i] = dst[i]/z - s.N(i)/(1+sumN)
	}
	return dst
}

// Select implements core.Rule.
func (r MctxGumbel) Select(s *core.Site) int {
	var buf [16]float64
	sc := r.scores(s, buf[:0])
	return core.Argmax(len(sc), func(i int) float64 { return sc[i] })
}

// Score implements core.Scorer: π(i) − n(i)/(1 + Σ n).
func (r MctxGumbel) Score(s *core.Site, i int) float64 { return r.scores(s, nil)[i] }

// Needs implements core.Needer: the rule reads the priors.
func (MctxGumbel) Needs() core.Needs { return core.Needs{Priors: true} }
