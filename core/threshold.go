package core

// Threshold is Algorithm 2 of Berthier, Doghmen and Teytaud, the consistency
// modification: at a max node s whose empirical value V̂_t(s) is below V, and
// at a min node whose V̂_t(s) (max's perspective) is above VMin, it picks a
// child uniformly at random; elsewhere it defers to Rule. It wraps any rule
// without touching it. In deterministic games with rewards in {0,1}, any V in
// (0,1) makes the paper's Eq. 5 hold whatever Rule is; the paper uses 0.3.
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
	if m, ok := s.ParentMean(); ok {
		below := m < t.V
		if s.flip {
			vmin := t.VMin
			if vmin == 0 {
				vmin = 1 - t.V
			}
			below = 1-m > vmin // m is min's perspective: max's is 1−m
		}
		if below {
			return s.rng.IntN(len(s.kids))
		}
	}
	return t.Rule.Select(s)
}

// Needs forwards the needs of the wrapped rule.
func (t Threshold) Needs() Needs { return NeedsOf(t.Rule) }
