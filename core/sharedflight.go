package core

import "sync/atomic"

// With virtual loss, a worker that holds back its backups (sharedbatch.go)
// does not count its simulation in flight through the top batchDepth
// levels with the shared in-flight counts, whose cache lines every
// simulation of every worker would write twice: it publishes where it is
// instead, one node a level, on a cache line of its own (its flight), and
// a worker choosing among those levels' children counts the others'
// flights that pass through each. The counts are the same, read at once
// as before; the writes stay on the worker's own line.

// flight is where one worker's current simulation is in the top levels:
// the node at each depth, −1 where it is not in flight.
type flight struct {
	at [batchDepth]atomic.Int32
	_  [64 - 4*batchDepth]byte // a cache line of its own
}

// newFlights returns k flights, none in flight.
func newFlights(k int) []flight {
	all := make([]flight, k)
	for j := range all {
		(&flights{all, j}).leave()
	}
	return all
}

// flights are every worker's flights, worker me's own among them.
type flights struct {
	all []flight
	me  int
}

// enter records that the simulation is in flight through node at depth.
func (f *flights) enter(depth int, node int32) {
	f.all[f.me].at[depth].Store(node)
}

// leave records that the simulation has left the top levels.
func (f *flights) leave() {
	for d := range batchDepth {
		f.all[f.me].at[d].Store(-1)
	}
}

// others returns the number of the other workers' simulations in flight
// through node at depth.
func (f *flights) others(depth int, node int32) uint32 {
	var c uint32
	for j := range f.all {
		if j != f.me && f.all[j].at[depth].Load() == node {
			c++
		}
	}
	return c
}

// kids fills buf with the number of the other workers' simulations in
// flight through each of the len(buf) children, from first on, at depth:
// the worker's own, choosing among them, is not there yet.
func (f *flights) kids(depth int, first int32, buf []uint32) []uint32 {
	clear(buf)
	for j := range f.all {
		if i := uint32(f.all[j].at[depth].Load() - first); i < uint32(len(buf)) {
			buf[i]++
		}
	}
	return buf
}

// flies reports whether worker b counts its simulations in flight through
// depth with its flight (else with the shared in-flight counts).
func (b *batch) flies(depth int) bool {
	return b != nil && b.flight.all != nil && depth < batchDepth
}

// othersShared returns the number of the other workers' simulations in
// flight through node cur from the shared in-flight counts, which count
// the worker's own.
func (s *Search) othersShared(cur int32) uint32 {
	return atomic.LoadUint32(s.fly.at(cur)) - 1
}

// leaveNode takes a simulation out of the shared in-flight count of node.
func (s *Search) leaveNode(node int32) {
	atomic.AddUint32(s.fly.at(node), ^uint32(0))
}

// enterFlight counts worker b's simulation in flight through node at
// depth.
func (s *Search) enterFlight(b *batch, depth int, node int32) {
	if b.flies(depth) {
		b.flight.enter(depth, node)
		return
	}
	atomic.AddUint32(s.fly.at(node), 1)
}

// batchOf returns worker w's batch, nil when the workers hold nothing back.
func (s *Search) batchOf(w *worker) *batch {
	if !s.batching() {
		return nil
	}
	for j := range s.workers {
		if s.workers[j] == w {
			return &s.par.batches[j]
		}
	}
	return nil
}

// leaveFlight takes worker w's simulation out of flight through its path.
func (s *Search) leaveFlight(w *worker, b *batch) {
	for d, st := range w.path {
		if !b.flies(d) {
			s.leaveNode(st.node)
		}
	}
	if b.flies(0) {
		b.flight.leave()
	}
}

// othersInFlight returns the number of the other workers' simulations in
// flight through node cur at depth, and through each of its k children
// from first on.
func (s *Search) othersInFlight(b *batch, depth int, cur, first, k int32) (uint32, []uint32) {
	if !b.flies(depth) {
		return s.othersShared(cur), s.fly.span(first, k)
	}
	self := b.flight.others(depth, cur)
	if !b.flies(depth + 1) {
		return self, s.fly.span(first, k)
	}
	if int(k) > len(b.inFlight) {
		b.inFlight = make([]uint32, k) // rare: the widest node so far
	}
	return self, b.flight.kids(depth+1, first, b.inFlight[:k])
}
