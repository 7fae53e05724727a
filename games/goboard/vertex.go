package goboard

import (
	"fmt"
	"strconv"
	"strings"
)

// columns are the column letters of GTP vertices: A to T without I.
const columns = "ABCDEFGHJKLMNOPQRST"

// Vertex returns the GTP vertex of move m on a board of side size: "pass"
// for size², a column letter (A to T, skipping I) and a row number counted
// from the bottom for a point ("A1" is identity 0, "B1" identity 1, "A2"
// identity size), and a description in parentheses for anything else.
func Vertex(m, size int) string {
	switch {
	case size < MinSize || size > MaxSize || m < 0 || m > size*size:
		return fmt.Sprintf("(move %d on size %d)", m, size)
	case m == size*size:
		return "pass"
	}
	return string(columns[m%size]) + strconv.Itoa(m/size+1)
}

// ParseVertex returns the identity of a GTP vertex on a board of side size:
// a column letter (A to T without I, either case) and a row number from 1 at
// the bottom, or "pass". The error says what is wrong.
func ParseVertex(s string, size int) (int, error) {
	if size < MinSize || size > MaxSize {
		return 0, fmt.Errorf("goboard: board size %d, want %d to %d", size, MinSize, MaxSize)
	}
	if strings.EqualFold(s, "pass") {
		return size * size, nil
	}
	if len(s) < 2 {
		return 0, fmt.Errorf("goboard: vertex %q: want a column letter and a row number, or pass", s)
	}
	letter := s[0]
	if 'a' <= letter && letter <= 'z' {
		letter -= 'a' - 'A'
	}
	x := strings.IndexByte(columns[:size], letter)
	if x < 0 {
		if letter == 'I' {
			return 0, fmt.Errorf("goboard: vertex %q: GTP has no column I", s)
		}
		return 0, fmt.Errorf("goboard: vertex %q: column %q, want A to %c (no I)", s, s[0], columns[size-1])
	}
	row, err := strconv.Atoi(s[1:])
	if err != nil || s[1] == '+' || s[1] == '-' {
		return 0, fmt.Errorf("goboard: vertex %q: row %q is not a number", s, s[1:])
	}
	if row < 1 || row > size {
		return 0, fmt.Errorf("goboard: vertex %q: row %d, want 1 to %d", s, row, size)
	}
	return (row-1)*size + x, nil
}

// PlayMoves plays a list of moves, each a GTP vertex ("D4", "pass") played
// by the player to move, or a color and a vertex ("B D4", "white pass") played
// by that color as GTP's play command does. It stops at the first move that
// is malformed or illegal and returns an error that names it and its index;
// the moves before it stay played.
func (b *Board) PlayMoves(moves ...string) error {
	for i, s := range moves {
		c, m, err := b.parseMove(s)
		if err == nil {
			err = b.PlayAs(c, m)
		}
		if err != nil {
			return fmt.Errorf("goboard: move %d: %w", i+1, unwrap(err))
		}
	}
	return nil
}

// parseMove reads "D4", "pass", "B D4" or "white pass".
func (b *Board) parseMove(s string) (Color, int, error) {
	f := strings.Fields(s)
	c := b.toMove
	switch len(f) {
	case 1:
	case 2:
		switch strings.ToLower(f[0]) {
		case "b", "black":
			c = Black
		case "w", "white":
			c = White
		default:
			return 0, 0, fmt.Errorf("goboard: %q: color %q, want b, black, w or white", s, f[0])
		}
		f = f[1:]
	default:
		return 0, 0, fmt.Errorf("goboard: %q: want a vertex or a color and a vertex", s)
	}
	m, err := ParseVertex(f[0], b.size)
	return c, m, err
}

// unwrap drops the "goboard: " prefix of an error of this package so that
// it can be wrapped again, keeping errors.Is working.
func unwrap(err error) error {
	if s := err.Error(); strings.HasPrefix(s, "goboard: ") {
		return prefixless{s[len("goboard: "):], err}
	}
	return err
}

// prefixless is an error with a shorter message that unwraps to the
// original.
type prefixless struct {
	msg string
	err error
}

func (e prefixless) Error() string { return e.msg }
func (e prefixless) Unwrap() error { return e.err }

// String draws the board as GNU Go's showboard does, without its side notes:
// column letters above and below, row numbers on both sides, X for black,
// O for white and . for empty points, top row first.
func (b *Board) String() string {
	var s strings.Builder
	letters := func() {
		s.WriteString("  ")
		for x := range b.size {
			s.WriteByte(' ')
			s.WriteByte(columns[x])
		}
		s.WriteByte('\n')
	}
	letters()
	for y := b.size - 1; y >= 0; y-- {
		fmt.Fprintf(&s, "%2d", y+1)
		for x := range b.size {
			s.WriteByte(' ')
			s.WriteByte(".XO"[b.color[b.index(y*b.size+x)]])
		}
		fmt.Fprintf(&s, " %d\n", y+1)
	}
	letters()
	return s.String()
}
