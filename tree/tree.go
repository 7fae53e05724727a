package tree

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/mctscheck/mctscheck/core"
)

// Tree is a finite game tree of max, min, chance and terminal nodes, stored as
// flat arrays indexed by node number.
//
// Nodes are numbered in breadth-first order: the root is 0, the children of
// node i are the nodes First(i) to First(i)+NumChildren(i)-1, and every child
// has a larger number than its parent. Each node also carries the attributes
// of the edge into it from its parent: its probability (when the parent is a
// chance node), its move identity and its optional prior.
//
// A Tree is made by [Builder.Build] or [Parse] and is never modified
// afterwards, so it may be shared by any number of goroutines.
type Tree struct {
	kind   []core.Kind
	first  []int32 // len Len()+1: children of i are first[i] to first[i+1]-1
	parent []int32 // parent[0] = -1
	reward []float64
	prob   []float64 // all 0, and shared with shuffled copies, without chance nodes
	// move is nil when every move identity is its child's index, prior and
	// hasPrior when no edge has a prior: a large tree usually has neither.
	move     []int32
	prior    []float64
	hasPrior []bool

	moveLimit int
	depth     int
	// perm, in a tree made by ShuffledInto, is the permutation of the
	// children that ShuffledInto draws into it again.
	perm []int32
}

// Len returns the number of nodes.
func (t *Tree) Len() int { return len(t.kind) }

// Kind returns the kind of node i.
func (t *Tree) Kind(i int32) core.Kind { return t.kind[i] }

// NumChildren returns the number of children of node i: 0 for a terminal,
// at least 1 otherwise.
func (t *Tree) NumChildren(i int32) int { return int(t.first[i+1] - t.first[i]) }

// First returns the number of the first child of node i. For a terminal it is
// where the children would start; NumChildren is then 0.
func (t *Tree) First(i int32) int32 { return t.first[i] }

// Child returns the number of child k of node i, 0 <= k < NumChildren(i).
func (t *Tree) Child(i int32, k int) int32 {
	if k < 0 || k >= t.NumChildren(i) {
		panic(fmt.Sprintf("tree: Child(%d, %d) of a node with %d children", i, k, t.NumChildren(i)))
	}
	return t.first[i] + int32(k)
}

// Parent returns the parent of node i, or -1 for the root.
func (t *Tree) Parent(i int32) int32 { return t.parent[i] }

// Reward returns the reward of terminal node i for the max player, in [0,1].
// It is 0 for other nodes.
func (t *Tree) Reward(i int32) float64 { return t.reward[i] }

// Prob returns the probability of the edge into node i when its parent is a
// chance node, and 0 otherwise.
func (t *Tree) Prob(i int32) float64 { return t.prob[i] }

// Move returns the move identity of the edge into node i: by default its
// index among its siblings. It is 0 for the root.
func (t *Tree) Move(i int32) int {
	switch {
	case t.move != nil:
		return int(t.move[i])
	case i == 0:
		return 0
	}
	return int(i - t.first[t.parent[i]])
}

// Prior returns the prior (heuristic value) of the edge into node i, and
// whether it has one.
func (t *Tree) Prior(i int32) (h float64, ok bool) {
	if t.hasPrior == nil {
		return 0, false
	}
	return t.prior[i], t.hasPrior[i]
}

// MoveLimit returns 1 + the largest move identity in the tree, and at least 1.
func (t *Tree) MoveLimit() int { return t.moveLimit }

// Depth returns the length of the longest path from the root to a node;
// a tree that is a single terminal has depth 0.
func (t *Tree) Depth() int { return t.depth }

// Follow returns the node reached from the root by taking child path[0], then
// child path[1] of that node, and so on. It returns an error if a step is out
// of range.
func (t *Tree) Follow(path []int32) (int32, error) {
	at := int32(0)
	for s, k := range path {
		if n := t.NumChildren(at); k < 0 || int(k) >= n {
			return 0, fmt.Errorf("tree: step %d of path %v: node %s (%v) has %d children, no child %d",
				s, path, FormatPath(t.Path(at)), t.kind[at], n, k)
		}
		at = t.first[at] + k
	}
	return at, nil
}

// Path returns the child indices that lead from the root to node i, so that
// Follow(Path(i)) == i. The root's path is empty.
func (t *Tree) Path(i int32) []int32 { return pathOf(t.parent, t.first, i) }

// pathOf computes the path of node i from parent and first, which need only
// be filled in for i and its ancestors.
func pathOf(parent, first []int32, i int32) []int32 {
	var path []int32
	for i > 0 {
		p := parent[i]
		path = append(path, i-first[p])
		i = p
	}
	slices.Reverse(path)
	return path
}

// FormatPath formats a path from the root the way error messages name nodes:
// "0" for the root, and ".k" appended for each step to child k, as in "0.2.1".
func FormatPath(path []int32) string {
	b := make([]byte, 0, 1+4*len(path))
	b = append(b, '0')
	for _, k := range path {
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(k), 10)
	}
	return string(b)
}

// Equal reports whether t and u are the same tree: the same shape, kinds,
// rewards, probabilities, move identities and priors. Trees from Parse and
// Builder.Build compare equal when they describe the same tree, and so do a
// tree and the result of parsing its String. Because Equal has this form,
// go-cmp compares *Tree values with it.
func (t *Tree) Equal(u *Tree) bool {
	if t == nil || u == nil {
		return t == u
	}
	if !slices.Equal(t.kind, u.kind) || !slices.Equal(t.first, u.first) ||
		!slices.Equal(t.reward, u.reward) || !slices.Equal(t.prob, u.prob) {
		return false
	}
	for i := range int32(t.Len()) { // move and prior may be nil in one tree, not in the other
		h, ok := t.Prior(i)
		g, ok2 := u.Prior(i)
		if t.Move(i) != u.Move(i) || h != g || ok != ok2 {
			return false
		}
	}
	return true
}

// BinaryDeterministic reports whether t has no chance node and only rewards
// 0 and 1: the class of games on which the paper proves its rules
// consistent (rules.BinaryDeterministic).
func (t *Tree) BinaryDeterministic() bool {
	for i := range int32(t.Len()) {
		switch t.Kind(i) {
		case core.Chance:
			return false
		case core.Terminal:
			if r := t.Reward(i); r != 0 && r != 1 {
				return false
			}
		}
	}
	return true
}
