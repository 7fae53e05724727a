package fuzz

import (
	"math"
	"slices"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
)

// solveLimits bound the trees of FuzzSolve: deep enough for the trap
// families' chains and nested chance nodes, and every value stays exact in
// float64 (a 1/16 reward under ten chance nodes is a multiple of 2^-34).
var solveLimits = limits{maxNodes: 64, maxDepth: 10}

// FuzzSolve decodes a tree code (see decode.go) and checks gen.Solve against
// a brute force of its own, a recursive evaluation of the decoded structure:
// every node's value must be equal and every max and min node's optimal
// children the same. It also checks that gen's Tree holds what was decoded
// and that its text reads back as an equal tree.
func FuzzSolve(f *testing.F) {
	f.Fuzz(func(t *testing.T, code []byte) {
		tree, sp, err := decodeTree(code, solveLimits)
		if err != nil {
			t.Fatal(err)
		}
		checkTreeMatches(t, tree, sp)
		sol := gen.Solve(tree)
		for i := range sp.nodes {
			path := sp.path(int32(i))
			at := gen.FormatPath(path)
			id, err := tree.Follow(path)
			if err != nil {
				t.Fatalf("node %s: %v", at, err)
			}
			want := sp.value(int32(i))
			if got := sol.Value(id); got != want {
				t.Errorf("node %s of %s: Solve's value %v, brute force %v", at, tree, got, want)
			}
			wantOpt := sp.optimal(int32(i))
			if got := sol.Optimal(id); !slices.Equal(got, wantOpt) {
				t.Errorf("node %s of %s: Solve's optimal children %v, brute force %v", at, tree, got, wantOpt)
			}
			for k := range sp.nodes[i].kids {
				if got, want := sol.IsOptimal(id, k), slices.Contains(wantOpt, int32(k)); got != want {
					t.Errorf("node %s of %s: IsOptimal(%d) = %v, want %v", at, tree, k, got, want)
				}
			}
		}
	})
}

// value is the brute-force Bellman value of node i: a plain recursion over
// the decoded structure, sharing nothing with gen.Solve.
func (sp *spec) value(i int32) float64 {
	nd := sp.nodes[i]
	switch nd.kind {
	case core.Terminal:
		return nd.reward
	case core.Max:
		v := math.Inf(-1)
		for _, c := range nd.kids {
			v = math.Max(v, sp.value(c))
		}
		return v
	case core.Min:
		v := math.Inf(1)
		for _, c := range nd.kids {
			v = math.Min(v, sp.value(c))
		}
		return v
	default:
		v := 0.0
		for j, c := range nd.kids {
			v += nd.edges[j].Prob * sp.value(c)
		}
		return v
	}
}

// optimal is the brute-force set of optimal children of node i: nil at
// terminals and chance nodes.
func (sp *spec) optimal(i int32) []int32 {
	nd := sp.nodes[i]
	if nd.kind != core.Max && nd.kind != core.Min {
		return nil
	}
	v := sp.value(i)
	var out []int32
	for j, c := range nd.kids {
		if sp.value(c) == v {
			out = append(out, int32(j))
		}
	}
	return out
}

// path is the child positions from the root to node i.
func (sp *spec) path(i int32) []int32 {
	var rev []int32
	for p := sp.nodes[i].parent; p >= 0; i, p = p, sp.nodes[p].parent {
		rev = append(rev, int32(slices.Index(sp.nodes[p].kids, i)))
	}
	slices.Reverse(rev)
	return rev
}

// checkTreeMatches fails t unless tree holds the decoded structure sp, node
// for node, and its text reads back as an equal tree.
func checkTreeMatches(t *testing.T, tree *gen.Tree, sp *spec) {
	t.Helper()
	if tree.Len() != len(sp.nodes) {
		t.Fatalf("tree %s has %d nodes, decoded %d", tree, tree.Len(), len(sp.nodes))
	}
	depth := 0
	for i, nd := range sp.nodes {
		depth = max(depth, nd.depth)
		path := sp.path(int32(i))
		id, err := tree.Follow(path)
		if err != nil {
			t.Fatalf("Follow(%v) in %s: %v", path, tree, err)
		}
		if got := tree.Path(id); !slices.Equal(got, path) {
			t.Fatalf("Path(%d) = %v, want %v", id, got, path)
		}
		if tree.Kind(id) != nd.kind || tree.NumChildren(id) != len(nd.kids) {
			t.Fatalf("node %s of %s: %v with %d children, decoded %v with %d", gen.FormatPath(path), tree,
				tree.Kind(id), tree.NumChildren(id), nd.kind, len(nd.kids))
		}
		if nd.kind == core.Terminal && tree.Reward(id) != nd.reward {
			t.Fatalf("node %s of %s: reward %v, decoded %v", gen.FormatPath(path), tree, tree.Reward(id), nd.reward)
		}
		for j, e := range nd.edges {
			c := tree.Child(id, j)
			if tree.Parent(c) != id {
				t.Fatalf("Parent(%d) = %d, want %d", c, tree.Parent(c), id)
			}
			move := j
			if e.HasMove {
				move = e.Move
			}
			h, ok := tree.Prior(c)
			if tree.Prob(c) != e.Prob || tree.Move(c) != move || ok != e.HasPrior || ok && h != e.Prior {
				t.Fatalf("edge %s.%d of %s: prob %v move %d prior %v,%v; decoded %+v", gen.FormatPath(path), j, tree,
					tree.Prob(c), tree.Move(c), h, ok, e)
			}
			if tree.Move(c) >= tree.MoveLimit() {
				t.Fatalf("move %d not below MoveLimit %d", tree.Move(c), tree.MoveLimit())
			}
		}
	}
	if tree.Depth() != depth {
		t.Fatalf("Depth() = %d, decoded %d", tree.Depth(), depth)
	}
	back, err := gen.Parse(tree.String())
	if err != nil || !back.Equal(tree) {
		t.Fatalf("%s reads back as %v, %v", tree, back, err)
	}
}
