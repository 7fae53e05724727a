package tree

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/mctscheck/mctscheck/core"
)

// maxNodes is the largest number of nodes a Builder or Tree can hold, so that
// node numbers fit in an int32.
const maxNodes = math.MaxInt32

// MaxMove is the largest move identity a Tree holds, so that MoveLimit is
// at most 2^20: a search with AMAF statistics allocates a table of
// MoveLimit entries per worker before its first simulation, and a bound
// here keeps that table small (8 MB) whatever the text asks for. A node
// therefore has at most MaxMove+1 children, whose default moves are their
// indices.
const MaxMove = 1<<20 - 1

// Ref refers to a node made by a Builder. The zero Ref refers to no node.
type Ref int32

// Edge describes a child of a node: the child itself and the attributes of
// the edge into it. The zero value of each attribute means its default: no
// probability (as required under max and min nodes), the child's index as
// its move identity, and no prior. It takes 32 bytes.
type Edge struct {
	Node     Ref
	HasMove  bool
	HasPrior bool
	Prob     float64 // probability of the child; only under chance nodes, in (0,1]
	Move     int     // move identity, used if HasMove; in [0, MaxMove]
	Prior    float64 // heuristic value of the move, used if HasPrior; finite
}

// E returns a plain edge to r, for the children of max and min nodes.
func E(r Ref) Edge { return Edge{Node: r} }

// P returns an edge to r with probability p, for the children of chance nodes.
func P(p float64, r Ref) Edge { return Edge{Node: r, Prob: p} }

// WithMove returns e with move identity m.
func (e Edge) WithMove(m int) Edge {
	e.Move, e.HasMove = m, true
	return e
}

// WithPrior returns e with prior h.
func (e Edge) WithPrior(h float64) Edge {
	e.Prior, e.HasPrior = h, true
	return e
}

// Builder makes trees bottom-up: each method makes one node from nodes made
// before and returns a Ref to it, and Build lays out the tree under a root.
// For example
//
//	b := tree.NewBuilder()
//	m := b.Min(b.Leaf(1), b.Leaf(0))
//	c := b.Chance(tree.P(0.5, b.Leaf(1)), tree.P(0.5, b.Leaf(0)))
//	t, err := b.Build(b.Max(m, c))
//
// The methods do not check their arguments; Build does, and reports the first
// problem it finds. The zero Builder is ready to use.
type Builder struct {
	kind   []core.Kind
	reward []float64
	start  []int // edges of node r are edges[start[r-1]:end], end = start[r] or len(edges)
	edges  []Edge
	full   bool // a node was refused because the Builder held maxNodes nodes
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder { return new(Builder) }

// builderFor returns an empty Builder with room for a tree of n nodes.
func builderFor(n int) *Builder {
	return &Builder{kind: make([]core.Kind, 0, n), reward: make([]float64, 0, n), start: make([]int, 0, n),
		edges: make([]Edge, 0, max(n-1, 0))}
}

func (b *Builder) add(k core.Kind, reward float64, edges []Edge) Ref {
	if len(b.kind) >= maxNodes {
		b.full = true
		return 0
	}
	b.kind = append(b.kind, k)
	b.reward = append(b.reward, reward)
	b.start = append(b.start, len(b.edges))
	b.edges = append(b.edges, edges...)
	return Ref(len(b.kind))
}

func (b *Builder) edgesOf(r Ref) []Edge {
	end := len(b.edges)
	if int(r) < len(b.start) {
		end = b.start[r]
	}
	return b.edges[b.start[r-1]:end]
}

// Leaf makes a terminal node with reward r for the max player.
func (b *Builder) Leaf(r float64) Ref { return b.add(core.Terminal, r, nil) }

// Max makes a max node with the given children.
func (b *Builder) Max(children ...Ref) Ref { return b.plain(core.Max, children) }

// Min makes a min node with the given children.
func (b *Builder) Min(children ...Ref) Ref { return b.plain(core.Min, children) }

func (b *Builder) plain(k core.Kind, children []Ref) Ref {
	r := b.add(k, 0, nil)
	for _, c := range children {
		b.edges = append(b.edges, Edge{Node: c})
	}
	return r
}

// Chance makes a chance node whose children are given with their
// probabilities, as in b.Chance(tree.P(0.25, x), tree.P(0.75, y)).
func (b *Builder) Chance(edges ...Edge) Ref { return b.add(core.Chance, 0, edges) }

// Node makes a node of kind k (Max, Min or Chance) with the given edges,
// which may set move identities and priors, as in
// b.Node(core.Max, tree.E(x).WithMove(3).WithPrior(0.8), tree.E(y)).
func (b *Builder) Node(k core.Kind, edges ...Edge) Ref { return b.add(k, 0, edges) }

// Build checks the tree under root and lays it out as a Tree. The error names
// the first node in breadth-first order that is wrong by its path from the
// root, and says what is wrong: a reward outside [0,1], a max, min or chance
// node without children, chance probabilities outside (0,1] or not summing to
// 1 within core.ProbTolerance, a probability under a max or min node, a move identity outside
// [0, MaxMove] or more than MaxMove+1 children, two children of a max or
// min node with the same move identity, a prior that is not finite, or a
// node that is the child of two nodes. Build does not change b, so b can build further trees.
func (b *Builder) Build(root Ref) (*Tree, error) { return b.build(context.Background(), root) }

// build is Build, which gives up with ctx's error once ctx ends.
func (b *Builder) build(ctx context.Context, root Ref) (*Tree, error) {
	if b.full {
		return nil, errors.New("tree: more than 2^31-1 nodes")
	}
	if root < 1 || int(root) > len(b.kind) {
		return nil, fmt.Errorf("tree: root Ref %d is not a node of this Builder", root)
	}
	// Pass 1: number the nodes in breadth-first order and check them.
	order := []Ref{root}
	parent := []int32{-1}
	var first []int32
	seen := make([]int32, int(root)+1) // 1 + the number given to a Ref, or 0
	seen[root] = 1
	for n := 0; n < len(order); n++ {
		if err := ended(ctx, n); err != nil {
			return nil, err
		}
		i, r := int32(n), order[n]
		k, edges := b.kind[r-1], b.edgesOf(r)
		first = append(first, int32(len(order)))
		fail := func(format string, args ...any) error {
			return fmt.Errorf("tree: node %s (%v): %s",
				FormatPath(pathOf(parent, first, i)), k, fmt.Sprintf(format, args...))
		}
		if msg := checkNode(k, b.reward[r-1], edges); msg != "" {
			return nil, fail("%s", msg)
		}
		for j, e := range edges {
			c := e.Node
			if c < 1 || c >= r {
				return nil, fail("child %d: Ref %d is not a node made before its parent", j, c)
			}
			if seen[c] != 0 {
				return nil, fail("child %d is already node %s; a node can have only one parent",
					j, FormatPath(pathOf(parent, first, seen[c]-1)))
			}
			if len(order) >= maxNodes {
				return nil, errors.New("tree: more than 2^31-1 nodes")
			}
			seen[c] = int32(len(order)) + 1
			order = append(order, c)
			parent = append(parent, i)
		}
	}
	first = append(first, int32(len(order)))

	// Pass 2: fill in the nodes and the edges into them, with columns for
	// move identities and priors only if some edge has one.
	n := len(order)
	t := &Tree{
		kind:   make([]core.Kind, n),
		first:  first,
		parent: parent,
		reward: make([]float64, n),
		prob:   make([]float64, n),
	}
	for j := range b.edges {
		e := &b.edges[j]
		if e.HasMove && t.move == nil {
			t.move = make([]int32, n)
		}
		if e.HasPrior && t.prior == nil {
			t.prior, t.hasPrior = make([]float64, n), make([]bool, n)
		}
	}
	maxMove := int32(0)
	for i, r := range order {
		if err := ended(ctx, i); err != nil {
			return nil, err
		}
		k := b.kind[r-1]
		t.kind[i] = k
		if k == core.Terminal {
			t.reward[i] = b.reward[r-1]
		}
		for j, e := range b.edgesOf(r) {
			c := first[i] + int32(j)
			m := int32(j)
			if e.HasMove {
				m = int32(e.Move)
			}
			maxMove = max(maxMove, m)
			t.prob[c] = e.Prob
			if t.move != nil {
				t.move[c] = m
			}
			if e.HasPrior {
				t.prior[c], t.hasPrior[c] = e.Prior, true
			}
		}
	}
	t.moveLimit = int(maxMove) + 1
	for i := int32(n - 1); i > 0; i = parent[i] { // the last node is a deepest one
		t.depth++
	}
	return t, nil
}

// checkNode returns what is wrong with a node of kind k with the given
// reward and edges, or "" if nothing is. It does not look at the children
// themselves.
func checkNode(k core.Kind, reward float64, edges []Edge) string {
	switch k {
	case core.Terminal:
		if len(edges) > 0 {
			return "children on a terminal node, want none"
		}
		if !(reward >= 0 && reward <= 1) {
			return "reward " + fmtFloat(reward) + ", want a number in [0,1]"
		}
		return ""
	case core.Max, core.Min, core.Chance:
	default:
		return "unknown kind, want max, min, chance or terminal"
	}
	if len(edges) > MaxMove+1 {
		return checkChildren(k, len(edges), 0)
	}
	sum := 0.0
	for j, e := range edges {
		if k == core.Chance {
			if !(e.Prob > 0 && e.Prob <= 1) {
				return fmt.Sprintf("child %d: probability %s, want a number in (0,1]", j, fmtFloat(e.Prob))
			}
			sum += e.Prob
		} else if e.Prob != 0 {
			return fmt.Sprintf("child %d: probability %s under a %v node; only children of chance nodes have one",
				j, fmtFloat(e.Prob), k)
		}
		if e.HasMove && (e.Move < 0 || e.Move > MaxMove) {
			return fmt.Sprintf("child %d: move %d, want an integer in [0, %d]", j, e.Move, MaxMove)
		}
		if e.HasPrior && (math.IsNaN(e.Prior) || math.IsInf(e.Prior, 0)) {
			return fmt.Sprintf("child %d: prior %s, want a finite number", j, fmtFloat(e.Prior))
		}
	}
	if msg := checkChildren(k, len(edges), sum); msg != "" || k == core.Chance {
		return msg
	}
	return duplicateMove(edges)
}

// checkChildren returns what is wrong with a max, min or chance node with
// n children whose probabilities, under a chance node, sum to sum, or "".
func checkChildren(k core.Kind, n int, sum float64) string {
	switch {
	case n == 0:
		return "no children, want at least 1"
	case n > MaxMove+1:
		return fmt.Sprintf("%d children, want at most %d (2^20, as move identities are below 2^20)", n, MaxMove+1)
	case k == core.Chance && !(math.Abs(sum-1) <= core.ProbTolerance):
		return "probabilities sum to " + fmtFloat(sum) + ", want 1"
	}
	return ""
}

// duplicateMove says which two children of a max or min node share a
// move identity (a child without one has its index), or "" if none do:
// AMAF statistics are kept per move, so two such children would share
// them.
func duplicateMove(edges []Edge) string {
	explicit := false
	for _, e := range edges {
		explicit = explicit || e.HasMove
	}
	if !explicit { // the moves are the indices
		return ""
	}
	child := make(map[int]int, len(edges)) // move → the first child with it
	for j, e := range edges {
		m := j
		if e.HasMove {
			m = e.Move
		}
		if i, ok := child[m]; ok {
			return sameMove(i, j, m)
		}
		child[m] = j
	}
	return ""
}

// sameMove says that children i and j share move m.
func sameMove(i, j, m int) string {
	return fmt.Sprintf("children %d and %d have the same move %d; siblings need distinct moves (a child without @ has its index), as AMAF statistics are kept per move", i, j, m)
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
