package cli

import (
	"testing"
	"time"
)

// TestEstimate: the time left is what is left at the rate of the last
// half of the time, or since the first simulation if programs took
// longer to start; none before a hundredth of the work.
func TestEstimate(t *testing.T) {
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	for _, c := range []struct {
		name    string
		rate    func(s float64) int64 // simulations run after s seconds
		elapsed float64
		planned int64
		want    time.Duration // -1: no estimate
	}{
		{"steady", func(s float64) int64 { return int64(1000 * s) }, 20, 100000, sec(80)},
		{"a slow start: programs take 10 s", func(s float64) int64 { return int64(1000 * max(0, s-10)) }, 12, 100000, sec(98)},
		{"the machine slows down four times at 20 s", func(s float64) int64 {
			if s <= 20 {
				return int64(1000 * s)
			}
			return 20000 + int64(250*(s-20))
		}, 40, 100000, sec(300)},
		{"a hundredth not done", func(s float64) int64 { return int64(10 * s) }, 20, 100000, -1},
		{"done", func(s float64) int64 { return int64(1000 * s) }, 100, 100000, -1},
	} {
		var p pace
		for s := 0.0; s <= c.elapsed; s += 0.25 {
			p.add(sec(s), c.rate(s))
		}
		got, ok := p.estimate(sec(c.elapsed), c.rate(c.elapsed), c.planned)
		if !ok {
			got = -1
		}
		if got != c.want {
			t.Errorf("%s: estimate %v, want %v", c.name, got, c.want)
		}
	}
}

// TestPaceThinned: a job of hours keeps at most maxSamples samples, spread
// over its whole time.
func TestPaceThinned(t *testing.T) {
	var p pace
	for s := range 10 * 3600 {
		p.add(time.Duration(s)*time.Second, int64(s))
	}
	if n := len(p.at); n > maxSamples || n < maxSamples/2 || p.at[0] != 0 || p.at[n-1] < 9*time.Hour {
		t.Errorf("%d samples from %v to %v", n, p.at[0], p.at[len(p.at)-1])
	}
}
