package props

import (
	"context"
	"sync"
	"time"

	"github.com/mctscheck/mctscheck/core"
)

// meter counts the work of a check as it goes, for Options.Status: the
// trees taken up in order, and the work that moves while trees and seeds
// are judged ahead of their turn, the searches done (in any order) and
// the simulations run, of those planned. Every search runs to the last
// budget, so the simulations planned are known before the first one: the
// share of them run is the check's progress, which a progress line turns
// into an estimate of the time left. The limit probe and the shrinker's
// searches are not counted (nobody can plan them).
type meter struct {
	status  func(Status)
	mu      sync.Mutex
	st      Status
	said    time.Time // when status was last called
	closed  bool      // the trees are judged: no more counts
	budget  int64     // the simulations of one search
	running map[*running]struct{}
}

// running is a search of the plan that the meter follows while it runs:
// its simulations, and when and at how many its pace is measured from
// (its first count: the wait for a slot or a program's start is no part
// of its pace), for the slowest one's time left.
type running struct {
	m         *meter
	sims      int64
	first     time.Time
	firstSims int64
	counted   bool
	// since is a later point to read the pace from, at sinceSims: the
	// mark before the last (the present each time the search's age since
	// first doubles), between a quarter and a half of its age, so that
	// the pace is of the last half or more of it. A search sharing its
	// program's batches with many others goes faster once they end.
	since, mark         time.Time
	sinceSims, markSims int64
}

// statusEvery is how often at most the simulations alone make a report:
// a tree or a search done always makes one.
const statusEvery = 100 * time.Millisecond

// metered returns o with the meter of a check of trees trees and
// searches searches, which it reports as planned; o itself when nobody
// listens (Options.Status unset): a nil meter counts nothing.
func (o Options) metered(trees, searches int) Options {
	if o.Status == nil {
		return o
	}
	o.meter = &meter{status: o.Status, st: Status{Phase: PhaseTrees, Total: trees,
		SearchesPlanned: searches, SimsPlanned: int64(searches) * int64(o.MaxBudget)},
		budget: int64(o.MaxBudget), running: map[*running]struct{}{}}
	o.meter.say()
	return o
}

// close ends the counts: the trees are judged, and the searches still
// running (judged ahead, past the last tree taken up) or to come (the
// shrinker's) are no part of the plan.
func (m *meter) close() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
}

// phase reports a step of a phase other than the trees'.
func (m *meter) phase(phase string, done, total int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.said = time.Now()
	m.status(Status{Phase: phase, Done: done, Total: total})
}

// begin follows a search of the plan as it runs; nil (which counts
// nothing) without a meter or once the trees are judged.
func (m *meter) begin() *running {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	r := &running{m: m}
	m.running[r] = struct{}{}
	return r
}

// add counts n simulations of the search, reporting them if the last
// report is old.
func (r *running) add(n int64) {
	if r == nil || n <= 0 {
		return
	}
	m := r.m
	m.mu.Lock()
	defer m.mu.Unlock()
	r.count(n, time.Now())
	if m.closed {
		return
	}
	m.st.Sims += n
	if time.Since(m.said) >= statusEvery {
		m.say()
	}
}

// count records that n more simulations had run at now, and moves the
// marks the pace is read from.
func (r *running) count(n int64, now time.Time) {
	r.sims += n
	if !r.counted {
		r.first, r.firstSims, r.counted = now, r.sims, true
		r.since, r.sinceSims, r.mark, r.markSims = now, r.sims, now, r.sims
	} else if now.Sub(r.first) >= 2*r.mark.Sub(r.first) {
		r.since, r.sinceSims, r.mark, r.markSims = r.mark, r.markSims, now, r.sims
	}
}

// left is the time the search needs at now to reach budget at its own
// pace: since the mark before the last, once a sixteenth of budget has
// run since, or else since its first count. None before an eighth of it
// has run: one read over a few chunks, across a stall of the machine,
// would say hours.
func (r *running) left(now time.Time, budget int64) (time.Duration, bool) {
	ran := r.sims - r.firstSims
	if !r.counted || ran <= 0 || 8*r.sims < budget {
		return 0, false
	}
	since := r.first
	if recent := r.sims - r.sinceSims; 16*recent >= budget {
		since, ran = r.since, recent
	}
	return time.Duration(float64(now.Sub(since)) * float64(budget-r.sims) / float64(ran)), true
}

// end stops following the search; done says that it ran to its end, a
// search done, which is reported.
func (r *running) end(done bool) {
	if r == nil {
		return
	}
	m := r.m
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.running, r)
	if done && !m.closed {
		m.st.Searches++
		m.say()
	}
}

// treeDone counts the trees taken up, done of them, and reports it.
func (m *meter) treeDone(done int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.closed {
		m.st.Done = done
		m.say()
	}
}

// say calls status with the counts; m.mu is held, so no two calls overlap.
func (m *meter) say() {
	m.said = time.Now()
	m.st.Slowest = 0
	for r := range m.running {
		if left, ok := r.left(m.said, m.budget); ok {
			m.st.Slowest = max(m.st.Slowest, left)
		}
	}
	m.status(m.st)
}

// chunkTime is how long a metered search runs between two counts of its
// simulations at least: a search that runs faster takes longer chunks, so
// that a fast rule's search makes about one call a checkpoint, while a
// slow program's shows its progress within a doubling.
const chunkTime = 20 * time.Millisecond

// runTo runs s until it has target simulations, counting them on r as
// it goes, and returns the simulations it ran. Without a meter, or for a
// tree-parallel search (whose lockstep batches a split could change), it
// is one call of s.Run; with one, the calls take chunks of *chunk
// simulations, from 64, doubling while a chunk takes less than chunkTime
// (the size carries over to the search's next checkpoint, so that a fast
// search makes about as many calls as it has checkpoints), which gives
// the same search: a serial search is the same whatever its calls.
func runTo(ctx context.Context, s *core.Search, target int64, r *running, parallel bool, chunk *int64) (int64, error) {
	before := s.Sims()
	if r == nil || parallel {
		err := s.Run(ctx, int(target-before))
		ran := s.Sims() - before
		r.add(ran)
		return ran, err
	}
	if *chunk < 64 {
		*chunk = 64
	}
	for s.Sims() < target {
		n, at := min(*chunk, target-s.Sims()), s.Sims()
		start := time.Now()
		err := s.Run(ctx, int(n))
		r.add(s.Sims() - at)
		if err != nil {
			return s.Sims() - before, err
		}
		if n == *chunk && time.Since(start) < chunkTime {
			*chunk *= 2
		}
	}
	return s.Sims() - before, nil
}
