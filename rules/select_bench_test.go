package rules_test

import (
	"math/rand/v2"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// BenchmarkSelect measures one Select of the catalogue's rules whose own
// cost the checker's default run feels most, at 1024 seeded random sites
// shaped like the checker's (2 to 4 children, counts up to 2^14, rewards
// in {0, ½, 1}; for prior, its virtual experience N0 = 10): ns/op is the
// time of one Select.
func BenchmarkSelect(b *testing.B) {
	for _, name := range []string{"boltzmann", "boltzmann-decay", "eps-greedy-decay", "prior", "rave-floor", "smoothed"} {
		b.Run("rule="+name, func(b *testing.B) {
			rule := rules.MustParse(name).Rule
			sites := selectSites(b, 1024, name == "prior")
			i := 0
			for b.Loop() {
				rule.Select(sites[i&1023])
				i++
			}
		})
	}
}

// selectSites returns n seeded random sites for BenchmarkSelect, with
// N0 = 10 virtual simulations of prior value ½ on every node if virtual.
func selectSites(b testing.TB, n int, virtual bool) []*core.Site {
	rnd := rand.New(rand.NewPCG(2010, 14))
	var k1, k2 float64
	if virtual {
		k1, k2 = 10, 5
	}
	sites := make([]*core.Site, n)
	for j := range sites {
		kids := make([]core.Stats, 2+rnd.IntN(3))
		var total uint64
		for i := range kids {
			v := rnd.Uint64N(1 << rnd.IntN(15))
			w := float64(rnd.Uint64N(2*v+1)) / 2
			kids[i] = core.Stats{Visits: v, W: w, K1: k1, K2: k2, AMAFVisits: v, AMAFW: w}
			total += v
		}
		self := core.Stats{Visits: total + 1, W: float64(total) / 2, K1: k1, K2: k2}
		kind := core.Max
		if j%2 == 1 {
			kind = core.Min
		}
		s, err := core.NewSite(kind, self, kids, 0, core.NewRNG(uint64(j)))
		if err != nil {
			b.Fatal(err)
		}
		sites[j] = s
	}
	return sites
}

// TestSelectNoAllocs checks that no rule of the catalogue or the engine
// presets allocates in Select, at the benchmark's sites: a search calls it
// once per node on every simulation's path.
func TestSelectNoAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are checked in the normal run")
	}
	for _, e := range append(rules.All(), rules.Engines()...) {
		rule := rules.MustParse(e.Name).Rule
		sites := selectSites(t, 64, core.NeedsOf(rule).Virtual != nil)
		i := 0
		if allocs := testing.AllocsPerRun(256, func() {
			rule.Select(sites[i&63])
			i++
		}); allocs != 0 {
			t.Errorf("%s: %v allocations per Select, want 0", e.Name, allocs)
		}
	}
}
