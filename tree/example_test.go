package tree_test

import (
	"fmt"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

func ExampleParse() {
	t, err := tree.Parse(`
		; max chooses between a min node and a coin flip
		(max (min 1 0)@3~0.8
		     (chance 0.5:(min 1 1) 0.5:0)~-0.2)`)
	if err != nil {
		fmt.Println(err)
		return
	}
	s := tree.Solve(t)
	fmt.Println(t)
	fmt.Println("V =", s.Value(0))
	fmt.Println("optimal root children:", s.Optimal(0))
	// Output:
	// (max (min 1 0)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)~-0.2)
	// V = 0.5
	// optimal root children: [1]
}

func ExampleParse_error() {
	_, err := tree.Parse("(max 0 (chance 0.5:1 0.25:0))")
	fmt.Println(err)
	_, err = tree.Parse("(max (min 1 0) x)")
	fmt.Println(err)
	// Output:
	// offset 7: node 0.1 (chance): probabilities sum to 0.75, want 1
	// offset 15: expected ')' or a child, found 'x'
}

func ExampleBuilder() {
	b := tree.NewBuilder()
	m := b.Min(b.Leaf(1), b.Leaf(0))
	c := b.Chance(tree.P(0.5, b.Min(b.Leaf(1), b.Leaf(1))), tree.P(0.5, b.Leaf(0)))
	t, err := b.Build(b.Node(core.Max,
		tree.E(m).WithMove(3).WithPrior(0.8),
		tree.E(c).WithPrior(-0.2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t)
	fmt.Println(t.Len(), "nodes, depth", t.Depth(), "moves below", t.MoveLimit())

	_, err = b.Build(b.Max(m, m))
	fmt.Println(err)
	// Output:
	// (max (min 1 0)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)~-0.2)
	// 9 nodes, depth 3 moves below 4
	// tree: node 0 (max): child 1 is already node 0.0; a node can have only one parent
}

func ExampleTree_Game() {
	t := tree.MustParse("(max (min 1 0)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)~-0.2)")
	g := t.Game()
	for i := range g.NumMoves() {
		h, ok := g.Prior(i)
		fmt.Printf("move %d: identity %d, prior %v %v\n", i, g.Move(i), h, ok)
	}
	g.Play(1) // the chance node
	fmt.Println(g.Kind(), g.NumMoves(), g.Prob(0), "node", g.Node())
	g.Play(1)
	fmt.Println(g.Kind(), g.Reward(), "node", g.Node(), "path", t.Path(g.Node()))
	// Output:
	// move 0: identity 3, prior 0.8 true
	// move 1: identity 1, prior -0.2 true
	// chance 2 0.5 node 2
	// terminal 0 node 6 path [1 1]
}
