package core

// backup adds reward to every stored node of the path, then updates the
// optional minimax values and AMAF statistics.
func (s *Search) backup(reward float64) {
	for _, st := range s.path {
		nd := &s.nodes[st.node]
		nd.n++
		nd.w += reward
	}
	if s.mm != nil {
		s.backupMinimax(reward)
	}
	if s.amaf != nil {
		s.backupAMAF(reward)
	}
}

// backupMinimax recomputes the minimax value of each node of the path,
// deepest first: a terminal's reward, a stored leaf's mean, the max or min
// of the visited children's values, or their visit-weighted mean at chance
// nodes.
func (s *Search) backupMinimax(reward float64) {
	last := len(s.path) - 1
	st := s.path[last]
	if st.kind == Terminal {
		s.mm[st.node] = reward
	} else {
		nd := s.nodes[st.node]
		s.mm[st.node] = nd.w / float64(nd.n)
	}
	for j := last - 1; j >= 0; j-- {
		st := s.path[j]
		first := s.nodes[st.node].first
		kids := s.nodes[first : first+st.kids]
		vals := s.mm[first : first+st.kids]
		v, weight, sum := 0.0, 0.0, 0.0
		seen := false
		for c, kid := range kids {
			if kid.n == 0 {
				continue
			}
			switch cv := vals[c]; st.kind {
			case Max:
				if !seen || cv > v {
					v = cv
				}
			case Min:
				if !seen || cv < v {
					v = cv
				}
			default:
				weight += float64(kid.n)
				sum += float64(kid.n) * cv
			}
			seen = true
		}
		if st.kind == Chance {
			v = sum / weight
		}
		s.mm[st.node] = v
	}
}

// play records a player move of the current simulation for AMAF.
func (s *Search) play(depth int32, kind Kind, move int32) {
	if int(move) >= s.limit {
		s.limit = int(move) + 1
		s.seen = make([]uint32, 2*s.limit) // rare: only games without Mover
		s.stamp = 0
	}
	side := int32(0)
	if kind == Min {
		side = 1
	}
	s.played = append(s.played, playedMove{depth: depth, move: move, side: side})
}

// backupAMAF updates, at every max and min node of the path, the AMAF
// statistics of each child whose move the same player played at that node or
// later in the simulation (the first time only: marks are a set).
func (s *Search) backupAMAF(reward float64) {
	s.stamp++
	if s.stamp == 0 { // wrapped: forget old marks
		clear(s.seen)
		s.stamp = 1
	}
	j := len(s.played)
	for d := len(s.path) - 1; d >= 0; d-- {
		for j > 0 && s.played[j-1].depth >= int32(d) {
			j--
			p := s.played[j]
			s.seen[p.side*int32(s.limit)+p.move] = s.stamp
		}
		st := s.path[d]
		if st.kind != Max && st.kind != Min || st.kids == 0 {
			continue
		}
		base := int32(0)
		if st.kind == Min {
			base = int32(s.limit)
		}
		first := s.nodes[st.node].first
		for c := first; c < first+st.kids; c++ {
			if s.seen[base+s.moves[c]] == s.stamp {
				a := &s.amaf[c]
				a.n++
				a.w += reward
			}
		}
	}
}
