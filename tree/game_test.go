package tree_test

import (
	"math/rand/v2"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// TestCursorMatchesTree walks to every node of random trees with a cursor and
// checks that the cursor reports what the tree's accessors do.
func TestCursorMatchesTree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	trees := []*tree.Tree{tree.MustParse(example), tree.MustParse("0.25")}
	for range 50 {
		b := tree.NewBuilder()
		tr, err := b.Build(build(b, randTree(r, 1+r.IntN(6))))
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, tr)
	}
	for _, tr := range trees {
		checkCursor(t, tr)
	}
}

func checkCursor(t *testing.T, tr *tree.Tree) {
	t.Helper()
	c := tr.Game()
	var g core.Game = c
	if got, want := c.MoveLimit(), tr.MoveLimit(); got != want {
		t.Errorf("%s: cursor MoveLimit() = %d, want %d", tr, got, want)
	}
	for i := range int32(tr.Len()) {
		g.Reset()
		for _, k := range tr.Path(i) {
			g.Play(int(k))
		}
		if got := c.Node(); got != i {
			t.Errorf("%s: cursor at Path(%d) is at node %d", tr, i, got)
			continue
		}
		if got, want := g.Kind(), tr.Kind(i); got != want {
			t.Errorf("%s: node %d: Kind() = %v, want %v", tr, i, got, want)
		}
		if got, want := g.NumMoves(), tr.NumChildren(i); got != want {
			t.Errorf("%s: node %d: NumMoves() = %d, want %d", tr, i, got, want)
		}
		if tr.Kind(i) == core.Terminal {
			if got, want := g.Reward(), tr.Reward(i); got != want {
				t.Errorf("%s: node %d: Reward() = %v, want %v", tr, i, got, want)
			}
		}
		for k := range tr.NumChildren(i) {
			ch := tr.Child(i, k)
			if tr.Kind(i) == core.Chance {
				if got, want := g.Prob(k), tr.Prob(ch); got != want {
					t.Errorf("%s: node %d: Prob(%d) = %v, want %v", tr, i, k, got, want)
				}
			}
			if got, want := c.Move(k), tr.Move(ch); got != want || got >= c.MoveLimit() {
				t.Errorf("%s: node %d: Move(%d) = %d, want %d below MoveLimit %d", tr, i, k, got, want, c.MoveLimit())
			}
			gh, gok := c.Prior(k)
			wh, wok := tr.Prior(ch)
			if gh != wh || gok != wok {
				t.Errorf("%s: node %d: Prior(%d) = %v, %v; want %v, %v", tr, i, k, gh, gok, wh, wok)
			}
		}
	}
}

// TestCursorAllocs checks that walks from the root through the core
// interfaces do not allocate.
func TestCursorAllocs(t *testing.T) {
	tr := tree.MustParse(example)
	var (
		g  core.Game      = tr.Game()
		m  core.Mover     = g.(core.Mover)
		hs core.Heuristic = g.(core.Heuristic)
	)
	sink := 0.0
	walk := 0
	allocs := testing.AllocsPerRun(100, func() {
		walk++
		g.Reset()
		for g.Kind() != core.Terminal {
			n := g.NumMoves()
			i := walk % n
			if g.Kind() == core.Chance {
				sink += g.Prob(i)
			}
			h, _ := hs.Prior(i)
			sink += h + float64(m.Move(i)+m.MoveLimit())
			g.Play(i)
		}
		sink += g.Reward()
	})
	if allocs != 0 {
		t.Errorf("a Reset+Play walk allocates %v times, want 0", allocs)
	}
	_ = sink
}
