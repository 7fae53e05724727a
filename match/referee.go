package match

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/games/goboard"
)

// Engine is a Go engine that the referee drives over the Go Text Protocol:
// Send sends one command and returns the text of a success reply, or an
// error (a failure reply, a broken pipe). gtp.Client is one.
type Engine interface {
	Send(command string) (string, error)
}

// RefereeConfig sets up a game between two GTP engines.
type RefereeConfig struct {
	// Go is the board: size, komi and the move cap, which ends a game
	// that has not ended by two passes (0: 3·Size², as goboard's).
	Go goboard.Config
	// Black and White name the engines in the record.
	Black, White string
	// Move, if not nil, is called after each move with its number (from
	// 1), the color ("b" or "w") and the vertex.
	Move func(n int, color, vertex string)
}

// GTPGame is the outcome of a game between two GTP engines.
type GTPGame struct {
	// Moves are the moves, e.g. "b D4", "w pass".
	Moves []string
	// End is how the game ended: "two passes", "move cap", "b resigned",
	// "w resigned".
	End string
	// Score is the Tromp–Taylor area score for Black of the final position
	// (Black's area minus White's minus komi), as the referee counts it.
	Score float64
	// BlackScore and WhiteScore are the engines' final_score replies
	// ("B+3.5", "W+0.5", "0"), empty if an engine failed to answer.
	BlackScore, WhiteScore string
	// Winner is "b" or "w" (by resignation or by Score), or "" for a
	// draw.
	Winner string
	// SGF is the game record.
	SGF string
}

// Referee plays one game of Go between two GTP engines to its end: it sets
// both up (boardsize, komi, clear_board), asks each in turn for a move
// (genmove), checks it on its own board (positional superko, as goboard's
// Game), tells the other engine (play), and stops at two consecutive
// passes, a resignation or the move cap. An illegal move from an engine,
// or a move the other engine refuses, is an error that names it; the
// moves so far are in the GTPGame returned with it.
func Referee(ctx context.Context, black, white Engine, cfg RefereeConfig) (*GTPGame, error) {
	st, err := goboard.NewHistory(cfg.Go)
	if err != nil {
		return nil, err
	}
	b := st.Board()
	size, komi := b.Size(), strconv.FormatFloat(b.Komi(), 'f', -1, 64)
	for _, e := range []Engine{black, white} {
		for _, c := range []string{"boardsize " + strconv.Itoa(size), "komi " + komi, "clear_board"} {
			if _, err := e.Send(c); err != nil {
				return nil, err
			}
		}
	}
	res := &GTPGame{}
	engines := map[string]Engine{"b": black, "w": white}
	for n := 1; !st.Over(); n++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		color := "b"
		if st.Board().ToMove() == goboard.White {
			color = "w"
		}
		other := map[string]string{"b": "w", "w": "b"}[color]
		v, err := engines[color].Send("genmove " + color)
		if err != nil {
			return res, err
		}
		if strings.EqualFold(v, "resign") {
			res.End, res.Winner = color+" resigned", other
			break
		}
		if err := st.PlayAs(color, v); err != nil {
			return res, fmt.Errorf("move %d: %s played %q: %v", n, color, v, err)
		}
		mv := st.Moves()[len(st.Moves())-1]
		res.Moves = append(res.Moves, mv)
		if cfg.Move != nil {
			cfg.Move(n, color, mv[2:])
		}
		if _, err := engines[other].Send("play " + mv); err != nil {
			return res, fmt.Errorf("move %d: %w", n, err)
		}
	}
	b = st.Board()
	res.Score = b.Score()
	if res.End == "" {
		res.End = b.Status().String()
		switch {
		case res.Score > 0:
			res.Winner = "b"
		case res.Score < 0:
			res.Winner = "w"
		}
	}
	res.BlackScore, _ = black.Send("final_score")
	res.WhiteScore, _ = white.Send("final_score")
	res.SGF = st.SGF(goboard.SGFInfo{Black: cfg.Black, White: cfg.White})
	return res, nil
}
