package goboard

import (
	"fmt"
	"strings"
)

// History is a game of Go played from the empty board, as a referee or a
// GTP engine keeps it: the moves so far, each with its color, under the
// Game's rules (positional superko included).
type History struct {
	cfg   Config
	game  *Game
	board Board    // the current position, apart from game's cursor
	moves []string // "b D4", "w pass": what NewGame reads
}

// NewHistory returns the game of cfg after moves (as NewGame reads them).
func NewHistory(cfg Config, moves ...string) (*History, error) {
	h := &History{cfg: cfg}
	g, err := NewGame(cfg)
	if err != nil {
		return nil, err
	}
	h.game, h.board = g, g.b
	for i, mv := range moves {
		c, v := colorLetter(h.board.toMove), ""
		switch f := strings.Fields(mv); len(f) {
		case 1:
			v = f[0]
		case 2:
			c, v = f[0], f[1]
		default:
			return nil, fmt.Errorf("goboard: move %d: %q: want a vertex or a color and a vertex", i+1, mv)
		}
		if err := h.PlayAs(c, v); err != nil { // NewGame's error names move i+1
			return nil, err
		}
	}
	return h, nil
}

// colorLetter returns "b" for Black and "w" for White.
func colorLetter(c Color) string {
	if c == White {
		return "w"
	}
	return "b"
}

// Config returns the configuration the game was made with.
func (h *History) Config() Config { return h.cfg }

// Board returns a copy of the current position.
func (h *History) Board() *Board {
	b := h.board
	return &b
}

// Moves returns the moves played, each a color and a vertex ("b D4",
// "w pass").
func (h *History) Moves() []string { return h.moves }

// Game returns the current position as a Game, whose start is that
// position. It is the History's own: a search may use it as its cursor
// (the History keeps its own copy of the board), and playing the History
// replaces it.
func (h *History) Game() *Game { return h.game }

// Over reports whether the game has ended.
func (h *History) Over() bool { return h.board.Status() != Playing }

// Play plays point identity m, or Size² for a pass, for the player to
// move.
func (h *History) Play(m int) error {
	return h.PlayAs(colorLetter(h.board.toMove), Vertex(m, h.board.size))
}

// PlayAs plays a move given as GTP's play command gives it: a color ("b",
// "black", "w", "white") and a vertex ("D4", "pass"). The color need not
// be the player to move's. The error says why an illegal move is illegal;
// the game is then unchanged.
func (h *History) PlayAs(color, vertex string) error {
	g, err := NewGame(h.cfg, append(h.moves[:len(h.moves):len(h.moves)], color+" "+vertex)...)
	if err != nil {
		return err
	}
	m, err := ParseVertex(vertex, g.b.size)
	if err != nil {
		return err
	}
	// The opponent of the player to move made it.
	h.moves = append(h.moves, colorLetter(g.b.toMove.Opponent())+" "+Vertex(m, g.b.size))
	h.game, h.board = g, g.start
	return nil
}
