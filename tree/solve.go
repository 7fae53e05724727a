package tree

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// Solution holds the exact Bellman values of a tree and the optimal children
// of its max and min nodes.
type Solution struct {
	t     *Tree
	value []float64
	opt   []bool // opt[c]: c is an optimal child of its max or min parent
}

// Solve computes the Bellman value of every node of t: the reward at a
// terminal, the largest value of a child at a max node, the smallest at a
// min node, and the probability-weighted mean at a chance node. It takes one
// pass over the nodes in reverse breadth-first order. The solution of a nil
// or empty tree has no nodes: Value is NaN and Optimal nil for every node.
func Solve(t *Tree) *Solution { return SolveInto(nil, t) }

// SolveInto is Solve into the memory of dst, which is nil or a solution
// that nobody reads any more: it returns dst (a new solution if dst is nil
// or too small for t) with the solution of t. A check that solves one
// shuffled tree after another (Tree.ShuffledInto) solves them in the
// memory of one solution.
func SolveInto(dst *Solution, t *Tree) *Solution {
	if t == nil {
		t = &Tree{}
	}
	n := t.Len()
	s := dst
	if s == nil || cap(s.value) < n {
		s = &Solution{value: make([]float64, n), opt: make([]bool, n)}
	}
	s.t, s.value, s.opt = t, s.value[:n], s.opt[:n]
	clear(s.opt)
	v := s.value
	for i := n - 1; i >= 0; i-- {
		lo, hi := t.first[i], t.first[i+1]
		switch t.kind[i] {
		case core.Terminal:
			v[i] = t.reward[i]
			continue
		case core.Chance:
			sum := 0.0
			for c := lo; c < hi; c++ {
				sum += t.prob[c] * v[c]
			}
			v[i] = sum
			continue
		case core.Max:
			best := v[lo]
			for c := lo + 1; c < hi; c++ {
				best = max(best, v[c])
			}
			v[i] = best
		case core.Min:
			best := v[lo]
			for c := lo + 1; c < hi; c++ {
				best = min(best, v[c])
			}
			v[i] = best
		}
		for c := lo; c < hi; c++ {
			s.opt[c] = v[c] == v[i]
		}
	}
	return s
}

// Value returns the Bellman value V of node i, or NaN if the tree has no
// node i.
func (s *Solution) Value(i int32) float64 {
	if i < 0 || int(i) >= len(s.value) {
		return math.NaN()
	}
	return s.value[i]
}

// has reports whether the tree has node i.
func (s *Solution) has(i int32) bool { return i >= 0 && int(i) < len(s.value) }

// Optimal returns the positions k (0-based among the children of node i) of
// the children whose value equals the value of i, the best for the player
// who chooses there, in increasing order. It returns nil at terminal and
// chance nodes, where no one chooses. The comparison is exact, so ties are
// reported only when the values are equal as float64 numbers, as they are
// for trees on dyadic grids.
func (s *Solution) Optimal(i int32) []int32 {
	if !s.has(i) {
		return nil
	}
	var ks []int32
	lo, hi := s.t.first[i], s.t.first[i+1]
	for c := lo; c < hi; c++ {
		if s.opt[c] {
			ks = append(ks, c-lo)
		}
	}
	return ks
}

// IsOptimal reports whether child k of node i is optimal: whether i is a max
// or min node and child k's value equals the value of i.
func (s *Solution) IsOptimal(i int32, k int) bool {
	if !s.has(i) {
		return false
	}
	lo := s.t.first[i]
	if k < 0 || k >= int(s.t.first[i+1]-lo) {
		return false
	}
	return s.opt[lo+int32(k)]
}
