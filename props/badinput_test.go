package props_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
)

// flatOracle values every position 1/2.
type flatOracle struct{}

func (flatOracle) Value(context.Context, []int32) (float64, bool, error) { return 0.5, true, nil }

// chanceBelowRoot is a max root with two moves, each to a chance position
// with the given probabilities over two terminals of reward 1/2.
type chanceBelowRoot struct {
	probs []float64
	depth int
}

func (g *chanceBelowRoot) Reset()   { g.depth = 0 }
func (g *chanceBelowRoot) Play(int) { g.depth++ }
func (g *chanceBelowRoot) Kind() core.Kind {
	return [...]core.Kind{core.Max, core.Chance, core.Terminal}[g.depth]
}
func (g *chanceBelowRoot) NumMoves() int      { return [...]int{2, len(g.probs), 0}[g.depth] }
func (g *chanceBelowRoot) Reward() float64    { return 0.5 }
func (g *chanceBelowRoot) Prob(i int) float64 { return g.probs[i] }

// neverEnds is a game that never ends, with two moves a position.
type neverEnds struct{ depth int }

func (g *neverEnds) Reset()        { g.depth = 0 }
func (g *neverEnds) Play(int)      { g.depth++ }
func (g *neverEnds) NumMoves() int { return 2 }
func (g *neverEnds) Kind() core.Kind {
	return [...]core.Kind{core.Max, core.Min}[g.depth%2]
}
func (g *neverEnds) Reward() float64  { panic("neverEnds: Reward") }
func (g *neverEnds) Prob(int) float64 { panic("neverEnds: Prob") }

// TestCheckGameBadInput is the checker's bad-input table for games that
// break the core.Game contract: CheckGame returns the engine's
// *core.GameError, in both growth modes, instead of a verdict. The game
// that never ends meets the default MaxDepth; in paper mode it stores 2^21
// nodes (32 MiB) first.
func TestCheckGameBadInput(t *testing.T) {
	tests := []struct {
		name string
		game core.Game
		want string
	}{
		{"sum 1.8", &chanceBelowRoot{probs: []float64{0.9, 0.9}}, "probabilities sum to 1.8"},
		{"NaN", &chanceBelowRoot{probs: []float64{math.NaN(), 0.5}}, "probability NaN"},
		{"negative", &chanceBelowRoot{probs: []float64{-0.5, 1.5}}, "probability -0.5"},
		{"+Inf", &chanceBelowRoot{probs: []float64{math.Inf(1), 0}}, "probability +Inf"},
		{"never ends", &neverEnds{}, "the game has not ended (Config.MaxDepth = 1048576)"},
	}
	for _, tt := range tests {
		for _, growth := range []core.Growth{core.GrowPaper, core.GrowPractical} {
			opts := props.GameOptions{Options: props.Options{Growth: growth, Seeds: 1, MinBudget: 4, MaxBudget: 64}, ExportNodes: -1}
			_, err := props.CheckGame(bg, core.UCT{C: 1}, tt.game, flatOracle{}, opts)
			if _, ok := errors.AsType[*core.GameError](err); !ok || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s, %v: %.300v, want a *core.GameError saying %q", tt.name, growth, err, tt.want)
			}
		}
	}
}
