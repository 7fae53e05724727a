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
		math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64}
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
