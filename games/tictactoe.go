package games

import (
	"fmt"

	"github.com/mctscheck/mctscheck/core"
)

// TicTacToe is tic-tac-toe from a position, as a core.Game: X is the max
// player and moves first from the empty board; a win for X is 1, a draw 1/2,
// a win for O 0. Moves are the empty cells in an order that depends only on
// the moves played; a move's identity (core.Mover) is its cell, 0..8 row by
// row, so AMAF statistics are shared across the tree.
type TicTacToe struct {
	start  [9]int8 // the position Reset returns to
	first  int8    // the player to move there; 0 means X
	board  [9]int8 // 0 empty, 1 X, -1 O
	empty  [9]int8 // empty cells; the first n are live
	n      int
	toMove int8
	winner int8
	_      [16]byte // whole cache lines: see core.NewRoot
}

// NewTicTacToe returns the game from the empty board.
func NewTicTacToe() *TicTacToe {
	g := &TicTacToe{}
	g.Reset()
	return g
}

// NewTicTacToeFrom returns the game from a position given as nine cells row
// by row, each 'X', 'O' or '.', e.g. "XX.OO....". The player to move is X when
// both have as many stones, O when X has one more.
func NewTicTacToeFrom(cells string) (*TicTacToe, error) {
	if len(cells) != 9 {
		return nil, fmt.Errorf("games: tic-tac-toe position %q has %d cells, want 9", cells, len(cells))
	}
	g := &TicTacToe{}
	x, o := 0, 0
	for i := range 9 {
		switch cells[i] {
		case 'X', 'x':
			g.start[i] = 1
			x++
		case 'O', 'o':
			g.start[i] = -1
			o++
		case '.':
		default:
			return nil, fmt.Errorf("games: tic-tac-toe position %q: cell %d is %q, want X, O or '.'", cells, i, cells[i])
		}
	}
	if x != o && x != o+1 {
		return nil, fmt.Errorf("games: tic-tac-toe position %q has %d X and %d O", cells, x, o)
	}
	if x == o+1 {
		g.first = -1
	} else {
		g.first = 1
	}
	g.Reset()
	return g, nil
}

// ticLines are the eight lines of three cells.
var ticLines = [8][3]int8{
	{0, 1, 2}, {3, 4, 5}, {6, 7, 8},
	{0, 3, 6}, {1, 4, 7}, {2, 5, 8},
	{0, 4, 8}, {2, 4, 6},
}

// Reset implements core.Game.
func (g *TicTacToe) Reset() {
	g.board = g.start
	g.n = 0
	g.toMove, g.winner = 1, 0
	if g.first != 0 {
		g.toMove = g.first
	}
	for c := range int8(9) {
		if g.board[c] == 0 {
			g.empty[g.n] = c
			g.n++
		}
	}
	for _, l := range ticLines {
		if p := g.board[l[0]]; p != 0 && p == g.board[l[1]] && p == g.board[l[2]] {
			g.winner = p
		}
	}
}

// Kind implements core.Game.
func (g *TicTacToe) Kind() core.Kind {
	switch {
	case g.winner != 0 || g.n == 0:
		return core.Terminal
	case g.toMove == 1:
		return core.Max
	}
	return core.Min
}

// NumMoves implements core.Game.
func (g *TicTacToe) NumMoves() int {
	if g.winner != 0 {
		return 0
	}
	return g.n
}

// Play implements core.Game: the player to move takes the i-th empty cell.
func (g *TicTacToe) Play(i int) {
	c := g.empty[i]
	g.n--
	g.empty[i] = g.empty[g.n]
	g.empty[g.n] = c
	g.board[c] = g.toMove
	for _, l := range ticLines {
		if (l[0] == c || l[1] == c || l[2] == c) &&
			g.board[l[0]] == g.toMove && g.board[l[1]] == g.toMove && g.board[l[2]] == g.toMove {
			g.winner = g.toMove
		}
	}
	g.toMove = -g.toMove
}

// Reward implements core.Game.
func (g *TicTacToe) Reward() float64 {
	switch g.winner {
	case 1:
		return 1
	case -1:
		return 0
	}
	return 0.5
}

// Prob implements core.Game; tic-tac-toe has no chance nodes.
func (g *TicTacToe) Prob(int) float64 { return 0 }

// Move implements core.Mover: the cell that move i takes.
func (g *TicTacToe) Move(i int) int { return int(g.empty[i]) }

// MoveLimit implements core.Mover.
func (g *TicTacToe) MoveLimit() int { return 9 }
