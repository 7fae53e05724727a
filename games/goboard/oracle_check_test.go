package goboard_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// endgame is a small Go position for the checker: 5×5, a few empty points
// left, komi set so that the board as it stands wins for Black by 1/2, and
// a move cap ten moves on, so that the Oracle solves it exactly.
type endgame struct {
	cfg   goboard.Config
	moves []string
	name  string
}

// open returns the endgame's Game and an oracle for it.
func (eg *endgame) open(t testing.TB) (*goboard.Game, *goboard.Oracle) {
	t.Helper()
	g, err := goboard.NewGame(eg.cfg, eg.moves...)
	if err != nil {
		t.Fatal(err)
	}
	o, err := goboard.NewOracle(eg.cfg, eg.moves, 1<<17)
	if err != nil {
		t.Fatal(err)
	}
	return g, o
}

// endgames returns n endgames from random light playouts on 5×5, stopped
// with at most 4 to 6 empty points, whose root has an optimal and a
// non-optimal move and whose root children the oracle values within its
// budget.
func endgames(t testing.TB, n int, seed uint64) []endgame {
	t.Helper()
	rng := core.NewRNG(seed)
	var out []endgame
	for trial := 0; len(out) < n && trial < 50*n; trial++ {
		b, _ := goboard.NewBoard(goboard.Config{Size: 5})
		var moves []string
		for b.Status() == goboard.Playing {
			var cands []int
			empty := 0
			for m := range b.Pass() {
				if b.At(m) == goboard.Empty {
					empty++
					if b.IsLegal(m) && b.Prior(m) != goboard.PriorEyeFill {
						cands = append(cands, m)
					}
				}
			}
			if empty <= 4+trial%3 && b.MovesPlayed() > 10 {
				break
			}
			m := b.Pass()
			if len(cands) > 0 {
				m = cands[rng.IntN(len(cands))]
			}
			c := map[goboard.Color]string{goboard.Black: "b", goboard.White: "w"}[b.ToMove()]
			moves = append(moves, c+" "+goboard.Vertex(m, 5))
			if err := b.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if b.Status() != goboard.Playing {
			continue
		}
		black, white := b.Area()
		komi := float64(black-white) - 0.5
		cfg := goboard.Config{Size: 5, Komi: komi, NoKomi: komi == 0, MaxMoves: len(moves) + 10}
		if komi == 0 {
			continue
		}
		o, err := goboard.NewOracle(cfg, moves, 1<<17)
		if err != nil {
			t.Fatal(err)
		}
		root, _ := o.Moves(nil)
		lo, hi, ok := 1.0, 0.0, true
		for i := range root {
			v, in, err := o.Value(context.Background(), []int32{int32(i)})
			if err != nil {
				t.Fatal(err)
			}
			ok = ok && in
			lo, hi = min(lo, v), max(hi, v)
		}
		if !ok || lo == hi {
			continue
		}
		out = append(out, endgame{cfg: cfg, moves: moves, name: fmt.Sprintf("komi %v, cap %d: %s", komi, cfg.MaxMoves, strings.Join(moves, " "))})
	}
	return out
}

// TestOracle: the oracle lists the Game's moves, and its values agree
// with the Game's terminal rewards and with minimax over its children.
func TestOracle(t *testing.T) {
	ctx := context.Background()
	for _, eg := range endgames(t, 2, 1) {
		g, o := eg.open(t)
		// Every position within two moves of the root.
		var walk func(path []int32)
		walk = func(path []int32) {
			g.Reset()
			for _, i := range path {
				g.Play(int(i))
			}
			list, err := o.Moves(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != g.NumMoves() && !(g.Kind() == core.Terminal && len(list) == 0) {
				t.Fatalf("%s: path %v: %d moves, the game lists %d", eg.name, path, len(list), g.NumMoves())
			}
			for i, m := range list {
				if g.Move(i) != m {
					t.Fatalf("%s: path %v: move %d is %d, the game's %d", eg.name, path, i, m, g.Move(i))
				}
			}
			v, ok, err := o.Value(ctx, path)
			if err != nil || !ok {
				t.Fatalf("%s: path %v: %v, %v", eg.name, path, ok, err)
			}
			if g.Kind() == core.Terminal {
				if v != g.Reward() {
					t.Fatalf("%s: path %v: value %v, reward %v", eg.name, path, v, g.Reward())
				}
				return
			}
			best := -1.0
			kind := g.Kind()
			for i := range list {
				c, _, err := o.Value(ctx, append(path[:len(path):len(path)], int32(i)))
				if err != nil {
					t.Fatal(err)
				}
				if kind == core.Min {
					c = 1 - c
				}
				best = max(best, c)
			}
			if kind == core.Min {
				best = 1 - best
			}
			if best != v {
				t.Fatalf("%s: path %v: value %v, its children's minimax %v", eg.name, path, v, best)
			}
			if len(path) < 2 {
				for i := range list {
					walk(append(path[:len(path):len(path)], int32(i)))
				}
			}
		}
		walk(nil)
	}
	if _, err := goboard.NewOracle(goboard.Config{}, nil, 0); err == nil {
		t.Error("NewOracle with 0 nodes: no error")
	}
	o, _ := goboard.NewOracle(goboard.Config{Size: 5}, nil, 10)
	if _, ok, err := o.Value(ctx, nil); ok || err != nil {
		t.Errorf("the empty 5×5 board within 10 nodes: ok %v, %v; want beyond the budget", ok, err)
	}
	if _, _, err := o.Value(ctx, []int32{99}); err == nil {
		t.Error("a path out of range: no error")
	}
}

// TestCheckerOnGo runs the consistency checker (props.CheckGame) on small
// Go endgames that the Oracle solves exactly. By default one endgame and
// two rules at small budgets; with MCTSCHECK_GO=N, N endgames and every
// rule of the catalogue at the checker's default scale, printing each
// verdict (docs/games.md's "Table 1 in miniature" quotes the counts).
func TestCheckerOnGo(t *testing.T) {
	n, specs, budget := 1, []string{"uct", "greedy-fpu"}, 2048
	if s := os.Getenv("MCTSCHECK_GO"); s != "" {
		fmt.Sscan(s, &n)
		specs, budget = nil, 16384
		for _, e := range rules.All() {
			specs = append(specs, e.Name)
		}
		specs = append(specs, "threshold:v=0.3,rule=mc-rave")
	}
	ctx := context.Background()
	egs := endgames(t, n, 2)
	count := map[string]map[props.Verdict]int{}
	for _, spec := range specs {
		in := rules.MustParse(spec)
		count[spec] = map[props.Verdict]int{}
		for _, eg := range egs {
			g, o := eg.open(t)
			rep, err := props.CheckGame(ctx, in.Rule, g, o, props.GameOptions{
				Options: props.Options{RuleSpec: in.Spec, Backup: in.Backup, MaxBudget: budget, MinBudget: budget / 256},
				Game:    "go5", Position: eg.name, ExportNodes: -1,
			})
			if err != nil {
				t.Fatalf("%s on %s: %v", spec, eg.name, err)
			}
			count[spec][rep.Verdict]++
			t.Logf("%s: %s", spec, rep.Summary)
			if rep.Witness != nil {
				t.Logf("%s", rep.Witness)
			}
		}
	}
	for _, spec := range specs {
		c := count[spec]
		t.Logf("%-40s inconsistent %d, inconclusive %d, no counterexample %d", spec, c[props.Inconsistent], c[props.Inconclusive], c[props.NoCounterexample])
	}
}
