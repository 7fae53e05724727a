package engine

import "time"

// eta estimates the time a check's trials still need from the time the
// finished ones took: each budget's remaining trials at the mean time of
// its finished ones, and a budget not yet measured at a time extrapolated
// linearly in the budget from the two largest budgets measured (a trial
// costs a start-up plus a time per visit).
type eta struct {
	start   time.Time
	budgets []int
	per     int // trials per budget over the whole check
	sum     map[int]time.Duration
	n       map[int]int
}

func newETA(budgets []int, perBudget int) *eta {
	return &eta{start: time.Now(), budgets: budgets, per: perBudget, sum: map[int]time.Duration{}, n: map[int]int{}}
}

// record adds a finished trial at budget b that took d.
func (e *eta) record(b int, d time.Duration) {
	e.sum[b] += d
	e.n[b]++
}

func (e *eta) elapsed() time.Duration { return time.Since(e.start) }

// left returns the estimate, or -1 before any trial has finished.
func (e *eta) left() time.Duration {
	var lo, hi int // the two largest budgets measured
	for _, b := range e.budgets {
		if _, ok := e.mean(b); ok {
			lo, hi = hi, b
		}
	}
	if hi == 0 {
		return -1
	}
	tHi, _ := e.mean(hi)
	slope := 0.0 // time per visit
	if lo > 0 {
		tLo, _ := e.mean(lo)
		slope = max(float64(tHi-tLo)/float64(hi-lo), 0)
	}
	var left time.Duration
	for _, b := range e.budgets {
		t, ok := e.mean(b)
		if !ok {
			t = max(tHi+time.Duration(slope*float64(b-hi)), 0)
		}
		left += time.Duration(e.per-e.n[b]) * t
	}
	return left
}

// mean is the mean time of the finished trials at budget b.
func (e *eta) mean(b int) (time.Duration, bool) {
	if e.n[b] == 0 {
		return 0, false
	}
	return e.sum[b] / time.Duration(e.n[b]), true
}
