package gtp_test

import (
	"context"
	"fmt"

	"github.com/mctscheck/mctscheck/gtp"
	"github.com/mctscheck/mctscheck/match"
	"github.com/mctscheck/mctscheck/rules"
)

// An engine that plays UCT with 500 simulations a move answers GTP
// commands one line at a time; after two passes genmove passes.
func ExampleEngine_Do() {
	in := rules.MustParse("uct")
	e, err := gtp.NewEngine(gtp.Config{Player: match.Player{Name: in.Spec, Rule: in.Rule}, Budget: 500, Size: 5, Komi: 0.5})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range []string{"1 play b C3", "play w C3", "play w pass", "play b pass", "2 genmove w", "final_score"} {
		reply, _ := e.Do(context.Background(), line)
		fmt.Print(reply)
	}
	// Output:
	// =1
	//
	// ? illegal move: C3: point is occupied
	//
	// =
	//
	// =
	//
	// =2 pass
	//
	// = B+24.5
}
