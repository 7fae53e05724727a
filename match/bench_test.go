package match

import (
	"context"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/rules"
)

// BenchmarkRollout compares a light playout from the empty 9×9 board
// played through FastGame with FastLight (policy=fast), through the Game
// with goboard.Light (policy=light), and by Board.Playout (policy=playout).
func BenchmarkRollout(b *testing.B) {
	g, err := goboard.NewGame(goboard.Config{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("policy=fast", func(b *testing.B) {
		rng := core.NewRNG(1)
		f := NewFastGame(g)
		b.ReportAllocs()
		for b.Loop() {
			f.Reset()
			for f.Kind() != core.Terminal {
				f.Play(FastLight{}.Choose(f, rng))
			}
		}
	})
	b.Run("policy=light", func(b *testing.B) {
		rng := core.NewRNG(1)
		b.ReportAllocs()
		for b.Loop() {
			g.Reset()
			for g.Kind() != core.Terminal {
				g.Play(goboard.Light{}.Choose(g, rng))
			}
		}
	})
	b.Run("policy=playout", func(b *testing.B) {
		rng := core.NewRNG(1)
		g.Reset()
		start := *g.Board()
		b.ReportAllocs()
		for b.Loop() {
			bd := start
			bd.Playout(rng)
		}
	})
}

// BenchmarkThink measures one move's search in a match: mc-rave, 1000
// simulations, from the empty 9×9 board and from the empty Connect Four
// board.
func BenchmarkThink(b *testing.B) {
	in := rules.MustParse("mc-rave")
	p := Player{Name: in.Spec, Rule: in.Rule, Backup: in.Backup}
	for _, name := range []string{"go9", "connect4"} {
		b.Run("game="+name, func(b *testing.B) {
			game, err := ByName(name)
			if err != nil {
				b.Fatal(err)
			}
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
