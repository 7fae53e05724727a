package connect4_test

import (
	"context"
	"fmt"
	"math"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/connect4"
)

// Parse a position from a move string, print it and solve it: its score for
// the player to move and the score of each of its moves. Both players have
// three in a row; X wins at once in column 6, with its sixth stone, which
// scores 22 − 6 = 16; blocking O in column 2 draws; anything else loses to O's
// sixth stone.
func Example() {
	p, err := connect4.Parse("4455443352")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, "-", p.Stones(), "stones, first player (X) to move")
	fmt.Print(p.Board())

	s, err := connect4.NewSolver(connect4.Config{TableBits: 20}) // 8 MiB
	if err != nil {
		fmt.Println(err)
		return
	}
	score, err := s.Score(context.Background(), p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("score", score, "value", connect4.Value(score))
	moves, err := s.Moves(context.Background(), p)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range moves {
		fmt.Printf("column %d: score %d\n", m.Column+1, m.Score)
	}

	_, err = connect4.Parse("44444444")
	fmt.Println(err)
	// Output:
	// 4455443352 - 10 stones, first player (X) to move
	// .......
	// .......
	// ...O...
	// ...XX..
	// ..OOO..
	// .OXXX..
	// score 16 value 1
	// column 1: score -16
	// column 2: score 0
	// column 3: score -16
	// column 4: score -16
	// column 5: score -16
	// column 6: score 16
	// column 7: score -16
	// connect4: move string offset 6: column 4 is full
}

// A Game is a core.Game like any other: here UCT finds the winning move of
// the position of the package example, where the opponent threatens too.
func ExampleGame() {
	g := connect4.NewGame(connect4.MustParse("4455443352"))
	s, err := core.New(g, core.UCT{C: math.Sqrt2}, core.Config{Seed: 1, Growth: core.GrowPractical})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Run(context.Background(), 20000); err != nil {
		fmt.Println(err)
		return
	}
	d := s.Decide(core.MostVisited)
	g.Reset()
	fmt.Println(g.Kind(), g.NumMoves(), "moves; play column", g.Move(d)+1)
	// Output: max 7 moves; play column 6
}
