package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// Lc0 is the selection rule of Leela Chess Zero's classic search,
// LeelaChessZero/lc0@909a40826db9e8b221d9209a487daba6ab57e3b7
// src/search/classic/search.cc (GetFpu, ComputeCpuct, PickNodesToExtendTask),
// defaults from src/search/classic/params.cc and src/neural/shared_params.cc.
// Values are on lc0's scale, Q = 2V̂ − 1 (draw score 0, so Q = W − L):
//
//	score(i) = Q(i) + c(N)·P(i)·sqrt(max(N − 1, 1)) / (1 + n(i)),
//	c(N) = CPuct + CPuctFactor·ln((N + CPuctBase)/CPuctBase)
//	Q(i) = FPU if n(i) = 0 and Absolute, else Q(F) − FPU·sqrt(Σ P over visited children)
//
// with N = 1 + Σ n over the children (lc0's node count includes the node's
// own evaluation; Site.ChildN), Q(F) the node's mean on lc0's scale and P
// the node's policy at the policy softmax temperature T (Site.Policy(T):
// P ∝ p^(1/T), p the priors taken as the network's raw policy) as lc0
// stores it, Lc0StoredPolicy(P), and its visited mass Site.VisitedPolicy(T),
// both computed once per site. The root uses the same FPU
// (FpuStrategyAtRoot "same"). Edges are sorted by stored policy at
// expansion (std::sort, whose order among equals is unspecified) and the
// first strictly better score wins, so ties go to the highest policy, then
// the lowest index.
//
// lc0 never sees a policy of 0: Edge::SetP (node.cc) rounds every p below
// 2^-31 up to 2^-31, about 4.66e-10, and so does a terminal loss's
// SetP(0). Every child therefore keeps an exploration term that grows
// like c(N)·sqrt(N), and lc0 is consistent in the limit; a move whose
// network policy is 0 (or tiny) is only starved for a very long time.
// lc0 #1410 (an only winning move, Nec1, at 621k visits against 50M for
// Ndc1, a Q gap of about 0.02) is that finite-N starvation with P > 0,
// not a policy of 0.
//
// Not modelled: the network's value of a new leaf, moves-left utility
// (off for WDL nets without MLH), draw score and contempt, smart pruning at
// the root (KLD/“futile” visits, factor 1.33), collisions, out-of-order
// evaluation and threads, the root move filter, and temperature in the
// final move choice (0 by default; the decision here is the most visited
// child). They change which children the root considers or how many
// visits a batch gives, not the score of a child at a node with given
// statistics; each can only remove children, so a starvation found
// without them stands.
type Lc0 struct {
	CPuct, CPuctBase, CPuctFactor float64
	// FPU is the FPU value: the reduction, or with Absolute the value
	// itself, on lc0's [-1,1] scale.
	FPU      float64
	Absolute bool
	// Softmax is the policy softmax temperature T (> 0).
	Softmax float64
}

// lc0At is Lc0 at one site: what its scores share.
type lc0At struct {
	s         *core.Site
	pol       []float64
	mult, fpu float64
}

func (r Lc0) at(s *core.Site) lc0At {
	pol := s.Policy(r.Softmax)
	mass, n := s.VisitedPolicy(r.Softmax), s.ChildN()
	c := r.CPuct + r.CPuctFactor*math.Log((n+1+r.CPuctBase)/r.CPuctBase)
	fpu := r.FPU
	if !r.Absolute {
		fpu = signed(parentValue(s, 0.5)) - r.FPU*math.Sqrt(mass)
	}
	return lc0At{s: s, pol: pol, mult: c * math.Sqrt(max(n, 1)), fpu: fpu}
}

func (z lc0At) score(i int) float64 {
	q := z.fpu
	if m, ok := z.s.Mean(i); ok {
		q = signed(m)
	}
	return q + z.mult*Lc0StoredPolicy(z.pol[i])/(1+z.s.N(i))
}

// Lc0MinPolicy is 2^-31, the smallest policy lc0 stores: Lc0StoredPolicy
// of any p below it, 0 included.
const Lc0MinPolicy = 0x1p-31

// Lc0StoredPolicy returns p in [0,1] as lc0 stores an edge's policy, in
// 16 bits: Edge::SetP and GetP in src/search/classic/node.cc of
// LeelaChessZero/lc0@909a40826db9e8b221d9209a487daba6ab57e3b7. The float32
// is rounded to nearest in its bits 27..12 (11 bits of significand); bits
// 29..28 are taken as set, so every p below 2^-31 (Lc0MinPolicy, about
// 4.66e-10), 0 included, is rounded up to 2^-31.
func Lc0StoredPolicy(p float64) float64 {
	const roundings = 1<<11 - 3<<28
	tmp := int32(math.Float32bits(float32(p))) + roundings
	var p16 uint32
	if tmp >= 0 {
		p16 = uint32(tmp>>12) & 0xffff
	}
	return float64(math.Float32frombits(p16<<12 | 3<<28))
}

// Select implements core.Rule.
func (r Lc0) Select(s *core.Site) int {
	z := r.at(s)
	return argmaxByPolicy(s, z.score, z.pol)
}

// Urgency returns child i's score. Lc0 is not a core.Scorer: its ties go
// to the highest policy, which no single score can say.
func (r Lc0) Urgency(s *core.Site, i int) float64 { return r.at(s).score(i) }

// Needs implements core.Needer: the rule reads the priors.
func (Lc0) Needs() core.Needs { return core.Needs{Priors: true} }
