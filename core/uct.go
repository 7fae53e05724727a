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
//	w/n + c·sqrt(logN/n), computed as w·(1/n) + (c·sqrt(logN))·(1/sqrt(n))
//
// with each product rounded on its own (never fused), so that a search can
// take 1/n and 1/sqrt(n) from a table for small counts and c·sqrt(logN)
// once per node and get the same float64 as this function. Counts below
// 2^-512, which only virtual experience can give, and above 2^512 take the
// form w/n + c·sqrt(logN)/sqrt(n), since 1/n would overflow or lose
// precision. It is the one home of the formula: core.UCT and the
// catalogue's rules that add a UCT term call it.
func UCTScore(w, n, c, logN float64) float64 {
	return UCTScoreScaled(w, n, c*math.Sqrt(logN))
}

// UCTScoreScaled is UCTScore with its exploration factor cs = c·sqrt(logN)
// given, the same float64: a rule computes cs once per node rather than a
// square root per child.
func UCTScoreScaled(w, n, cs float64) float64 {
	if n < 0x1p-512 || n > 0x1p512 {
		return w/n + cs/math.Sqrt(n)
	}
	return uctTerms(w, 1/n, cs, 1/math.Sqrt(n))
}

// uctTerms is UCTScore from its factors: inv = 1/n, cs = c·sqrt(logN),
// isq = 1/sqrt(n). The conversions forbid fusing a product with the sum,
// which some architectures would do, so the result is the same everywhere.
func uctTerms(w, inv, cs, isq float64) float64 {
	return float64(w*inv) + float64(cs*isq)
}

// LogParent returns ln n(F) for the site's parent, n(F) below 1 counted as 1.
// The site computes it once and keeps it, so that a rule that calls it for
// every child, and a checker that reads the rule's scores, pay one
// logarithm per site.
func LogParent(s *Site) float64 {
	if s.hasLog {
		return s.logN
	}
	l := LogCount(s.ParentN()) // a whole count, virtual counts too, from the table
	s.logN, s.hasLog = l, true
	return l
}

// Select implements Rule.
func (u UCT) Select(s *Site) int {
	if s.virt == nil && s.mm == nil && s.wide == nil && u.C >= 0 && u.C <= math.MaxFloat64 {
		return u.selectNodes(loadTables(), s.kids, uint64(s.self.n), s.flip)
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

// selectNodes is Select for a plain site (no virtual experience, no
// minimax values, counts that fit a node) and a constant C in [0, ∞): the
// search calls it directly for a UCT rule, with the children's nodes and
// the parent's visits. It computes every score as UCTScore does, the same
// float64, but takes 1/n and 1/sqrt(n) from a table for small n and
// c·sqrt(ln n(F)) once (cs). Those scores are never NaN or negative (w and
// n − w are sums of rewards in [0,1], C ≥ 0), and for such numbers the
// order of the float64 values is the order of their bits as unsigned
// integers: the argmax compares the bits, which the compiler keeps in
// registers with conditional moves instead of branches that mispredict.
func (u UCT) selectNodes(t *tables, kids []node, parentN uint64, flip bool) int {
	cs := u.C * t.sqrtLog(parentN)
	best, bestBits := 0, uint64(0)
	for i := range kids {
		k := &kids[i]
		if k.n == 0 {
			return i
		}
		w := k.w
		if flip {
			w = float64(k.n) - w
		}
		if b := t.uctBits(uint64(k.n), w, cs); b > bestBits {
			best, bestBits = i, b
		}
	}
	return best
}

// selectShared is selectNodes for a tree-parallel search: it reads the
// nodes with atomic loads and, unless fly is nil, adds the other workers'
// virtual loss, whole vn virtual simulations of reward v (max's
// perspective) per simulation in flight (fly; parentN includes the node's
// own). A child then scores
// n + vn·f and w + vn·f·v, as UCT.Select scores N(i) and W(i) on a site
// that carries them as virtual experience: whole counts below 2^53 add
// exactly, and the sums are formed in the same order.
func (u UCT) selectShared(t *tables, kids []node, parentN uint64, flip bool, fly []uint32, vn, v float64) int {
	cs := u.C * t.sqrtLog(parentN)
	if fly != nil {
		fly = fly[:len(kids)]
	}
	best, bestBits := 0, uint64(0)
	for i := range kids {
		k := &kids[i]
		n := uint64(atomic.LoadUint32(&k.n))
		w := loadF(&k.w, true)
		if fly != nil {
			n, w = inFlight(n, w, atomic.LoadUint32(&fly[i]), vn, v)
		}
		if n == 0 {
			return i
		}
		if flip {
			w = float64(n) - w
		}
		if b := t.uctBits(n, w, cs); b > bestBits {
			best, bestBits = i, b
		}
	}
	return best
}

// inFlight adds to a child's visits n and reward sum w (max's perspective)
// the virtual loss of f simulations in flight through it: vn whole virtual
// simulations of reward v each. The one home of that arithmetic for UCT's
// tree-parallel loops.
func inFlight(n uint64, w float64, f uint32, vn, v float64) (uint64, float64) {
	if f > 0 {
		m := float64(f) * vn
		n += uint64(m)
		w += m * v
	}
	return n, w
}

// sqrtLog returns math.Sqrt(math.Log(max(n, 1))), from a table for n below
// sqrtLogSize.
func (t *tables) sqrtLog(n uint64) float64 {
	if n < logTableSize {
		return t.sqrtLogs[n]
	}
	return t.sqrtLogBig(n)
}

// sqrtLogBig is sqrtLog beyond the first table, apart so that sqrtLog
// inlines: from the second table up to sqrtLogSize, built on first use.
//
//go:noinline
func (t *tables) sqrtLogBig(n uint64) float64 {
	if n >= sqrtLogSize {
		return math.Sqrt(t.logCount(n))
	}
	big := t.big.Load()
	if big == nil {
		t.bigOnce.Do(func() {
			big := new([sqrtLogSize - logTableSize]float64)
			for i := range big {
				big[i] = math.Sqrt(math.Log(float64(logTableSize + i)))
			}
			t.big.Store(big)
		})
		big = t.big.Load()
	}
	return big[n-logTableSize]
}

// uctBits returns the bits of uctTerms(w, 1/n, cs, 1/sqrt(n)) for n > 0,
// the reciprocals from the table when n is small.
func (t *tables) uctBits(n uint64, w, cs float64) uint64 {
	var inv, isq float64
	if n < recipSize {
		r := &t.recip[n]
		inv, isq = r.inv, r.isq
	} else {
		nf := float64(n)
		inv, isq = 1/nf, 1/math.Sqrt(nf)
	}
	return math.Float64bits(uctTerms(w, inv, cs, isq))
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

const (
	// logTableSize bounds the visit counts whose logarithm logCount looks up.
	logTableSize = 1 << 16
	// sqrtLogSize bounds the counts whose sqrt(ln n) UCT's loop looks up,
	// in two tables: below logTableSize, and up to here (1.5 MiB, built
	// the first time a count reaches it, so that the small searches of the
	// checker do not pay for it). It is read in order at the root as the
	// root's count grows, so that a search of up to 2^18 simulations (the
	// benchmarks' reference search has 200,000) takes no logarithm at all;
	// one logarithm and square root per simulation at the root cost 7% of
	// that search (benchstat, n=12).
	sqrtLogSize = 1 << 18
	// recipSize bounds the visit counts whose 1/n and 1/sqrt(n) the UCT
	// loop looks up: 512 KiB, so that the entries a search reads stay in
	// the second cache level.
	recipSize = 1 << 15
)

// recip holds 1/n and 1/sqrt(n), side by side so that one cache line
// serves both.
type recip struct{ inv, isq float64 }

// tables are the values of pure functions at small visit counts, the only
// read-only state the package shares, built once on first use.
type tables struct {
	log      [logTableSize]float64
	sqrtLogs [logTableSize]float64 // math.Sqrt(log[n])
	recip    [recipSize]recip
	big      atomic.Pointer[[sqrtLogSize - logTableSize]float64] // sqrtLogs from logTableSize on
	bigOnce  sync.Once
}

var (
	tablesPtr  atomic.Pointer[tables]
	tablesOnce sync.Once
)

// loadTables returns the tables, building them on first use.
func loadTables() *tables {
	if t := tablesPtr.Load(); t != nil {
		return t
	}
	tablesOnce.Do(func() {
		t := new(tables)
		for i := range t.log {
			t.log[i] = math.Log(max(float64(i), 1))
		}
		for i := 1; i < recipSize; i++ {
			n := float64(i)
			t.recip[i] = recip{1 / n, 1 / math.Sqrt(n)}
		}
		for i := range t.sqrtLogs {
			t.sqrtLogs[i] = math.Sqrt(t.log[i])
		}
		tablesPtr.Store(t)
	})
	return tablesPtr.Load()
}

// logCount returns math.Log(max(float64(n), 1)), the same float64, from a
// table when n is small: in a search most nodes on a path have few visits,
// and the logarithm was a sixth of the time of a UCT simulation.
func (t *tables) logCount(n uint64) float64 {
	if n >= logTableSize {
		return math.Log(float64(n))
	}
	return t.log[n]
}
