package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// LeelaZero is the selection rule of Leela Zero, UCTNode::uct_select_child
// in leela-zero/leela-zero@3ee6d20d0b36ae26120331c610926359cc5837de
// src/UCTNode.cpp, defaults from src/GTP.cpp (cfg_puct 0.5, cfg_logpuct
// 0.015, cfg_logconst 1.7, cfg_fpu_reduction 0.25, the same at the root).
// Values are winrates in [0,1], as here:
//
//	score(i) = Q(i) + C·P(i)·sqrt(N·ln(LogPUCT·N + LogConst)) / (1 + n(i)),
//	Q(i) = V̂(i), or V̂(F) − FPU·sqrt(Σ P over visited children) if n(i) = 0
//
// with N = Σ n over the children (Site.ChildN), V̂(F) the node's own mean
// (Leela Zero's get_raw_eval of the parent) and P the node's policy, the
// normalised priors (Site.Policy(1), its visited mass Site.VisitedPolicy). Children are sorted by policy at expansion and the
// first strictly better score wins, so ties go to the highest policy, then
// the lowest index.
//
// Not modelled: the network's value of a new leaf (here every value comes
// from the tree's rewards), virtual loss and threads, the root's pruning of
// moves that cannot catch up, pass handling, memory-pressure trimming of
// low-policy children, Dirichlet noise, and LCB move selection at the root
// (the decision here is the most visited child). None of them changes the
// rule a single-threaded search applies at a node with given statistics,
// which is what the checker judges; each can only remove children from
// consideration, so a starvation found without them stands.
type LeelaZero struct {
	C, FPU, LogPUCT, LogConst float64
}

// leelaZeroAt is LeelaZero at one site: what its scores share.
type leelaZeroAt struct {
	r        LeelaZero
	s        *core.Site
	pol      []float64
	num, fpu float64
}

func (r LeelaZero) at(s *core.Site) leelaZeroAt {
	pol := s.Policy(1)
	mass, n := s.VisitedPolicy(1), s.ChildN()
	return leelaZeroAt{r: r, s: s, pol: pol,
		num: math.Sqrt(n * math.Log(r.LogPUCT*n+r.LogConst)),
		fpu: parentValue(s, 0.5) - r.FPU*math.Sqrt(mass)}
}

func (z leelaZeroAt) score(i int) float64 {
	q := z.fpu
	if m, ok := z.s.Mean(i); ok {
		q = m
	}
	return q + z.r.C*z.pol[i]*z.num/(1+z.s.N(i))
}

// Select implements core.Rule.
func (r LeelaZero) Select(s *core.Site) int {
	z := r.at(s)
	return argmaxByPolicy(s, z.score, z.pol)
}

// Urgency returns child i's score. LeelaZero is not a core.Scorer: its
// ties go to the highest policy, which no single score can say.
func (r LeelaZero) Urgency(s *core.Site, i int) float64 { return r.at(s).score(i) }

// Needs implements core.Needer: the rule reads the priors.
func (LeelaZero) Needs() core.Needs { return core.Needs{Priors: true} }
