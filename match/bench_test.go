package match

import (
	"context"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// BenchmarkThink measures one move's search in a match: mc-rave, 1000
// simulations, from the empty 9×9 board and from the empty Connect Four
// board.
func BenchmarkThink(b *testing.B) {
	in := rules.MustParse("mc-rave")
	p := Player{Name: in.Spec, Rule: in.Rule, Backup: in.Backup}
	for _, name := range []string{"go9", "connect4"} {
		b.Run("game="+name, func(b *testing.B) {
			game := gameNamed(b, name)
			st, err := game.New()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Think(context.Background(), st, p, 1000, core.MostVisited, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
