package rules

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// TestExpBounds checks that the bracket around expApprox(d·inv) holds
// expTerm(d, τ), the float64 that math.Exp gives, on a million seeded
// random differences d and temperatures τ, inv = 1/τ or BoltzmannDecay's
// ln(n(F)+2)/C, and at the edges
// of where Select uses it (d/τ near 0 and near −700); and that
// expApprox(d·inv) errs from e^(d/τ) by less than the 1.36e-3 the doc
// states, seven tenths of expSlack.
func TestExpBounds(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 8))
	type pt struct{ d, tau, inv float64 }
	pts := []pt{{-1, 0.1, 10}, {-1e-300, 1, 1}, {-5e-324, 1, 1}, {-700, 1, 1}, {-699.9999999, 1, 1},
		{-1, math.Nextafter(1.0/700, 1), 1 / math.Nextafter(1.0/700, 1)}, {-0.5, math.Inf(1), 0}}
	// BoltzmannDecay's τ and inv = ln(n(F)+2)/C, at sites with n(F) up
	// to 2^40 and C from tiny (τ kept above 0) to large.
	sites := make([]*core.Site, 1000)
	for i := range sites {
		n := rnd.Uint64N(1 << rnd.IntN(41))
		s, err := core.NewSite(core.Max, core.Stats{Visits: n}, []core.Stats{{}}, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		sites[i] = s
	}
	cs := []float64{1, 1, 0.5, 3, 1e-300, 1e-306, 1e-310, 5e-324}
	for j := range 1_000_000 {
		d := -rnd.Float64()
		if rnd.IntN(10) == 0 {
			d *= math.Pow(10, -rnd.Float64()*300) // tiny differences
		}
		tau := math.Pow(10, rnd.Float64()*8-5) // 1e-5 to 1e3
		inv := 1 / tau
		if j%2 == 0 {
			c := cs[rnd.IntN(len(cs))]
			if rnd.IntN(2) == 0 {
				c = math.Pow(10, rnd.Float64()*6-3)
			}
			tau, inv = BoltzmannDecay{C: c}.tau(sites[rnd.IntN(len(sites))])
		}
		pts = append(pts, pt{d, tau, inv})
	}
	worst, checked := 0.0, 0
	for _, p := range pts {
		x := p.d * p.inv
		if !(x >= -700) {
			continue // Select takes math.Exp's term itself
		}
		checked++
		exact := expTerm(p.d, p.tau)
		a := expApprox(x)
		if lo, hi := bracket(a, false); !(lo <= exact && exact <= hi) {
			t.Fatalf("d = %v, τ = %v: exp(d/τ) = %v outside the bounds [%v, %v]", p.d, p.tau, exact, lo, hi)
		}
		worst = max(worst, math.Abs(a/exact-1))
	}
	if checked < len(pts)/2 {
		t.Fatalf("only %d of %d points in range", checked, len(pts))
	}
	if worst > 1.36e-3 {
		t.Errorf("expApprox errs by %.3g, relative, want < 1.36e-3", worst)
	}
	t.Logf("expApprox's largest relative error: %.3g (bracket half-width %.3g)", worst, expSlack)
}
