package core

import "math"

// NodeInfo describes one stored node, for inspection between runs. Counts
// and rewards are real simulations only, from max's perspective; the virtual
// experience is reported apart.
type NodeInfo struct {
	// Path is the move indices from the root; the root's is empty. In Walk it
	// is valid only during the callback.
	Path []int32
	// Kind is the node's kind.
	Kind Kind
	// Visits and W are the node's real simulations and their reward sum.
	Visits int64
	W      float64
	// Value is the node's backed-up value: W/Visits, or the minimax value with
	// BackupMinimax; NaN when Visits is 0.
	Value float64
	// K1 and K2 are the node's virtual experience, if any.
	K1, K2 float64
	// AMAFVisits and AMAFW are the node's AMAF statistics, if kept.
	AMAFVisits int64
	AMAFW      float64
	// Squares is the node's sum of squared rewards, present (HasSquares)
	// when the rule's Needs ask for it (Needs.Squares).
	Squares    float64
	HasSquares bool
	// Children is the number of stored children; 0 until the node is expanded.
	Children int
}

// Walk calls fn for every stored node, in depth-first order with children in
// index order, until fn returns false. It reads each node's kind from the
// game's GameArrays when the search reads them, and otherwise drives the
// game down the tree: one move per node, and a replay from the root after
// each node without stored children, so a chain or a wide tree costs time
// linear in its size. It does not change the search's statistics or random
// stream.
func (s *Search) Walk(fn func(NodeInfo) bool) {
	type frame struct{ first, next, kids, pos int32 }
	arr, g := s.worker.table, s.game
	var stack []frame // the ancestors of node cur
	var path []int32
	cur, pos := int32(0), int32(0) // pos: cur's position in arr
	g.Reset()
	inStep := true // the game stands at cur (without arr)
	for {
		var kind Kind
		var moves int
		if arr != nil {
			kind, moves = arr.Kind[pos], int(arr.First[pos+1]-arr.First[pos])
		} else {
			if !inStep {
				g.Reset()
				for _, m := range path {
					g.Play(int(m))
				}
				inStep = true
			}
			kind, moves = g.Kind(), g.NumMoves()
		}
		first := s.nodes.at(cur).first
		if first < 0 {
			moves = 0
		}
		if !fn(s.describe(cur, path, kind, moves)) {
			return
		}
		if moves > 0 { // down to the first child
			stack = append(stack, frame{first: first, next: 1, kids: int32(moves), pos: pos})
			path = append(path, 0)
			cur = first
			if arr != nil {
				pos = arr.First[pos]
			} else {
				g.Play(0)
			}
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].next == stack[len(stack)-1].kids {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return
		}
		f := &stack[len(stack)-1]
		i := f.next
		f.next++
		path = append(path[:len(stack)-1], i)
		cur = f.first + i
		if arr != nil {
			pos = arr.First[f.pos] + i
		} else {
			inStep = false
		}
	}
}

// Lookup returns the stored node reached from the root by path, and false if
// the path leaves the stored tree.
func (s *Search) Lookup(path []int32) (NodeInfo, bool) {
	g := s.game
	g.Reset()
	cur := int32(0)
	for _, m := range path {
		first := s.nodes.at(cur).first
		if first < 0 || m < 0 || int(m) >= g.NumMoves() {
			return NodeInfo{}, false
		}
		g.Play(int(m))
		cur = first + m
	}
	return s.info(cur, path), true
}

// info describes node cur, reached by path, driving the game there.
func (s *Search) info(cur int32, path []int32) NodeInfo {
	g := s.game
	g.Reset()
	for _, m := range path {
		g.Play(int(m))
	}
	moves := 0
	if s.nodes.at(cur).first >= 0 {
		moves = g.NumMoves()
	}
	return s.describe(cur, path, g.Kind(), moves)
}

// describe describes node cur, reached by path, of the given kind with
// the given number of stored children.
func (s *Search) describe(cur int32, path []int32, kind Kind, children int) NodeInfo {
	nd := *s.nodes.at(cur)
	info := NodeInfo{Path: path, Kind: kind, Visits: int64(nd.n), W: nd.w, Value: math.NaN(), Children: children}
	if nd.n > 0 {
		info.Value = nd.w / float64(nd.n)
		if s.mm.used() {
			info.Value = *s.mm.at(cur)
		}
	}
	if s.arena.virt.used() {
		v := s.arena.virt.at(cur)
		info.K1, info.K2 = v.n, v.w
	}
	if s.arena.amaf.used() {
		a := s.arena.amaf.at(cur)
		info.AMAFVisits, info.AMAFW = int64(a.n), a.w
	}
	if s.sq.used() {
		info.Squares, info.HasSquares = *s.sq.at(cur), true
	}
	return info
}
