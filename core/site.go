package core

import "math"

// Site is what a Rule sees at one node: the statistics of the node and of its
// children, all from the perspective of the player who moves there (at a min
// node, a child's w is turned into n − w). n includes the virtual count K1
// and w the virtual reward K2 (the paper's Eqs. 1–2); Visits counts real
// simulations only.
//
// A Site is valid only during the Select call that receives it.
type Site struct {
	kids  []node
	virt  []virtual // nil unless the rule gives virtual experience
	prior []float64 // nil unless the rule needs priors; NaN where absent
	amaf  []amafStat
	mm    []float64 // minimax values (max's perspective); nil with average backups
	self  node
	sVirt virtual
	sMM   float64 // the node's minimax value, when mm != nil
	flip  bool    // min node
	depth int
	t     int64
	rng   *RNG
}

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
func (s *Site) Visits(i int) int64 { return int64(s.kids[i].n) }

// N is n_t of child i: real simulations plus virtual count K1.
func (s *Site) N(i int) float64 {
	n := float64(s.kids[i].n)
	if s.virt != nil {
		n += s.virt[i].n
	}
	return n
}

// W is w_t of child i from the chooser's perspective: the sum of its rewards
// plus the virtual reward K2. With minimax backups it is N(i) times the
// child's backed-up minimax value.
func (s *Site) W(i int) float64 {
	k := s.kids[i]
	n, w := float64(k.n), k.w
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

// ParentN is n_t of the node itself (the n_t(F(s)) of its children's scores).
func (s *Site) ParentN() float64 { return float64(s.self.n) + s.sVirt.n }

// ParentMean is V̂_t of the node itself from the chooser's perspective, and
// false when ParentN is 0. Algorithm 2 compares it with its threshold. With
// minimax backups it is, like the children's, the backed-up minimax value.
func (s *Site) ParentMean() (float64, bool) {
	n := s.ParentN()
	if n == 0 {
		return 0, false
	}
	w := s.self.w
	if s.mm != nil {
		w = s.sMM * float64(s.self.n)
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
	a := s.amaf[i]
	n, w = float64(a.n), a.w
	if s.flip {
		w = n - w
	}
	return n, w
}
