package connect4

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// ErrBudget is the error, possibly wrapped, of a solve that ran out of its
// node budget ([Config.MaxNodes]).
var ErrBudget = errors.New("connect4: node budget exhausted")

// Bounds and default of [Config.TableBits]. The default is the size of the
// table of Pons' solver (2^24 entries, the next prime above; see the
// package documentation), so that the two search the same number of
// nodes on the hardest positions.
const (
	DefaultTableBits = 24 // 16 Mi entries, 128 MiB at most
	MinTableBits     = 10 // 8 KiB
	MaxTableBits     = 26 // 512 MiB
)

// startTableBits is the size a table starts at, unless Config.TableBits is
// smaller: 2^16 entries, 512 KiB, which an easy position does not outgrow.
const startTableBits = 16

// Config configures a [Solver]. The zero Config means the defaults.
type Config struct {
	// TableBits is the base-2 logarithm of the number of entries, each 8
	// bytes, that the transposition table may grow to: MinTableBits to
	// MaxTableBits, or 0 for DefaultTableBits (128 MiB). The table starts
	// at 2^16 entries (or 2^TableBits if that is fewer) and quadruples
	// whenever the solver has stored as many entries as it has slots, so a
	// solver's memory follows the work it was given, up to this bound (and,
	// while the last growth copies the table, a quarter more).
	TableBits int
	// MaxNodes bounds the number of positions one call of Score or Moves may
	// search; 0 means no bound. A call that would exceed it returns an error
	// that wraps ErrBudget.
	MaxNodes int64
}

// Solver computes exact scores of Connect Four positions. Its transposition
// table starts small, grows with the work (see [Config.TableBits]), and is
// kept from one call to the next: what it holds are bounds on exact scores,
// true whatever position is solved next, so solving many positions with one
// Solver, or the moves of one position ([Solver.Moves]), pays for the
// table once and gets faster as it fills. [Solver.Reset] empties it.
//
// A Solver is not safe for concurrent use; use one per goroutine.
//
// The search is Pons' (see the package documentation): negamax with
// alpha-beta pruning over the moves that do not hand the opponent an
// immediate win, cut short when the player to move can win at once or must
// block two threats; columns tried centre first, then reordered by the number
// of threats each move creates; a transposition table of lower and upper
// bounds, keyed by the full position; and, at the root, a sequence of
// null-window searches that narrow the score's interval, starting near 0.
type Solver struct {
	table    []uint64 // entries: gen<<56 | key<<7 | code; code 0 is empty
	shift    uint     // 64 - log2(len(table)): the index is the top bits of a hash
	maxBits  int      // the log2 of the most entries the table may grow to
	stores   int64    // entries stored since the table last grew
	growAt   int64    // stores at which it grows next
	gen      uint64   // the live generation, 1 to genLimit-1
	maxNodes int64

	// state of the current call
	ctx       context.Context
	nodes     int64
	nextCheck int64
	stop      error
}

// genLimit bounds the generations that fit in an entry's top 8 bits.
const genLimit = 1 << 8

// checkEvery is the number of nodes between two looks at the context.
const checkEvery = 1 << 12

// The table stores an upper bound u on a score as the code u+upperOffset
// and a lower bound l as l+lowerOffset. Scores and bounds lie in [-21, 21],
// so upper bounds code to 11..53 and lower bounds to 75..117: never 0 (the
// empty entry), always below 128 (7 bits), and a code of at least 64 is a
// lower bound.
const (
	upperOffset = 32
	lowerOffset = 96
)

// NewSolver returns a solver configured by c, its table allocated.
func NewSolver(c Config) (*Solver, error) {
	tb := c.TableBits
	if tb == 0 {
		tb = DefaultTableBits
	}
	if tb < MinTableBits || tb > MaxTableBits {
		return nil, fmt.Errorf("connect4: Config.TableBits %d, want %d to %d, or 0 for %d", c.TableBits, MinTableBits, MaxTableBits, DefaultTableBits)
	}
	if c.MaxNodes < 0 {
		return nil, fmt.Errorf("connect4: Config.MaxNodes %d, want ≥ 0 (0: no bound)", c.MaxNodes)
	}
	s := &Solver{maxBits: tb, gen: 1, maxNodes: c.MaxNodes}
	s.resize(min(tb, startTableBits))
	return s, nil
}

// TableBytes returns the size of the transposition table in bytes, as it
// has grown so far.
func (s *Solver) TableBytes() int { return 8 * len(s.table) }

// MaxTableBytes returns the size in bytes that the transposition table may
// grow to.
func (s *Solver) MaxTableBytes() int { return 8 << s.maxBits }

// tableGrowth is the log2 of the factor by which the table grows.
const tableGrowth = 2

// resize makes the table 2^bits entries and moves the live entries of the
// old one into it; where two land on one slot, the later one stays.
func (s *Solver) resize(bits int) {
	old := s.table
	s.table = make([]uint64, 1<<bits)
	s.shift = uint(64 - bits)
	s.stores = 0
	s.growAt = int64(len(s.table))
	if bits >= s.maxBits {
		s.growAt = math.MaxInt64
	}
	live := s.gen << 56
	for _, e := range old {
		if e&(0xff<<56) == live {
			key := e << 8 >> 15 // the 49 bits below the generation
			s.table[s.index(key)] = e
		}
	}
}

// store writes an entry for key. The slot is computed here, not before the
// search below the position, because the table may have grown since.
func (s *Solver) store(key, entry uint64) {
	s.table[s.index(key)] = entry
	if s.stores++; s.stores >= s.growAt {
		s.resize(min(s.maxBits, bits.Len(uint(len(s.table)))-1+tableGrowth))
	}
}

// Nodes returns the number of positions the last call of Score or Moves
// searched.
func (s *Solver) Nodes() int64 { return s.nodes }

// Reset empties the transposition table, so that the next call searches as
// if the solver were new. It takes constant time except once every 255
// calls, when it clears the table's memory.
func (s *Solver) Reset() {
	s.gen++
	if s.gen == genLimit {
		clear(s.table)
		s.gen = 1
	}
}

// Value maps a score to a reward for the player it belongs to: 1 a win
// (score > 0), 0.5 a draw (0), 0 a loss (< 0).
func Value(score int) float64 {
	switch {
	case score > 0:
		return 1
	case score < 0:
		return 0
	}
	return 0.5
}

// Score returns the exact score of p for the player to move (see the package
// documentation). A position that is over has its final score: 0 for a full
// board, a loss if the last move won. The error is the context's when ctx
// is done, and wraps ErrBudget when the node budget runs out; the score is
// then 0 and meaningless.
func (s *Solver) Score(ctx context.Context, p Position) (int, error) {
	s.begin(ctx)
	v := s.solve(p.cur, p.mask, int(p.n), p.won)
	return v, s.end()
}

// ColumnScore is the score of a move: the score, for the player to move
// before it, of the position the move leads to.
type ColumnScore struct {
	Column int // 0 to 6
	Score  int
}

// Value returns the move's reward for the player who makes it: 1, 0.5 or 0.
func (m ColumnScore) Value() float64 { return Value(m.Score) }

// Moves returns the score of each legal move of p, columns in increasing
// order; none if p is over. Its score is the maximum of theirs. The budget
// ([Config.MaxNodes]) is for the whole call. The error is as for Score, and
// then the slice is nil.
func (s *Solver) Moves(ctx context.Context, p Position) ([]ColumnScore, error) {
	s.begin(ctx)
	var out []ColumnScore
	for c := range Width {
		if !p.CanPlay(c) {
			continue
		}
		q := p
		q.play(c)
		v := -s.solve(q.cur, q.mask, int(q.n), q.won)
		if s.stop != nil {
			break
		}
		out = append(out, ColumnScore{Column: c, Score: v})
	}
	if err := s.end(); err != nil {
		return nil, err
	}
	return out, nil
}

// begin starts a call.
func (s *Solver) begin(ctx context.Context) {
	if ctx == nil {
		ctx = context.Background()
	}
	s.ctx, s.nodes, s.stop = ctx, 0, nil
	s.nextCheck = 0 // look at the context before the first node
}

// end finishes a call and returns its error.
func (s *Solver) end() error {
	s.ctx = nil
	switch {
	case s.stop == nil:
		return nil
	case errors.Is(s.stop, ErrBudget):
		return fmt.Errorf("%w: more than %d positions searched", ErrBudget, s.maxNodes)
	}
	return fmt.Errorf("connect4: solve stopped after %d positions: %w", s.nodes, s.stop)
}

// check is called every checkEvery nodes and when the budget runs out; it
// sets s.stop when the search must stop.
func (s *Solver) check() {
	if err := s.ctx.Err(); err != nil {
		s.stop = err
		return
	}
	if s.maxNodes > 0 && s.nodes > s.maxNodes {
		s.stop = ErrBudget
		return
	}
	s.nextCheck = s.nodes + checkEvery
	if s.maxNodes > 0 && s.nextCheck > s.maxNodes+1 {
		s.nextCheck = s.maxNodes + 1
	}
}

// solve returns the exact score of the position (cur, mask) with n stones,
// won if its last move made four in a row, for the player to move (Pons,
// part 9 "Iterative deepening" and part 12: null-window searches that halve
// the interval, biased towards scores near 0, which are quicker to prove).
func (s *Solver) solve(cur, mask uint64, n int, won bool) int {
	switch {
	case won:
		return (n+1)/2 - (Cells/2 + 1) // the opponent won with (n+1)/2 stones
	case n == Cells:
		return 0
	case winningCells(cur, mask)&((mask+bottomRow)&boardMask) != 0:
		return (Cells + 1 - n) / 2 // win with the next stone
	}
	lo, hi := -(Cells-n)/2, (Cells+1-n)/2
	for lo < hi {
		med := lo + (hi-lo)/2
		if med <= 0 && lo/2 < med {
			med = lo / 2
		} else if med >= 0 && hi/2 > med {
			med = hi / 2
		}
		r := s.negamax(cur, mask, n, med, med+1)
		if s.stop != nil {
			return 0
		}
		if r <= med {
			hi = r
		} else {
			lo = r
		}
	}
	return lo
}

// index returns the table slot of a position key.
func (s *Solver) index(key uint64) uint64 {
	return (key * 0x9E3779B97F4A7C15) >> s.shift
}

// columnOrder is the order moves are tried in before threats reorder them:
// centre first (Pons, part 5 "Move exploration order").
var columnOrder = [Width]int{3, 2, 4, 1, 5, 0, 6}

// negamax returns the score of the position (cur, mask) with n stones for the
// player to move if it lies in the window (alpha, beta), else a bound on the
// side of the window where it lies (fail-soft alpha-beta). Preconditions: the
// position is not over and the player to move cannot win with one stone.
func (s *Solver) negamax(cur, mask uint64, n, alpha, beta int) int {
	s.nodes++
	if s.nodes >= s.nextCheck {
		if s.check(); s.stop != nil {
			return 0
		}
	}

	// Moves that do not let the opponent win at once (Pons, part 10).
	possible := (mask + bottomRow) & boardMask
	threats := winningCells(cur^mask, mask) // the opponent's
	next := possible
	if forced := possible & threats; forced != 0 {
		if forced&(forced-1) != 0 {
			return -(Cells - n) / 2 // two threats to block: the opponent wins next
		}
		next = forced
	}
	next &^= threats >> 1 // never play just below an opponent's threat
	if next == 0 {
		return -(Cells - n) / 2
	}
	if n >= Cells-2 {
		return 0 // two moves left and neither player can win with them
	}

	// The opponent cannot win with its next stone, nor the player to move.
	if lo := -(Cells - 2 - n) / 2; alpha < lo {
		alpha = lo
		if alpha >= beta {
			return alpha
		}
	}
	if hi := (Cells - 1 - n) / 2; beta > hi {
		beta = hi
		if alpha >= beta {
			return beta
		}
	}

	key := cur + mask         // unique per position (Pons, part 6)
	tag := s.gen<<56 | key<<7 // the key has 7*7 = 49 bits
	if e := s.table[s.index(key)]; e&^0x7f == tag {
		v := int(e & 0x7f)
		if v >= 64 {
			if lo := v - lowerOffset; alpha < lo {
				alpha = lo
				if alpha >= beta {
					return alpha
				}
			}
		} else if hi := v - upperOffset; beta > hi {
			beta = hi
			if alpha >= beta {
				return beta
			}
		}
	}

	// Order the moves: centre first, then by the number of threats each
	// creates, more first (Pons, part 11); stable insertion sort.
	var moves [Width]uint64
	var order [Width]int
	k := 0
	for _, c := range columnOrder {
		m := next & columnMask(c)
		if m == 0 {
			continue
		}
		sc := bits.OnesCount64(winningCells(cur|m, mask|m))
		j := k
		for ; j > 0 && order[j-1] < sc; j-- {
			moves[j], order[j] = moves[j-1], order[j-1]
		}
		moves[j], order[j] = m, sc
		k++
	}

	for _, m := range moves[:k] {
		v := -s.negamax(cur^mask, mask|m, n+1, -beta, -alpha)
		if s.stop != nil {
			return 0
		}
		if v >= beta {
			s.store(key, tag|uint64(v+lowerOffset))
			return v
		}
		if v > alpha {
			alpha = v
		}
	}
	s.store(key, tag|uint64(alpha+upperOffset))
	return alpha
}
