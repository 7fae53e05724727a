package core

import (
	"fmt"
	"math"
)

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
	return fmt.Sprintf("Decision(%d)", uint8(d))
}

// Decide returns the root child that d picks, or -1 when the root has no
// expanded children or no visited child, or is not a max or min node. It
// panics when d is not one of MostVisited, HighestMean and Secure, as an
// index out of range does: no child is the answer to an unknown question.
func (s *Search) Decide(d Decision) int {
	kind, kids := s.rootStats(s.rootBuf)
	s.rootBuf = kids
	return decide(d, kind, kids)
}

// rootStat is a root child's real statistics for a decision, from max's
// perspective: visits, their reward sum (with minimax backups, visits ×
// value) and their mean (the minimax value).
type rootStat struct {
	n    uint64
	w    float64
	mean float64
}

// plus merges the statistics of one child in two searches.
func (a rootStat) plus(b rootStat) rootStat {
	c := rootStat{n: a.n + b.n, w: a.w + b.w}
	if c.n > 0 {
		c.mean = c.w / float64(c.n)
	}
	return c
}

// rootStats appends the statistics of the root's children to dst and
// returns them with the root's kind; none unless the root is an expanded
// max or min node.
func (s *Search) rootStats(dst []rootStat) (Kind, []rootStat) {
	g := s.game
	g.Reset()
	kind := g.Kind()
	root := s.nodes.at(0)
	if (kind != Max && kind != Min) || root.first < 0 {
		return kind, dst[:0]
	}
	k := int32(g.NumMoves())
	dst = dst[:0]
	for i, c := range s.nodes.span(root.first, k) {
		st := rootStat{n: uint64(c.n), w: c.w}
		if c.n > 0 {
			st.mean = c.w / float64(c.n)
			if s.mm.used() {
				st.mean = *s.mm.at(root.first + int32(i))
				st.w = st.mean * float64(c.n)
			}
		}
		dst = append(dst, st)
	}
	return kind, dst
}

// decide applies d to the root children's statistics: the one home of the
// decision rules, for serial and parallel searches alike.
func decide(d Decision, kind Kind, kids []rootStat) int {
	if d > Secure {
		panic(fmt.Sprintf("core: Decide(%v): unknown decision rule; want MostVisited, HighestMean or Secure", d))
	}
	if kind != Max && kind != Min {
		return -1
	}
	best := -1
	var bestN uint64
	var bestKey float64
	for i, c := range kids {
		if c.n == 0 {
			continue
		}
		mean := c.mean
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
