package props_test

import (
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// TestPaperSection4 is the paper's §4 experiment in miniature. MoGo, in a
// position it had lost, estimated its success above 90% in 13 of 30 runs of
// 500,000 simulations; with Algorithm 2, in none. Here a MoGo-like rule
// whose score adds a pattern value (negative-heuristic) searches a lost
// position whose refutation looks bad, 30 times with roll-outs (so the runs
// differ), with and without Algorithm 2 (V_threshold = 0.3, so V' = 0.7 at
// min nodes), and we count the runs whose root value exceeds 0.9.
func TestPaperSection4(t *testing.T) {
	tr, err := gen.LostPosition(3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if v := tree.Solve(tr).Value(0); v != 0 {
		t.Fatalf("the lost position has value %v, want 0", v)
	}
	const runs, budget = 30, 100_000
	count := func(spec string) int {
		in := rules.MustParse(spec)
		over := 0
		for seed := range uint64(runs) {
			s, err := core.New(tr.Game(), in.Rule, core.Config{Seed: seed, Growth: core.GrowPractical, Capacity: tr.Len()})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Run(bg, budget); err != nil {
				t.Fatal(err)
			}
			if root, _ := s.Lookup(nil); root.Value > 0.9 {
				over++
			}
		}
		return over
	}
	without := count("negative-heuristic")
	with := count("threshold:v=0.3,rule=negative-heuristic")
	t.Logf("root value above 0.9 after %d simulations: %d/%d runs without Algorithm 2, %d/%d with it (MoGo: 13/30 and 0/30)",
		budget, without, runs, with, runs)
	if without < runs/3 || with != 0 {
		t.Errorf("%d/%d runs deluded without Algorithm 2 and %d/%d with it, want many and none", without, runs, with, runs)
	}
}
