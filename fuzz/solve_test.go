package fuzz

import (
	"math"
	"slices"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// solveLimits bound the trees of FuzzSolve: deep enough for the trap
// families' chains and nested chance nodes, and every value stays exact in
// float64 (a 1/16 reward under ten chance nodes is a multiple of 2^-34).
var solveLimits = limits{maxNodes: 64, maxDepth: 10}

// FuzzSolve decodes a tree code (see decode.go) and checks tree.Solve against
// a brute force of its own, a recursive evaluation of the decoded structure:
// every node's value must be equal and every max and min node's optimal
// children the same. It also checks that tree.Tree holds what was decoded
// and that its text reads back as an equal tree.
func FuzzSolve(f *testing.F) {
	f.Fuzz(func(t *testing.T, code []byte) {
		tr, sp, err := decodeTree(code, solveLimits)
		if err != nil {
			t.Fatal(err)
		}
		checkTreeMatches(t, tr, sp)
		sol := tree.Solve(tr)
		for i := range sp.nodes {
			path := sp.path(int32(i))
			at := tree.FormatPath(path)
			id, err := tr.Follow(path)
			if err != nil {
				t.Fatalf("node %s: %v", at, err)
			}
			want := sp.value(int32(i))
			if got := sol.Value(id); got != want {
				t.Errorf("node %s of %s: Solve's value %v, brute force %v", at, tr, got, want)
			}
			wantOpt := sp.optimal(int32(i))
			if got := sol.Optimal(id); !slices.Equal(got, wantOpt) {
				t.Errorf("node %s of %s: Solve's optimal children %v, brute force %v", at, tr, got, wantOpt)
			}
			for k := range sp.nodes[i].kids {
				if got, want := sol.IsOptimal(id, k), slices.Contains(wantOpt, int32(k)); got != want {
					t.Errorf("node %s of %s: IsOptimal(%d) = %v, want %v", at, tr, k, got, want)
				}
			}
		}
	})
}

// value is the brute-force Bellman value of node i: a plain recursion over
// the decoded structure, sharing nothing with tree.Solve.
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
func checkTreeMatches(t *testing.T, tr *tree.Tree, sp *spec) {
	t.Helper()
	if tr.Len() != len(sp.nodes) {
		t.Fatalf("tree %s has %d nodes, decoded %d", tr, tr.Len(), len(sp.nodes))
	}
	depth := 0
	for i, nd := range sp.nodes {
		depth = max(depth, nd.depth)
		path := sp.path(int32(i))
		id, err := tr.Follow(path)
		if err != nil {
			t.Fatalf("Follow(%v) in %s: %v", path, tr, err)
		}
		if got := tr.Path(id); !slices.Equal(got, path) {
			t.Fatalf("Path(%d) = %v, want %v", id, got, path)
		}
		if tr.Kind(id) != nd.kind || tr.NumChildren(id) != len(nd.kids) {
			t.Fatalf("node %s of %s: %v with %d children, decoded %v with %d", tree.FormatPath(path), tr,
				tr.Kind(id), tr.NumChildren(id), nd.kind, len(nd.kids))
		}
		if nd.kind == core.Terminal && tr.Reward(id) != nd.reward {
			t.Fatalf("node %s of %s: reward %v, decoded %v", tree.FormatPath(path), tr, tr.Reward(id), nd.reward)
		}
		for j, e := range nd.edges {
			c := tr.Child(id, j)
			if tr.Parent(c) != id {
				t.Fatalf("Parent(%d) = %d, want %d", c, tr.Parent(c), id)
			}
			move := j
			if e.HasMove {
				move = e.Move
			}
			h, ok := tr.Prior(c)
			if tr.Prob(c) != e.Prob || tr.Move(c) != move || ok != e.HasPrior || ok && h != e.Prior {
				t.Fatalf("edge %s.%d of %s: prob %v move %d prior %v,%v; decoded %+v", tree.FormatPath(path), j, tr,
					tr.Prob(c), tr.Move(c), h, ok, e)
			}
			if tr.Move(c) >= tr.MoveLimit() {
				t.Fatalf("move %d not below MoveLimit %d", tr.Move(c), tr.MoveLimit())
			}
		}
	}
	if tr.Depth() != depth {
		t.Fatalf("Depth() = %d, decoded %d", tr.Depth(), depth)
	}
	back, err := tree.Parse(tr.String())
	if err != nil || !back.Equal(tr) {
		t.Fatalf("%s reads back as %v, %v", tr, back, err)
	}
}
