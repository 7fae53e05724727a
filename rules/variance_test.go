package rules_test

import (
	"context"
	"math"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// withSquares returns st with the sum of squares of rewards all equal to
// its mean (graded: variance 0) or, with binary, of rewards in {0,1}.
func withSquares(st core.Stats, binary bool) core.Stats {
	st.HasSquares = true
	st.Squares = st.W
	if !binary && st.Visits > 0 {
		st.Squares = st.W * st.W / float64(st.Visits)
	}
	return st
}

// TestVariancePresets: UCB1-Tuned and KataGo declare Needs.Squares; with
// rewards in {0,1} the kept variance is the Bernoulli bound they used
// before, and with rewards of 0 variance they explore less.
func TestVariancePresets(t *testing.T) {
	ucb := rules.MustParse("ludii-ucb1tuned").Rule.(rules.LudiiUCB1Tuned)
	kg := rules.MustParse("katago").Rule.(rules.KataGo)
	for _, r := range []core.Rule{ucb, kg} {
		if !core.NeedsOf(r).Squares {
			t.Errorf("%T does not declare Needs.Squares", r)
		}
	}
	self := core.Stats{Visits: 16, W: 8}
	kids := []core.Stats{{Visits: 8, W: 4, Prior: 0.5, HasPrior: true}, {Visits: 8, W: 4, Prior: 0.5, HasPrior: true}}
	// site gives child i graded rewards of variance 0 where graded[i], and
	// rewards in {0,1} otherwise.
	site := func(graded ...bool) *core.Site {
		return mustSite(t, core.Max, withSquares(self, true),
			withSquares(kids[0], !graded[0]), withSquares(kids[1], !graded[1]))
	}
	bare := mustSite(t, core.Max, self, kids...)

	// Binary rewards: the same probabilities and scores as without squares.
	for _, i := range []int{0, 1} {
		if a, b := kg.Score(site(false, false), i), kg.Score(bare, i); math.Abs(a-b) > 1e-12*math.Abs(b) {
			t.Errorf("katago, binary rewards: Score(%d) = %v with squares, %v without", i, a, b)
		}
	}
	if p := ucb.Probs(site(false, false), nil); p[0] != 0.5 || p[1] != 0.5 {
		t.Errorf("ucb1tuned, binary rewards: Probs = %v, want a tie", p)
	}

	// Child 0's rewards are all 1/2 (variance 0), child 1's are 0 and 1:
	// UCB1-Tuned's bound is tighter for child 0, so it picks child 1.
	if p := ucb.Probs(site(true, false), nil); p[0] != 0 || p[1] != 1 {
		t.Errorf("ucb1tuned, child 0 without variance: Probs = %v, want [0 1]", p)
	}
	// The node's own rewards all 1/2: KataGo's σ falls below its prior σ0,
	// and with it every child's exploration term.
	low := mustSite(t, core.Max, withSquares(self, false), withSquares(kids[0], false), withSquares(kids[1], false))
	if a, b := kg.Score(low, 0), kg.Score(bare, 0); !(a < b) {
		t.Errorf("katago: Score with the node's variance 0 = %v, not below the Bernoulli bound's %v", a, b)
	}
}

// TestVariancePresetsSearch: in a search the presets' declared squares
// are kept (8 bytes a node) and read; on a graded tree UCB1-Tuned's visits
// differ from what the Bernoulli bound gives.
func TestVariancePresetsSearch(t *testing.T) {
	tr := tree.MustParse("(max (max 0.5 0.5) (max 0.25 0.75) (max 0.4375 0.5625))")
	visits := func(r core.Rule, bytes int) []int64 {
		s, err := core.New(tr.Game(), r, core.Config{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.BytesPerNode(); got != bytes {
			t.Errorf("%T: BytesPerNode = %d, want %d", r, got, bytes)
		}
		if err := s.Run(context.Background(), 4000); err != nil {
			t.Fatal(err)
		}
		var out []int64
		for k := range 3 {
			info, _ := s.Lookup([]int32{int32(k)})
			out = append(out, info.Visits)
		}
		return out
	}
	got := visits(rules.LudiiUCB1Tuned{C: math.Sqrt2}, 16+8)
	bernoulli := visits(bernoulliUCB1Tuned{rules.LudiiUCB1Tuned{C: math.Sqrt2}}, 16)
	t.Logf("visits with the rewards' variance %v, with the Bernoulli bound %v", got, bernoulli)
	// Child 0 has variance 0: it is explored less than under the bound.
	if !(got[0] < bernoulli[0]) {
		t.Errorf("child 0 (variance 0) visited %d times, not fewer than the Bernoulli bound's %d", got[0], bernoulli[0])
	}
}

// bernoulliUCB1Tuned is UCB1-Tuned without the declaration: its search
// keeps no squares, so it falls back to the Bernoulli bound.
type bernoulliUCB1Tuned struct{ rules.LudiiUCB1Tuned }

func (bernoulliUCB1Tuned) Needs() core.Needs { return core.Needs{} }
