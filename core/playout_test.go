package core_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
)

// noPlayout hides a game's Playout, so that the search plays its roll-outs
// move by move.
type noPlayout struct{ *games.Synth }

func (noPlayout) Playout() {} // not core.Playouter's signature

// TestPlayoutSameSearch: a game that plays the roll-outs itself gives the
// statistics of the search's own roll-outs, node for node, and the same
// error when a roll-out passes MaxDepth.
func TestPlayoutSameSearch(t *testing.T) {
	for _, cfg := range []core.Config{
		{Seed: 5, Growth: core.GrowPractical},
		{Seed: 5, Growth: core.GrowPractical, MaxDepth: 7},
	} {
		var got [2][]core.NodeInfo
		var errs [2]error
		for j := range 2 {
			g, err := games.NewSynth(3, 9)
			if err != nil {
				t.Fatal(err)
			}
			var game core.Game = g
			if j == 1 {
				game = noPlayout{g}
			}
			s, err := core.New(game, core.UCT{C: 1}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			errs[j] = s.Run(context.Background(), 3000)
			s.Walk(func(info core.NodeInfo) bool {
				info.Path = append([]int32(nil), info.Path...)
				got[j] = append(got[j], info)
				return true
			})
		}
		sameSearch(t, "Playout", cfg.MaxDepth, got, errs)
	}
}

// sameSearch fails t unless two searches, the first with whole roll-outs
// (what), the second move by move, ended alike: with the same MaxDepth
// GameError when maxDepth > 0, else with the same statistics node for node.
func sameSearch(t *testing.T, what string, maxDepth int, got [2][]core.NodeInfo, errs [2]error) {
	t.Helper()
	if maxDepth > 0 {
		var ge *core.GameError
		if !errors.As(errs[0], &ge) || errs[1] == nil || errs[0].Error() != errs[1].Error() || !strings.Contains(errs[0].Error(), "MaxDepth") {
			t.Errorf("MaxDepth %d: %s gave %v, the move-by-move roll-out %v", maxDepth, what, errs[0], errs[1])
		}
		return
	}
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("Run: %v, %v", errs[0], errs[1])
	}
	if len(got[0]) != len(got[1]) {
		t.Fatalf("%d nodes with %s, %d without", len(got[0]), what, len(got[1]))
	}
	for i := range got[0] {
		a, b := got[0][i], got[1][i]
		if a.Visits != b.Visits || a.W != b.W {
			t.Fatalf("node %d (%v): %d visits, W %v with %s; %d, %v without", i, a.Path, a.Visits, a.W, what, b.Visits, b.W)
		}
	}
}

// uniformPolicy chooses uniformly, as the default policy does; on a Synth,
// which draws its own roll-outs the same way, it hands the search the
// game's Playout, counting the calls.
type uniformPolicy struct{ calls *int }

func (uniformPolicy) Choose(g core.Game, rng *core.RNG) int { return rng.IntN(g.NumMoves()) }

func (p uniformPolicy) Playouter(g core.Game) core.Playouter {
	s, ok := g.(*games.Synth)
	if !ok {
		return nil
	}
	return countedPlayout{s, p.calls}
}

// countedPlayout is a Synth's Playout that counts its calls.
type countedPlayout struct {
	g     *games.Synth
	calls *int
}

func (c countedPlayout) Playout(rng *core.RNG, limit int) (float64, bool) {
	*c.calls++
	return c.g.Playout(rng, limit)
}

// chooseOnly hides a policy's Playouter.
type chooseOnly struct{ p core.Policy }

func (c chooseOnly) Choose(g core.Game, rng *core.RNG) int { return c.p.Choose(g, rng) }

// TestPolicyPlayouterSameSearch: a roll-out policy that plays its roll-outs
// itself (core.PolicyPlayouter) gives the statistics of the search's
// move-by-move roll-outs with the same policy, node for node, and the same
// error past MaxDepth; the search leaves it aside when it keeps AMAF
// statistics.
func TestPolicyPlayouterSameSearch(t *testing.T) {
	for _, tc := range []struct {
		rule     core.Rule
		maxDepth int
	}{{core.UCT{C: 1}, 0}, {core.UCT{C: 1}, 7}, {amafRule{}, 0}} {
		var got [2][]core.NodeInfo
		var errs [2]error
		calls := 0
		for j := range 2 {
			g, err := games.NewSynth(3, 9)
			if err != nil {
				t.Fatal(err)
			}
			var pol core.Policy = uniformPolicy{&calls}
			if j == 1 {
				pol = chooseOnly{pol}
			}
			s, err := core.New(g, tc.rule, core.Config{Seed: 5, Growth: core.GrowPractical, Rollout: pol, MaxDepth: tc.maxDepth})
			if err != nil {
				t.Fatal(err)
			}
			errs[j] = s.Run(context.Background(), 3000)
			got[j] = dump(s)
		}
		_, amaf := tc.rule.(amafRule)
		if amaf != (calls == 0) {
			t.Errorf("%T: %d calls of the policy's Playout, want them only without AMAF", tc.rule, calls)
		}
		sameSearch(t, "the policy's Playout", tc.maxDepth, got, errs)
	}
}
