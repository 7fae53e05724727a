package props_test

import (
	"context"
	"fmt"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/connect4"
	"github.com/mctscheck/mctscheck/props"
)

// CheckGame judges a rule on a real position against an exact oracle: here
// UCT in practical mode on an end-game position of Pons' L3 set, valued by
// the Connect Four solver.
func ExampleCheckGame() {
	p := connect4.MustParse("7422341735647741166133573473242566")
	oracle, err := connect4.NewOracle(p, connect4.Config{TableBits: 16})
	if err != nil {
		panic(err)
	}
	rep, err := props.CheckGame(context.Background(), core.UCT{C: 1.4}, connect4.NewGame(p), oracle,
		props.GameOptions{Options: props.Options{Growth: core.GrowPractical}, Game: "connect4", Position: p.String()})
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.Summary)
	fmt.Println("value", rep.Value, "optimal root moves", rep.Optimal, "of columns", rep.Moves)
	// Output:
	// no counterexample: connect4 7422341735647741166133573473242566 × 4 seeds up to budget 16384, all decisions optimal from budget 64 on
	// value 1 optimal root moves [1 3] of columns [0 1 4 5]
}
