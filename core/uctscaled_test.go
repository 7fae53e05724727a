package core_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// TestUCTScoreScaled checks UCTScoreScaled against the formula it factors,
// w/n + c·sqrt(logN)/sqrt(n) with the products rounded as UCTScore's doc
// says, bit for bit, on seeded random inputs and at the counts where the
// form changes (2^-512, 2^512).
func TestUCTScoreScaled(t *testing.T) {
	rnd := rand.New(rand.NewPCG(35, 12))
	ns := []float64{0x1p-513, 0x1p-512, 0x1p-511, 1, 3, 10, 0x1p511, 0x1p512, 0x1p513, 1e300}
	for range 100_000 {
		ns = append(ns, math.Ldexp(rnd.Float64()+0.5, rnd.IntN(80)-20))
	}
	for j, n := range ns {
		w := n * rnd.Float64()
		c := []float64{0, 1, math.Sqrt2, 0.7, 1e6}[j%5]
		logN := math.Log(1 + rnd.Float64()*1e6)
		cs := c * math.Sqrt(logN)
		want := float64(w*(1/n)) + float64(cs*(1/math.Sqrt(n)))
		if n < 0x1p-512 || n > 0x1p512 {
			want = w/n + cs/math.Sqrt(n)
		}
		if got := core.UCTScoreScaled(w, n, cs); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("UCTScoreScaled(%v, %v, %v) = %v, want %v", w, n, cs, got, want)
		}
		if got := core.UCTScore(w, n, c, logN); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("UCTScore(%v, %v, %v, %v) = %v, want %v", w, n, c, logN, got, want)
		}
	}
}
