package match

import (
	"fmt"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/connect4"
	"github.com/mctscheck/mctscheck/games/goboard"
)

// Game is a two-player game that a match can play.
type Game interface {
	// Name is the game's name in flags and reports, as the mctscheck command's -game reads it.
	Name() string
	// New returns a new game at its start.
	New() (State, error)
}

// State is a game in progress.
type State interface {
	// Root returns a fresh core.Game whose root is the current position,
	// and the roll-out policy for practical-mode searches of it (nil for
	// core's uniform one). The game implements core.Mover; Play takes its
	// move identities.
	Root() (core.Game, core.Policy)
	// Play plays the move with the given identity for the player to move.
	Play(m int) error
	// Over reports whether the game has ended.
	Over() bool
	// Result returns the outcome for the first player (1, 1/2 or 0), how
	// the game ended, and for Go the area score for Black.
	Result() (first float64, end string, score float64)
	// Record returns the game so far as a record file: SGF for Go, a move
	// string for Connect Four.
	Record(info RecordInfo) string
}

// RecordInfo is what a record says about the game besides its moves.
type RecordInfo struct {
	First, Second string // the players' names
	Index         int    // the game's number in its match
	Seed          uint64 // the game's seed
}

// ConnectFour returns Connect Four on the standard board. Its searches use
// core's uniform roll-outs; its records are move strings (connect4.Parse).
func ConnectFour() Game { return connectFour{} }

type connectFour struct{}

func (connectFour) Name() string            { return "connect4" }
func (connectFour) New() (State, error)     { return &c4State{}, nil }
func (s *c4State) Over() bool               { return s.p.Over() }
func (s *c4State) Record(RecordInfo) string { return s.p.String() }

type c4State struct{ p connect4.Position }

func (s *c4State) Root() (core.Game, core.Policy) { return connect4.NewGame(s.p), nil }

func (s *c4State) Play(m int) error { return s.p.Play(m) }

func (s *c4State) Result() (float64, string, float64) {
	switch {
	case s.p.Won():
		// The player who made the last move won.
		if s.p.Stones()%2 == 1 {
			return 1, "four in a row", 0
		}
		return 0, "four in a row", 0
	case s.p.Over():
		return 0.5, "full board", 0
	}
	return 0.5, "playing", 0
}

// Go returns the game of Go on the board of cfg (see goboard.Config).
// Searches roll out with light playouts (goboard.FastLight); records are
// SGF.
func Go(cfg goboard.Config) (Game, error) {
	b, err := goboard.NewBoard(cfg)
	if err != nil {
		return nil, err
	}
	return goGame{cfg: cfg, size: b.Size()}, nil
}

type goGame struct {
	cfg  goboard.Config
	size int
}

func (g goGame) Name() string { return fmt.Sprintf("go%d", g.size) }

func (g goGame) New() (State, error) {
	st, err := NewGoState(g.cfg)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// GoState is a game of Go in progress as a match plays it: a
// goboard.History (the moves from the empty board, with positional
// superko), whose Play, PlayAs, Over, Board and Moves it has, with the
// rest of State.
type GoState struct{ *goboard.History }

// NewGoState returns the empty board of cfg.
func NewGoState(cfg goboard.Config) (*GoState, error) {
	h, err := goboard.NewHistory(cfg)
	if err != nil {
		return nil, err
	}
	return &GoState{h}, nil
}

// Root implements State: the position as a goboard.FastGame with the
// goboard.FastLight roll-out policy.
func (s *GoState) Root() (core.Game, core.Policy) {
	return goboard.NewFastGame(s.Game()), goboard.FastLight{}
}

// Result implements State.
func (s *GoState) Result() (float64, string, float64) {
	b := s.Board()
	return b.Reward(), b.Status().String(), b.Score()
}

// Record implements State: the game in SGF (FF[4]).
func (s *GoState) Record(info RecordInfo) string {
	return s.SGF(goboard.SGFInfo{Black: info.First, White: info.Second, Game: info.Index, Seed: info.Seed})
}
