package core

import (
	"math"
	"sync/atomic"
	"unsafe"
)

// backup adds reward to every stored node of a serial search's path, then
// updates the optional sums of squares, minimax values and AMAF statistics.
func (s *Search) backup(reward float64) {
	w := &s.worker
	s.backupNodes(reward)
	if s.sq.used() {
		s.backupSquares(w, reward, false)
	}
	if s.mm.used() {
		s.backupMinimax(w, reward, false)
	}
	if s.arena.amaf.used() {
		s.backupAMAF(w, reward, false)
	}
}

// backupNodes adds reward to every stored node of a serial search's path:
// the whole backup of a plain search.
func (s *Search) backupNodes(reward float64) {
	path := s.worker.path
	for i := range path {
		nd := s.nodes.at(path[i].node)
		nd.n++
		nd.w += reward
	}
}

// The statistics of a tree-parallel search are read and written with
// atomic operations while its workers run (shared is true); a serial
// search uses plain ones. Rewards are float64, so their sums are updated
// by compare-and-swap on their bits.

func load32(p *uint32, shared bool) uint32 {
	if shared {
		return atomic.LoadUint32(p)
	}
	return *p
}

func loadF(p *float64, shared bool) float64 {
	if shared {
		return math.Float64frombits(atomic.LoadUint64((*uint64)(unsafe.Pointer(p))))
	}
	return *p
}

func storeF(p *float64, v float64, shared bool) {
	if shared {
		atomic.StoreUint64((*uint64)(unsafe.Pointer(p)), math.Float64bits(v))
		return
	}
	*p = v
}

// addF adds v to *p atomically.
func addF(p *float64, v float64) {
	u := (*uint64)(unsafe.Pointer(p))
	for {
		old := atomic.LoadUint64(u)
		if atomic.CompareAndSwapUint64(u, old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// backupSquares adds reward² to the sum of squares of every stored node of
// the path (max's perspective: a min chooser's, Σ(1 − r)², is n − 2w + Σr²).
func (s *Search) backupSquares(w *worker, reward float64, shared bool) {
	r2 := reward * reward
	for i := range w.path {
		p := s.sq.at(w.path[i].node)
		if shared {
			addF(p, r2)
		} else {
			*p += r2
		}
	}
}

// backupMinimax recomputes the minimax value of each node of the path,
// deepest first: a terminal's reward, a stored leaf's mean, the max or min
// of the visited children's values, or their visit-weighted mean at chance
// nodes. A tree-parallel worker (shared) reads and writes the values with
// atomic operations; its loop is apart so that the serial one stays plain.
//
// A serial search stops early, at a node that was visited before and whose
// value keeps its bits, when no chance node lies above it: a max or min
// node's value depends only on which children were visited and their
// values, so no ancestor's value can change (a chance node's weights
// change with every visit). On trees with fixed terminal rewards this is
// most simulations, which then recompute one node or none.
func (s *Search) backupMinimax(w *worker, reward float64, shared bool) {
	last := len(w.path) - 1
	st := &w.path[last]
	v := reward
	if st.kind != Terminal {
		nd := s.nodes.at(st.node)
		v = loadF(&nd.w, shared) / float64(load32(&nd.n, shared))
	}
	stop := -1 // the deepest node that may stop the climb: the first chance node, or the leaf
	if !shared {
		for stop = 0; stop < last && w.path[stop].kind != Chance; stop++ {
		}
	}
	for j := last; ; j-- {
		st := &w.path[j]
		p := s.mm.at(st.node)
		if j <= stop && math.Float64bits(*p) == math.Float64bits(v) && s.nodes.at(st.node).n > 1 {
			return
		}
		storeF(p, v, shared)
		if j == 0 {
			return
		}
		up := &w.path[j-1]
		kids := s.nodes.span(up.first, up.kids)
		vals := s.mm.span(up.first, up.kids)
		if shared {
			v = sharedMinimax(up.kind, kids, vals)
		} else {
			v = minimax(up.kind, kids, vals)
		}
	}
}

// minimax is the value of a node of the given kind from its children's
// visits and values: the max or min over the visited ones, or their
// visit-weighted mean at a chance node.
func minimax(kind Kind, kids []node, vals []float64) float64 {
	vals = vals[:len(kids)]
	v, weight, sum := 0.0, 0.0, 0.0
	seen := false
	for c := range kids {
		n := kids[c].n
		if n == 0 {
			continue
		}
		switch cv := vals[c]; kind {
		case Max:
			if !seen || cv > v {
				v = cv
			}
		case Min:
			if !seen || cv < v {
				v = cv
			}
		default:
			weight += float64(n)
			sum += float64(n) * cv
		}
		seen = true
	}
	if kind == Chance {
		v = sum / weight
	}
	return v
}

// sharedMinimax is minimax over statistics that other workers update: it
// reads a snapshot of them atomically.
func sharedMinimax(kind Kind, kids []node, vals []float64) float64 {
	var buf [16]node
	var vbuf [16]float64
	if len(kids) > len(buf) {
		snap := make([]node, len(kids)) // rare: nodes with many children
		vsnap := make([]float64, len(kids))
		return minimax(kind, snapshot(snap, kids), snapshotF(vsnap, vals))
	}
	return minimax(kind, snapshot(buf[:len(kids)], kids), snapshotF(vbuf[:len(kids)], vals))
}

// snapshot copies the visits of src into dst, read atomically.
func snapshot(dst, src []node) []node {
	for i := range dst {
		dst[i].n = atomic.LoadUint32(&src[i].n)
	}
	return dst
}

// snapshotF copies src into dst, read atomically.
func snapshotF(dst, src []float64) []float64 {
	for i := range dst {
		dst[i] = loadF(&src[i], true)
	}
	return dst
}

// play records a player move of the current simulation for AMAF.
func (w *worker) play(depth int32, kind Kind, move int32) {
	if int(move) >= w.limit {
		w.limit = int(move) + 1
		w.seen = make([]uint32, 2*w.limit) // rare: only games without Mover
		w.stamp = 0
	}
	side := int32(0)
	if kind == Min {
		side = 1
	}
	w.played = append(w.played, playedMove{depth: depth, move: move, side: side})
}

// backupAMAF updates, at every max and min node of the path, the AMAF
// statistics of each child whose move the same player played at that node or
// later in the simulation (the first time only: marks are a set).
func (s *Search) backupAMAF(w *worker, reward float64, shared bool) {
	w.stamp++
	if w.stamp == 0 { // wrapped: forget old marks
		clear(w.seen)
		w.stamp = 1
	}
	j := len(w.played)
	for d := len(w.path) - 1; d >= 0; d-- {
		for j > 0 && w.played[j-1].depth >= int32(d) {
			j--
			p := w.played[j]
			w.seen[p.side*int32(w.limit)+p.move] = w.stamp
		}
		st := w.path[d]
		if st.kind != Max && st.kind != Min || st.kids == 0 {
			continue
		}
		base := int32(0)
		if st.kind == Min {
			base = int32(w.limit)
		}
		moves := s.moves.span(st.first, st.kids)
		stats := s.arena.amaf.span(st.first, st.kids)
		for c, m := range moves {
			if w.seen[base+m] != w.stamp {
				continue
			}
			a := &stats[c]
			if shared {
				atomic.AddUint32(&a.n, 1)
				addF(&a.w, reward)
			} else {
				a.n++
				a.w += reward
			}
		}
	}
}
