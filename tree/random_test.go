package tree_test

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// rnode is a pointer tree made by randTree, the tests' independent model of
// a game tree.
type rnode struct {
	kind   core.Kind
	reward float64
	kids   []redge
}

type redge struct {
	n        *rnode
	prob     float64
	move     int // -1: the default
	prior    float64
	hasPrior bool
}

// randTree returns a random tree of depth at most depth (at least 1 if
// depth >= 1): max, min and chance nodes with 1 to 4 children, rewards on the
// 1/16 grid, probabilities on the 1/8 grid, and some moves and priors.
// Siblings' moves are distinct: an explicit move is the child's own index
// or one of k to k+5 not taken by an earlier sibling.
func randTree(r *rand.Rand, depth int) *rnode {
	return randNode(r, depth, true)
}

func randNode(r *rand.Rand, depth int, root bool) *rnode {
	if depth == 0 || (!root && r.IntN(4) == 0) {
		return &rnode{kind: core.Terminal, reward: float64(r.IntN(17)) / 16}
	}
	n := &rnode{kind: []core.Kind{core.Max, core.Min, core.Chance}[r.IntN(3)]}
	k := 1 + r.IntN(4)
	var probs []float64
	if n.kind == core.Chance {
		probs = randComposition(r, 8, k)
	}
	taken := map[int]bool{}
	for j := range k {
		e := redge{n: randNode(r, depth-1, false), move: -1}
		if probs != nil {
			e.prob = probs[j] / 8
		}
		if r.IntN(4) == 0 {
			if e.move = k + r.IntN(6); taken[e.move] {
				e.move = j
			}
			taken[e.move] = true
		}
		if r.IntN(4) == 0 {
			e.prior, e.hasPrior = float64(r.IntN(33)-16)/16, true
		}
		n.kids = append(n.kids, e)
	}
	return n
}

// randComposition returns k positive integers that sum to total (k <= total).
func randComposition(r *rand.Rand, total, k int) []float64 {
	cuts := r.Perm(total - 1)[:k-1] // distinct cut points in [1, total)
	is := []int{0, total}
	for _, c := range cuts {
		is = append(is, c+1)
	}
	sortInts(is)
	parts := make([]float64, k)
	for j := range k {
		parts[j] = float64(is[j+1] - is[j])
	}
	return parts
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// build makes n with b, recursively.
func build(b *tree.Builder, n *rnode) tree.Ref {
	if n.kind == core.Terminal {
		return b.Leaf(n.reward)
	}
	var edges []tree.Edge
	for _, e := range n.kids {
		ge := tree.Edge{Node: build(b, e.n), Prob: e.prob}
		if e.move >= 0 {
			ge = ge.WithMove(e.move)
		}
		if e.hasPrior {
			ge = ge.WithPrior(e.prior)
		}
		edges = append(edges, ge)
	}
	return b.Node(n.kind, edges...)
}

// text prints n in the canonical text format, recursively. If noise is not
// nil it adds random whitespace, comments and explicit default moves, which
// Parse must ignore.
func text(n *rnode, noise *rand.Rand) string {
	var sb strings.Builder
	printNode(&sb, n, noise)
	return sb.String()
}

func gap(sb *strings.Builder, noise *rand.Rand, required bool) {
	if noise == nil {
		if required {
			sb.WriteByte(' ')
		}
		return
	}
	spaces := []string{" ", "  ", "\t", "\n", "\r\n", " ; a comment (max 1)\n"}
	if required || noise.IntN(2) == 0 {
		sb.WriteString(spaces[noise.IntN(len(spaces))])
	}
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func printNode(sb *strings.Builder, n *rnode, noise *rand.Rand) {
	if n.kind == core.Terminal {
		sb.WriteString(num(n.reward))
		return
	}
	sb.WriteByte('(')
	gap(sb, noise, false)
	sb.WriteString(n.kind.String())
	for j, e := range n.kids {
		gap(sb, noise, true)
		if n.kind == core.Chance {
			sb.WriteString(num(e.prob))
			gap(sb, noise, false)
			sb.WriteByte(':')
			gap(sb, noise, false)
		}
		printNode(sb, e.n, noise)
		if e.move >= 0 && e.move != j || e.move < 0 && noise != nil && noise.IntN(8) == 0 {
			gap(sb, noise, false)
			sb.WriteByte('@')
			gap(sb, noise, false)
			m := e.move
			if m < 0 {
				m = j
			}
			sb.WriteString(strconv.Itoa(m))
		}
		if e.hasPrior {
			gap(sb, noise, false)
			sb.WriteByte('~')
			gap(sb, noise, false)
			sb.WriteString(num(e.prior))
		}
	}
	gap(sb, noise, false)
	sb.WriteByte(')')
}

// bruteValue is the Bellman value of n, computed recursively.
func bruteValue(n *rnode) float64 {
	switch n.kind {
	case core.Terminal:
		return n.reward
	case core.Chance:
		v := 0.0
		for _, e := range n.kids {
			v += e.prob * bruteValue(e.n)
		}
		return v
	}
	best := bruteValue(n.kids[0].n)
	for _, e := range n.kids[1:] {
		v := bruteValue(e.n)
		if n.kind == core.Max && v > best || n.kind == core.Min && v < best {
			best = v
		}
	}
	return best
}

// bruteOptimal returns the optimal children of n (nil unless max or min).
func bruteOptimal(n *rnode) []int32 {
	if n.kind != core.Max && n.kind != core.Min {
		return nil
	}
	v := bruteValue(n)
	var ks []int32
	for j, e := range n.kids {
		if bruteValue(e.n) == v {
			ks = append(ks, int32(j))
		}
	}
	return ks
}

// walk calls f on every node of n with its path from the root.
func walk(n *rnode, path []int32, f func(n *rnode, path []int32)) {
	f(n, path)
	for j, e := range n.kids {
		walk(e.n, append(path[:len(path):len(path)], int32(j)), f)
	}
}

// seededRand returns the generator the tests use for seed.
func seededRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }
