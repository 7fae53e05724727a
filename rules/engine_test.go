package rules_test

import (
	"context"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// priorTree has priors of both signs and sizes, move identities shared
// across the tree, and a chance node.
const priorTree = `(max
	(min 1~0.9 0~-0.4 (max 0@7 1@2)~0.2)@1~0.7
	(min (max 0 1 0)~-0.9 1~0.5)@2~-0.3
	(chance 0.5:(min 1@7 0@1) 0.5:(max 0@2 1@1~3))@3~1.5
	0.5@7)`

// engineSpecs are every rule at its defaults, threshold around each, and a
// few parameter values at the edges of the predictions.
func engineSpecs() []string {
	var specs []string
	for _, e := range rules.All() {
		specs = append(specs, e.Name)
		if e.Name != "threshold" {
			specs = append(specs, "threshold:rule="+e.Name)
		}
	}
	return append(specs, "uct:c=0", "prior:n0=0", "prior:c=0", "eps-greedy:eps=1",
		"eps-greedy-minimax:eps=0", "boltzmann:tau=1e-300", "boltzmann-decay:c=5e-324")
}

// TestEngine runs every rule in the engine for 500 simulations, in both
// growth modes and with the rule's backup, on tic-tac-toe (move identities
// for AMAF, no priors) and on a tree with priors and a chance node.
func TestEngine(t *testing.T) {
	ttt, err := games.NewTicTacToeFrom("XX.OO....")
	if err != nil {
		t.Fatal(err)
	}
	games := []struct {
		name string
		game core.Game
	}{
		{"tictactoe", ttt},
		{"priors", tree.MustParse(priorTree).Game()},
	}
	for _, spec := range engineSpecs() {
		in := rules.MustParse(spec)
		for _, g := range games {
			for _, growth := range []core.Growth{core.GrowPaper, core.GrowPractical} {
				s, err := in.NewSearch(g.game, core.Config{Seed: 5, Growth: growth})
				if err != nil {
					t.Fatalf("%s: %v", spec, err)
				}
				if err := s.Run(context.Background(), 500); err != nil {
					t.Errorf("%s on %s (%v): %v", in.Spec, g.name, growth, err)
					continue
				}
				root, _ := s.Lookup(nil)
				if root.Visits != 500 {
					t.Errorf("%s on %s (%v): root has %d visits, want 500", in.Spec, g.name, growth, root.Visits)
				}
				if d := s.Decide(core.MostVisited); d < 0 {
					t.Errorf("%s on %s (%v): no decision", in.Spec, g.name, growth)
				}
			}
		}
	}
}

// TestEngineVirtual checks that prior's virtual experience reaches the
// search: N* = n0 and W* = n0·H with H the clamped prior, 1/2 without one.
func TestEngineVirtual(t *testing.T) {
	in := rules.MustParse("prior:n0=4")
	s, err := in.NewSearch(tree.MustParse(priorTree).Game(), core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(context.Background(), 50); err != nil {
		t.Fatal(err)
	}
	// Root children: priors 0.7, -0.3 (clamped to 0), 1.5 (clamped to 1),
	// none. The root is a max node, so K2 is in max's perspective as given.
	for i, want := range []float64{2.8, 0, 4, 2} {
		n, ok := s.Lookup([]int32{int32(i)})
		if !ok || n.K1 != 4 || n.K2 != want {
			t.Errorf("root child %d: K1 %v K2 %v, want 4 and %v", i, n.K1, n.K2, want)
		}
	}
	// Under the min node 0.0, child 0 has prior 0.9 for min: W* = 4·0.9
	// for min, K2 = 4 − 4·0.9 in max's perspective.
	n0, h := 4.0, 0.9 // variables: float64 arithmetic, as in the search
	if n, _ := s.Lookup([]int32{0, 0}); n.K1 != 4 || n.K2 != n0-n0*h {
		t.Errorf("node 0.0.0: K1 %v K2 %v, want 4 and %v", n.K1, n.K2, n0-n0*h)
	}
}

// TestPaperExamples runs the papers' small failure cases: each rule must
// reach the stated decision at every budget, deterministically (these
// rules use no randomness here).
func TestPaperExamples(t *testing.T) {
	const (
		// The good move 0 loses its first simulation; the bad move 1 wins
		// its first and then always loses (paper §3 "Tricks").
		tricks = "(max (max 0 1) (min 1 0))"
		// The good move 1 has no RAVE value while unvisited (paper §3, Eq. 13).
		rave = "(max (min 1 0) (max 0 1))"
		// The good move 1 has a negative pattern value (paper §3, MoGo).
		pattern = "(max (min 1 0)~0.5 (max 0 1)~-0.5)"
	)
	for _, c := range []struct {
		spec, tr string
		want     int
	}{
		{"greedy-fpu", tricks, 1},
		{"uct:c=0", rave, 0},
		{"smoothed", tricks, 0},
		{"threshold", tricks, 0},
		{"threshold", rave, 1},
		{"rave", rave, 0},
		{"mc-rave", rave, 0},
		{"rave-floor", rave, 1},
		{"threshold:rule=rave", rave, 1},
		{"negative-heuristic", pattern, 0},
		{"prior", pattern, 1},
		{"uct", rave, 1},
	} {
		in := rules.MustParse(c.spec)
		s, err := in.NewSearch(tree.MustParse(c.tr).Game(), core.Config{})
		if err != nil {
			t.Fatal(err)
		}
		for _, budget := range []int{1000, 10000} {
			if err := s.Run(context.Background(), budget-int(s.Sims())); err != nil {
				t.Fatal(err)
			}
			if got := s.Decide(core.MostVisited); got != c.want {
				t.Errorf("%s on %s after %d simulations: decision %d, want %d", c.spec, c.tr, budget, got, c.want)
			}
		}
	}
}

// TestSmoothedNonBinary is the counterexample to Eq. 14's consistency
// outside binary deterministic games: the good move (max 0 1) loses its
// first simulation and keeps the score (0+1)/(1+2) = 1/3 for ever, while
// the leaf 0.5 keeps (0.5n+1)/(n+2) = 1/2.
func TestSmoothedNonBinary(t *testing.T) {
	s, err := rules.MustParse("smoothed").NewSearch(tree.MustParse("(max (max 0 1) 0.5)").Game(), core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(context.Background(), 10000); err != nil {
		t.Fatal(err)
	}
	good, _ := s.Lookup([]int32{0})
	if d := s.Decide(core.MostVisited); d != 1 || good.Visits != 1 {
		t.Errorf("decision %d with the good move visited %d times, want 1 and 1", d, good.Visits)
	}
}

// TestSelectAllocs guards the hot loop: no rule allocates in Select.
func TestSelectAllocs(t *testing.T) {
	s := mustSite(t, core.Max, self10, quarter, allWins, twoLosses, unvisited,
		core.Stats{Visits: 3, W: 1, HasPrior: true, Prior: -0.2, AMAFVisits: 5, AMAFW: 2, K1: 1, K2: 0.5})
	for _, spec := range engineSpecs() {
		r := rules.MustParse(spec).Rule
		if a := testing.AllocsPerRun(100, func() { r.Select(s) }); a != 0 {
			t.Errorf("%s: %v allocations per Select", spec, a)
		}
	}
}

// TestThresholdMinimaxValue: with minimax backups, core.Threshold reads the
// node's backed-up value (Site.ParentMean), not its average reward. Here the
// root's minimax value reaches 1 (its child 1 wins by the path 1.1.1.1.1)
// while constant exploration keeps its average low; the threshold must stop
// randomising at the root, so the winning child gets most of the visits.
func TestThresholdMinimaxValue(t *testing.T) {
	a := "1"
	for range 4 {
		a = "(max 0 " + a + " 0 0)"
	}
	in := rules.MustParse("threshold:rule=eps-greedy-minimax")
	s, err := in.NewSearch(tree.MustParse("(max 0.25 "+a+")").Game(), core.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(context.Background(), 100000); err != nil {
		t.Fatal(err)
	}
	root, _ := s.Lookup(nil)
	good, _ := s.Lookup([]int32{1})
	if root.Value != 1 {
		t.Errorf("root minimax value %v, want 1", root.Value)
	}
	if share := float64(good.Visits) / float64(root.Visits); share < 0.8 {
		t.Errorf("the winning child has %.3f of the visits, want most (the root stops randomising)", share)
	}
	if p := in.Predicted; !p.Consistent {
		t.Errorf("threshold over eps-greedy-minimax predicted %v", p)
	}
}
