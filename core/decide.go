package core

import "math"

// Decision is a rule for the move to play once the search stops. All of them
// use real simulations only (no virtual experience), from the perspective of
// the player to move at the root, and break ties deterministically.
type Decision uint8

const (
	// MostVisited is Algorithm 1's decision, the robust child: the root child
	// with the most simulations; ties go to the higher mean, then the lower
	// index.
	MostVisited Decision = iota
	// HighestMean is the max child: the visited root child with the highest
	// mean reward; ties go to more simulations, then the lower index.
	HighestMean
	// Secure is the secure child: the visited root child with the highest
	// lower confidence bound mean − 1/sqrt(n); ties go to the lower index.
	Secure
)

// String returns "most-visited", "highest-mean" or "secure".
func (d Decision) String() string {
	switch d {
	case MostVisited:
		return "most-visited"
	case HighestMean:
		return "highest-mean"
	case Secure:
		return "secure"
	}
	return "Decision(?)"
}

// Decide returns the root child that d picks, or -1 when the root has no
// expanded children or no visited child, or is not a max or min node.
func (s *Search) Decide(d Decision) int {
	g := s.game
	g.Reset()
	kind := g.Kind()
	root := s.nodes[0]
	if (kind != Max && kind != Min) || root.first < 0 {
		return -1
	}
	kids := s.nodes[root.first : root.first+int32(g.NumMoves())]
	best := -1
	var bestN uint32
	var bestKey float64
	for i, c := range kids {
		if c.n == 0 {
			continue
		}
		mean := c.w / float64(c.n)
		if s.mm != nil {
			mean = s.mm[root.first+int32(i)]
		}
		if kind == Min {
			mean = 1 - mean
		}
		key := mean
		if d == Secure {
			key = mean - 1/math.Sqrt(float64(c.n))
		}
		better := false
		switch {
		case best < 0:
			better = true
		case d == MostVisited:
			better = c.n > bestN || c.n == bestN && key > bestKey
		case d == HighestMean:
			better = key > bestKey || key == bestKey && c.n > bestN
		default:
			better = key > bestKey
		}
		if better {
			best, bestN, bestKey = i, c.n, key
		}
	}
	return best
}
