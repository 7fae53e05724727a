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
// reads the children one at a time, allocating nothing, however many they
// are. It panics when d is not one of MostVisited, HighestMean and Secure,
// as an index out of range does: no child is the answer to an unknown
// question.
func (s *Search) Decide(d Decision) int {
	kind, first, k := s.rootChildren()
	dc := newDecider(d, kind)
	for i := range k {
		dc.add(i, s.rootStat(first, i))
	}
	return dc.best
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

// rootChildren returns the root's kind and the arena index and number of
// its children: none unless the root is an expanded max or min node.
func (s *Search) rootChildren() (kind Kind, first, k int32) {
	g := s.game
	g.Reset()
	kind = g.Kind()
	root := s.nodes.at(0)
	if (kind != Max && kind != Min) || root.first < 0 {
		return kind, 0, 0
	}
	return kind, root.first, int32(g.NumMoves())
}

// rootStat returns the statistics of root child i, whose arena index is
// first+i.
func (s *Search) rootStat(first, i int32) rootStat {
	c := s.nodes.at(first + i)
	st := rootStat{n: uint64(c.n), w: c.w}
	if c.n > 0 {
		st.mean = c.w / float64(c.n)
		if s.mm.used() {
			st.mean = *s.mm.at(first + i)
			st.w = st.mean * float64(c.n)
		}
	}
	return st
}

// rootStats appends the statistics of the root's children to dst and
// returns the root's kind with them.
func (s *Search) rootStats(dst []rootStat) (Kind, []rootStat) {
	kind, first, k := s.rootChildren()
	dst = dst[:0]
	for i := range k {
		dst = append(dst, s.rootStat(first, i))
	}
	return kind, dst
}

// decide applies d to the root children's statistics, as Decide does.
func decide(d Decision, kind Kind, kids []rootStat) int {
	dc := newDecider(d, kind)
	for i, c := range kids {
		dc.add(int32(i), c)
	}
	return dc.best
}

// decider applies a decision rule to the root's children one at a time:
// the one home of the decision rules, for serial and parallel searches
// alike. best is the child picked so far, -1 for none.
type decider struct {
	d       Decision
	kind    Kind
	best    int
	bestN   uint64
	bestKey float64
}

// newDecider returns a decider of d at a root of the given kind. It panics
// when d is not one of MostVisited, HighestMean and Secure.
func newDecider(d Decision, kind Kind) decider {
	if d > Secure {
		panic(fmt.Sprintf("core: Decide(%v): unknown decision rule; want MostVisited, HighestMean or Secure", d))
	}
	return decider{d: d, kind: kind, best: -1}
}

// add considers child i with statistics c.
func (dc *decider) add(i int32, c rootStat) {
	if (dc.kind != Max && dc.kind != Min) || c.n == 0 {
		return
	}
	mean := c.mean
	if dc.kind == Min {
		mean = 1 - mean
	}
	key := mean
	if dc.d == Secure {
		key = mean - 1/math.Sqrt(float64(c.n))
	}
	better := false
	switch {
	case dc.best < 0:
		better = true
	case dc.d == MostVisited:
		better = c.n > dc.bestN || c.n == dc.bestN && key > dc.bestKey
	case dc.d == HighestMean:
		better = key > dc.bestKey || key == dc.bestKey && c.n > dc.bestN
	default:
		better = key > dc.bestKey
	}
	if better {
		dc.best, dc.bestN, dc.bestKey = int(i), c.n, key
	}
}
