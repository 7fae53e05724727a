package core_test

import (
	"math"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// TestNewSiteWideCounts: counts beyond a node's 32 bits read back exactly
// (to float64's precision) through every Site method, and UCT scores them
// with the one formula.
func TestNewSiteWideCounts(t *testing.T) {
	const big = 1 << 40
	self := core.Stats{Visits: 3 * big, W: 1.5 * big}
	kids := []core.Stats{
		{Visits: big, W: big / 4, AMAFVisits: 2 * big, AMAFW: big},
		{Visits: 2 * big, W: big},
	}
	for _, kind := range []core.Kind{core.Max, core.Min} {
		s, err := core.NewSiteAt(kind, 3, self, kids, 5*big, nil)
		if err != nil {
			t.Fatal(err)
		}
		flip := func(w, n float64) float64 {
			if kind == core.Min {
				return n - w
			}
			return w
		}
		if got := s.ParentN(); got != 3*big {
			t.Errorf("%v: ParentN %v, want %v", kind, got, float64(3*big))
		}
		if m, _ := s.ParentMean(); m != 0.5 {
			t.Errorf("%v: ParentMean %v, want 0.5", kind, m)
		}
		if s.Depth() != 3 || s.T() != 5*big {
			t.Errorf("%v: depth %d t %d", kind, s.Depth(), s.T())
		}
		for i, k := range kids {
			if s.N(i) != float64(k.Visits) || s.Visits(i) != int64(k.Visits) || s.W(i) != flip(k.W, float64(k.Visits)) {
				t.Errorf("%v child %d: N %v Visits %d W %v", kind, i, s.N(i), s.Visits(i), s.W(i))
			}
		}
		if an, aw := s.AMAF(0); an != 2*big || aw != flip(big, 2*big) {
			t.Errorf("%v: AMAF %v %v", kind, an, aw)
		}
		u := core.UCT{C: 1}
		logN := math.Log(3 * big)
		for i := range kids {
			want := core.UCTScore(s.W(i), s.N(i), 1, logN)
			if got := u.Score(s, i); got != want {
				t.Errorf("%v child %d: UCT score %v, want %v", kind, i, got, want)
			}
		}
	}
}

// TestThresholdProbs: uniform below the threshold, the inner rule's choice
// (a Scorer) or distribution above it, and nil for an inner rule of
// unknown kind.
func TestThresholdProbs(t *testing.T) {
	kids := []core.Stats{{Visits: 4, W: 1}, {Visits: 4, W: 3}, {Visits: 4, W: 2}}
	low, _ := core.NewSite(core.Max, core.Stats{Visits: 12, W: 2}, kids, 12, nil)
	high, _ := core.NewSite(core.Max, core.Stats{Visits: 12, W: 6}, kids, 12, nil)
	th := core.Threshold{Rule: core.UCT{C: 0}, V: 0.3}
	if got := th.Probs(low, nil); len(got) != 3 || got[0] != 1.0/3 || got[2] != 1.0/3 {
		t.Errorf("below: %v, want uniform", got)
	}
	if got := th.Probs(high, nil); len(got) != 3 || got[1] != 1 || got[0] != 0 {
		t.Errorf("above: %v, want a point mass on child 1", got)
	}
	if got := (core.Threshold{Rule: firstChild{}, V: 0.3}).Probs(high, nil); got != nil {
		t.Errorf("unknown inner rule: %v, want nil", got)
	}
}
