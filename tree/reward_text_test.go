package tree

import (
	"math"
	"strconv"
	"testing"
)

// TestAppendReward: the rewards' text is strconv's shortest form, the
// shortcut for 0 and 1 included (and -0 left to strconv).
func TestAppendReward(t *testing.T) {
	for _, r := range []float64{0, math.Copysign(0, -1), 1, 0.5, 1e-300, 0.1, math.Nextafter(1, 0), 5e-324} {
		if got, want := string(appendReward(nil, r)), strconv.FormatFloat(r, 'g', -1, 64); got != want {
			t.Errorf("appendReward(%v) = %q, want %q", r, got, want)
		}
	}
}
