package games_test

import (
	"context"
	"fmt"
	"math"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
)

// A real game is a core.Game like any explicit tree: here UCT finds X's
// winning move on a tic-tac-toe board where O threatens too.
func ExampleTicTacToe() {
	g, err := games.NewTicTacToeFrom("XX.OO....") // X to move; cell 2 wins
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := core.New(g, core.UCT{C: math.Sqrt2}, core.Config{Seed: 1, Growth: core.GrowPractical})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Run(context.Background(), 5000); err != nil {
		fmt.Println(err)
		return
	}
	d := s.Decide(core.MostVisited)
	g.Reset()
	fmt.Println(g.NumMoves(), "moves; play cell", g.Move(d))
	// Output: 5 moves; play cell 2
}

// Synth is the benchmarks' workload: a uniform tree of branching b and depth
// d whose leaves' rewards come from a hash, so any engine can search the
// same tree.
func ExampleSynth() {
	g, err := games.NewSynth(8, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Kind(), g.NumMoves())
	for range 10 {
		g.Play(3)
	}
	fmt.Println(g.Kind(), g.Reward())
	_, err = games.NewSynth(0, 10)
	fmt.Println(err)
	// Output:
	// max 8
	// terminal 0
	// games: synth branching 0 and depth 10, want 1 ≤ b ≤ 65536 and 0 ≤ d ≤ 65536
}
