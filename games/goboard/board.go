package goboard

import (
	"errors"
	"fmt"
	"math"
)

// Board sizes and defaults.
const (
	MinSize     = 5   // smallest board side
	MaxSize     = 19  // largest board side
	DefaultSize = 9   // board side of the zero Config
	DefaultKomi = 7.5 // komi of the zero Config
)

// maxCells is the length of the padded arrays: a board of side n is stored
// row by row with stride n+1 (one shared border column) between a border row
// above and one below, plus one cell so that the last point's lower-right
// diagonal exists.
const maxCells = (MaxSize+2)*(MaxSize+1) + 1

// Color is the content of a point: Empty, Black or White.
type Color uint8

// The colors of a point. The zero Color is Empty.
const (
	Empty Color = iota
	Black
	White
	border // off the board; never returned by the API
)

// Opponent returns White for Black and Black for White.
func (c Color) Opponent() Color { return 3 - c }

// String returns "empty", "black" or "white".
func (c Color) String() string {
	switch c {
	case Empty:
		return "empty"
	case Black:
		return "black"
	case White:
		return "white"
	}
	return fmt.Sprintf("Color(%d)", uint8(c))
}

// Status says whether a game goes on, and why it ended.
type Status uint8

const (
	// Playing means the game goes on.
	Playing Status = iota
	// TwoPasses means the game ended on two consecutive passes.
	TwoPasses
	// MoveCap means the game ended because it reached its move cap
	// (Config.MaxMoves) without two consecutive passes.
	MoveCap
)

// String returns "playing", "two passes" or "move cap".
func (s Status) String() string {
	switch s {
	case Playing:
		return "playing"
	case TwoPasses:
		return "two passes"
	case MoveCap:
		return "move cap"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Errors of moves that break the rules, wrapped with the move by the
// functions that return them; test with errors.Is.
var (
	ErrOccupied = errors.New("point is occupied")
	ErrSuicide  = errors.New("suicide")
	ErrKo       = errors.New("ko: the point was captured by the last move and may not be retaken at once")
	ErrSuperko  = errors.New("positional superko: the move repeats an earlier position of the game")
	ErrOver     = errors.New("the game is over")
)

// Config sets up a board. Its zero value is a 9×9 board with komi 7.5 and
// a move cap of 3·9² = 243 moves.
type Config struct {
	// Size is the side of the board, MinSize to MaxSize; 0 means 9.
	Size int
	// Komi is added to White's area score. It must be a multiple of 0.5
	// with |Komi| ≤ Size². 0 means DefaultKomi unless NoKomi is set.
	Komi float64
	// NoKomi plays with komi 0 (a draw, reward 1/2, is then possible).
	// Komi must be 0 when it is set.
	NoKomi bool
	// MaxMoves is the move cap: a game that reaches MaxMoves moves (passes
	// included, counted from the empty board) ends with status MoveCap and
	// is scored as it stands. 0 means 3·Size²; at most 100·Size².
	MaxMoves int
}

// resolve returns the configuration with its defaults filled in, or an
// error that names the bad field.
func (c Config) resolve() (Config, error) {
	if c.Size == 0 {
		c.Size = DefaultSize
	}
	if c.Size < MinSize || c.Size > MaxSize {
		return c, fmt.Errorf("goboard: board size %d, want %d to %d", c.Size, MinSize, MaxSize)
	}
	area := float64(c.Size * c.Size)
	switch {
	case c.NoKomi && c.Komi != 0:
		return c, fmt.Errorf("goboard: komi %v with NoKomi set", c.Komi)
	case math.IsNaN(c.Komi) || math.Abs(c.Komi) > area || c.Komi*2 != math.Trunc(c.Komi*2):
		return c, fmt.Errorf("goboard: komi %v, want a multiple of 0.5 between %v and %v", c.Komi, -area, area)
	case !c.NoKomi && c.Komi == 0:
		c.Komi = DefaultKomi
	}
	if c.MaxMoves == 0 {
		c.MaxMoves = 3 * c.Size * c.Size
	}
	if c.MaxMoves < 1 || c.MaxMoves > 100*c.Size*c.Size {
		return c, fmt.Errorf("goboard: MaxMoves %d, want 1 to %d (100·size²)", c.MaxMoves, 100*c.Size*c.Size)
	}
	return c, nil
}

// Neighbour counts: nb[p] packs, for the four neighbours of p, the number
// that are black (bits 0–3), white (bits 4–7) and empty (bits 8–11). A
// neighbour off the board counts as both black and white, so that p is
// surrounded by c (or the edge) exactly when its c count is 4.
const (
	nbBlack uint16 = 1
	nbWhite uint16 = 1 << 4
	nbEmpty uint16 = 1 << 8
)

// nbInc is the neighbour-count increment of each color.
var nbInc = [4]uint16{Empty: nbEmpty, Black: nbBlack, White: nbWhite, border: nbBlack | nbWhite}

// Board is a Go position: the stones, the player to move, the ko point, the
// number of consecutive passes and of moves played. The rules are area
// scoring (Tromp–Taylor) with komi, suicide forbidden, simple ko, and the end
// of the game on two consecutive passes or at the move cap. Positional
// superko is the business of Game, which keeps the history.
//
// Stones are kept in chains (strings of connected stones) as circular linked
// lists with a pseudo-liberty count: the number of (stone, empty neighbour)
// pairs, which is 0 exactly when the chain has no liberty. Together with
// per-point neighbour counts this makes a move, a capture and the light
// playout's legality and eye tests cost a few array reads and writes, and no
// allocation. A Board is a value of fixed size (about 6 KB): assigning it
// copies the position.
type Board struct {
	size, stride int
	komi         float64
	maxMoves     int

	color [maxCells]Color
	chain [maxCells]int16  // root of the stone's chain; 0 (a border cell) off stones
	next  [maxCells]int16  // next stone of the chain, circularly
	libs  [maxCells]int16  // pseudo-liberties, at the chain's root
	stone [maxCells]int16  // stones, at the chain's root
	nb    [maxCells]uint16 // neighbour counts, see nbBlack
	empty [maxCells]int16  // the empty points; the first nEmpty are live
	epos  [maxCells]int16  // index of an empty point in empty

	emptied [(maxCells + 63) / 64]uint64 // points that have lost a stone to a capture

	nEmpty int
	placed [3]int // stones of each color on the board (Black and White)
	toMove Color
	ko     int16 // point toMove may not play, 0 for none
	koFor  Color // the color the ko point is forbidden to
	passes int   // consecutive passes at the end of the game so far
	moves  int   // moves played since the empty board, passes included
	hash   uint64
}

// NewBoard returns the empty board of cfg with Black to move, after playing
// moves (see Board.PlayMoves). The error names the bad field of cfg or the
// bad move.
func NewBoard(cfg Config, moves ...string) (*Board, error) {
	cfg, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	b := &Board{}
	b.init(cfg)
	if err := b.PlayMoves(moves...); err != nil {
		return nil, err
	}
	return b, nil
}

// init sets b to the empty board of a resolved configuration.
func (b *Board) init(cfg Config) {
	*b = Board{size: cfg.Size, stride: cfg.Size + 1, komi: cfg.Komi, maxMoves: cfg.MaxMoves, toMove: Black}
	for i := range b.color {
		b.color[i] = border
	}
	for y := range b.size {
		for x := range b.size {
			p := b.index(y*b.size + x)
			b.color[p] = Empty
			b.empty[b.nEmpty] = int16(p)
			b.epos[p] = int16(b.nEmpty)
			b.nEmpty++
		}
	}
	for y := range b.size {
		for x := range b.size {
			p := b.index(y*b.size + x)
			for _, q := range b.around(p) {
				b.nb[p] += nbInc[b.color[q]]
			}
		}
	}
}

// around returns the four neighbours of padded index p.
func (b *Board) around(p int) [4]int {
	return [4]int{p - b.stride, p - 1, p + 1, p + b.stride}
}

// index returns the padded index of point identity m (not a pass).
func (b *Board) index(m int) int {
	return (m/b.size+1)*b.stride + m%b.size + 1
}

// ident returns the point identity of padded index p.
func (b *Board) ident(p int) int {
	return (p/b.stride-1)*b.size + p%b.stride - 1
}

// Size returns the side of the board.
func (b *Board) Size() int { return b.size }

// Komi returns the komi added to White's area score.
func (b *Board) Komi() float64 { return b.komi }

// Pass returns the identity of a pass, Size².
func (b *Board) Pass() int { return b.size * b.size }

// ToMove returns the player to move.
func (b *Board) ToMove() Color { return b.toMove }

// MovesPlayed returns the number of moves played since the empty board,
// passes included.
func (b *Board) MovesPlayed() int { return b.moves }

// MaxMoves returns the move cap.
func (b *Board) MaxMoves() int { return b.maxMoves }

// Hash returns the Zobrist hash of the stones on the board (not of the player
// to move or the ko point): equal positions have equal hashes, and different
// positions equal hashes with probability about 2⁻⁶⁴.
func (b *Board) Hash() uint64 { return b.hash }

// Ko returns the point identity that the player to move may not play because
// of simple ko, or -1 if there is none.
func (b *Board) Ko() int {
	if b.ko == 0 || b.koFor != b.toMove {
		return -1
	}
	return b.ident(int(b.ko))
}

// Status reports whether the game goes on, or why it ended.
func (b *Board) Status() Status {
	switch {
	case b.passes >= 2:
		return TwoPasses
	case b.moves >= b.maxMoves:
		return MoveCap
	}
	return Playing
}

// over reports whether the game has ended.
func (b *Board) over() bool { return b.passes >= 2 || b.moves >= b.maxMoves }

// At returns the color at point m, or Empty for a pass or a point off the
// board.
func (b *Board) At(m int) Color {
	if m < 0 || m >= b.size*b.size {
		return Empty
	}
	return b.color[b.index(m)]
}

// Legal returns nil if the player to move may play m (a point identity or
// the pass) under simple ko, and otherwise an error that names the move and
// wraps ErrOccupied, ErrSuicide, ErrKo or ErrOver.
func (b *Board) Legal(m int) error { return b.LegalAs(b.toMove, m) }

// LegalAs is Legal for a move by c, who need not be the player to move. The
// ko point is forbidden only to the opponent of the player who took the ko,
// and only until the next move.
func (b *Board) LegalAs(c Color, m int) error {
	if err := b.checkMove(c, m); err != nil {
		return err
	}
	if m == b.Pass() {
		return nil
	}
	return b.legalAt(c, b.index(m), m)
}

// IsLegal reports whether the player to move may play m under simple ko,
// as Legal does, without building an error.
func (b *Board) IsLegal(m int) bool {
	switch {
	case m < 0 || m > b.size*b.size || b.over():
		return false
	case m == b.size*b.size:
		return true
	}
	p := b.index(m)
	c := b.toMove
	return b.color[p] == Empty && (int(b.ko) != p || b.koFor != c) && b.legalEmpty(c, p)
}

// checkMove rejects a move out of range, by a color that is not a player, or
// in a game that is over.
func (b *Board) checkMove(c Color, m int) error {
	switch {
	case c != Black && c != White:
		return fmt.Errorf("goboard: move by %v, want black or white", c)
	case m < 0 || m > b.size*b.size:
		return fmt.Errorf("goboard: move %d out of range, want 0 to %d (pass)", m, b.size*b.size)
	case b.over():
		return fmt.Errorf("goboard: %s: %w (%v)", Vertex(m, b.size), ErrOver, b.Status())
	}
	return nil
}

// legalAt returns why c may not play at padded index p (identity m), or nil.
func (b *Board) legalAt(c Color, p, m int) error {
	switch {
	case b.color[p] != Empty:
		return fmt.Errorf("goboard: %s: %w", Vertex(m, b.size), ErrOccupied)
	case int(b.ko) == p && b.koFor == c:
		return fmt.Errorf("goboard: %s: %w", Vertex(m, b.size), ErrKo)
	case !b.legalEmpty(c, p):
		return fmt.Errorf("goboard: %s: %w", Vertex(m, b.size), ErrSuicide)
	}
	return nil
}

// legalEmpty reports whether c may play at the empty point p, ko aside: the
// move is legal unless it would leave its own chain without liberties while
// capturing nothing. With an empty neighbour it is legal. Otherwise each
// neighbouring chain loses to the move as many pseudo-liberties as it has
// stones next to p (k below): the move is legal if one of its own chains
// keeps some (it had another liberty) or one of the opponent's keeps none (it
// is captured). The test only reads the board.
func (b *Board) legalEmpty(c Color, p int) bool {
	if b.nb[p]>>8 != 0 {
		return true
	}
	w := b.stride
	q0, q1, q2, q3 := p-w, p-1, p+1, p+w
	r0, r1, r2, r3 := b.chain[q0], b.chain[q1], b.chain[q2], b.chain[q3]
	e01, e02, e03 := same(r0, r1), same(r0, r2), same(r0, r3)
	e12, e13, e23 := same(r1, r2), same(r1, r3), same(r2, r3)
	return b.keeps(c, q0, r0, 1+e01+e02+e03) ||
		b.keeps(c, q1, r1, 1+e01+e12+e13) ||
		b.keeps(c, q2, r2, 1+e02+e12+e23) ||
		b.keeps(c, q3, r3, 1+e03+e13+e23)
}

// same is 1 if chain roots r and s are equal, else 0.
func same(r, s int16) int16 {
	if r == s {
		return 1
	}
	return 0
}

// keeps reports whether the neighbour q of a move by c, in the chain with
// root r that has k stones next to the move, makes the move legal: q is c's
// and its chain has a liberty besides the move, or q is the opponent's and
// the move takes its chain's last liberty.
func (b *Board) keeps(c Color, q int, r, k int16) bool {
	switch b.color[q] {
	case c:
		return b.libs[r] > k
	case 3 - c:
		return b.libs[r] == k
	}
	return false
}

// eye reports whether the empty point p is a single-point eye of c: every
// neighbour on the board is a stone of c, and of its diagonal points fewer
// than two are the opponent's when p is in the middle, none when p is on the
// edge (an off-board diagonal counts as one). This is the eye test of light
// playouts in libego and Pachi ("true eye" by the diagonal rule): a
// point it calls an eye may still be false in rare shapes, and a false eye
// it rejects may still be worth keeping.
func (b *Board) eye(c Color, p int) bool {
	if (b.nb[p]>>(4*(c-1)))&15 != 4 {
		return false
	}
	// The four diagonal points, written out: a loop over an array of them
	// cost twice the instructions.
	w := b.stride
	x0, x1, x2, x3 := b.color[p-w-1], b.color[p-w+1], b.color[p+w-1], b.color[p+w+1]
	o := 3 - c
	bad := b2i(x0 == o) + b2i(x1 == o) + b2i(x2 == o) + b2i(x3 == o)
	edge := b2i(x0 == border || x1 == border || x2 == border || x3 == border)
	return bad+edge < 2
}

// b2i is 1 for true and 0 for false.
func b2i(t bool) int {
	if t {
		return 1
	}
	return 0
}

// Play plays m, a point identity or the pass, for the player to move. It
// returns the error of Legal and leaves the board unchanged when the move is
// illegal.
func (b *Board) Play(m int) error { return b.PlayAs(b.toMove, m) }

// PlayAs plays m for c, who need not be the player to move (as GTP's play
// command does); the opponent of c moves next.
func (b *Board) PlayAs(c Color, m int) error {
	if err := b.LegalAs(c, m); err != nil {
		return err
	}
	if m == b.Pass() {
		b.toMove = c
		b.pass()
		return nil
	}
	b.toMove = c
	b.play(b.index(m))
	return nil
}

// pass passes for the player to move.
func (b *Board) pass() {
	b.passes++
	b.moves++
	b.ko = 0
	b.toMove = 3 - b.toMove
}

// play puts a stone of the player to move on the empty point p, which must
// be legal, and removes the chains it captures.
func (b *Board) play(p int) {
	c := b.toMove
	o := 3 - c
	b.hash ^= zobrist[c][p]
	b.color[p] = c
	b.placed[c]++
	b.removeEmpty(p)
	b.chain[p] = int16(p)
	b.next[p] = int16(p)
	b.stone[p] = 1
	b.libs[p] = int16(b.nb[p] >> 8)
	w := b.stride
	q0, q1, q2, q3 := p-w, p-1, p+1, p+w
	inc := nbInc[c] - nbEmpty
	b.nb[q0] += inc
	b.nb[q1] += inc
	b.nb[q2] += inc
	b.nb[q3] += inc
	// p is no longer a liberty of its neighbours' chains (for an empty or
	// border neighbour, of the dummy chain 0).
	b.libs[b.chain[q0]]--
	b.libs[b.chain[q1]]--
	b.libs[b.chain[q2]]--
	b.libs[b.chain[q3]]--
	if b.nb[p]>>(4*(c-1))&15 != 0 { // a stone of c, or the edge, next to p
		if b.color[q0] == c {
			b.merge(p, q0)
		}
		if b.color[q1] == c {
			b.merge(p, q1)
		}
		if b.color[q2] == c {
			b.merge(p, q2)
		}
		if b.color[q3] == c {
			b.merge(p, q3)
		}
	}
	b.ko = 0
	if b.nb[p]>>(4*(o-1))&15 != 0 { // an opponent stone, or the edge, next to p
		// Written out: a loop over an array of the four made them a
		// fifth of play's time. A chain captured at one neighbour is empty
		// at the next.
		captured, last := 0, 0
		if b.color[q0] == o && b.libs[b.chain[q0]] == 0 {
			captured, last = captured+b.remove(int(b.chain[q0])), q0
		}
		if b.color[q1] == o && b.libs[b.chain[q1]] == 0 {
			captured, last = captured+b.remove(int(b.chain[q1])), q1
		}
		if b.color[q2] == o && b.libs[b.chain[q2]] == 0 {
			captured, last = captured+b.remove(int(b.chain[q2])), q2
		}
		if b.color[q3] == o && b.libs[b.chain[q3]] == 0 {
			captured, last = captured+b.remove(int(b.chain[q3])), q3
		}
		if r := b.chain[p]; captured == 1 && b.stone[r] == 1 && b.libs[r] == 1 {
			b.ko, b.koFor = int16(last), o
		}
	}
	b.toMove = o
	b.passes = 0
	b.moves++
}

// merge joins the chains of the stones p and q if they differ, relabelling
// the smaller.
func (b *Board) merge(p, q int) {
	r, s := int(b.chain[p]), int(b.chain[q])
	if r == s {
		return
	}
	if b.stone[r] < b.stone[s] {
		r, s = s, r
	}
	for t := s; ; {
		b.chain[t] = int16(r)
		if t = int(b.next[t]); t == s {
			break
		}
	}
	b.next[r], b.next[s] = b.next[s], b.next[r]
	b.libs[r] += b.libs[s]
	b.stone[r] += b.stone[s]
}

// remove takes the chain with root r off the board and returns its number of
// stones.
func (b *Board) remove(r int) int {
	c := b.color[r]
	dec := nbEmpty - nbInc[c]
	q := r
	for {
		b.hash ^= zobrist[c][q]
		b.color[q] = Empty
		b.chain[q] = 0
		b.emptied[q>>6] |= 1 << (q & 63)
		b.addEmpty(q)
		for _, t := range b.around(q) {
			b.nb[t] += dec
			b.libs[b.chain[t]]++
		}
		q = int(b.next[q])
		if q == r {
			break
		}
	}
	b.placed[c] -= int(b.stone[r])
	return int(b.stone[r])
}

// removeEmpty takes p out of the list of empty points.
func (b *Board) removeEmpty(p int) {
	i := b.epos[p]
	b.nEmpty--
	last := b.empty[b.nEmpty]
	b.empty[i] = last
	b.epos[last] = i
}

// addEmpty puts p into the list of empty points.
func (b *Board) addEmpty(p int) {
	b.empty[b.nEmpty] = int16(p)
	b.epos[p] = int16(b.nEmpty)
	b.nEmpty++
}

// zobrist holds the hash keys of black and white stones by padded index,
// from splitmix64 with a fixed seed.
var zobrist = func() (t [3][maxCells]uint64) {
	z := uint64(0x2545F4914F6CDD1D)
	for c := Black; c <= White; c++ {
		for p := range maxCells {
			z += 0x9E3779B97F4A7C15
			x := z
			x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
			x = (x ^ x>>27) * 0x94D049BB133111EB
			t[c][p] = x ^ x>>31
		}
	}
	return t
}()
