package core

import (
	"runtime"
	"sync/atomic"
)

// The modes of descend and buildSite: a serial search reads and writes its
// tree with plain operations, a tree-parallel one (NewTreeParallel) with atomic
// ones, virtual loss and held-back backups. A plain search is a serial
// search whose rule is core's UCT on the nodes alone (Search.plain): no
// Site, no optional statistic, a path of nodes alone, the backup at the
// end of the descent, and a cursor that reads either the game's methods
// (uctRun) or its GameArrays (uctArrays) without testing which. As in
// uctSelect, a mode's array length is a set of bits, a constant in each
// instantiation, so that a serial search's loop carries none of the
// parallel one's work, and a plain one none of a rule's:
//
//	serialRun  0: a serial search
//	sharedRun  1: a tree-parallel search
//	uctRun     2: a plain search
//	uctArrays  6: a plain search of a game read from its GameArrays
type (
	serialRun [0]byte
	sharedRun [1]byte
	uctRun    [2]byte
	uctArrays [6]byte
	runMode   interface {
		serialRun | sharedRun | uctRun | uctArrays
	}
)

// descend runs the descent, growth and roll-out of one simulation of worker
// w and returns its reward: the one descent of both searches. A plain
// descent also backs the reward up (backupNodes). A shared
// descent leaves the simulation in flight through its path until
// backupShared, and reads the statistics with the backups b holds back
// added (b is nil in a serial search and when nothing is held back).
func descend[M runMode](s *Search, w *worker, b *batch) (float64, error) {
	var m M
	shared, plain := len(m)&1 != 0, len(m)&2 != 0
	if !shared {
		w = &s.worker // the same pointer, which the compiler then keeps in one register
	}
	arrays := len(m)&4 != 0 || !plain && w.table != nil // a constant in a plain descent
	w.reset(arrays)
	w.path = w.path[:0]
	w.played = w.played[:0]
	paper := s.cfg.Growth == GrowPaper
	fly := shared && s.fly.used()
	cur := int32(0)
	by := Max
	var reward float64
	for depth := int32(0); ; depth++ {
		kind := w.kind(arrays)
		if shared && depth == 0 && kind == Min {
			by = Min
		}
		nd := s.nodes.at(cur)
		if fly {
			s.enterFlight(b, int(depth), cur)
		}
		w.path = append(w.path, step{})
		st := &w.path[len(w.path)-1] // fields stored one by one: a composite literal copied whole stalls store forwarding
		st.node = cur
		if !plain { // a plain backup reads the nodes alone
			st.kind = kind
		}
		if shared {
			st.by = by // whose loss a virtual loss is: only a tree-parallel search reads it
		}
		if kind == Terminal {
			reward = w.terminalReward(arrays)
			break
		}
		k := w.numMoves(arrays)
		if k <= 0 {
			return 0, s.errorf(w, "%v position with %d moves", kind, k)
		}
		var first int32
		if shared {
			first = atomic.LoadInt32(&nd.first)
		} else {
			first = nd.first
		}
		if first < 0 {
			var leaf bool
			if shared {
				leaf = !paper && (s.visits(b, int(depth), cur) < uint32(s.cfg.ExpandAfter) || s.fullShared(k))
			} else {
				leaf = !paper && (nd.n < uint32(s.cfg.ExpandAfter) || s.full(k))
			}
			if !leaf && shared {
				var err error
				if first, leaf, err = s.growShared(w, cur, kind, k, paper); err != nil {
					return 0, err
				}
			}
			if leaf {
				r, err := s.rollout(w, kind, k, depth)
				if err != nil {
					return 0, err
				}
				reward = r
				break
			}
			if !shared {
				f, err := s.newKids(w, kind, k)
				if err != nil {
					return 0, err
				}
				nd = s.nodes.at(cur) // the first chunk may have moved
				nd.first, first = f, f
			}
		}
		if !plain {
			st.first, st.kids = first, int32(k)
		}
		var i int
		switch {
		case plain && kind == Max: // uctSelect's argmax, called directly: cs is finite (Search.plain)
			i = uctArgmax[uctMax](s.tab, s.uct.C*s.tab.sqrtLog(uint64(nd.n)), s.nodes.span(first, int32(k)))
		case plain && kind == Min:
			i = uctArgmax[uctMin](s.tab, s.uct.C*s.tab.sqrtLog(uint64(nd.n)), s.nodes.span(first, int32(k)))
		case kind == Chance:
			var err error
			if i, err = s.sample(w, k); err != nil {
				return 0, err
			}
		case kind != Max && kind != Min:
			return 0, s.errorf(w, "unknown kind %v", kind)
		case s.uct != nil && !shared:
			i = uctSelect[uctNodes](s.tab, s.uct.C*s.tab.sqrtLog(uint64(nd.n)), s.nodes.span(first, int32(k)), kind == Min, nil)
		case s.uct != nil:
			i = s.chooseUCTShared(w, b, cur, nd, first, k, kind, depth)
		case shared:
			i = s.choose(buildSite[sharedRun](s, w, b, cur, nd, first, k, kind, depth, by))
			if uint(i) >= uint(k) {
				return 0, &RuleError{Path: s.pathMoves(w), Sim: w.t, Index: i, Len: k}
			}
		default: // named instantiations, so that the loop needs no dictionary
			i = s.choose(buildSite[serialRun](s, w, nil, cur, nd, first, k, kind, depth, Max))
			if uint(i) >= uint(k) {
				return 0, &RuleError{Path: s.pathMoves(w), Sim: w.t, Index: i, Len: k}
			}
		}
		if !plain && s.arena.amaf.used() && kind != Chance {
			w.play(depth, kind, *s.moves.at(first + int32(i)))
		}
		if shared && kind != Chance {
			by = kind
		}
		w.playMove(arrays, i)
		cur = first + int32(i)
	}
	if !(reward >= 0 && reward <= 1) {
		return 0, s.errorf(w, "terminal reward %v outside [0,1]", reward)
	}
	if plain { // the whole backup, here where the path is at hand
		s.backupNodes(reward)
	}
	return reward, nil
}

// growShared adds the children of node cur, a stored leaf of the given
// kind with k moves, in a tree-parallel search and returns its first child;
// or, when another worker is adding them in practical mode, reports that
// this simulation treats the node as the leaf it still is (a paper-mode
// worker waits for them instead).
func (s *Search) growShared(w *worker, cur int32, kind Kind, k int, paper bool) (first int32, leaf bool, err error) {
	nd := s.nodes.at(cur)
	if atomic.CompareAndSwapInt32(&nd.first, -1, -2) {
		f, err := s.newKids(w, kind, k)
		if err != nil {
			atomic.StoreInt32(&nd.first, -1)
			return 0, false, err
		}
		atomic.StoreInt32(&nd.first, f) // published once the children are filled in
		return f, false, nil
	}
	if !paper {
		return 0, true, nil
	}
	for {
		if first = atomic.LoadInt32(&nd.first); first >= 0 {
			return first, false, nil
		}
		if s.par.stop.Load() {
			return 0, false, errStopped
		}
		runtime.Gosched()
	}
}

// choose asks the rule for a child of the site buildSite made.
func (s *Search) choose(w *worker, st *Site) int {
	w.inRule = true
	i := s.rule.Select(st)
	w.inRule = false
	return i
}

// buildSite sets up worker w's Site at node cur (nd), whose k children
// start at first, for the rule: the one place a search builds a site. A
// serial search's site reads the arena's spans; a tree-parallel one's a
// snapshot of the statistics, read atomically, with the backups b holds
// back added and the other workers' virtual loss added as virtual
// experience.
func buildSite[M runMode](s *Search, w *worker, b *batch, cur int32, nd *node, first int32, k int, kind Kind, depth int32, by Kind) (*worker, *Site) {
	var m M
	shared := len(m) != 0
	kk := int32(k)
	st := &w.site
	if !shared {
		st.at(s.nodes.span(first, kk), *nd, kind, int(depth), w.t, &w.rng)
		if s.arena.virt.used() {
			st.virt = s.arena.virt.span(first, kk)
			st.sVirt = *s.arena.virt.at(cur)
		}
		if s.arena.prior.used() {
			st.prior = s.arena.prior.span(first, kk)
		}
		if s.arena.amaf.used() {
			st.amaf = s.arena.amaf.span(first, kk)
		}
		if s.mm.used() {
			st.mm = s.mm.span(first, kk)
			st.sMM = *s.mm.at(cur)
		}
		if s.sq.used() {
			st.sq = s.sq.span(first, kk)
			st.sSq = *s.sq.at(cur)
		}
		return w, st
	}
	if cap(w.kids) < k {
		w.kids = make([]node, k)
		w.virt = make([]virtual, k)
		w.amaf = make([]amafStat, k)
		w.mmBuf = make([]float64, k)
		w.sqBuf = make([]float64, k)
	}
	fly := s.fly.used()
	var others uint32 // the other workers' simulations in flight through cur
	var in []uint32   // and through each child
	if fly {
		others, in = s.othersInFlight(b, int(depth), cur, first, kk)
	}
	heldN, heldW := b.held(int(depth), cur)
	kidsN, kidsW := b.heldKids(int(depth), first, kk)
	kids := snapshotKids(w.kids[:k], s.nodes.span(first, kk), kidsN, kidsW)
	self := node{w: loadF(&nd.w, true) + heldW, n: atomic.LoadUint32(&nd.n) + heldN, first: first}
	st.at(kids, self, kind, int(depth), w.t, &w.rng)
	switch {
	case fly:
		buf := w.virt[:k]
		v := s.lossValue(kind)
		for i := range buf {
			var vi virtual
			if s.arena.virt.used() {
				vi = *s.arena.virt.at(first + int32(i))
			}
			f := float64(atomic.LoadUint32(&in[i])) * s.vl.N
			buf[i] = virtual{vi.n + f, vi.w + f*v}
		}
		st.virt = buf
		var sv virtual
		if s.arena.virt.used() {
			sv = *s.arena.virt.at(cur)
		}
		f := float64(others) * s.vl.N
		st.sVirt = virtual{sv.n + f, sv.w + f*s.lossValue(by)}
	case s.arena.virt.used():
		st.virt = s.arena.virt.span(first, kk) // written before the node was published
		st.sVirt = *s.arena.virt.at(cur)
	}
	if s.arena.prior.used() {
		st.prior = s.arena.prior.span(first, kk)
	}
	if s.arena.amaf.used() {
		buf := w.amaf[:k]
		for i := range buf {
			a := s.arena.amaf.at(first + int32(i))
			buf[i] = amafStat{atomic.LoadUint32(&a.n), loadF(&a.w, true)}
		}
		st.amaf = buf
	}
	if s.mm.used() {
		st.mm, st.sMM = snapshotFloats(&s.mm, w.mmBuf[:k], first, cur)
	}
	if s.sq.used() {
		st.sq, st.sSq = snapshotFloats(&s.sq, w.sqBuf[:k], first, cur)
	}
	return w, st
}

// chooseUCTShared is core's UCT loop in a tree-parallel search: over the
// stored nodes, read atomically, with the backups b holds back and the
// other workers' virtual loss added.
func (s *Search) chooseUCTShared(w *worker, b *batch, cur int32, nd *node, first int32, k int, kind Kind, depth int32) int {
	kk := int32(k)
	heldN, _ := b.held(int(depth), cur)
	parentN := uint64(atomic.LoadUint32(&nd.n) + heldN)
	var in []uint32 // the other workers' simulations in flight through each child
	switch {
	case b.flies(int(depth)):
		var others uint32
		others, in = s.othersInFlight(b, int(depth), cur, first, kk)
		parentN += uint64(float64(others) * s.vl.N)
	case s.fly.used():
		in = s.fly.span(first, kk)
		parentN += uint64(float64(s.othersShared(cur)) * s.vl.N)
	}
	kids, cs := s.nodes.span(first, kk), s.uct.C*s.tab.sqrtLog(parentN)
	x := &w.uctX
	x.fly, x.vn, x.v = in, s.vl.N, s.lossValue(kind)
	x.heldN, x.heldW = b.heldKids(int(depth), first, kk)
	flip := kind == Min
	switch {
	case x.heldN != nil && in != nil:
		return uctSelect[uctHeldFly](s.tab, cs, kids, flip, x)
	case x.heldN != nil:
		return uctSelect[uctHeld](s.tab, cs, kids, flip, x)
	case in != nil:
		return uctSelect[uctFly](s.tab, cs, kids, flip, x)
	}
	return uctSelect[uctShared](s.tab, cs, kids, flip, x)
}

// at points the site at a node with statistics self and children kids, of
// the given kind, at depth, in simulation t drawing from rng, with no
// optional statistic but those already set (a search's configuration
// fixes which it sets): the fields every site has, set in one place, and
// what the site computed on first use forgotten.
func (st *Site) at(kids []node, self node, kind Kind, depth int, t int64, rng *RNG) {
	st.kids, st.self = kids, self
	st.flip = kind == Min
	st.depth, st.t, st.rng = depth, t, rng
	st.fresh()
}
