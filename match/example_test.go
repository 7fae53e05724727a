package match_test

import (
	"context"
	"fmt"

	"github.com/mctscheck/mctscheck/match"
	"github.com/mctscheck/mctscheck/rules"
)

// Algorithm 2 around MC-RAVE plays MC-RAVE alone at Connect Four: ten
// games, 200 simulations a move. The result is the same on any machine
// and with any number of workers.
func ExamplePlay() {
	a, b := rules.MustParse("threshold:v=0.3,rule=mc-rave"), rules.MustParse("mc-rave")
	res, err := match.Play(context.Background(), match.Config{
		Game:   match.ConnectFour(),
		A:      match.Player{Name: a.Spec, Rule: a.Rule, Backup: a.Backup},
		B:      match.Player{Name: b.Spec, Rule: b.Rule, Backup: b.Backup},
		Games:  10,
		Budget: 200,
		Seed:   1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("A: %d wins, %d draws, %d losses: %.0f%% [%.0f%%, %.0f%%]\n", res.Wins, res.Draws, res.Losses, 100*res.Rate, 100*res.Low, 100*res.High)
	fmt.Println("game 0:", res.Records[0].Text)
	// Output:
	// A: 3 wins, 1 draws, 6 losses: 35% [14%, 65%]
	// game 0: 34457375774545
}
