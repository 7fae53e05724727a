package core

import "sync/atomic"

// A tree-parallel worker holds back its backups of the nodes near the
// root, which every simulation of every worker passes through: it adds
// them up in a batch of its own and writes them to the shared statistics
// every batchSims simulations (fewer early in a search, see holdLimit), and
// a level's when the descent leaves the node whose children it holds.
// Without it, each simulation's atomic adds to the root, to its children
// and to theirs move those nodes' cache lines between the cores, and on
// a workload of short simulations two workers were slower than one
// (docs/speed.md, "Decisions").
//
// A worker adds its own held backups to what it reads, so it sees its own
// simulations at once; the other workers see them up to batchSims
// simulations late (at most about 1/32 of the simulations run so far), as
// they already see any simulation still in flight late. Only the visit
// counts and reward sums are held back: the in-flight counts of virtual
// loss stay exact (sharedflight.go). The batch is off with one worker
// (the search stays the serial one), in lockstep (deterministic, its
// semantics unchanged) and when the search keeps minimax values or sums of
// squares, whose backups read or pair with the visit counts.
const (
	// batchDepth is the number of levels held back: the root is level 0.
	batchDepth = 3
	// batchSims is the number of simulations a worker holds back at most.
	batchSims = 64
)

// batch is one tree-parallel worker's held-back backups: level d holds the
// visits and rewards added to the children of one node at depth d − 1 (at
// level 0, the root itself).
type batch struct {
	sims     int // simulations held back
	levels   [batchDepth]heldSpan
	flight   flights  // with virtual loss: where the worker is in flight
	inFlight []uint32 // the others' simulations in flight through a node's children
	_        [64]byte // the workers' batches lie side by side: no shared cache line
}

// heldSpan holds the backups of k sibling nodes, first to first + k − 1,
// not yet written to the shared statistics; k = 0 when it holds none.
type heldSpan struct {
	first, k int32
	n        []uint32
	w        []float64
}

// at returns the held visits and rewards of node i, zero if the span does
// not hold it.
func (h *heldSpan) at(i int32) (uint32, float64) {
	if j := uint32(i - h.first); j < uint32(h.k) {
		return h.n[j], h.w[j]
	}
	return 0, 0
}

// kids returns the held visits and rewards of the k children from first
// on, nil if the span holds other nodes.
func (h *heldSpan) kids(first, k int32) ([]uint32, []float64) {
	if h.k == 0 || h.first != first {
		return nil, nil
	}
	return h.n[:k], h.w[:k]
}

// batching reports whether the workers of s hold back their backups.
func (s *Search) batching() bool {
	return len(s.workers) > 1 && !s.par.noHold && !s.cfg.Lockstep && !s.mm.used() && !s.sq.used()
}

// held returns the visits and rewards of node at depth that b holds back.
func (b *batch) held(depth int, node int32) (uint32, float64) {
	if b == nil || depth >= batchDepth {
		return 0, 0
	}
	return b.levels[depth].at(node)
}

// heldKids returns the held visits and rewards of the k children, from
// first on, of a node at depth, nil if b holds none of them.
func (b *batch) heldKids(depth int, first, k int32) ([]uint32, []float64) {
	if b == nil || depth+1 >= batchDepth {
		return nil, nil
	}
	return b.levels[depth+1].kids(first, k)
}

// hold adds reward to the nodes of w's path that b holds back, writing
// out a level whose held span is another node's children, and reports how
// many of the path's nodes it took (the first ones).
func (s *Search) hold(b *batch, path []step, reward float64) int {
	d := 0
	for ; d < min(len(path), batchDepth); d++ {
		first, k := path[0].node, int32(1) // the root, alone at level 0
		if d > 0 {
			first, k = path[d-1].first, path[d-1].kids
		}
		h := &b.levels[d]
		if h.k == 0 || h.first != first {
			s.flushSpan(h)
			h.first, h.k = first, k
			if int(k) > len(h.n) {
				h.n = make([]uint32, k) // rare: the widest node so far
				h.w = make([]float64, k)
			}
		}
		i := path[d].node - first
		h.n[i]++
		h.w[i] += reward
	}
	return d
}

// flush writes every backup b holds to the shared statistics.
func (s *Search) flush(b *batch) {
	for d := range b.levels {
		s.flushSpan(&b.levels[d])
	}
	b.sims = 0
}

// flushSpan writes the backups h holds to the shared statistics and
// empties it.
func (s *Search) flushSpan(h *heldSpan) {
	if h.k == 0 {
		return
	}
	nodes := s.nodes.span(h.first, h.k)
	for i := range nodes {
		if h.n[i] == 0 {
			continue
		}
		atomic.AddUint32(&nodes[i].n, h.n[i])
		if h.w[i] != 0 { // exact: w + 0 = w
			addF(&nodes[i].w, h.w[i])
		}
		h.n[i], h.w[i] = 0, 0
	}
	h.k = 0
}

// visits returns the visit count of node at depth, with the visits b holds
// back added.
func (s *Search) visits(b *batch, depth int, node int32) uint32 {
	n, _ := b.held(depth, node)
	return atomic.LoadUint32(&s.nodes.at(node).n) + n
}

// holdLimit is the number of simulations a worker holds back before
// simulation t (counted from the search's start) writes them out: 1 at
// first, batchSims from 32·batchSims simulations on, so that the other
// workers never miss more than about 1/32 of what the search has seen.
func holdLimit(t int64) int {
	return int(min(batchSims, 1+t/32))
}
