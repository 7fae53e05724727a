package goboard

import (
	"context"
	"math"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// TestFastGame: FastLight's roll-outs play only moves that are legal under
// simple ko and not eye fills, pass only when there is no such move, keep
// the board's invariants, and end where Board.Playout would end with the
// same random numbers; Reset restores the Game.
func TestFastGame(t *testing.T) {
	rng := core.NewRNG(3)
	for _, size := range []int{5, 9, 13} {
		g, err := NewGame(Config{Size: size})
		if err != nil {
			t.Fatal(err)
		}
		f := NewFastGame(g)
		for game := range 30 {
			f.Reset()
			if f.Kind() != core.Max || f.NumMoves() != size*size+1 {
				t.Fatalf("size %d: the root: %v with %d moves", size, f.Kind(), f.NumMoves())
			}
			seed := rng.Uint64()
			twin, frng := g.b, core.NewRNG(seed)
			twin.Playout(core.NewRNG(seed))
			for f.Kind() != core.Terminal {
				if i := (FastLight{}).Choose(f, frng); i != 0 || f.NumMoves() != 1 {
					t.Fatalf("size %d: roll-out move index %d of %d", size, i, f.NumMoves())
				}
				b := g.b
				c := b.ToMove()
				playable := 0
				for m := range b.Pass() {
					if b.At(m) == Empty && b.IsLegal(m) && b.Prior(m) != PriorEyeFill {
						playable++
					}
				}
				m := f.Move(0)
				switch {
				case m == b.Pass() && playable > 0:
					t.Fatalf("size %d game %d: a pass with %d playable points\n%s", size, game, playable, &b)
				case m != b.Pass() && (!b.IsLegal(m) || b.eye(c, b.index(m))):
					t.Fatalf("size %d game %d: %s is not playable\n%s", size, game, Vertex(m, size), &b)
				}
				f.Play(0)
				if err := g.b.check(); err != nil {
					t.Fatalf("size %d game %d: after %s: %v\n%s", size, game, Vertex(m, size), err, &g.b)
				}
			}
			if g.b.Hash() != twin.Hash() || g.b.MovesPlayed() != twin.MovesPlayed() || f.Reward() != twin.Reward() {
				t.Fatalf("size %d game %d: the roll-out ended\n%sBoard.Playout\n%s", size, game, &g.b, &twin)
			}
		}
		f.Reset()
		if g.b != g.start || g.Legal(0) != nil {
			t.Fatalf("size %d: Reset left\n%s", size, &g.b)
		}
	}
}

// TestFastGameSearch: a search through a FastGame is a search of the Game
// in the stored tree: the root's children are the Game's listed moves,
// with their identities and priors; the search is deterministic and does
// not allocate once its arena is big enough.
func TestFastGameSearch(t *testing.T) {
	g, err := NewGame(Config{Size: 5}, "C3", "B3", "D4")
	if err != nil {
		t.Fatal(err)
	}
	in := rules.MustParse("threshold:v=0.3,rule=mc-rave")
	f := NewFastGame(g)
	var decided []int
	for range 2 {
		s, err := core.New(f, in.Rule, core.Config{Seed: 1, Growth: core.GrowPractical, Backup: in.Backup, Rollout: FastLight{}, Capacity: 1 << 16})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(context.Background(), 1000); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(2, func() {
			if err := s.Run(context.Background(), 500); err != nil {
				t.Fatal(err)
			}
		}); a != 0 && s.Nodes() < 1<<16 {
			t.Errorf("%v allocations per 500 simulations, want 0", a)
		}
		root, _ := s.Lookup(nil) // 1000 simulations and AllocsPerRun's three runs of 500
		g.Reset()
		if root.Visits != 2500 || root.Children != g.NumMoves() {
			t.Fatalf("root: %d visits, %d children; the game lists %d moves", root.Visits, root.Children, g.NumMoves())
		}
		decided = append(decided, s.Decide(core.MostVisited))
	}
	if decided[0] != decided[1] {
		t.Errorf("same seed, different decisions: %v", decided)
	}
	f.Reset()
	for i := range g.NumMoves() {
		if f.Move(i) != g.Move(i) {
			t.Errorf("move %d: identity %d, the game's %d", i, f.Move(i), g.Move(i))
		}
		hf, okf := f.Prior(i)
		hg, okg := g.Prior(i)
		if hf != hg || okf != okg {
			t.Errorf("move %d: prior %v %v, the game's %v %v", i, hf, okf, hg, okg)
		}
	}
	// UCT through a FastGame on 9×9 does not allocate either.
	g9, _ := NewGame(Config{})
	s, err := core.New(NewFastGame(g9), core.UCT{C: math.Sqrt2}, core.Config{Seed: 1, Growth: core.GrowPractical, Rollout: FastLight{}, Capacity: 1 << 17})
	if err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(2, func() {
		s.Reset(1)
		if err := s.Run(context.Background(), 300); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("UCT on 9×9: %v allocations per 300 simulations, want 0", a)
	}
}

// chooseOnly hides FastLight's Playouter, so that the search plays its
// roll-outs move by move.
type chooseOnly struct{ FastLight }

func (chooseOnly) Playouter() {} // not core.PolicyPlayouter's signature

// TestFastLightPlayouter: a UCT search that hands FastLight's roll-outs to
// the FastGame whole gives the statistics of the move-by-move roll-outs,
// node for node, and the same error past MaxDepth.
func TestFastLightPlayouter(t *testing.T) {
	for _, maxDepth := range []int{0, 30} {
		var got [2][]core.NodeInfo
		var errs [2]error
		for j, pol := range []core.Policy{FastLight{}, chooseOnly{}} {
			g, err := NewGame(Config{Size: 7}, "D4", "C5", "E3")
			if err != nil {
				t.Fatal(err)
			}
			s, err := core.New(NewFastGame(g), core.UCT{C: math.Sqrt2}, core.Config{Seed: 9, Growth: core.GrowPractical, Rollout: pol, MaxDepth: maxDepth})
			if err != nil {
				t.Fatal(err)
			}
			errs[j] = s.Run(context.Background(), 2000)
			s.Walk(func(n core.NodeInfo) bool {
				n.Path = append([]int32(nil), n.Path...)
				got[j] = append(got[j], n)
				return true
			})
		}
		if maxDepth > 0 {
			if errs[0] == nil || errs[1] == nil || errs[0].Error() != errs[1].Error() {
				t.Errorf("MaxDepth %d: whole roll-outs gave %v, move by move %v", maxDepth, errs[0], errs[1])
			}
			continue
		}
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("Run: %v, %v", errs[0], errs[1])
		}
		if len(got[0]) != len(got[1]) {
			t.Fatalf("%d nodes with whole roll-outs, %d move by move", len(got[0]), len(got[1]))
		}
		for i := range got[0] {
			a, b := got[0][i], got[1][i]
			if a.Visits != b.Visits || a.W != b.W {
				t.Fatalf("node %d (%v): %d visits, W %v with whole roll-outs; %d, %v move by move", i, a.Path, a.Visits, a.W, b.Visits, b.W)
			}
		}
	}
}

// TestFastRolloutLimit: FastLight's whole roll-out of L moves ends within
// a limit of L moves, with Board.Playout's end and reward, and not within
// L − 1.
func TestFastRolloutLimit(t *testing.T) {
	g, err := NewGame(Config{Size: 7})
	if err != nil {
		t.Fatal(err)
	}
	f := NewFastGame(g)
	p := FastLight{}.Playouter(f)
	for seed := range uint64(20) {
		twin := g.b
		want := twin.Playout(core.NewRNG(seed))
		n := twin.MovesPlayed() - g.b.MovesPlayed()
		if r, ended := p.Playout(core.NewRNG(seed), n); !ended || r != want || g.b.Hash() != twin.Hash() {
			t.Fatalf("seed %d: limit %d: reward %v, ended %v; Board.Playout %v after %d moves", seed, n, r, ended, want, n)
		}
		f.Reset()
		if _, ended := p.Playout(core.NewRNG(seed), n-1); ended {
			t.Fatalf("seed %d: a roll-out of %d moves ended within %d", seed, n, n-1)
		}
		f.Reset()
	}
	if FastLight.Playouter(FastLight{}, g) != nil {
		t.Error("FastLight plays whole roll-outs on a Game, want only on a FastGame")
	}
}
