package props

import (
	"testing"
	"time"
)

// TestRunningLeft: a search's time left is read at its later pace, over
// the last half or more of its age, so that one that speeds up when the
// others sharing its program's batches end is seen to; none before an
// eighth of it has run, and the whole age's pace while too little has run
// since the mark.
func TestRunningLeft(t *testing.T) {
	const budget = 100000
	start := time.Unix(0, 0)
	var r running
	at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond) }
	r.count(100, at(0))
	for ms := 100; ms <= 8000; ms += 100 { // 1000 simulations a second for 8 s
		r.count(100, at(ms))
		if _, ok := r.left(at(ms), budget); ok != (8*r.sims >= budget) {
			t.Fatalf("at %d ms, %d run: an estimate %v, want one from an eighth of %d", ms, r.sims, ok, budget)
		}
	}
	for ms := 8100; ms <= 12000; ms += 100 { // then 10000 a second for 4 s
		r.count(1000, at(ms))
	}
	got, ok := r.left(at(12000), budget)
	// The marks moved at 0.1, 0.2, 0.4 ... 3.2 and 6.4 s: the pace is read
	// from 3.2 s, 3300 run then, 48100 at 12 s, 51900 left.
	later := 8.8 * 51900 / 44800 // seconds
	whole := 12.0 * 51900 / 48000
	if !ok || got.Seconds() < later-0.001 || got.Seconds() > later+0.001 {
		t.Errorf("left %v, %v; want %.3fs (the whole age's pace would say %.3fs)", got, ok, later, whole)
	}
}
