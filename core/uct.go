package core

import (
	"math"
	"sync"
	"sync/atomic"
)

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

// UCTScore is the UCT score of a child with n > 0 simulations and reward
// sum w (from the chooser's side) under a parent whose count has natural
// logarithm logN:
//
//	w/n + c·sqrt(logN/n), computed as (w + c·sqrt(logN·n))/n
//
// with one square root and one division. Counts below 2^-512, which only
// virtual experience can give, take the form with two square roots instead,
// since logN·n would lose precision to underflow and logN/n overflow. It is
// the one home of the formula: core.UCT and the catalogue's rules that add a
// UCT term call it.
func UCTScore(w, n, c, logN float64) float64 {
	if n < 0x1p-512 {
		return w/n + c*math.Sqrt(logN)/math.Sqrt(n)
	}
	return (w + c*math.Sqrt(logN*n)) / n
}

// LogParent returns ln n(F) for the site's parent, n(F) below 1 counted as 1.
// The site computes it once and keeps it, so that a rule that calls it for
// every child, and a checker that reads the rule's scores, pay one
// logarithm per site.
func LogParent(s *Site) float64 {
	if s.hasLog {
		return s.logN
	}
	var l float64
	if s.sVirt.n == 0 && s.wide == nil {
		l = logCount(s.self.n) // the same float64 as the general case
	} else {
		l = math.Log(max(s.ParentN(), 1))
	}
	s.logN, s.hasLog = l, true
	return l
}

// Select implements Rule.
func (u UCT) Select(s *Site) int {
	if s.virt == nil && s.mm == nil && s.wide == nil {
		return u.selectPlain(s)
	}
	logN := LogParent(s)
	best, bestScore := 0, math.Inf(-1)
	for i := range s.kids {
		n := s.N(i)
		if n == 0 {
			return i
		}
		score := UCTScore(s.W(i), n, u.C, logN)
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// selectPlain is Select for the common site without virtual experience or
// minimax values: it reads the nodes directly. Scores are never NaN, so
// max keeps the same best score as a compare-and-assign would, and the
// compiler can keep the loop free of unpredictable branches.
func (u UCT) selectPlain(s *Site) int {
	logN := logCount(s.self.n)
	best, bestScore := 0, math.Inf(-1)
	if s.flip {
		for i, k := range s.kids {
			if k.n == 0 {
				return i
			}
			n := float64(k.n)
			score := UCTScore(n-k.w, n, u.C, logN)
			if score > bestScore {
				best = i
			}
			bestScore = max(bestScore, score)
		}
		return best
	}
	for i, k := range s.kids {
		if k.n == 0 {
			return i
		}
		n := float64(k.n)
		score := UCTScore(k.w, n, u.C, logN)
		if score > bestScore {
			best = i
		}
		bestScore = max(bestScore, score)
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
	return UCTScore(s.W(i), n, u.C, LogParent(s))
}

// logTableSize bounds the visit counts whose logarithm logCount looks up.
const logTableSize = 1 << 16

// logTable caches math.Log of the small visit counts, the only read-only
// state the package shares: a pure function's values, built once on first use.
var (
	logTable     atomic.Pointer[[logTableSize]float64]
	logTableOnce sync.Once
)

// logCount returns math.Log(max(float64(n), 1)), the same float64, from a
// table when n is small: in a search most nodes on a path have few visits,
// and the logarithm was a sixth of the time of a UCT simulation.
func logCount(n uint32) float64 {
	if n >= logTableSize {
		return math.Log(float64(n))
	}
	t := logTable.Load()
	if t == nil {
		logTableOnce.Do(func() {
			t := new([logTableSize]float64)
			for i := range t {
				t[i] = math.Log(max(float64(i), 1))
			}
			logTable.Store(t)
		})
		t = logTable.Load()
	}
	return t[n]
}
