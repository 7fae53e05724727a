package gen

import (
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// Shape bounds the random trees that Trees draws. Its zero value means the
// defaults: depth ≤ 3, branching ≤ 3, ≤ 40 nodes, alternating max and min
// nodes below a max root, no chance nodes, rewards on the 1/16 grid, default
// move identities and no priors.
type Shape struct {
	MaxDepth     int  // deepest leaf; 0 means 3
	MaxBranching int  // children per node, 2 to 8; 0 means 3
	MaxNodes     int  // nodes in all; 0 means 40
	Arbitrary    bool // draw each node's kind (max or min) freely instead of alternating
	Chance       bool // allow chance nodes, with probabilities on the 1/8 grid
	Binary       bool // rewards in {0,1}; otherwise multiples of 1/Grid
	Grid         int  // reward grid when not Binary: a power of two up to 1024; 0 means 16
	Moves        int  // if > 0, move identities drawn from [0,Moves), distinct among siblings, so AMAF shares them across the tree
	Priors       bool // give every max and min edge a prior on the 1/8 grid in [-1,1]
}

// Check reports what is wrong with the shape, after filling in its zero
// fields with the defaults, or nil: the error Trees would panic with.
func (s Shape) Check() error {
	_, err := s.withDefaults()
	return err
}

// withDefaults fills in the zero fields and checks the ranges.
func (s Shape) withDefaults() (Shape, error) {
	if s.MaxDepth == 0 {
		s.MaxDepth = 3
	}
	if s.MaxBranching == 0 {
		s.MaxBranching = 3
	}
	if s.MaxNodes == 0 {
		s.MaxNodes = 40
	}
	if s.Grid == 0 {
		s.Grid = 16
	}
	switch {
	case s.MaxDepth < 1 || s.MaxDepth > 64:
		return s, fmt.Errorf("gen: Shape.MaxDepth %d, want 1 to 64", s.MaxDepth)
	case s.MaxBranching < 2 || s.MaxBranching > 8:
		return s, fmt.Errorf("gen: Shape.MaxBranching %d, want 2 to 8", s.MaxBranching)
	case s.MaxNodes < 1+s.MaxBranching || s.MaxNodes > 1<<20:
		return s, fmt.Errorf("gen: Shape.MaxNodes %d, want %d to 2^20", s.MaxNodes, 1+s.MaxBranching)
	case s.Grid < 1 || s.Grid > 1024 || s.Grid&(s.Grid-1) != 0:
		return s, fmt.Errorf("gen: Shape.Grid %d, want a power of two up to 1024", s.Grid)
	case s.Moves < 0 || s.Moves > 0 && s.Moves < s.MaxBranching:
		return s, fmt.Errorf("gen: Shape.Moves %d, want 0 or at least MaxBranching %d", s.Moves, s.MaxBranching)
	}
	return s, nil
}

// Trees returns a rapid generator of trees of the given shape. The root is a
// max node with at least two children. Every draw shrinks toward a simpler
// tree: leaves rather than inner nodes, fewer children, max before min, no
// chance node, reward 0, the lowest move identities and priors near 0. It
// builds breadth-first with a node budget, so it never recurses. It panics
// if shape is out of range, like rapid's own constructors.
func Trees(shape Shape) *rapid.Generator[*tree.Tree] {
	sh, err := shape.withDefaults()
	if err != nil {
		panic(err)
	}
	return rapid.Custom(func(t *rapid.T) *tree.Tree { return drawTree(t, sh) })
}

// drawnNode is a node of a tree being drawn.
type drawnNode struct {
	kind     core.Kind
	reward   float64
	depth    int
	player   core.Kind // the player who moves at the next max/min node below
	children []int
	edges    []tree.Edge // attributes of the edges to children (Node filled at build)
}

func drawTree(t *rapid.T, sh Shape) *tree.Tree {
	nodes := []drawnNode{{kind: core.Max, player: core.Max}}
	for i := 0; i < len(nodes); i++ {
		nd := &nodes[i]
		root := i == 0
		leaf := !root && (nd.depth >= sh.MaxDepth || len(nodes)+sh.MaxBranching > sh.MaxNodes ||
			!rapid.Bool().Draw(t, "inner"))
		if leaf {
			nd.kind = core.Terminal
			if sh.Binary {
				nd.reward = float64(rapid.IntRange(0, 1).Draw(t, "reward"))
			} else {
				nd.reward = float64(rapid.IntRange(0, sh.Grid).Draw(t, "reward")) / float64(sh.Grid)
			}
			continue
		}
		if !root {
			switch {
			case sh.Chance && rapid.Bool().Draw(t, "chance"):
				nd.kind = core.Chance
			case sh.Arbitrary:
				nd.kind = rapid.SampledFrom([]core.Kind{core.Max, core.Min}).Draw(t, "kind")
			default:
				nd.kind = nd.player
			}
		}
		lo := 1
		if root {
			lo = 2
		}
		k := rapid.IntRange(lo, sh.MaxBranching).Draw(t, "branching")
		edges := make([]tree.Edge, k)
		switch {
		case nd.kind == core.Chance:
			cuts := rapid.SliceOfNDistinct(rapid.IntRange(1, 7), k-1, k-1, rapid.ID[int]).Draw(t, "cuts")
			slices.Sort(cuts)
			prev := 0
			for j := range k {
				next := 8
				if j < k-1 {
					next = cuts[j]
				}
				edges[j].Prob = float64(next-prev) / 8
				prev = next
			}
		default:
			if sh.Moves > 0 {
				moves := rapid.SliceOfNDistinct(rapid.IntRange(0, sh.Moves-1), k, k, rapid.ID[int]).Draw(t, "moves")
				for j, m := range moves {
					edges[j].Move, edges[j].HasMove = m, true
				}
			}
			if sh.Priors {
				for j := range edges {
					edges[j].Prior = float64(rapid.IntRange(-8, 8).Draw(t, "prior")) / 8
					edges[j].HasPrior = true
				}
			}
		}
		next := nd.player
		if nd.kind == core.Max {
			next = core.Min
		} else if nd.kind == core.Min {
			next = core.Max
		}
		depth := nd.depth
		nd.edges = edges
		for range k {
			nd.children = append(nd.children, len(nodes))
			nodes = append(nodes, drawnNode{depth: depth + 1, player: next})
			nd = &nodes[i] // append may have moved the slice
		}
	}
	b := tree.NewBuilder()
	refs := make([]tree.Ref, len(nodes))
	for i := len(nodes) - 1; i >= 0; i-- {
		nd := nodes[i]
		if nd.kind == core.Terminal {
			refs[i] = b.Leaf(nd.reward)
			continue
		}
		for j, c := range nd.children {
			nd.edges[j].Node = refs[c]
		}
		refs[i] = b.Node(nd.kind, nd.edges...)
	}
	tr, err := b.Build(refs[0])
	if err != nil {
		panic(fmt.Sprintf("gen: Trees drew an invalid tree: %v", err))
	}
	return tr
}
