package core

import (
	"testing"
	"time"
)

// TestPoller: a loop looks at its context after every simulation at
// first, after up to pollMost while simulations are quick, and after
// every one again once each takes pollQuick or longer, from the first
// look that finds them slow.
func TestPoller(t *testing.T) {
	now := time.Unix(0, 0)
	p := poller{now: func() time.Time { return now }}
	run := func(sims int, each time.Duration) (looks int) {
		for range sims {
			if p.due() {
				looks++
				p.looked()
			}
			now = now.Add(each)
		}
		return looks
	}
	if looks := run(10, time.Microsecond); looks != 4 { // at 1, 2, 4, 8
		t.Errorf("10 quick simulations: %d looks, want 4 (after 1, 1, 2, 4)", looks)
	}
	run(10000, time.Microsecond)
	if p.every != pollMost {
		t.Errorf("after 10,000 quick simulations: a look every %d, want %d", p.every, pollMost)
	}
	// Slow simulations: the look after the next pollMost finds them slow
	// and looks after every one from then on.
	run(pollMost, pollQuick)
	if looks := run(20, pollQuick); looks != 20 || p.every != 1 {
		t.Errorf("slow simulations: %d looks in 20, a look every %d; want 20 and 1", looks, p.every)
	}
}
