package tree_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/internal/ctxtest"
	"github.com/mctscheck/mctscheck/tree"
)

func TestEdits(t *testing.T) {
	const src = `(max (min 1 0.5@7~0.25)~0.5 (chance 0.25:(max 0 1)@4 0.75:0) 0.75@9)`
	// Node numbers, breadth-first: 0 root; 1 min, 2 chance, 3 leaf 0.75;
	// 4, 5 the min's leaves; 6 the chance's max, 7 its leaf 0; 8, 9 under 6.
	cases := []struct {
		name string
		edit func(*tree.Tree) (*tree.Tree, error)
		want string
	}{
		{"leaf", func(t *tree.Tree) (*tree.Tree, error) { return t.WithLeaf(1, 0.25) },
			`(max 0.25~0.5 (chance 0.25:(max 0 1)@4 0.75:0) 0.75@9)`},
		{"leaf at root", func(t *tree.Tree) (*tree.Tree, error) { return t.WithLeaf(0, 1) }, `1`},
		{"hoist keeps the outer edge", func(t *tree.Tree) (*tree.Tree, error) { return t.Hoist(1, 1) },
			`(max 0.5~0.5 (chance 0.25:(max 0 1)@4 0.75:0) 0.75@9)`},
		{"hoist under chance", func(t *tree.Tree) (*tree.Tree, error) { return t.Hoist(6, 1) },
			`(max (min 1 0.5@7~0.25)~0.5 (chance 0.25:1@4 0.75:0) 0.75@9)`},
		{"drop renumbers default moves, keeps explicit ones", func(t *tree.Tree) (*tree.Tree, error) { return t.Without(0, 0) },
			`(max (chance 0.25:(max 0 1)@4 0.75:0) 0.75@9)`},
		{"reward", func(t *tree.Tree) (*tree.Tree, error) { return t.WithReward(3, 0) },
			`(max (min 1 0.5@7~0.25)~0.5 (chance 0.25:(max 0 1)@4 0.75:0) 0@9)`},
		{"one prior", func(t *tree.Tree) (*tree.Tree, error) { return t.WithoutPrior(5) },
			`(max (min 1 0.5@7)~0.5 (chance 0.25:(max 0 1)@4 0.75:0) 0.75@9)`},
		{"one move", func(t *tree.Tree) (*tree.Tree, error) { return t.WithDefaultMove(6) },
			`(max (min 1 0.5@7~0.25)~0.5 (chance 0.25:(max 0 1) 0.75:0) 0.75@9)`},
		{"all priors", (*tree.Tree).WithoutPriors,
			`(max (min 1 0.5@7) (chance 0.25:(max 0 1)@4 0.75:0) 0.75@9)`},
		{"all moves", (*tree.Tree).WithDefaultMoves,
			`(max (min 1 0.5~0.25)~0.5 (chance 0.25:(max 0 1) 0.75:0) 0.75)`},
		{"leaves at once, one inside another's subtree", func(t *tree.Tree) (*tree.Tree, error) {
			return t.WithLeaves(context.Background(), []int32{1, 8, 6}, []float64{0.5, 0, 1})
		}, `(max 0.5~0.5 (chance 0.25:1@4 0.75:0) 0.75@9)`},
		{"children at once", func(t *tree.Tree) (*tree.Tree, error) { return t.WithoutChildren(context.Background(), 0, []int{2, 0}) },
			`(max (chance 0.25:(max 0 1)@4 0.75:0))`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig := tree.MustParse(src)
			got, err := c.edit(orig)
			if err != nil {
				t.Fatal(err)
			}
			if want := tree.MustParse(c.want); !got.Equal(want) {
				t.Errorf("got %s\nwant %s", got, want)
			}
			if !orig.Equal(tree.MustParse(src)) {
				t.Errorf("the edit changed the original tree: %s", orig)
			}
		})
	}
}

func TestEditErrors(t *testing.T) {
	orig := tree.MustParse(`(max (chance 0.5:1 0.5:0) (min 0))`)
	cases := []struct {
		name string
		edit func(*tree.Tree) (*tree.Tree, error)
		want string
	}{
		{"node out of range", func(t *tree.Tree) (*tree.Tree, error) { return t.WithLeaf(9, 0) }, "node 9 of a tree of 6 nodes"},
		{"negative node", func(t *tree.Tree) (*tree.Tree, error) { return t.WithoutPrior(-1) }, "node -1"},
		{"no such child", func(t *tree.Tree) (*tree.Tree, error) { return t.Hoist(1, 2) }, "no child 2 of 2"},
		{"chance loses a child", func(t *tree.Tree) (*tree.Tree, error) { return t.Without(1, 0) }, "sum"},
		{"last child", func(t *tree.Tree) (*tree.Tree, error) { return t.Without(2, 0) }, "no children"},
		{"reward of an inner node", func(t *tree.Tree) (*tree.Tree, error) { return t.WithReward(1, 0) }, "not a terminal"},
		{"reward out of range", func(t *tree.Tree) (*tree.Tree, error) { return t.WithReward(3, 2) }, "reward"},
		{"leaf out of range", func(t *tree.Tree) (*tree.Tree, error) { return t.WithLeaf(2, -1) }, "reward"},
		{"leaves and rewards differ", func(t *tree.Tree) (*tree.Tree, error) {
			return t.WithLeaves(context.Background(), []int32{1, 2}, []float64{0})
		}, "2 nodes and 1 rewards"},
		{"all children", func(t *tree.Tree) (*tree.Tree, error) { return t.WithoutChildren(context.Background(), 0, []int{0, 1}) }, "no children"},
		{"no such child of several", func(t *tree.Tree) (*tree.Tree, error) { return t.WithoutChildren(context.Background(), 0, []int{0, 2}) }, "no child 2 of 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.edit(orig)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, %v; want an error containing %q", got, err, c.want)
			}
		})
	}
}

// TestShuffled: a shuffled tree has the same value, the same multiset of
// children at every node, and edges that keep their attributes; over many
// draws every order of a small node appears.
func TestShuffled(t *testing.T) {
	orig := tree.MustParse(`(max (min 1 0.5~0.25)@7 (chance 0.25:(max 0 1) 0.75:0) 0.75~-1)`)
	seen := map[string]bool{}
	for seed := range uint64(1000) {
		sh := orig.Shuffled(core.NewRNG(seed))
		if got, want := tree.Solve(sh).Value(0), tree.Solve(orig).Value(0); got != want {
			t.Fatalf("seed %d: %s has value %v, want %v", seed, sh, got, want)
		}
		if sh.Len() != orig.Len() {
			t.Fatalf("seed %d: %d nodes, want %d", seed, sh.Len(), orig.Len())
		}
		// Each root child keeps its move identity and prior.
		for k := range sh.NumChildren(0) {
			c := sh.Child(0, k)
			h, ok := sh.Prior(c)
			switch sh.Move(c) {
			case 7:
				if sh.Kind(c) != core.Min || ok {
					t.Fatalf("seed %d: child with move 7 is %v prior %v,%v", seed, sh.Kind(c), h, ok)
				}
			case 1:
				if sh.Kind(c) != core.Chance || ok {
					t.Fatalf("seed %d: child with move 1 is %v", seed, sh.Kind(c))
				}
			case 2:
				if sh.Kind(c) != core.Terminal || sh.Reward(c) != 0.75 || h != -1 {
					t.Fatalf("seed %d: child with move 2 is %v %v prior %v", seed, sh.Kind(c), sh.Reward(c), h)
				}
			default:
				t.Fatalf("seed %d: root child with move %d", seed, sh.Move(c))
			}
		}
		seen[sh.String()] = true
	}
	// 3! root orders × 2 × 2 × 2 inner orders = 48 trees; 1000 draws miss
	// one of them with probability below 48·(47/48)^1000 ≈ 3e-8.
	if len(seen) != 48 {
		t.Errorf("%d distinct shuffles in 1000 draws, want all 48", len(seen))
	}
}

// TestShuffledAsRebuilt: Shuffled, which renumbers the nodes itself, gives
// the tree a Builder makes from the same permutations (each node's
// children drawn in node order, Fisher–Yates), field for field, on random
// trees: the same seeds give the same child orders as before it stopped
// using a Builder.
func TestShuffledAsRebuilt(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for k := range 300 {
		orig := tree.MustParse(text(randTree(r, 5), nil))
		seed := uint64(k)
		got := orig.Shuffled(core.NewRNG(seed))
		want := rebuiltShuffle(orig, core.NewRNG(seed))
		if d := layoutDiff(want, got); d != "" {
			t.Fatalf("tree %s seed %d: Shuffled gives\n%s\nwant\n%s\n%s", orig, seed, got, want, d)
		}
	}
}

// TestShuffledInto: ShuffledInto gives the trees Shuffled gives, seed after
// seed, in the arrays of the first, so that a cursor made on the first
// walks each of them; it refuses a tree it did not make.
func TestShuffledInto(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for k := range 100 {
		orig := tree.MustParse(text(randTree(r, 5), nil))
		var dst *tree.Tree
		var cur *tree.Cursor
		for seed := range uint64(6) {
			rng, want := core.NewRNG(seed), orig.Shuffled(core.NewRNG(seed))
			if seed == 3 { // a nil generator: the tree's own order, in used memory too
				rng, want = nil, orig
			}
			got := orig.ShuffledInto(dst, rng)
			if dst == nil {
				dst, cur = got, got.Game()
			} else if got != dst {
				t.Fatalf("tree %d seed %d: ShuffledInto returned another tree than its dst", k, seed)
			}
			if d := layoutDiff(want, got); d != "" {
				t.Fatalf("tree %s seed %d: ShuffledInto gives\n%s\nwant\n%s\n%s", orig, seed, got, want, d)
			}
			if d := walkDiff(want, cur, r); d != "" {
				t.Fatalf("tree %s seed %d: the first shuffle's cursor: %s", orig, seed, d)
			}
		}
	}
	tr := tree.MustParse("(max (min 1 0) 1)")
	for _, dst := range []*tree.Tree{tr, tree.MustParse("(max 1 0)").ShuffledInto(nil, core.NewRNG(1))} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ShuffledInto(%s) did not panic", dst)
				}
			}()
			tr.ShuffledInto(dst, core.NewRNG(1))
		}()
	}
}

// walkDiff walks c from the root along random moves to a terminal, twice,
// and says where it disagrees with want, or returns "".
func walkDiff(want *tree.Tree, c *tree.Cursor, r *rand.Rand) string {
	for range 2 {
		c.Reset()
		i := int32(0)
		for {
			if c.Kind() != want.Kind(i) || c.NumMoves() != want.NumChildren(i) {
				return fmt.Sprintf("node %d: %v with %d moves, want %v with %d", i, c.Kind(), c.NumMoves(), want.Kind(i), want.NumChildren(i))
			}
			if c.Kind() == core.Terminal {
				if c.Reward() != want.Reward(i) {
					return fmt.Sprintf("node %d: reward %v, want %v", i, c.Reward(), want.Reward(i))
				}
				break
			}
			k := r.IntN(c.NumMoves())
			ch := want.Child(i, k)
			h, ok := c.Prior(k)
			wh, wok := want.Prior(ch)
			if c.Move(k) != want.Move(ch) || c.Prob(k) != want.Prob(ch) || h != wh || ok != wok {
				return fmt.Sprintf("node %d child %d: move %d prob %v prior %v,%v; want %d %v %v,%v",
					i, k, c.Move(k), c.Prob(k), h, ok, want.Move(ch), want.Prob(ch), wh, wok)
			}
			c.Play(k)
			i = ch
		}
	}
	return ""
}

// rebuiltShuffle is the reference for Shuffled: the permutations drawn in
// node order, the tree built bottom-up by a Builder.
func rebuiltShuffle(t *tree.Tree, rng *core.RNG) *tree.Tree {
	perm := make([][]int32, t.Len())
	for i := range int32(t.Len()) {
		p := make([]int32, t.NumChildren(i))
		for k := range p {
			p[k] = t.Child(i, k)
		}
		for k := len(p) - 1; k > 0; k-- {
			j := rng.IntN(k + 1)
			p[k], p[j] = p[j], p[k]
		}
		perm[i] = p
	}
	b := tree.NewBuilder()
	refs := make([]tree.Ref, t.Len())
	for i := int32(t.Len()) - 1; i >= 0; i-- {
		if t.Kind(i) == core.Terminal {
			refs[i] = b.Leaf(t.Reward(i))
			continue
		}
		edges := make([]tree.Edge, len(perm[i]))
		for k, c := range perm[i] {
			e := tree.Edge{Node: refs[c], Prob: t.Prob(c), Move: t.Move(c), HasMove: true}
			e.Prior, e.HasPrior = t.Prior(c)
			edges[k] = e
		}
		refs[i] = b.Node(t.Kind(i), edges...)
	}
	out, err := b.Build(refs[0])
	if err != nil {
		panic(err)
	}
	return out
}

// BenchmarkWithoutChildren drops every other child of a root over 10^6
// leaves in one copy, as a shrinker's group of dropped children does.
func BenchmarkWithoutChildren(b *testing.B) {
	tr, err := tree.Parse("(max" + strings.Repeat(" 0", 999_999) + " 1)")
	if err != nil {
		b.Fatal(err)
	}
	ks := make([]int, 0, tr.NumChildren(0)/2)
	for k := 0; k < tr.NumChildren(0); k += 2 {
		ks = append(ks, k)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.WithoutChildren(context.Background(), 0, ks); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEditsAbandoned: the many-node edits of a large tree give up with
// the context's error when it ends during the copy, and finish when it
// does not.
func TestEditsAbandoned(t *testing.T) {
	big := tree.MustParse("(max (max 0 1" + strings.Repeat(" 0 1", 50_000) + ") 0.5)")
	for _, c := range []struct {
		name  string
		edit  func(context.Context) (*tree.Tree, error)
		nodes int
	}{
		{"WithLeaves", func(ctx context.Context) (*tree.Tree, error) {
			return big.WithLeaves(ctx, []int32{2, 3}, []float64{1, 1})
		}, big.Len()},
		{"WithoutChildren", func(ctx context.Context) (*tree.Tree, error) {
			return big.WithoutChildren(ctx, 1, []int{0, 1, 2})
		}, big.Len() - 3},
	} {
		for _, looks := range []int{1, 3, 20} {
			if _, err := c.edit(ctxtest.EndsAt(looks)); !errors.Is(err, context.Canceled) {
				t.Errorf("%s, the context ending at its look %d: error %v, want context.Canceled", c.name, looks, err)
			}
		}
		if got, err := c.edit(context.Background()); err != nil || got.Len() != c.nodes {
			t.Errorf("%s: error %v, want a tree of %d nodes", c.name, err, c.nodes)
		}
	}
}
