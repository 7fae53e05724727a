package connect4

import (
	"fmt"
	"strings"
)

// The board's dimensions.
const (
	Width  = 7              // columns
	Height = 6              // rows
	Cells  = Width * Height // cells; the longest game has this many moves
)

// Bitboard layout (Pons, part 6 "Bitboard"): cell (column c, row r), row 0 at
// the bottom, is bit c*stride + r. Each column has one spare bit above its top
// row, always empty, so that shifts by one column or diagonal never carry a
// line over from one column into the next.
const (
	stride = Height + 1

	// bottomRow has the bottom cell of every column.
	bottomRow uint64 = 1 | 1<<(1*stride) | 1<<(2*stride) | 1<<(3*stride) |
		1<<(4*stride) | 1<<(5*stride) | 1<<(6*stride)
	// boardMask has every cell of the board (no spare bits).
	boardMask = bottomRow * (1<<Height - 1)
)

// columnMask has the cells of column c.
func columnMask(c int) uint64 { return (1<<Height - 1) << (c * stride) }

// topMask has the top cell of column c.
func topMask(c int) uint64 { return 1 << (Height - 1 + c*stride) }

// aligned reports whether the stones b hold four in a row in any direction:
// vertical (shift 1), horizontal (stride) and the two diagonals (stride±1).
func aligned(b uint64) bool {
	m := b & (b >> 1)
	if m&(m>>2) != 0 {
		return true
	}
	m = b & (b >> stride)
	if m&(m>>(2*stride)) != 0 {
		return true
	}
	m = b & (b >> (stride - 1))
	if m&(m>>(2*(stride-1))) != 0 {
		return true
	}
	m = b & (b >> (stride + 1))
	return m&(m>>(2*(stride+1))) != 0
}

// winningCells returns the empty cells (of the board, whether playable now or
// not) that would complete four in a row for the stones b, given all stones
// mask (Pons, part 10 "Anticipate losing moves"). For each direction it looks
// for three stones on one side, or two on one side and one on the other.
func winningCells(b, mask uint64) uint64 {
	// vertical: three stones below
	r := (b << 1) & (b << 2) & (b << 3)
	r |= lineCells(b, stride)   // horizontal
	r |= lineCells(b, stride-1) // diagonal \ (down to the right)
	r |= lineCells(b, stride+1) // diagonal / (up to the right)
	return r & (boardMask ^ mask)
}

// lineCells returns the cells that would complete four in a row for the
// stones b along the direction of shift d.
func lineCells(b uint64, d uint) uint64 {
	p := (b << d) & (b << (2 * d))
	r := p & (b << (3 * d))
	r |= p & (b >> d)
	p = (b >> d) & (b >> (2 * d))
	r |= p & (b << d)
	return r | p&(b>>(3*d))
}

// Position is a Connect Four position together with the moves that reached
// it from the empty board. The zero Position is the empty board, first
// player to move. A Position is a value: copying it copies the game.
type Position struct {
	cur  uint64      // the stones of the player to move
	mask uint64      // all stones
	n    uint8       // stones on the board
	won  bool        // the last move made four in a row
	hist [Cells]byte // the columns played, 0-based
}

// Parse returns the position reached by a move string: the columns played
// from the empty board, each a byte '1' to '7', first player first, as in
// Pons' test sets. The empty string is the empty board. The error names the
// byte offset and the column of the first move that is not a column, that
// falls in a full column or that follows the end of the game, and rejects a
// string longer than the board has cells.
func Parse(moves string) (Position, error) {
	var p Position
	if len(moves) > Cells {
		return Position{}, fmt.Errorf("connect4: move string offset %d: move %d of %d, but the board has %d cells", Cells, Cells+1, len(moves), Cells)
	}
	for i := 0; i < len(moves); i++ {
		ch := moves[i]
		if ch < '1' || ch > '7' {
			return Position{}, fmt.Errorf("connect4: move string offset %d: %q is not a column, want 1 to 7", i, moves[i:i+1])
		}
		c := int(ch - '1')
		switch {
		case p.won:
			return Position{}, fmt.Errorf("connect4: move string offset %d: column %c played after the game was won at offset %d", i, ch, i-1)
		case p.mask&topMask(c) != 0:
			return Position{}, fmt.Errorf("connect4: move string offset %d: column %c is full", i, ch)
		}
		p.play(c)
	}
	return p, nil
}

// MustParse is like [Parse] but panics on an error. It is meant for
// constants in tests and examples.
func MustParse(moves string) Position {
	p, err := Parse(moves)
	if err != nil {
		panic(err)
	}
	return p
}

// play drops a stone of the player to move in column c, which must be
// playable; it does not check that the game is still on.
func (p *Position) play(c int) {
	move := (p.mask + 1<<(c*stride)) & columnMask(c)
	p.cur ^= p.mask // the opponent's stones become the side to move's
	p.mask |= move
	p.hist[p.n] = byte(c)
	p.n++
	p.won = aligned(p.cur ^ p.mask)
}

// Play drops a stone of the player to move in column c, 0 to 6. It returns an
// error, and leaves p unchanged, when c is not a column, the column is full
// or the game is over.
func (p *Position) Play(c int) error {
	switch {
	case c < 0 || c >= Width:
		return fmt.Errorf("connect4: column %d, want 0 to %d", c, Width-1)
	case p.won:
		return fmt.Errorf("connect4: column %d played after the game was won", c)
	case p.mask&topMask(c) != 0:
		return fmt.Errorf("connect4: column %d is full", c)
	}
	p.play(c)
	return nil
}

// CanPlay reports whether the player to move may play column c, 0 to 6: the
// game is not over and the column is not full.
func (p Position) CanPlay(c int) bool {
	return c >= 0 && c < Width && !p.won && p.mask&topMask(c) == 0
}

// Stones returns the number of stones on the board, which is the number of
// moves played.
func (p Position) Stones() int { return int(p.n) }

// Won reports whether the last move made four in a row: the player who made
// it has won and the player to move has lost.
func (p Position) Won() bool { return p.won }

// Over reports whether the game is over: won, or drawn on a full board.
func (p Position) Over() bool { return p.won || p.n == Cells }

// String returns the move string that reached p (see [Parse]).
func (p Position) String() string {
	var b [Cells]byte
	for i := range p.n {
		b[i] = '1' + p.hist[i]
	}
	return string(b[:p.n])
}

// Board draws p as six rows of seven cells, top row first, each row ending in
// a newline: 'X' the first player's stones, 'O' the second player's, '.' an
// empty cell.
func (p Position) Board() string {
	first := p.cur // the first player moves when the number of stones is even
	if p.n%2 == 1 {
		first = p.cur ^ p.mask
	}
	var sb strings.Builder
	sb.Grow(Height * (Width + 1))
	for r := Height - 1; r >= 0; r-- {
		for c := range Width {
			bit := uint64(1) << (c*stride + r)
			switch {
			case first&bit != 0:
				sb.WriteByte('X')
			case p.mask&bit != 0:
				sb.WriteByte('O')
			default:
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
