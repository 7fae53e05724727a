package rules_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mctscheck/mctscheck/core"
)

// mustSite builds a Site or fails the test.
func mustSite(t testing.TB, kind core.Kind, self core.Stats, kids ...core.Stats) *core.Site {
	t.Helper()
	s, err := core.NewSite(kind, self, kids, 0, core.NewRNG(1))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// scoreCase is a site and the scores a rule must give its children there,
// computed by hand.
type scoreCase struct {
	name string
	kind core.Kind
	self core.Stats
	kids []core.Stats
	want []float64
}

// approx compares scores to 1e-12, relative.
var approx = cmpopts.EquateApprox(1e-12, 0)

// checkScores checks sc's scores against each case, and that Select picks
// the first child with the highest wanted score, as core.ArgmaxScore does.
func checkScores(t *testing.T, sc core.Scorer, cases []scoreCase) {
	t.Helper()
	for _, c := range cases {
		s := mustSite(t, c.kind, c.self, c.kids...)
		got := make([]float64, s.Len())
		for i := range got {
			got[i] = sc.Score(s, i)
		}
		if diff := cmp.Diff(c.want, got, approx); diff != "" {
			t.Errorf("%T %s (%v): scores (-want +got):\n%s", sc, c.name, c.kind, diff)
		}
		best := 0
		for i, w := range c.want {
			if w > c.want[best] {
				best = i
			}
		}
		if got := sc.Select(s); got != best {
			t.Errorf("%T %s (%v): Select = %d, want %d", sc, c.name, c.kind, got, best)
		}
		if got := core.ArgmaxScore(s, sc); got != best {
			t.Errorf("%T %s (%v): ArgmaxScore = %d, want %d", sc, c.name, c.kind, got, best)
		}
	}
}

// Children used by several tables: (visits, reward sum in max's perspective).
var (
	unvisited = core.Stats{}
	quarter   = core.Stats{Visits: 4, W: 1} // V̂ 1/4 for max, 3/4 for min
	allWins   = core.Stats{Visits: 4, W: 4} // w = n: 1 for max, 0 for min
	twoLosses = core.Stats{Visits: 2, W: 0} // 0 for max, 1 for min
	huge      = core.Stats{Visits: math.MaxUint32, W: math.MaxUint32 / 2}
	self10    = core.Stats{Visits: 10, W: 4}
)

const (
	maxN  = float64(math.MaxUint32)
	hugeW = float64(math.MaxUint32 / 2) // integer division: 2147483647
)
