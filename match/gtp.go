package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/mctscheck/mctscheck/games/goboard"
)

// GTPClient talks to a Go engine over the Go Text Protocol (version 2): a
// command is one line; a reply starts with "=" (success) or "?" (failure),
// may span lines and ends with an empty line.
type GTPClient struct {
	w   io.Writer
	r   *bufio.Reader
	cmd *exec.Cmd // when the client started the engine
	in  io.Closer
}

// NewGTPClient returns a client that writes commands to w and reads
// replies from r: the pipes of an engine, or of a GTP session run in the
// same process.
func NewGTPClient(r io.Reader, w io.Writer) *GTPClient {
	return &GTPClient{w: w, r: bufio.NewReader(r)}
}

// StartGTP starts the engine command name with args and returns a client
// for it. Its standard error goes to stderr (nil: discarded).
func StartGTP(stderr io.Writer, name string, args ...string) (*GTPClient, error) {
	cmd := exec.Command(name, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := NewGTPClient(out, in)
	c.cmd, c.in = cmd, in
	return c, nil
}

// GTPError is a failure reply ("? message") to a command.
type GTPError struct {
	Command, Message string
}

func (e *GTPError) Error() string { return fmt.Sprintf("gtp %q: %s", e.Command, e.Message) }

// Send sends one command and returns the text of a success reply (without
// "=" and the id), a *GTPError for a failure reply, or the error of a
// broken pipe or a malformed reply.
func (c *GTPClient) Send(command string) (string, error) {
	if _, err := io.WriteString(c.w, command+"\n"); err != nil {
		return "", fmt.Errorf("gtp %q: %w", command, err)
	}
	var reply []string
	for {
		line, err := c.r.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("gtp %q: %w", command, err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if len(reply) == 0 {
				continue // blank lines before a reply
			}
			break
		}
		reply = append(reply, line)
	}
	text := strings.Join(reply, "\n")
	switch text[0] {
	case '=':
		return strings.TrimSpace(strings.TrimLeft(text[1:], "0123456789")), nil
	case '?':
		return "", &GTPError{command, strings.TrimSpace(strings.TrimLeft(text[1:], "0123456789"))}
	}
	return "", fmt.Errorf("gtp %q: malformed reply %q", command, text)
}

// Close sends quit and, for an engine the client started, waits for it to
// exit, killing it after two seconds.
func (c *GTPClient) Close() error {
	_, qerr := c.Send("quit")
	if c.cmd == nil {
		return qerr
	}
	_ = c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Second):
		_ = c.cmd.Process.Kill()
		return errors.New("gtp engine did not quit; killed")
	}
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
func Referee(ctx context.Context, black, white *GTPClient, cfg RefereeConfig) (*GTPGame, error) {
	st, err := NewGoState(cfg.Go)
	if err != nil {
		return nil, err
	}
	b := st.Board()
	size, komi := b.Size(), strconv.FormatFloat(b.Komi(), 'f', -1, 64)
	for _, e := range []*GTPClient{black, white} {
		for _, c := range []string{"boardsize " + strconv.Itoa(size), "komi " + komi, "clear_board"} {
			if _, err := e.Send(c); err != nil {
				return nil, err
			}
		}
	}
	res := &GTPGame{}
	engines := map[string]*GTPClient{"b": black, "w": white}
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
	res.SGF = sgf(b, st.Moves(), RecordInfo{First: cfg.Black, Second: cfg.White})
	return res, nil
}
