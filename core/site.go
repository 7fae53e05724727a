package core

import "math"

// Site is what a Rule sees at one node: the statistics of the node and of its
// children, all from the perspective of the player who moves there (at a min
// node, a child's w is turned into n − w). n includes the virtual count K1
// and w the virtual reward K2 (the paper's Eqs. 1–2); Visits counts real
// simulations only.
//
// A Site is valid only during the Select call that receives it, and only in
// the goroutine that makes the call: it caches per-node quantities (such as
// LogParent's logarithm and the policy, sitederive.go) on first use, so that
// a rule and a checker that both read them pay once.
type Site struct {
	kids  []node
	virt  []virtual // nil unless the rule gives virtual experience
	prior []float64 // nil unless the rule needs priors; NaN where absent
	amaf  []amafStat
	mm    []float64 // minimax values (max's perspective); nil with average backups
	sq    []float64 // sums of squared rewards (max's perspective); nil unless the rule needs squares
	self  node
	// wide, when set, holds the children's real statistics instead of kids
	// (whose length still counts them), and wideSelf the node's: NewSite
	// builds such sites so that counts may exceed a node's uint32.
	wide     []wideStat
	wideSelf wideStat
	sVirt    virtual
	sMM      float64 // the node's minimax value, when mm != nil
	sSq      float64 // the node's sum of squared rewards, when sq != nil
	flip     bool    // min node
	hasLog   bool    // logN holds LogParent's value
	depth    int
	t        int64
	rng      *RNG
	logN     float64 // ln n(F), cached by LogParent for the site's lifetime
	derived  derived // quantities computed from the children on first use
}

// fresh forgets what the site computed on first use: the search calls it
// each time it points the site at another node.
func (s *Site) fresh() {
	s.hasLog = false
	s.derived.have = 0
}

// wideStat is a node's real, squared-reward and AMAF statistics in a site
// built by NewSite, max's perspective, in float64 so that counts can go far
// beyond 2^32.
type wideStat struct{ n, w, sq, an, aw float64 }

// Len is the number of children.
func (s *Site) Len() int { return len(s.kids) }

// Kind is Max or Min.
func (s *Site) Kind() Kind {
	if s.flip {
		return Min
	}
	return Max
}

// Depth is the node's distance from the root.
func (s *Site) Depth() int { return s.depth }

// T is the index of the current simulation, counted from 0 since the search
// was created or reset (the paper's t).
func (s *Site) T() int64 { return s.t }

// Rand is the search's generator, the only randomness a rule may use.
func (s *Site) Rand() *RNG { return s.rng }

// Visits is the number of real simulations through child i.
func (s *Site) Visits(i int) int64 {
	if s.wide != nil {
		return int64(min(s.wide[i].n, math.MaxInt64))
	}
	return int64(s.kids[i].n)
}

// ParentVisits is the number of real simulations through the node itself,
// without virtual experience.
func (s *Site) ParentVisits() int64 {
	n, _ := s.realSelf()
	return int64(min(n, math.MaxInt64))
}

// real returns child i's real simulations and reward sum, max's perspective.
func (s *Site) real(i int) (n, w float64) {
	if s.wide != nil {
		return s.wide[i].n, s.wide[i].w
	}
	return float64(s.kids[i].n), s.kids[i].w
}

// realSelf returns the node's real simulations and reward sum.
func (s *Site) realSelf() (n, w float64) {
	if s.wide != nil {
		return s.wideSelf.n, s.wideSelf.w
	}
	return float64(s.self.n), s.self.w
}

// Variance is the sample variance of child i's real rewards, Σr²/n − (Σr/n)²
// over its Visits(i) simulations (the same from either player's side, since
// 1 − r varies as r does), and whether the site has it: only when the
// rule's Needs ask for squares and the child has a visit. Virtual experience
// and minimax backups do not enter it. For rewards in {0,1} it is m(1 − m),
// m the child's real mean, and for rewards in [0,1] at most that: a rule
// without it can fall back to that Bernoulli bound.
func (s *Site) Variance(i int) (float64, bool) {
	if s.sq == nil {
		return 0, false
	}
	n, w := s.real(i)
	if s.wide != nil {
		return variance(n, w, s.wide[i].sq)
	}
	return variance(n, w, s.sq[i])
}

// ParentVariance is Variance for the node itself.
func (s *Site) ParentVariance() (float64, bool) {
	if s.sq == nil {
		return 0, false
	}
	n, w := s.realSelf()
	if s.wide != nil {
		return variance(n, w, s.wideSelf.sq)
	}
	return variance(n, w, s.sSq)
}

// Squares is the sum of the squares of child i's real rewards, from the
// chooser's perspective (at a min node Σ(1 − r)² = n − 2Σr + Σr²), and
// whether the site has it: as for Variance. External rules receive it
// (docs/protocol.md, "squares").
func (s *Site) Squares(i int) (float64, bool) {
	if s.sq == nil {
		return 0, false
	}
	n, w := s.real(i)
	sq := 0.0
	if s.wide != nil {
		sq = s.wide[i].sq
	} else {
		sq = s.sq[i]
	}
	return s.chooserSquares(n, w, sq), true
}

// ParentSquares is Squares for the node itself.
func (s *Site) ParentSquares() (float64, bool) {
	if s.sq == nil {
		return 0, false
	}
	n, w := s.realSelf()
	sq := s.sSq
	if s.wide != nil {
		sq = s.wideSelf.sq
	}
	return s.chooserSquares(n, w, sq), true
}

// chooserSquares turns max's sum of squares sq of n rewards summing to w
// into the chooser's.
func (s *Site) chooserSquares(n, w, sq float64) float64 {
	if s.flip {
		return max(n-2*w+sq, 0)
	}
	return sq
}

// variance is the sample variance of n rewards with sum w and sum of
// squares sq, (n·sq − w²)/n², and false when n is 0. It is never negative:
// rounding can make n·sq fall below w² by an ulp.
func variance(n, w, sq float64) (float64, bool) {
	if n == 0 {
		return 0, false
	}
	return max((sq*n-w*w)/(n*n), 0), true
}

// N is n_t of child i: real simulations plus virtual count K1.
func (s *Site) N(i int) float64 {
	n, _ := s.real(i)
	if s.virt != nil {
		n += s.virt[i].n
	}
	return n
}

// W is w_t of child i from the chooser's perspective: the sum of its rewards
// plus the virtual reward K2. With minimax backups it is N(i) times the
// child's backed-up minimax value.
func (s *Site) W(i int) float64 {
	n, w := s.real(i)
	if s.mm != nil {
		w = s.mm[i] * n
	}
	if s.virt != nil {
		n += s.virt[i].n
		w += s.virt[i].w
	}
	if s.flip {
		return n - w
	}
	return w
}

// Mean is V̂_t of child i, W(i)/N(i), and false when N(i) is 0; the rule
// then decides the first-play urgency.
func (s *Site) Mean(i int) (float64, bool) {
	n := s.N(i)
	if n == 0 {
		return 0, false
	}
	return s.W(i) / n, true
}

// Means sets dst[i], for each child i, to Mean(i), or to fpu where N(i) is
// 0: the values of a rule that reads them all, in one pass that tests what
// the site holds once, not per child. dst must have room for Len() values.
func (s *Site) Means(fpu float64, dst []float64) {
	kids := s.kids
	dst = dst[:len(kids)]
	if s.wide != nil || s.virt != nil {
		for i := range dst {
			dst[i] = fpu
			if m, ok := s.Mean(i); ok {
				dst[i] = m
			}
		}
		return
	}
	if s.mm != nil {
		mm := s.mm[:len(kids)]
		for i, k := range kids {
			n := float64(k.n)
			dst[i] = fpu
			if n > 0 {
				w := mm[i] * n
				if s.flip {
					w = n - w
				}
				dst[i] = w / n
			}
		}
		return
	}
	for i, k := range kids {
		n := float64(k.n)
		dst[i] = fpu
		if n > 0 {
			w := k.w
			if s.flip {
				w = n - w
			}
			dst[i] = w / n
		}
	}
}

// ParentN is n_t of the node itself (the n_t(F(s)) of its children's scores).
func (s *Site) ParentN() float64 {
	n, _ := s.realSelf()
	return n + s.sVirt.n
}

// ParentMean is V̂_t of the node itself from the chooser's perspective, and
// false when ParentN is 0. Algorithm 2 compares it with its threshold. With
// minimax backups it is, like the children's, the backed-up minimax value.
func (s *Site) ParentMean() (float64, bool) {
	n := s.ParentN()
	if n == 0 {
		return 0, false
	}
	rn, w := s.realSelf()
	if s.mm != nil {
		w = s.sMM * rn
	}
	w += s.sVirt.w
	if s.flip {
		w = n - w
	}
	return w / n, true
}

// Prior is the heuristic value H of child i from the chooser's perspective,
// and whether it has one. It is present only when the rule's Needs ask for
// priors and the game implements Heuristic.
func (s *Site) Prior(i int) (float64, bool) {
	if s.prior == nil || math.IsNaN(s.prior[i]) {
		return 0, false
	}
	return s.prior[i], true
}

// AMAF returns the all-moves-as-first count and reward sum of child i's move,
// from the chooser's perspective: over the simulations through this node in
// which the chooser played that move at this node or later (the first time
// only). Both are 0 unless the rule's Needs ask for AMAF.
func (s *Site) AMAF(i int) (n, w float64) {
	if s.amaf == nil {
		return 0, 0
	}
	if s.wide != nil {
		n, w = s.wide[i].an, s.wide[i].aw
	} else {
		a := s.amaf[i]
		n, w = float64(a.n), a.w
	}
	if s.flip {
		w = n - w
	}
	return n, w
}
