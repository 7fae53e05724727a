package core_test

import (
	"math"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
)

func TestSitePerspective(t *testing.T) {
	self := core.Stats{Visits: 10, W: 3}
	kids := []core.Stats{{Visits: 4, W: 1, K1: 2, K2: 1}, {Visits: 6, W: 2}, {}}
	tests := []struct {
		kind       core.Kind
		wantW      []float64
		wantParent float64
	}{
		{core.Max, []float64{2, 2, 0}, 0.3},
		{core.Min, []float64{4, 4, 0}, 0.7}, // n − w: (6−2), (6−2), 0
	}
	for _, tt := range tests {
		s, err := core.NewSite(tt.kind, self, kids, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range tt.wantW {
			if got := s.W(i); got != want {
				t.Errorf("%v: W(%d) = %v, want %v", tt.kind, i, got, want)
			}
		}
		if got := s.N(0); got != 6 {
			t.Errorf("%v: N(0) = %v, want 6 (4 visits + K1 2)", tt.kind, got)
		}
		if got, ok := s.ParentMean(); !ok || math.Abs(got-tt.wantParent) > 1e-12 {
			t.Errorf("%v: ParentMean = %v, %v, want %v", tt.kind, got, ok, tt.wantParent)
		}
		if _, ok := s.Mean(2); ok {
			t.Errorf("%v: Mean of an unvisited child reported present", tt.kind)
		}
	}
}

func TestNewSiteRejects(t *testing.T) {
	for _, c := range []struct {
		kind core.Kind
		kids []core.Stats
	}{
		{core.Chance, []core.Stats{{}}},
		{core.Max, nil},
		{core.Max, []core.Stats{{Visits: 1, W: 2}}},
		{core.Max, []core.Stats{{K1: 1, K2: 2}}},
		{core.Max, []core.Stats{{W: math.NaN()}}},
		{core.Max, []core.Stats{{HasPrior: true, Prior: math.Inf(-1)}}},
	} {
		if _, err := core.NewSite(c.kind, core.Stats{}, c.kids, 0, nil); err == nil {
			t.Errorf("NewSite(%v, %+v): no error", c.kind, c.kids)
		}
	}
}

func TestUCTScore(t *testing.T) {
	s, err := core.NewSite(core.Max, core.Stats{Visits: 100, W: 50},
		[]core.Stats{{Visits: 10, W: 5}, {Visits: 90, W: 45}, {}}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := core.UCT{C: 1}
	for i, want := range []float64{0.5 + math.Sqrt(math.Log(100)/10), 0.5 + math.Sqrt(math.Log(100)/90), math.MaxFloat64} {
		if got := u.Score(s, i); math.Abs(got-want) > 1e-12 && got != want {
			t.Errorf("Score(%d) = %v, want %v", i, got, want)
		}
	}
	if got, want := u.Select(s), core.ArgmaxScore(s, u); got != want || got != 2 {
		t.Errorf("Select = %d, ArgmaxScore = %d, want 2 (the unvisited child)", got, want)
	}
}

// TestThresholdRandomises checks Algorithm 2: below the threshold the choice
// is uniform, above it the wrapped rule decides.
func TestThresholdRandomises(t *testing.T) {
	kids := []core.Stats{{Visits: 5, W: 1}, {Visits: 5, W: 0}, {Visits: 5, W: 0}, {Visits: 5, W: 0}}
	rng := core.NewRNG(1)
	for _, tt := range []struct {
		kind   core.Kind
		selfW  float64 // of 20 visits, max's perspective
		random bool
	}{
		{core.Max, 2, true},   // V̂ = 0.1 < 0.3
		{core.Max, 10, false}, // V̂ = 0.5
		{core.Min, 18, true},  // V̂ = 0.9 > V' = 0.7
		{core.Min, 10, false},
	} {
		s, err := core.NewSite(tt.kind, core.Stats{Visits: 20, W: tt.selfW}, kids, 0, rng)
		if err != nil {
			t.Fatal(err)
		}
		r := core.Threshold{Rule: firstChild{}, V: 0.3}
		var counts [4]int
		for range 4000 {
			counts[r.Select(s)]++
		}
		if !tt.random {
			if counts[0] != 4000 {
				t.Errorf("%v with V̂=%v: choices %v, want the rule's child 0 every time", tt.kind, tt.selfW/20, counts)
			}
			continue
		}
		// Uniform: each count is Binomial(4000, 1/4), sd ≈ 27; 6 sd bounds
		// make a false failure rarer than 1e-8.
		for i, c := range counts {
			if c < 1000-165 || c > 1000+165 {
				t.Errorf("%v with V̂=%v: child %d chosen %d times of 4000, want about 1000", tt.kind, tt.selfW/20, i, c)
			}
		}
	}
}

// TestParentMeanMinimax: with minimax backups a node's own mean, like its
// children's, is the backed-up value, so Algorithm 2 reads the same values
// as the rule. A won line deep in the tree makes the root's minimax value 1
// while its average stays low; the threshold must then stop randomising.
func TestParentMeanMinimax(t *testing.T) {
	g, err := games.NewTicTacToeFrom("XX.OO....")
	if err != nil {
		t.Fatal(err)
	}
	s, err := core.New(g, recordParent{}, core.Config{Backup: core.BackupMinimax})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(bg, 2000); err != nil {
		t.Fatal(err)
	}
	root, _ := s.Lookup(nil)
	if root.Value != 1 || lastRootMean != 1 {
		t.Errorf("root minimax value %v, ParentMean seen by the rule %v; want both 1", root.Value, lastRootMean)
	}
}

// lastRootMean is the ParentMean recordParent saw at the root.
var lastRootMean float64

// recordParent plays UCT and records the root's ParentMean.
type recordParent struct{}

func (recordParent) Select(s *core.Site) int {
	if s.Depth() == 0 {
		lastRootMean, _ = s.ParentMean()
	}
	return core.UCT{C: 1}.Select(s)
}

func TestUCTScoreFiniteForTinyCounts(t *testing.T) {
	s, err := core.NewSite(core.Max, core.Stats{Visits: 1 << 30, W: 1},
		[]core.Stats{{K1: 5e-324}, {Visits: 3, W: 1}}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if v := (core.UCT{C: 1e6}).Score(s, i); math.IsInf(v, 0) || math.IsNaN(v) {
			t.Errorf("Score(%d) = %v, want finite", i, v)
		}
	}
}

// TestLogParent: LogParent is math.Log(max(ParentN, 1)), the same float64,
// for whole and fractional parent counts, with and without virtual
// experience, below and beyond the logarithm table (2^16), and for counts
// only a limit probe gives.
func TestLogParent(t *testing.T) {
	for _, self := range []core.Stats{
		{}, {Visits: 1}, {Visits: 7, W: 3}, {Visits: 65535}, {Visits: 65536}, {Visits: 1 << 40},
		{Visits: 3, K1: 2, K2: 1}, {Visits: 3, K1: 0.5, K2: 0.25}, {K1: 0.25}, {Visits: 65534, K1: 1.5},
		{Visits: 65534, K1: 2}, {Visits: 10, K1: 1e-300},
	} {
		kids := []core.Stats{{Visits: 1, W: 1}, {}}
		s, err := core.NewSite(core.Max, self, kids, 0, core.NewRNG(1))
		if err != nil {
			t.Fatal(err)
		}
		want := math.Log(max(s.ParentN(), 1))
		if got := core.LogParent(s); got != want {
			t.Errorf("self %+v: LogParent %v, want math.Log(%v) = %v", self, got, s.ParentN(), want)
		}
	}
}
