package core_test

import (
	"math"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
)

// TestSiteMeans: Means gives, bit for bit, Mean(i), or the first-play
// urgency for a child with N(i) = 0 (none with virtual experience), at every site of searches with average
// and minimax backups, with and without virtual experience, at both kinds
// of node, and at NewSite's sites with counts beyond 32 bits.
func TestSiteMeans(t *testing.T) {
	for _, backup := range []core.Backup{core.BackupAverage, core.BackupMinimax} {
		for _, virt := range []bool{false, true} {
			g, err := games.NewTicTacToeFrom("X...O....")
			if err != nil {
				t.Fatal(err)
			}
			r := &meansRule{t: t, virtual: virt}
			s, err := core.New(g, r, core.Config{Backup: backup, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Run(bg, 3000); err != nil {
				t.Fatal(err)
			}
			if r.sites < 3000 || !virt && r.unvisited == 0 || r.min == 0 {
				t.Errorf("backup %v, virtual %v: %d sites, %d with an unvisited child, %d min nodes: too few to check",
					backup, virt, r.sites, r.unvisited, r.min)
			}
		}
	}
	const big = 1 << 40
	for _, kind := range []core.Kind{core.Max, core.Min} {
		kids := []core.Stats{{Visits: big, W: big / 3}, {}, {Visits: 3, W: 1, K1: 2, K2: 1}}
		s, err := core.NewSite(kind, core.Stats{Visits: big + 3, W: big/3 + 1}, kids, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkMeans(t, s, 0.25)
	}
}

// meansRule checks Means at every site it sees and plays the child with
// the fewest visits, so that the search spreads over the tree.
type meansRule struct {
	t                     *testing.T
	virtual               bool
	sites, unvisited, min int
}

func (r *meansRule) Select(s *core.Site) int {
	r.sites++
	if s.Kind() == core.Min {
		r.min++
	}
	for i := range s.Len() {
		if s.N(i) == 0 {
			r.unvisited++
			break
		}
	}
	best := 0
	for i := range s.Len() {
		if s.Visits(i) < s.Visits(best) {
			best = i
		}
	}
	checkMeans(r.t, s, math.Inf(1))
	return best
}

func (r *meansRule) Needs() core.Needs {
	if !r.virtual {
		return core.Needs{}
	}
	return core.Needs{Virtual: halfPrior{}}
}

// halfPrior gives every child one virtual simulation of reward ½.
type halfPrior struct{}

func (halfPrior) Virtual(float64, bool) (k1, k2 float64) { return 1, 0.5 }

// checkMeans compares Means(fpu, …) with Mean at s.
func checkMeans(t *testing.T, s *core.Site, fpu float64) {
	t.Helper()
	got := make([]float64, s.Len())
	s.Means(fpu, got)
	for i, g := range got {
		want, ok := s.Mean(i)
		if !ok {
			want = fpu
		}
		if math.Float64bits(g) != math.Float64bits(want) {
			t.Fatalf("%v node, child %d: Means gives %v, Mean %v", s.Kind(), i, g, want)
		}
	}
}
