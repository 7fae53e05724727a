package props

import (
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/tree"
)

// TestDeficitWording: a deficit of 0 at every scale is a tie that goes to
// a lower index, and says so; a positive one is a deficit.
func TestDeficitWording(t *testing.T) {
	xs := []float64{14, 30, 46, 62}
	for _, c := range []struct {
		hs   []float64
		want string
	}{
		{[]float64{0, 0, 0, 0}, "the best score of child 1 equals the best of the other children's, and a tie goes to the lower index: never simulated again"},
		{[]float64{0.5, 0.5, 0.5, 0.5}, "the score deficit of child 1 stays at 0.5 at every scale from 2^14 to 2^62"},
	} {
		res := judgeDeficit("0", "child 1", false, xs, c.hs)
		if !res.persists || !strings.Contains(res.text, c.want) {
			t.Errorf("deficits %v: %+v, want it to persist with %q", c.hs, res, c.want)
		}
	}
}

// TestWrongDecisionWording: the Eq. 6 finding says how many simulations
// each child has, in words that read: "it has 1 simulation and the optimal
// child 1 (V=1) has 1000", never "the optimal child 1 (V=1) 1000".
func TestWrongDecisionWording(t *testing.T) {
	tr := tree.MustParse("(max 0 1)")
	sol := tree.Solve(tr)
	var win []snapshot
	for _, b := range []int64{128, 256, 512, 1024} {
		s := emptySnapshot(b, 0, allNodes(tr.Len()))
		s.n[0], s.n[1], s.n[2] = b, b-1, 1
		s.v[0], s.v[1], s.v[2] = 0, 0, 1
		win = append(win, s)
	}
	f := DefaultCriterion.wrongDecision(tr, sol, win)
	want := "at 1024 it has 1023 simulations and the optimal child 1 (V=1) has 1"
	if f == nil || !strings.Contains(f.Text, want) {
		t.Fatalf("finding %+v, want %q", f, want)
	}
}
