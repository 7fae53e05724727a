package core_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
	"github.com/mctscheck/mctscheck/gen"
)

// siteUCT is core's UCT that does not say so (no Builtin): the search
// hands it a Site at every node, as any other rule, instead of running its
// plain descent.
type siteUCT struct{ c float64 }

func (u siteUCT) Select(s *core.Site) int { return core.UCT{C: u.c}.Select(s) }

// TestPlainSameSearch: a search of core's UCT, whose descent is the plain
// one (no Site, a path of nodes alone, the backup inside the descent, a
// cursor that reads either the game's methods or its arrays without
// testing which), stores the same tree with the same statistics as the
// same rule through a Site, in paper and practical mode, on explicit trees
// read from their arrays and through their methods (with chance nodes) and
// on synth. It fails if the plain descent skips or doubles a backup,
// stores a wrong path, reads the wrong cursor or draws another value.
func TestPlainSameSearch(t *testing.T) {
	cfgs := []core.Config{
		{Seed: 3},
		{Seed: 3, Growth: core.GrowPractical},
		{Seed: 3, Growth: core.GrowPractical, ExpandAfter: 3},
	}
	same := func(fatalf func(string, ...any), name string, game func() core.Game, sims int) {
		for _, cfg := range cfgs {
			var dumps [2][]core.NodeInfo
			for j, r := range []core.Rule{core.UCT{C: 1.3}, siteUCT{1.3}} {
				s := newSearch(t, game(), r, cfg)
				run(t, s, sims)
				dumps[j] = dump(s)
			}
			if diff := diffDumps(dumps[0], dumps[1]); diff != "" {
				fatalf("%s, %+v: the plain search and the one through a Site differ (-plain +site):\n%s", name, cfg, diff)
			}
		}
	}
	same(t.Fatalf, "synth(3, 7)", func() core.Game {
		g, err := games.NewSynth(3, 7)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}, 2000)
	shape := gen.Shape{MaxDepth: 5, MaxBranching: 4, MaxNodes: 60, Chance: true, Grid: 64}
	rapid.Check(t, func(rt *rapid.T) {
		tr := gen.Trees(shape).Draw(rt, "tree")
		same(rt.Fatalf, fmt.Sprint(tr), func() core.Game { return tr.Game() }, 300)
		same(rt.Fatalf, fmt.Sprint(tr)+" through its methods", func() core.Game { return methodsOnly{tr.Game()} }, 300)
	})
}

// panicAt is synth that panics when a move is played at the position the
// moves at lead to from the root (its roll-outs, played by the embedded
// Synth's Playout, never call Play).
type panicAt struct {
	*games.Synth
	at, moves []int
}

func (g *panicAt) Reset() { g.Synth.Reset(); g.moves = g.moves[:0] }

func (g *panicAt) Play(i int) {
	if slices.Equal(g.moves, g.at) {
		panic("boom")
	}
	g.moves = append(g.moves, i)
	g.Synth.Play(i)
}

// TestGamePanicPath: a game that panics while the search stands on a
// stored node is reported as a *core.GameError naming that node's moves
// from the root, in a plain search (whose path holds the nodes alone: the
// moves come from their parents' first children) and in a tree-parallel
// one of one worker.
func TestGamePanicPath(t *testing.T) {
	at := []int{5, 2, 7}
	want := []int32{5, 2, 7}
	for _, name := range []string{"serial", "tree-parallel"} {
		sy, err := games.NewSynth(8, 8)
		if err != nil {
			t.Fatal(err)
		}
		g := &panicAt{Synth: sy, at: at}
		cfg := core.Config{Seed: 1, Growth: core.GrowPractical}
		var s *core.Search
		if name == "serial" {
			s, err = core.New(g, core.UCT{C: math.Sqrt2}, cfg)
		} else {
			s, err = core.NewTreeParallel([]core.Game{g}, core.UCT{C: math.Sqrt2}, cfg)
		}
		if err != nil {
			t.Fatal(err)
		}
		err = s.Run(bg, 100_000)
		ge, ok := errors.AsType[*core.GameError](err)
		if !ok {
			t.Fatalf("%s: Run = %v, want a *core.GameError", name, err)
		}
		if !slices.Equal(ge.Path, want) || ge.Rollout != 0 {
			t.Errorf("%s: the panic at %v reported at path %v + %d roll-out moves: %v", name, want, ge.Path, ge.Rollout, err)
		}
	}
}
