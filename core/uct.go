package core

import "math"

// UCT is the UCB1 score of Kocsis and Szepesvári, the paper's Eq. 12 with an
// exploration constant (Grand Challenge paper §3.4):
//
//	score(i) = V̂(i) + C·sqrt(ln n(F) / n(i))
//
// Unvisited children (n = 0) come first, in index order; ties go to the lower
// index. n(F) below 1 counts as 1, so the score is finite for every input.
// It is the reference rule of the engine's benchmarks; package rules has the
// whole catalogue.
type UCT struct {
	C float64
}

// Select implements Rule.
func (u UCT) Select(s *Site) int {
	if s.virt == nil && s.mm == nil {
		return u.selectPlain(s)
	}
	logN := math.Log(max(s.ParentN(), 1))
	best, bestScore := 0, math.Inf(-1)
	for i := range s.kids {
		n := s.N(i)
		if n == 0 {
			return i
		}
		score := s.W(i)/n + u.C*math.Sqrt(logN)/math.Sqrt(n)
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// selectPlain is Select for the common site without virtual experience or
// minimax values: it reads the nodes directly. Its counts are whole numbers,
// so it can take sqrt(ln n(F)/n) in one step; the general loop divides two
// square roots so that a tiny virtual count cannot overflow the score.
func (u UCT) selectPlain(s *Site) int {
	logN := math.Log(max(float64(s.self.n), 1))
	best, bestScore := 0, math.Inf(-1)
	if s.flip {
		for i, k := range s.kids {
			if k.n == 0 {
				return i
			}
			n := float64(k.n)
			score := (n-k.w)/n + u.C*math.Sqrt(logN/n)
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		return best
	}
	for i, k := range s.kids {
		if k.n == 0 {
			return i
		}
		n := float64(k.n)
		score := k.w/n + u.C*math.Sqrt(logN/n)
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// Score implements Scorer: math.MaxFloat64 for an unvisited child, so that
// scores stay finite.
func (u UCT) Score(s *Site, i int) float64 {
	n := s.N(i)
	if n == 0 {
		return math.MaxFloat64
	}
	return s.W(i)/n + u.C*math.Sqrt(math.Log(max(s.ParentN(), 1)))/math.Sqrt(n)
}
