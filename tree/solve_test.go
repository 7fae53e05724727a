package tree_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/tree"
)

func TestSolveTable(t *testing.T) {
	tests := []struct {
		in      string
		value   float64
		optimal []int32 // of the root
	}{
		{"1", 1, nil},
		{"0.25", 0.25, nil},
		{"(max 0 1 0.5)", 1, []int32{1}},
		{"(min 0 1 0)", 0, []int32{0, 2}},
		{"(max 0.5 0.5)", 0.5, []int32{0, 1}},
		{"(chance 0.25:1 0.75:0)", 0.25, nil},
		{example, 0.5, []int32{1}},
		{"(max (min 1 0) (min 0.5 0.75) (chance 0.5:1 0.5:0))", 0.5, []int32{1, 2}},
		{"(min (max 0 (chance 0.125:1 0.875:0.5)) (max 0.5625 0))", 0.5625, []int32{0, 1}},
	}
	for _, tt := range tests {
		s := tree.Solve(tree.MustParse(tt.in))
		if got := s.Value(0); got != tt.value {
			t.Errorf("%s: Value(0) = %v, want %v", tt.in, got, tt.value)
		}
		if diff := cmp.Diff(tt.optimal, s.Optimal(0)); diff != "" {
			t.Errorf("%s: Optimal(0) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestSolveMatchesBruteForce checks Solve against a recursive brute force on
// 2,500 random trees, at every node.
func TestSolveMatchesBruteForce(t *testing.T) {
	for seed := range uint64(2500) {
		r := seededRand(seed)
		n := randTree(r, 1+r.IntN(6))
		b := tree.NewBuilder()
		tr, err := b.Build(build(b, n))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		s := tree.Solve(tr)
		count := 0
		walk(n, nil, func(m *rnode, path []int32) {
			count++
			i, err := tr.Follow(path)
			if err != nil {
				t.Fatalf("seed %d: %s: %v", seed, tr, err)
			}
			if got, want := s.Value(i), bruteValue(m); got != want {
				t.Errorf("seed %d: %s: Value of node %s = %v, want %v", seed, tr, tree.FormatPath(path), got, want)
			}
			want := bruteOptimal(m)
			if diff := cmp.Diff(want, s.Optimal(i)); diff != "" {
				t.Errorf("seed %d: %s: Optimal of node %s (-want +got):\n%s", seed, tr, tree.FormatPath(path), diff)
			}
			for k := -1; k <= len(m.kids); k++ {
				wantOpt := false
				for _, o := range want {
					wantOpt = wantOpt || int(o) == k
				}
				if got := s.IsOptimal(i, k); got != wantOpt {
					t.Errorf("seed %d: %s: IsOptimal(node %s, %d) = %v, want %v", seed, tr, tree.FormatPath(path), k, got, wantOpt)
				}
			}
		})
		if count != tr.Len() {
			t.Errorf("seed %d: tree has %d nodes, want %d", seed, tr.Len(), count)
		}
	}
}

// TestSolveInto: SolveInto gives Solve's solution, into the memory of the
// solution it is given when that has room, of larger trees and smaller.
func TestSolveInto(t *testing.T) {
	var sol *tree.Solution
	for seed := range uint64(200) {
		tr := tree.MustParse(text(randTree(seededRand(seed), 1+int(seed%6)), nil))
		want := tree.Solve(tr)
		sol = tree.SolveInto(sol, tr)
		for i := range int32(tr.Len()) {
			if sol.Value(i) != want.Value(i) || !slices.Equal(sol.Optimal(i), want.Optimal(i)) {
				t.Fatalf("seed %d %s: node %d: value %v, optimal %v; want %v, %v", seed, tr, i,
					sol.Value(i), sol.Optimal(i), want.Value(i), want.Optimal(i))
			}
		}
		if sol.Value(int32(tr.Len())) == sol.Value(int32(tr.Len())) {
			t.Fatalf("seed %d: a value beyond the tree's %d nodes", seed, tr.Len())
		}
	}
}
