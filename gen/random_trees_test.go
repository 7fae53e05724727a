package gen_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/tree"
)

// TestTreesRespectShape draws trees of many shapes and checks every bound.
func TestTreesRespectShape(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		sh := gen.Shape{
			MaxDepth:     rapid.IntRange(1, 6).Draw(rt, "depth"),
			MaxBranching: rapid.IntRange(2, 5).Draw(rt, "branching"),
			Arbitrary:    rapid.Bool().Draw(rt, "arbitrary"),
			Chance:       rapid.Bool().Draw(rt, "chance"),
			Binary:       rapid.Bool().Draw(rt, "binary"),
			Priors:       rapid.Bool().Draw(rt, "priors"),
		}
		sh.MaxNodes = rapid.IntRange(1+sh.MaxBranching, 200).Draw(rt, "nodes")
		if rapid.Bool().Draw(rt, "moves") {
			sh.Moves = sh.MaxBranching + 2
		}
		tr := gen.Trees(sh).Draw(rt, "tree")
		if tr.Kind(0) != core.Max || tr.NumChildren(0) < 2 {
			rt.Fatalf("root %v with %d children, want max with ≥ 2: %v", tr.Kind(0), tr.NumChildren(0), tr)
		}
		if tr.Len() > sh.MaxNodes || tr.Depth() > sh.MaxDepth {
			rt.Fatalf("%d nodes, depth %d; shape %+v: %v", tr.Len(), tr.Depth(), sh, tr)
		}
		for i := range int32(tr.Len()) {
			k := tr.Kind(i)
			if k == core.Chance && !sh.Chance {
				rt.Fatalf("chance node %d without Shape.Chance: %v", i, tr)
			}
			if k == core.Terminal {
				r := tr.Reward(i)
				if sh.Binary && r != 0 && r != 1 {
					rt.Fatalf("reward %v in a binary tree", r)
				}
				if r*16 != float64(int(r*16)) {
					rt.Fatalf("reward %v off the 1/16 grid", r)
				}
			}
			if k == core.Max || k == core.Min {
				p := tr.Parent(i)
				if !sh.Arbitrary && p >= 0 && tr.Kind(p) != core.Chance && tr.Kind(p) == k {
					rt.Fatalf("node %d: %v under %v with alternating kinds: %v", i, k, tr.Kind(p), tr)
				}
			}
			if p := tr.Parent(i); p >= 0 && tr.Kind(p) != core.Chance {
				if _, ok := tr.Prior(i); ok != sh.Priors {
					rt.Fatalf("node %d: prior present %v, Shape.Priors %v", i, ok, sh.Priors)
				}
			}
		}
		// Printing and parsing give the tree back, so witnesses replay.
		back, err := tree.Parse(tr.String())
		if err != nil || !back.Equal(tr) {
			rt.Fatalf("round trip of %v: %v, %v", tr, back, err)
		}
	})
}

func TestTreesShrinkToSmallest(t *testing.T) {
	// The simplest tree the generator can draw: a max root over two 0 leaves.
	got := gen.Trees(gen.Shape{}).Example(0)
	if got.Len() < 3 {
		t.Fatalf("tree %v smaller than a root with two leaves", got)
	}
}

func TestShapeErrors(t *testing.T) {
	for _, sh := range []gen.Shape{
		{MaxDepth: -1}, {MaxBranching: 1}, {MaxBranching: 9}, {MaxNodes: 2}, {Grid: 3}, {Moves: 2},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Trees(%+v) did not panic", sh)
				}
			}()
			gen.Trees(sh)
		}()
	}
}

// TestTraps checks each trap's optimal root move and its claimed properties.
func TestTraps(t *testing.T) {
	for _, tr := range gen.Traps() {
		t.Run(tr.Name, func(t *testing.T) {
			sol := tree.Solve(tr.Tree)
			opt := sol.Optimal(0)
			if len(opt) != 1 {
				t.Fatalf("%v: optimal root children %v, want exactly one", tr.Tree, opt)
			}
			for i := range int32(tr.Tree.Len()) {
				if tr.Tree.Kind(i) == core.Terminal {
					if r := tr.Tree.Reward(i); tr.Binary && r != 0 && r != 1 {
						t.Errorf("binary trap with reward %v", r)
					}
				}
				if tr.Tree.Kind(i) == core.Chance {
					t.Errorf("trap with a chance node")
				}
			}
		})
	}
	if _, err := gen.EpsilonDeepTrap(0); err == nil {
		t.Error("EpsilonDeepTrap(0): no error")
	}
	if _, err := gen.CoquelinMunosChain(3); err == nil {
		t.Error("CoquelinMunosChain(3): no error")
	}
	if _, err := gen.BiasTrap(4, 0.3, 0.5); err == nil {
		t.Error("BiasTrap with denominator 12: no error")
	}
	if _, err := gen.RaveZeroTrap(0); err == nil {
		t.Error("RaveZeroTrap(0): no error")
	}
}

func ExampleTrees() {
	tr := gen.Trees(gen.Shape{Binary: true, MaxDepth: 2}).Example(1)
	fmt.Println(tr.Kind(0), tr.NumChildren(0) >= 2)
	// Output: max true
}
