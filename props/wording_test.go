package props

import (
	"strings"
	"testing"
)

// TestDeficitWording: a deficit of 0 at every scale is a tie that goes to
// a lower index, and says so; a positive one is a deficit.
func TestDeficitWording(t *testing.T) {
	xs := []float64{14, 30, 46, 62}
	for _, c := range []struct {
		hs   []float64
		want string
	}{
		{[]float64{0, 0, 0, 0}, "the best score of child 1 equals the best of the other children's, and a tie goes to the lower index: never simulated again"},
		{[]float64{0.5, 0.5, 0.5, 0.5}, "the score deficit of child 1 stays at 0.5 at every scale from 2^14 to 2^62"},
	} {
		res := judgeDeficit("0", "child 1", false, xs, c.hs)
		if !res.persists || !strings.Contains(res.text, c.want) {
			t.Errorf("deficits %v: %+v, want it to persist with %q", c.hs, res, c.want)
		}
	}
}
