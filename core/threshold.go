package core

// Threshold is Algorithm 2 of Berthier, Doghmen and Teytaud, the consistency
// modification: at a max node s whose empirical value V̂_t(s) is below V, and
// at a min node whose V̂_t(s) (max's perspective) is above VMin, it picks a
// child uniformly at random; elsewhere it defers to Rule. It wraps any rule
// without touching it; the paper uses V = 0.3.
//
// The paper claims that in deterministic games with rewards in {0,1} any V
// in (0,1) makes Eq. 5 hold whatever Rule is, so that a Rule satisfying
// Eq. 4 becomes consistent. With average backups that claim fails: the
// uniform choice can keep a node's mean on its side of the threshold for
// ever, so the node's mean never reaches its value (gen.AbsorbingRandomTrap,
// docs/theory.md). With minimax backups (BackupMinimax), whose node values
// reach 0 or 1 once the children are tried, the randomising stops.
//
// A node with no simulations yet (n_t = 0) has no V̂ and defers to Rule.
type Threshold struct {
	Rule Rule
	// V is V_threshold, for max nodes.
	V float64
	// VMin is V'_threshold, for min nodes, in max's perspective; 0 means 1 − V.
	VMin float64
}

// Select implements Rule.
func (t Threshold) Select(s *Site) int {
	if t.below(s) {
		return s.rng.IntN(len(s.kids))
	}
	return t.Rule.Select(s)
}

// below reports whether the node's player is losing by the threshold, so
// that a child is drawn uniformly.
func (t Threshold) below(s *Site) bool {
	m, ok := s.ParentMean()
	if !ok {
		return false
	}
	if s.flip {
		vmin := t.VMin
		if vmin == 0 {
			vmin = 1 - t.V
		}
		return 1-m > vmin // m is min's perspective: max's is 1−m
	}
	return m < t.V
}

// Probs implements Stochastic: uniform below the threshold; elsewhere the
// wrapped rule's Probs if it is Stochastic, a point mass on its choice if it
// is a Scorer (deterministic), and nil (unknown) otherwise.
func (t Threshold) Probs(s *Site, dst []float64) []float64 {
	k := len(s.kids)
	dst = dst[:0]
	switch {
	case t.below(s):
		for range k {
			dst = append(dst, 1/float64(k))
		}
		return dst
	}
	switch r := t.Rule.(type) {
	case Stochastic:
		return r.Probs(s, dst)
	case Scorer:
		dst = append(dst, make([]float64, k)...)
		dst[r.Select(s)] = 1
		return dst
	}
	return nil
}

// Needs forwards the needs of the wrapped rule.
func (t Threshold) Needs() Needs { return NeedsOf(t.Rule) }
