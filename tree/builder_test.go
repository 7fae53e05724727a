package tree_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

func TestBuilder(t *testing.T) {
	b := tree.NewBuilder()
	m := b.Min(b.Leaf(1), b.Leaf(0))
	c := b.Chance(tree.P(0.5, b.Min(b.Leaf(1), b.Leaf(1))), tree.P(0.5, b.Leaf(0)))
	root := b.Node(core.Max, tree.E(m).WithMove(3).WithPrior(0.8), tree.E(c).WithPrior(-0.2))
	got, err := b.Build(root)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if want := tree.MustParse(example); !got.Equal(want) {
		t.Errorf("built %s, want %s", got, want)
	}

	// The Builder can build again, from any of its nodes.
	sub, err := b.Build(c)
	if err != nil {
		t.Fatalf("Build(c): %v", err)
	}
	if diff := cmp.Diff("(chance 0.5:(min 1 1) 0.5:0)", sub.String()); diff != "" {
		t.Errorf("Build(c) (-want +got):\n%s", diff)
	}

	// The zero Builder is ready to use.
	var zero tree.Builder
	leaf, err := zero.Build(zero.Leaf(0.5))
	if err != nil || leaf.String() != "0.5" {
		t.Errorf("zero Builder: Build(Leaf(0.5)) = %v, %v; want 0.5", leaf, err)
	}
}

func TestBuilderErrors(t *testing.T) {
	tests := []struct {
		name string
		make func(b *tree.Builder) tree.Ref
		want string // substring of the error
	}{
		{"reward above 1", func(b *tree.Builder) tree.Ref { return b.Leaf(2) },
			"node 0 (terminal): reward 2, want a number in [0,1]"},
		{"negative reward", func(b *tree.Builder) tree.Ref { return b.Max(b.Leaf(1), b.Leaf(-0.5)) },
			"node 0.1 (terminal): reward -0.5, want a number in [0,1]"},
		{"NaN reward", func(b *tree.Builder) tree.Ref { return b.Min(b.Leaf(math.NaN())) },
			"node 0.0 (terminal): reward NaN"},
		{"infinite reward", func(b *tree.Builder) tree.Ref { return b.Min(b.Leaf(math.Inf(1))) },
			"node 0.0 (terminal): reward +Inf"},
		{"no children", func(b *tree.Builder) tree.Ref { return b.Max() },
			"node 0 (max): no children, want at least 1"},
		{"no children deep", func(b *tree.Builder) tree.Ref { return b.Max(b.Leaf(1), b.Min(b.Leaf(0), b.Chance())) },
			"node 0.1.1 (chance): no children, want at least 1"},
		{"probabilities sum below 1", func(b *tree.Builder) tree.Ref {
			return b.Max(b.Leaf(0), b.Min(b.Leaf(1), b.Leaf(1), b.Chance(tree.P(0.5, b.Leaf(1)), tree.P(0.25, b.Leaf(0)))))
		}, "node 0.1.2 (chance): probabilities sum to 0.75, want 1"},
		{"probabilities sum above 1", func(b *tree.Builder) tree.Ref {
			return b.Chance(tree.P(0.75, b.Leaf(1)), tree.P(0.75, b.Leaf(0)))
		}, "node 0 (chance): probabilities sum to 1.5, want 1"},
		{"missing probability", func(b *tree.Builder) tree.Ref { return b.Chance(tree.P(1, b.Leaf(1)), tree.E(b.Leaf(0))) },
			"node 0 (chance): child 1: probability 0, want a number in (0,1]"},
		{"probability above 1", func(b *tree.Builder) tree.Ref { return b.Chance(tree.P(1.5, b.Leaf(1))) },
			"node 0 (chance): child 0: probability 1.5, want a number in (0,1]"},
		{"NaN probability", func(b *tree.Builder) tree.Ref { return b.Chance(tree.P(math.NaN(), b.Leaf(1))) },
			"child 0: probability NaN"},
		{"probability under max", func(b *tree.Builder) tree.Ref { return b.Node(core.Max, tree.P(0.5, b.Leaf(1))) },
			"node 0 (max): child 0: probability 0.5 under a max node"},
		{"probability under min", func(b *tree.Builder) tree.Ref {
			return b.Node(core.Min, tree.E(b.Leaf(1)), tree.P(1, b.Leaf(1)))
		}, "node 0 (min): child 1: probability 1 under a min node"},
		{"negative move", func(b *tree.Builder) tree.Ref { return b.Node(core.Max, tree.E(b.Leaf(1)).WithMove(-1)) },
			"node 0 (max): child 0: move -1, want an integer in [0, 1048575]"},
		{"move too large", func(b *tree.Builder) tree.Ref { return b.Node(core.Max, tree.E(b.Leaf(1)).WithMove(tree.MaxMove+1)) },
			"child 0: move 1048576, want an integer in [0, 1048575]"},
		{"too many children", func(b *tree.Builder) tree.Ref {
			leaves := make([]tree.Ref, tree.MaxMove+2)
			for i := range leaves {
				leaves[i] = b.Leaf(0)
			}
			return b.Max(leaves...)
		}, "node 0 (max): 1048577 children, want at most 1048576"},
		{"NaN prior", func(b *tree.Builder) tree.Ref { return b.Node(core.Max, tree.E(b.Leaf(1)).WithPrior(math.NaN())) },
			"node 0 (max): child 0: prior NaN, want a finite number"},
		{"infinite prior", func(b *tree.Builder) tree.Ref {
			return b.Node(core.Max, tree.E(b.Leaf(1)).WithPrior(math.Inf(-1)))
		}, "child 0: prior -Inf, want a finite number"},
		{"node used twice", func(b *tree.Builder) tree.Ref { l := b.Leaf(1); return b.Max(l, l) },
			"node 0 (max): child 1 is already node 0.0; a node can have only one parent"},
		{"subtree used twice", func(b *tree.Builder) tree.Ref { m := b.Min(b.Leaf(1)); return b.Max(m, b.Max(b.Leaf(0), m)) },
			"node 0.1 (max): child 1 is already node 0.0"},
		{"zero Ref", func(b *tree.Builder) tree.Ref { return b.Max(b.Leaf(1), 0) },
			"node 0 (max): child 1: Ref 0 is not a node made before its parent"},
		{"forged Ref", func(b *tree.Builder) tree.Ref { return b.Max(b.Leaf(1), 7) },
			"child 1: Ref 7 is not a node made before its parent"},
		{"zero root", func(b *tree.Builder) tree.Ref { b.Leaf(1); return 0 },
			"root Ref 0 is not a node of this Builder"},
		{"unknown kind", func(b *tree.Builder) tree.Ref { return b.Node(core.Kind(9), tree.E(b.Leaf(1))) },
			"node 0 (Kind(9)): unknown kind"},
		{"terminal with children", func(b *tree.Builder) tree.Ref { return b.Node(core.Terminal, tree.E(b.Leaf(1))) },
			"node 0 (terminal): children on a terminal node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tree.NewBuilder()
			tr, err := b.Build(tt.make(b))
			if err == nil {
				t.Fatalf("Build = %s, want an error containing %q", tr, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Build error = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestBuilderTolerance checks that chance probabilities may miss 1 by 1e-9.
func TestBuilderTolerance(t *testing.T) {
	b := tree.NewBuilder()
	third := 1.0 / 3
	if _, err := b.Build(b.Chance(tree.P(third, b.Leaf(0)), tree.P(third, b.Leaf(1)), tree.P(third, b.Leaf(1)))); err != nil {
		t.Errorf("thirds: %v", err)
	}
	if _, err := b.Build(b.Chance(tree.P(0.5, b.Leaf(0)), tree.P(0.5+2e-9, b.Leaf(1)))); err == nil {
		t.Errorf("0.5 + 0.5+2e-9: no error")
	}
}

// TestBuildMatchesParse builds random trees and parses their text, and checks
// that both give the same tree.
// TestBuildMatchesParse: Parse, which lays out the text itself, gives the
// tree a Builder makes, numbering, parents, depth and move limit included,
// from the canonical text and from a noisy one.
func TestBuildMatchesParse(t *testing.T) {
	for seed := range uint64(300) {
		r := seededRand(seed)
		n := randTree(r, 5)
		b := tree.NewBuilder()
		built, err := b.Build(build(b, n))
		if err != nil {
			t.Fatalf("seed %d: Build: %v", seed, err)
		}
		for _, s := range []string{text(n, nil), text(n, r)} {
			parsed, err := tree.Parse(s)
			if err != nil {
				t.Fatalf("seed %d: Parse(%s): %v", seed, s, err)
			}
			if d := layoutDiff(built, parsed); d != "" {
				t.Errorf("seed %d: Build gives %s, Parse gives %s: %s", seed, built, parsed, d)
			}
		}
	}
}

// layoutDiff says how got differs from want, as trees (Equal) or in the
// parents, depth and move limit that a layout derives, or returns "".
func layoutDiff(want, got *tree.Tree) string {
	switch {
	case !want.Equal(got):
		return "not Equal"
	case want.Depth() != got.Depth() || want.MoveLimit() != got.MoveLimit():
		return fmt.Sprintf("depth %d, move limit %d; want %d, %d", got.Depth(), got.MoveLimit(), want.Depth(), want.MoveLimit())
	}
	for i := range int32(want.Len()) {
		if want.Parent(i) != got.Parent(i) {
			return fmt.Sprintf("node %d has parent %d, want %d", i, got.Parent(i), want.Parent(i))
		}
	}
	return ""
}

// TestBuilderIgnoresUnsetAttributes checks that Move and Prior count only
// when HasMove and HasPrior are set.
func TestBuilderIgnoresUnsetAttributes(t *testing.T) {
	b := tree.NewBuilder()
	got, err := b.Build(b.Node(core.Max, tree.Edge{Node: b.Leaf(1), Move: 5, Prior: 0.5}, tree.E(b.Leaf(0))))
	if err != nil {
		t.Fatal(err)
	}
	if want := tree.MustParse("(max 1 0)"); !got.Equal(want) {
		t.Errorf("built %s, want %s", got, want)
	}
}

// TestBuildDistinctMoves: Build refuses two children of a max or min node
// with one move identity, given or by default, and keeps a chance node's.
func TestBuildDistinctMoves(t *testing.T) {
	for _, c := range []struct {
		kind core.Kind
		ok   bool
	}{{core.Max, false}, {core.Min, false}, {core.Chance, true}} {
		b := tree.NewBuilder()
		e := []tree.Edge{tree.E(b.Leaf(1)).WithMove(1), tree.E(b.Leaf(0))}
		if c.kind == core.Chance {
			e[0].Prob, e[1].Prob = 0.5, 0.5
		}
		_, err := b.Build(b.Node(c.kind, e...))
		if (err == nil) != c.ok || err != nil && !strings.Contains(err.Error(), "children 0 and 1 have the same move 1") {
			t.Errorf("%v node with moves 1 and 1 (the default of child 1): %v", c.kind, err)
		}
	}
}
