package core_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/tree"
)

// methodsOnly hides a game's arrays, so that the search calls its methods.
type methodsOnly struct{ *tree.Cursor }

// Not core.ArrayGame's signature: the embedded method is hidden.
func (methodsOnly) Arrays() {}

// priorRule needs priors and gives new children virtual experience from
// them, so that the search reads the game's Heuristic on every expansion.
type priorRule struct{}

func (priorRule) Needs() core.Needs { return core.Needs{Priors: true, Virtual: priorRule{}} }
func (priorRule) Virtual(h float64, ok bool) (k1, k2 float64) {
	if !ok {
		return 0, 0
	}
	return 2, 2 * (h + 1) / 2
}
func (priorRule) Select(s *core.Site) int {
	best, bestScore := 0, math.Inf(-1)
	for i := range s.Len() {
		h, _ := s.Prior(i)
		score := (s.W(i)+1)/(s.N(i)+2) + 0.1*h + math.Sqrt(math.Log(s.ParentN()+1)/(s.N(i)+1))
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// TestArraysSameSearch: a search that reads an explicit tree's arrays stores
// the same statistics, simulation for simulation, as one that calls the
// tree's methods, in every mode, with chance nodes, move identities and
// priors. It fails if the table is read at the wrong position, or if a
// roll-out, an expansion or a chance draw takes another value from it.
func TestArraysSameSearch(t *testing.T) {
	shape := gen.Shape{MaxDepth: 4, MaxBranching: 3, MaxNodes: 40, Chance: true, Grid: 64, Moves: 6, Priors: true}
	cases := append(configs[:len(configs):len(configs)], struct {
		name string
		rule core.Rule
		cfg  core.Config
	}{"practical/priors", priorRule{}, core.Config{Growth: core.GrowPractical}})
	rapid.Check(t, func(rt *rapid.T) {
		tr := gen.Trees(shape).Draw(rt, "tree")
		for _, c := range cases {
			var dumps [2][]core.NodeInfo
			for j, g := range []core.Game{tr.Game(), methodsOnly{tr.Game()}} {
				c.cfg.Seed = 7
				s := newSearch(t, g, c.rule, c.cfg)
				run(t, s, 300)
				dumps[j] = dump(s)
			}
			if diff := diffDumps(dumps[0], dumps[1]); diff != "" {
				rt.Fatalf("%s on %v: table and methods differ (-table +methods):\n%s", c.name, tr, diff)
			}
		}
		// Tree-parallel workers read the table too; lockstep makes them
		// deterministic, so the two searches must again agree.
		var dumps [2][]core.NodeInfo
		for j, wrap := range []func(*tree.Cursor) core.Game{
			func(c *tree.Cursor) core.Game { return c },
			func(c *tree.Cursor) core.Game { return methodsOnly{c} },
		} {
			cfg := core.Config{Seed: 7, Lockstep: true, VirtualLoss: core.VirtualLoss{N: 1}}
			s, err := core.NewTreeParallel([]core.Game{wrap(tr.Game()), wrap(tr.Game())}, priorRule{}, cfg)
			if err != nil {
				rt.Fatal(err)
			}
			run(t, s, 300)
			dumps[j] = dump(s)
		}
		if diff := diffDumps(dumps[0], dumps[1]); diff != "" {
			rt.Fatalf("lockstep on %v: table and methods differ (-table +methods):\n%s", tr, diff)
		}
	})
}

// badTable is a game whose arrays do not fit together.
type badTable struct {
	methodsOnly
	t *core.GameArrays
}

func (b badTable) Arrays() *core.GameArrays { return b.t }

func TestArraysChecked(t *testing.T) {
	tr, err := tree.Parse("(max 1 0)")
	if err != nil {
		t.Fatal(err)
	}
	good := *tr.Game().Arrays()
	short := good
	short.First = short.First[:1]
	noPrior := good // a tree without priors has neither column
	noPrior.Prior, noPrior.HasPrior = make([]float64, len(good.Kind)), nil
	for name, tab := range map[string]*core.GameArrays{"nil": nil, "empty": {}, "short First": &short, "Prior without HasPrior": &noPrior} {
		_, err := core.New(badTable{methodsOnly{tr.Game()}, tab}, core.UCT{C: 1}, core.Config{})
		if err == nil || !strings.Contains(err.Error(), "GameArrays") {
			t.Errorf("%s: New gave %v, want an error about the GameArrays", name, err)
		}
	}
	if _, err := core.New(badTable{methodsOnly{tr.Game()}, &good}, core.UCT{C: 1}, core.Config{}); err != nil {
		t.Errorf("the tree's own arrays: %v", err)
	}
}

// pair is a game stored whole: max picks one of two terminals, rewards 0.2
// and 0.9. Its methods read the same arrays that Arrays returns, as
// ArrayGame requires.
type pair struct {
	t  *core.GameArrays
	at int32
}

func newPair() *pair {
	return &pair{t: &core.GameArrays{
		Kind:   []core.Kind{core.Max, core.Terminal, core.Terminal},
		First:  []int32{1, 3, 3, 3},
		Reward: []float64{0, 0.2, 0.9},
		Prob:   []float64{0, 0, 0},
	}}
}

func (p *pair) Arrays() *core.GameArrays { return p.t }
func (p *pair) Reset()                   { p.at = 0 }
func (p *pair) Kind() core.Kind          { return p.t.Kind[p.at] }
func (p *pair) NumMoves() int            { return int(p.t.First[p.at+1] - p.t.First[p.at]) }
func (p *pair) Play(i int)               { p.at = p.t.First[p.at] + int32(i) }
func (p *pair) Reward() float64          { return p.t.Reward[p.at] }
func (p *pair) Prob(i int) float64       { return p.t.Prob[p.t.First[p.at]+int32(i)] }

// A game that can list all its positions offers them as GameArrays, and the
// search reads the arrays instead of calling the methods on every move.
func ExampleArrayGame() {
	s, err := core.New(newPair(), core.UCT{C: 1}, core.Config{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Run(context.Background(), 1000); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("best move", s.Decide(core.MostVisited))
	// Output: best move 1
}
