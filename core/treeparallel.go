package core

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// NewTreeParallel returns a tree-parallel search (Grand Challenge paper §4.3): one
// worker per game, each driving its own cursor on the same game from its
// own goroutine, all descending and growing one tree. Every game must be a
// fresh cursor on the same game, and the rule's Select must be safe to call
// from several goroutines at once (each call gets its own Site and its own
// worker's generator); the catalogue's rules are values and are. The games
// should share no cache line, as NewRoot says.
//
// Statistics are read and updated with atomic operations, so the search is
// race-free; Config.VirtualLoss makes the workers spread out. Run divides
// its budget among the workers as they become free, so the statistics
// depend on the timing of the threads: this is the one exception to the
// engine's determinism. With two workers or more, each holds back its
// backups of the top three levels of the tree for up to 64 simulations
// (sharedbatch.go): it sees its own at once, the others see them late, as
// they see simulations in flight; the in-flight counts of virtual loss
// are never late. With one game the search is the serial search,
// simulation for simulation (no other worker is ever in flight).
//
// With Config.Lockstep the workers take turns in the calling goroutine
// instead, in batches of one simulation each that are all in flight
// together: the search is then deterministic.
//
// Between runs, Walk, Lookup, Decide and the other inspection methods read
// the tree as they do for a serial search.
func NewTreeParallel(games []Game, rule Rule, cfg Config) (*Search, error) {
	if len(games) == 0 {
		return nil, errors.New("core: NewTreeParallel with no games")
	}
	if err := cfg.VirtualLoss.check(); err != nil {
		return nil, err
	}
	s, err := newSearch(games, rule, cfg)
	if err != nil {
		return nil, err
	}
	s.vl = cfg.VirtualLoss
	if s.vl.N > 0 {
		s.fly.c = [][]uint32{}
		if s.vl.N != math.Trunc(s.vl.N) {
			s.uct = nil // fractional virtual counts: UCT reads them through a Site
		}
		for j := range s.nodes.c {
			if s.nodes.c[j] != nil {
				s.fly.add(j, len(s.nodes.c[j]))
			}
		}
	}
	s.arena.share()
	s.workers = make([]*worker, len(games))
	s.workers[0] = &s.worker
	for j := 1; j < len(games); j++ {
		w := new(worker)
		s.initWorker(w, games[j])
		s.workers[j] = w
	}
	s.par.errs = make([]error, len(games))
	s.par.done = make([]int64, len(games))
	s.par.batches = make([]batch, len(games))
	if s.vl.N > 0 {
		all := newFlights(len(games))
		for j := range s.par.batches {
			s.par.batches[j].flight = flights{all, j}
		}
	}
	s.Reset(cfg.Seed)
	return s, nil
}

// Workers is the number of goroutines that run the search: 1 for a serial
// search.
func (s *Search) Workers() int { return max(len(s.workers), 1) }

// parallelRun is the state a tree-parallel Run shares among its workers.
type parallelRun struct {
	next    atomic.Int64 // next simulation index to claim
	end     int64        // first index not to run
	stop    atomic.Bool  // a worker failed: the others stop
	wg      sync.WaitGroup
	errs    []error // by worker, read after wg.Wait
	done    []int64 // simulations completed, by worker
	batches []batch // by worker: backups held back (sharedbatch.go)
	noHold  bool    // BenchmarkHold's baseline: the workers hold nothing back
}

// claim is the number of simulations a worker claims at a time, so that
// the claim counter's cache line does not travel between cores on every
// simulation.
const claim = 32

// errStopped ends a worker that waits for a node another, failed, worker
// was expanding.
var errStopped = errors.New("core: stopped")

// runShared is Run for a tree-parallel search: worker 0 runs in the
// calling goroutine, the others in their own.
func (s *Search) runShared(ctx context.Context, sims int) error {
	if s.cfg.Lockstep {
		return s.runLockstep(ctx, sims)
	}
	p := &s.par
	for j := range p.batches {
		if b := &p.batches[j]; b.flight.all != nil {
			b.flight.leave() // a failed run may have left one in flight
		}
	}
	p.next.Store(s.sims)
	p.end = s.sims + int64(sims)
	p.stop.Store(false)
	p.wg.Add(len(s.workers))
	for j := 1; j < len(s.workers); j++ {
		go s.work(ctx, j)
	}
	s.work(ctx, 0)
	p.wg.Wait()
	var err error
	for j := range s.workers {
		s.sims += p.done[j]
		if e := p.errs[j]; e != nil && (err == nil || isCtxErr(err) && !isCtxErr(e)) {
			err = e
		}
	}
	if err != nil && !isCtxErr(err) {
		s.err = err
	}
	return err
}

// runLockstep is Run for a lockstep search: batches of one simulation per
// worker, all descended before any is backed up, in the calling goroutine.
func (s *Search) runLockstep(ctx context.Context, sims int) (err error) {
	var w *worker
	defer func() {
		if p := recover(); p != nil {
			s.err = s.panicError(w, p)
			err = s.err
		}
	}()
	done := ctx.Done()
	k := len(s.workers)
	var poll poller
	for base := 0; base < sims; base += k {
		if done != nil && poll.due() {
			select {
			case <-done:
				return ctx.Err()
			default:
			}
			poll.looked()
		}
		n := min(k, sims-base)
		for j := range n {
			w = s.workers[j]
			w.t = s.sims + int64(j)
			r, err := descend[sharedRun](s, w, nil)
			if err != nil {
				s.err = err
				return err
			}
			w.reward = r
		}
		for j := range n {
			w = s.workers[j]
			s.backupShared(w, w.reward, nil)
		}
		s.sims += int64(n)
	}
	return nil
}

func isCtxErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// work runs simulations of worker j until the budget is spent, the context
// ends or a worker fails.
func (s *Search) work(ctx context.Context, j int) {
	p := &s.par
	w := s.workers[j]
	var b *batch
	if s.batching() {
		b = &p.batches[j]
	}
	var done int64
	defer func() {
		if r := recover(); r != nil {
			p.errs[j] = s.panicError(w, r)
			p.stop.Store(true)
		}
		if b != nil {
			s.flush(b)
		}
		p.done[j] = done
		p.wg.Done()
	}()
	p.errs[j] = nil
	ctxDone := ctx.Done()
	for {
		if ctxDone != nil {
			select {
			case <-ctxDone:
				p.errs[j] = ctx.Err()
				return
			default:
			}
		}
		t0 := p.next.Add(claim) - claim
		for t := t0; t < min(t0+claim, p.end); t++ {
			if p.stop.Load() {
				return
			}
			w.t = t
			if err := s.simulateShared(w, b); err != nil {
				if err != errStopped {
					p.errs[j] = err
					p.stop.Store(true)
				}
				return
			}
			done++
		}
		if t0+claim >= p.end {
			return
		}
	}
}

// fullShared is full for a tree-parallel search, whose count other
// workers change.
func (s *Search) fullShared(k int) bool {
	if s.cfg.MaxNodes == 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.full(k)
}

// simulateShared runs one simulation of worker w on the shared tree,
// holding back its backups near the root in b unless b is nil.
func (s *Search) simulateShared(w *worker, b *batch) error {
	reward, err := descend[sharedRun](s, w, b)
	if err != nil {
		return err
	}
	s.backupShared(w, reward, b)
	return nil
}

// lossValue is the reward of a virtual loss in max's perspective, for a
// node chosen by a player of kind by.
func (s *Search) lossValue(by Kind) float64 {
	if by == Min {
		return 1 - s.vl.Value
	}
	return s.vl.Value
}

// snapshotKids copies the visits and rewards of src into dst, read
// atomically, with the held-back ones (heldN, heldW, unless nil) added.
func snapshotKids(dst, src []node, heldN []uint32, heldW []float64) []node {
	for i := range dst {
		dst[i] = node{w: loadF(&src[i].w, true), n: atomic.LoadUint32(&src[i].n), first: -1}
	}
	for i := range heldN {
		dst[i].n += heldN[i]
		dst[i].w += heldW[i]
	}
	return dst
}

// backupShared is backup for a tree-parallel search: atomic updates, but
// for the nodes near the root whose updates b holds back (unless b is
// nil), and the simulation leaves the nodes it was in flight through.
func (s *Search) backupShared(w *worker, reward float64, b *batch) {
	held := 0 // the top levels: b holds their backups, their flight is b's
	if b != nil {
		held = s.hold(b, w.path, reward)
	}
	fly := s.fly.used()
	for _, st := range w.path[held:] {
		nd := s.nodes.at(st.node)
		atomic.AddUint32(&nd.n, 1)
		addF(&nd.w, reward)
		if fly {
			s.leaveNode(st.node)
		}
	}
	if b != nil {
		if fly {
			b.flight.leave()
		}
		if b.sims++; b.sims >= holdLimit(w.t) {
			s.flush(b)
		}
	}
	if s.sq.used() {
		s.backupSquares(w, reward, true)
	}
	if s.mm.used() {
		s.backupMinimax(w, reward, true)
	}
	if s.arena.amaf.used() {
		s.backupAMAF(w, reward, true)
	}
}

// snapshotFloats reads, atomically, the len(buf) children from first on of a
// float64 statistic into buf, and node cur's own value.
func snapshotFloats(c *chunked[float64], buf []float64, first, cur int32) ([]float64, float64) {
	for i := range buf {
		buf[i] = loadF(c.at(first+int32(i)), true)
	}
	return buf, loadF(c.at(cur), true)
}

// String describes v: "virtual loss 1×0" (N × Value) or "no virtual loss".
func (v VirtualLoss) String() string {
	if v.N == 0 {
		return "no virtual loss"
	}
	return fmt.Sprintf("virtual loss %g×%g", v.N, v.Value)
}
