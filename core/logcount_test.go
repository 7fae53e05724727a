package core_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// TestLogCount checks that LogCount is math.Log(max(x, 1)) bit for bit, on
// whole numbers inside and outside the table, fractions, and the edge cases.
func TestLogCount(t *testing.T) {
	xs := []float64{0, math.Copysign(0, -1), 0.5, 1, 1.5, 2, 3, 10, 12.25,
		1<<16 - 1, 1 << 16, 1<<16 + 1, 1 << 40, 1e300, -1, -5, math.Inf(1),
		math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64,
		-0.9, 0x1p63, -0x1p63, 0x1p64, 0x1p64 + 0x1p16, -0x1p64}
	for i := range 70000 {
		xs = append(xs, float64(i))
	}
	for _, x := range xs {
		got, want := core.LogCount(x), math.Log(max(x, 1))
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("LogCount(%v) = %v, want math.Log(max(x, 1)) = %v", x, got, want)
		}
	}
}

func ExampleLogCount() {
	fmt.Printf("%.4f %.4f %.4f\n", core.LogCount(0), core.LogCount(100), core.LogCount(2.5))
	// Output: 0.0000 4.6052 0.9163
}

// TestLogParentVirtual checks LogParent at sites with virtual experience,
// whose n(F) it reads through LogCount: math.Log(max(n(F), 1)) bit for bit.
func TestLogParentVirtual(t *testing.T) {
	for _, self := range []core.Stats{
		{Visits: 0, K1: 10}, {Visits: 7, K1: 10, K2: 3}, {Visits: 3, K1: 0.5},
		{Visits: 1 << 20, K1: 10}, {Visits: 0, K1: 0.25}, {Visits: 65530, K1: 10},
	} {
		s, err := core.NewSite(core.Max, self, []core.Stats{{Visits: 1}}, 0, core.NewRNG(1))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := core.LogParent(s), math.Log(max(s.ParentN(), 1)); got != want {
			t.Errorf("n(F) = %v: LogParent = %v, want %v", s.ParentN(), got, want)
		}
	}
}
