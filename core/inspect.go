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
// index order, until fn returns false. It drives the game to each node to
// learn its kind, so it costs O(depth) game moves per node; it does not
// change the search's statistics or random stream.
func (s *Search) Walk(fn func(NodeInfo) bool) {
	type frame struct {
		node  int32
		depth int32
	}
	stack := []frame{{0, 0}}
	var path []int32
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		path = path[:max(f.depth-1, 0)]
		if f.depth > 0 {
			path = append(path, f.node-s.firstChildAt(path))
		}
		info := s.info(f.node, path)
		if !fn(info) {
			return
		}
		if first := s.nodes.at(f.node).first; first >= 0 {
			for c := first + int32(info.Children) - 1; c >= first; c-- {
				stack = append(stack, frame{c, f.depth + 1})
			}
		}
	}
}

// firstChildAt returns the first child index of the stored node at path.
func (s *Search) firstChildAt(path []int32) int32 {
	cur := int32(0)
	for _, m := range path {
		cur = s.nodes.at(cur).first + m
	}
	return s.nodes.at(cur).first
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

// info describes node cur, reached by path.
func (s *Search) info(cur int32, path []int32) NodeInfo {
	g := s.game
	g.Reset()
	for _, m := range path {
		g.Play(int(m))
	}
	nd := *s.nodes.at(cur)
	info := NodeInfo{Path: path, Kind: g.Kind(), Visits: int64(nd.n), W: nd.w, Value: math.NaN()}
	if nd.n > 0 {
		info.Value = nd.w / float64(nd.n)
		if s.mm.used() {
			info.Value = *s.mm.at(cur)
		}
	}
	if nd.first >= 0 {
		info.Children = g.NumMoves()
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
