package outside_test

import (
	"context"
	"testing"

	"github.com/mctscheck/mctscheck/outside"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// TestOnTree checks each rule on the tree whose behaviour is known by
// hand: the checker must say exactly what the theory says there. Each
// check searches 16 seeds in 16 child orders (CheckTree's default).
func TestOnTree(t *testing.T) {
	for _, r := range outside.Rules() {
		if r.Tree == "" {
			continue
		}
		t.Run(r.Name, func(t *testing.T) {
			t.Parallel()
			tr, err := tree.Parse(r.Tree)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := props.CheckTree(context.Background(), r.Rule, tr,
				props.Options{RuleSpec: r.Name, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(rep.Verdict); got != r.Verdict {
				t.Errorf("%s on %s: verdict %s, want %s (%s)\n%s", r.Name, r.Tree, got, r.Verdict, r.Why, rep.Summary)
			}
		})
	}
}

// TestRun checks each rule as a user's CI would, with props.Run on the
// trap families and random trees, under several seeds: a rule the theory
// calls consistent must never be called inconsistent (a false alarm), and
// one it calls inconsistent must be caught (inconsistent, or stuck through
// the horizon) under every seed. Under -short, one rule in three, with one
// seed; all with three in the normal run.
func TestRun(t *testing.T) {
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	for k, r := range outside.Rules() {
		t.Run(r.Name, func(t *testing.T) {
			if testing.Short() && k%3 != 0 {
				t.Skip("one rule in three under -short; all in the normal run")
			}
			t.Parallel()
			for k := range seeds {
				seed := uint64(1000 * (k + 1))
				rep, err := props.Run(context.Background(), r.Rule, props.Options{
					RuleSpec: r.Name, Seed: seed, Trees: 20, BinaryOnly: r.BinaryOnly})
				if err != nil {
					t.Fatal(err)
				}
				switch v := string(rep.Verdict); {
				case r.Consistent && v == "inconsistent":
					t.Errorf("seed %d: false alarm on a consistent rule (%s):\n%s", seed, r.Why, rep.Witness)
				case !r.Consistent && v != "inconsistent" && v != "stuck":
					t.Errorf("seed %d: missed (%s), verdict %s:\n%s", seed, r.Why, v, rep.Summary)
				}
			}
		})
	}
}
