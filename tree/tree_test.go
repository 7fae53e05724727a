package tree_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

const example = "(max (min 1 0)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)~-0.2)"

// nodeInfo is everything the accessors say about one node.
type nodeInfo struct {
	Kind        core.Kind
	First       int32
	NumChildren int
	Parent      int32
	Reward      float64
	Prob        float64
	Move        int
	Prior       float64
	HasPrior    bool
	Path        []int32
}

func nodes(t *tree.Tree) []nodeInfo {
	var ns []nodeInfo
	for i := range int32(t.Len()) {
		h, ok := t.Prior(i)
		ns = append(ns, nodeInfo{
			Kind: t.Kind(i), First: t.First(i), NumChildren: t.NumChildren(i),
			Parent: t.Parent(i), Reward: t.Reward(i), Prob: t.Prob(i),
			Move: t.Move(i), Prior: h, HasPrior: ok, Path: t.Path(i),
		})
	}
	return ns
}

func TestTreeAccessors(t *testing.T) {
	tr := tree.MustParse(example)
	want := []nodeInfo{
		{Kind: core.Max, First: 1, NumChildren: 2, Parent: -1, Path: nil},
		{Kind: core.Min, First: 3, NumChildren: 2, Parent: 0, Move: 3, Prior: 0.8, HasPrior: true, Path: []int32{0}},
		{Kind: core.Chance, First: 5, NumChildren: 2, Parent: 0, Move: 1, Prior: -0.2, HasPrior: true, Path: []int32{1}},
		{Kind: core.Terminal, First: 7, Parent: 1, Reward: 1, Path: []int32{0, 0}},
		{Kind: core.Terminal, First: 7, Parent: 1, Move: 1, Path: []int32{0, 1}},
		{Kind: core.Min, First: 7, NumChildren: 2, Parent: 2, Prob: 0.5, Path: []int32{1, 0}},
		{Kind: core.Terminal, First: 9, Parent: 2, Prob: 0.5, Move: 1, Path: []int32{1, 1}},
		{Kind: core.Terminal, First: 9, Parent: 5, Reward: 1, Path: []int32{1, 0, 0}},
		{Kind: core.Terminal, First: 9, Parent: 5, Reward: 1, Move: 1, Path: []int32{1, 0, 1}},
	}
	if diff := cmp.Diff(want, nodes(tr)); diff != "" {
		t.Errorf("nodes of %s (-want +got):\n%s", example, diff)
	}
	if got := tr.Len(); got != 9 {
		t.Errorf("Len() = %d, want 9", got)
	}
	if got := tr.MoveLimit(); got != 4 {
		t.Errorf("MoveLimit() = %d, want 4", got)
	}
	if got := tr.Depth(); got != 3 {
		t.Errorf("Depth() = %d, want 3", got)
	}
	for i := range int32(tr.Len()) {
		for k := range tr.NumChildren(i) {
			if c := tr.Child(i, k); tr.Parent(c) != i || c != tr.First(i)+int32(k) || c <= i {
				t.Errorf("Child(%d, %d) = %d, whose parent is %d", i, k, c, tr.Parent(c))
			}
		}
		got, err := tr.Follow(tr.Path(i))
		if err != nil || got != i {
			t.Errorf("Follow(Path(%d)) = %d, %v; want %d", i, got, err, i)
		}
	}
}

func TestMoveLimitAndDepth(t *testing.T) {
	tests := []struct {
		in        string
		moveLimit int
		depth     int
	}{
		{"1", 1, 0},
		{"(max 1)", 1, 1},
		{"(max 1 0 1)", 3, 1},
		{"(max 1@7 0@0)", 8, 1},
		{"(min (max 0 (chance 1:(min 1))) 1)", 2, 4},
	}
	for _, tt := range tests {
		tr := tree.MustParse(tt.in)
		if got := tr.MoveLimit(); got != tt.moveLimit {
			t.Errorf("%s: MoveLimit() = %d, want %d", tt.in, got, tt.moveLimit)
		}
		if got := tr.Depth(); got != tt.depth {
			t.Errorf("%s: Depth() = %d, want %d", tt.in, got, tt.depth)
		}
	}
}

func TestFollowErrors(t *testing.T) {
	tr := tree.MustParse(example)
	tests := []struct {
		path []int32
		want string // substring of the error
	}{
		{[]int32{2}, "step 0 of path [2]: node 0 (max) has 2 children, no child 2"},
		{[]int32{-1}, "step 0 of path [-1]: node 0 (max) has 2 children, no child -1"},
		{[]int32{1, 0, 2}, "step 2 of path [1 0 2]: node 0.1.0 (min) has 2 children, no child 2"},
		{[]int32{0, 0, 0}, "step 2 of path [0 0 0]: node 0.0.0 (terminal) has 0 children, no child 0"},
	}
	for _, tt := range tests {
		_, err := tr.Follow(tt.path)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Follow(%v) error = %v, want it to contain %q", tt.path, err, tt.want)
		}
	}
	if got, err := tr.Follow(nil); got != 0 || err != nil {
		t.Errorf("Follow(nil) = %d, %v; want 0, nil", got, err)
	}
}

func TestFormatPath(t *testing.T) {
	tests := []struct {
		path []int32
		want string
	}{
		{nil, "0"},
		{[]int32{2}, "0.2"},
		{[]int32{2, 1, 10}, "0.2.1.10"},
	}
	for _, tt := range tests {
		if got := tree.FormatPath(tt.path); got != tt.want {
			t.Errorf("FormatPath(%v) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestEqual(t *testing.T) {
	a := tree.MustParse(example)
	tests := []struct {
		b    string
		want bool
	}{
		{example, true},
		{"(max (min 1 0)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)@1~-0.2)", true},
		{"(max (min 1 0)@3~0.8 (chance 0.5:(min 1 1@1) 0.5:0@1)~-0.2)", true},
		{"(max (min 1 0)@2~0.8 (chance 0.5:(min 1 1) 0.5:0)~-0.2)", false},
		{"(max (min 1 0)@3 (chance 0.5:(min 1 1) 0.5:0)~-0.2)", false},
		{"(max (min 1 0)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)~0)", false},
		{"(max (min 1 0)@3~0.8 (chance 0.25:(min 1 1) 0.75:0)~-0.2)", false},
		{"(max (min 1 0)@3~0.8 (chance 0.5:(max 1 1) 0.5:0)~-0.2)", false},
		{"(max (min 1 0.5)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)~-0.2)", false},
		{"(max (min 1 0 0)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)~-0.2)", false},
		{"(max (min 1 0)@3~0.8)", false},
		{"1", false},
	}
	for _, tt := range tests {
		b := tree.MustParse(tt.b)
		if got := a.Equal(b); got != tt.want {
			t.Errorf("%s.Equal(%s) = %v, want %v", a, b, got, tt.want)
		}
		if got := cmp.Equal(a, b); got != tt.want {
			t.Errorf("cmp.Equal(%s, %s) = %v, want %v", a, b, got, tt.want)
		}
	}
	var nilTree *tree.Tree
	if a.Equal(nil) || nilTree.Equal(a) || !nilTree.Equal(nil) {
		t.Errorf("Equal with nil trees: got true for a nil and a non-nil tree, or false for two nil trees")
	}
}
