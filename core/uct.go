package core

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"unsafe"
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

// UCTFactor is c·sqrt(ln n(F)) at site s, the exploration factor cs of
// UCTScoreScaled: a rule computes it once per site.
func UCTFactor(s *Site, c float64) float64 { return c * math.Sqrt(LogParent(s)) }

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
	if s.virt == nil && s.mm == nil && s.wide == nil && u.valid() {
		t := loadTables()
		return uctSelect[uctNodes](t, u.C*t.sqrtLog(uint64(s.self.n)), s.kids, s.flip, nil)
	}
	return uctSelect[uctSite](nil, UCTFactor(s, u.C), s.kids, s.flip, &uctExtra{site: s})
}

// valid reports whether C is a number in [0, MaxFloat64]: the constants
// for which a score is never NaN or negative, which core.New requires.
func (u UCT) valid() bool { return u.C >= 0 && u.C <= math.MaxFloat64 }

// check reports a C that valid refuses.
func (u UCT) check() error {
	if !u.valid() {
		return fmt.Errorf("core: UCT exploration constant C = %v, want a finite number ≥ 0", u.C)
	}
	return nil
}

// The modes of uctSelect, the one loop of UCT's selection. A mode's array
// length is a set of bits, a constant in each instantiation, so that the
// compiler keeps only the reads a mode needs:
//
//	uctShared   1: atomic loads (a tree-parallel search)
//	uctFly      2: plus the other workers' virtual loss in flight
//	uctHeld     4: plus the backups the worker holds back
//	uctSite     8: the children through a Site (virtual experience,
//	               minimax values, wide counts, or any C), in float64 counts
type (
	uctNodes   [0]byte
	uctShared  [1]byte
	uctFly     [3]byte
	uctHeld    [5]byte
	uctHeldFly [7]byte
	uctSite    [8]byte
	uctMode    interface {
		uctNodes | uctShared | uctFly | uctHeld | uctHeldFly | uctSite
	}
)

// uctExtra is what uctSelect reads beyond the children's nodes in the
// modes that need it.
type uctExtra struct {
	site  *Site     // uctSite
	heldN []uint32  // uctHeld: the visits and rewards the worker holds back
	heldW []float64 //
	fly   []uint32  // uctFly: the other workers' simulations in flight through each child
	vn, v float64   // uctFly: virtual simulations per simulation in flight, and their reward (max's side)
}

// uctSelect is UCT's selection, the one loop behind UCT.Select and the
// search's direct loops: the first unvisited child, else the highest
// UCTScore, ties to the lower index, with cs = c·sqrt(ln n(F)). kids are
// the children's nodes (only their number in mode uctSite), flip is true at
// a min node, and x holds what the mode reads beyond the nodes. A serial
// search's own nodes with a finite cs go to uctArgmax, its shorter loop.
//
// In the node modes every score is computed as UCTScore does, the same
// float64, but with 1/n and 1/sqrt(n) from a table for small n. Those
// scores are never NaN or negative (w and n − w are sums of rewards in
// [0,1], C ≥ 0), and for such numbers the order of the float64 values is
// the order of their bits as unsigned integers: the argmax compares the
// bits, which the compiler keeps in registers with conditional moves
// instead of branches that mispredict. Mode uctSite compares the scores
// themselves, so that any C gives UCTScore's argmax.
//
// With virtual loss (uctFly), a child scores n + vn·f and w + vn·f·v for f
// simulations in flight, as UCT.Select scores N(i) and W(i) on a site that
// carries them as virtual experience: whole counts below 2^53 add exactly,
// and the sums are formed in the same order.
func uctSelect[M uctMode](t *tables, cs float64, kids []node, flip bool, x *uctExtra) int {
	var m M
	shared, fly, held, site := len(m)&1 != 0, len(m)&2 != 0, len(m)&4 != 0, len(m)&8 != 0
	var heldN []uint32
	var heldW []float64
	var flying []uint32
	if held {
		heldN, heldW = x.heldN[:len(kids)], x.heldW[:len(kids)]
	}
	if fly {
		flying = x.fly[:len(kids)]
	}
	if !site && !shared && cs <= math.MaxFloat64 {
		if flip {
			return uctArgmax[uctMin](t, cs, kids)
		}
		return uctArgmax[uctMax](t, cs, kids)
	}
	best, bestBits, bestScore := 0, uint64(0), math.Inf(-1)
	for i := range kids {
		if site {
			n := x.site.N(i)
			if n == 0 {
				return i
			}
			if score := UCTScoreScaled(x.site.W(i), n, cs); score > bestScore {
				best, bestScore = i, score
			}
			continue
		}
		k := &kids[i]
		var n uint64
		var w float64
		if shared {
			n, w = uint64(atomic.LoadUint32(&k.n)), loadF(&k.w, true)
		} else {
			n, w = uint64(k.n), k.w
		}
		if held {
			n, w = n+uint64(heldN[i]), w+heldW[i]
		}
		if fly {
			if f := atomic.LoadUint32(&flying[i]); f > 0 {
				v := float64(f) * x.vn
				n += uint64(v)
				w += v * x.v
			}
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

// The sides of uctArgmax: a max node scores its children's reward sums
// w, a min node n − w, each loop with its side a constant.
type (
	uctMax  [0]byte
	uctMin  [1]byte
	uctSide interface{ uctMax | uctMin }
)

// uctArgmax is uctSelect's loop over a serial search's own nodes (mode
// uctNodes) on side S, for a finite cs: the same answer with fewer
// instructions a child. The side is a constant of each loop; the table
// gives an unvisited child (n = 0, so w = 0) the score 0·0 + cs·(+∞),
// +∞, or NaN when cs = 0, whose bits exceed those of every finite score,
// so that the argmax, ties to the lower index, is the first unvisited
// child without a test for it; and two children a turn halve the loop's
// own work.
func uctArgmax[S uctSide](t *tables, cs float64, kids []node) int {
	var side S
	flip := len(side) != 0
	recip := &t.recip
	score := func(k *node) uint64 {
		n, w := k.n, k.w
		if flip {
			w = float64(n) - w
		}
		if n < recipSize {
			r := &recip[n]
			return math.Float64bits(uctTerms(w, r.inv, cs, r.isq))
		}
		return t.uctBits(uint64(n), w, cs)
	}
	best, bestBits := 0, uint64(0)
	i := 1
	for ; i < len(kids); i += 2 {
		b0, b1 := score(&kids[i-1]), score(&kids[i])
		if b0 > bestBits {
			best, bestBits = i-1, b0
		}
		if b1 > bestBits {
			best, bestBits = i, b1
		}
	}
	if i == len(kids) {
		if b := score(&kids[i-1]); b > bestBits {
			best = i - 1
		}
	}
	return best
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
	big := bigPtr.Load()
	if big == nil {
		bigOnce.Do(func() {
			big := new([sqrtLogSize - logTableSize]float64)
			for i := range big {
				big[i] = math.Sqrt(math.Log(float64(logTableSize + i)))
			}
			bigPtr.Store(big)
		})
		big = bigPtr.Load()
	}
	return big[n-logTableSize]
}

// uctBits returns the bits of uctTerms(w, 1/n, cs, 1/sqrt(n)) for n > 0,
// the reciprocals from the table when n is small.
func (t *tables) uctBits(n uint64, w, cs float64) uint64 {
	var inv, isq float64
	if n < recipSize {
		inv, isq = t.recip[n].inv, t.recip[n].isq
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
	// benchmarks' reference search has 200,000) takes no logarithm at all,
	// where it would take one logarithm and one square root a simulation
	// at the root (docs/speed.md, "Decisions").
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
// read-only state the package shares, built once on first use. They hold
// no pointer: they live in memory allocated as float64s (loadTables).
type tables struct {
	log      [logTableSize]float64
	sqrtLogs [logTableSize]float64 // math.Sqrt(log[n])
	recip    [recipSize]recip      // 1/n and 1/sqrt(n); 0 and +∞ at n = 0, for uctArgmax
}

var (
	tablesPtr  atomic.Pointer[tables]
	tablesOnce sync.Once
	bigPtr     atomic.Pointer[[sqrtLogSize - logTableSize]float64] // sqrtLogs from logTableSize on
	bigOnce    sync.Once
)

// loadTables returns the tables, building them on first use, on one huge
// page (makeHuge) where the system has them: every search reads them, and
// their 1.5 MiB on small pages cost a process 384 page faults.
func loadTables() *tables {
	if t := tablesPtr.Load(); t != nil {
		return t
	}
	tablesOnce.Do(func() {
		mem := makeHuge[float64](int(unsafe.Sizeof(tables{}) / unsafe.Sizeof(float64(0))))
		t := (*tables)(unsafe.Pointer(&mem[0]))
		for i := range t.log {
			t.log[i] = math.Log(max(float64(i), 1))
		}
		t.recip[0].isq = math.Inf(1)
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
