package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/internal/version"
	"github.com/mctscheck/mctscheck/match"
)

// MaxLine bounds a command line; the engine refuses longer lines.
const MaxLine = 1 << 16

// Config sets up an Engine. Player and Budget are required.
type Config struct {
	// Player is the rule, and its backup, of genmove's searches.
	Player match.Player
	// Budget is the number of simulations of each genmove's search,
	// match.MinBudget to match.MaxBudget.
	Budget int
	// Size and Komi set the board at the start (boardsize and komi change
	// them): 0 means goboard's defaults, 9 and 7.5; use NoKomi for komi 0.
	Size   int
	Komi   float64
	NoKomi bool
	// Seed seeds the searches: the search for the move at ply p is seeded
	// with match.GameSeed(Seed, p).
	Seed uint64
}

// Engine plays Go as a GTP engine (Go Text Protocol, version 2) with a
// selection rule: its genmove runs one search of Config.Budget simulations
// from the current position, the search a match plays (match.Think:
// practical growth, light playouts, the most visited move), and plays it.
// Rules: area scoring (Tromp–Taylor) with komi, no suicide, positional
// superko; the move cap is 100·size² moves. The same commands and seed give
// the same replies. An Engine serves one session at a time; its genmoves
// share one search's memory (match.Thinker).
type Engine struct {
	cfg     Config
	board   goboard.Config
	state   *match.GoState
	thinker *match.Thinker
}

// NewEngine returns an engine at the empty board of cfg. The error names
// the bad field.
func NewEngine(cfg Config) (*Engine, error) {
	switch {
	case cfg.Player.Rule == nil:
		return nil, errors.New("gtp: Config.Player has no rule")
	case cfg.Budget < match.MinBudget || cfg.Budget > match.MaxBudget:
		return nil, fmt.Errorf("gtp: budget %d, want %d to %d simulations", cfg.Budget, match.MinBudget, match.MaxBudget)
	case cfg.NoKomi && cfg.Komi != 0:
		return nil, fmt.Errorf("gtp: komi %v with NoKomi set", cfg.Komi)
	}
	size, komi := cfg.Size, cfg.Komi
	if size == 0 {
		size = goboard.DefaultSize
	}
	if komi == 0 && !cfg.NoKomi {
		komi = goboard.DefaultKomi
	}
	e := &Engine{cfg: cfg, thinker: match.NewThinker(cfg.Player)}
	if err := e.reset(size, komi); err != nil {
		return nil, err
	}
	return e, nil
}

// Commands returns the commands the engine knows, in list_commands order.
func Commands() []string {
	out := make([]string, len(commands))
	for i, c := range commands {
		out[i] = c.name
	}
	return out
}

// command is one GTP command: its name, its arguments' syntax for errors
// ("COLOR VERTEX"), how many it takes (-1: any), and what it does.
type command struct {
	name  string
	usage string
	nargs int
	run   func(e *Engine, ctx context.Context, args []string) (string, error)
}

// commands are the commands the engine knows, in list_commands order.
var commands []command

func init() {
	commands = []command{
		{"protocol_version", "", 0, func(*Engine, context.Context, []string) (string, error) { return "2", nil }},
		{"name", "", 0, func(*Engine, context.Context, []string) (string, error) { return "mctscheck", nil }},
		{"version", "", 0, (*Engine).version},
		{"known_command", "COMMAND", 1, knownCommand},
		{"list_commands", "", 0, func(*Engine, context.Context, []string) (string, error) {
			return strings.Join(Commands(), "\n"), nil
		}},
		{"quit", "", 0, func(*Engine, context.Context, []string) (string, error) { return "", errQuit }},
		{"boardsize", "SIZE", 1, (*Engine).boardsize},
		{"clear_board", "", 0, func(e *Engine, _ context.Context, _ []string) (string, error) {
			return "", e.reset(e.board.Size, e.komi())
		}},
		{"komi", "KOMI", 1, (*Engine).setKomi},
		{"play", "COLOR VERTEX", 2, (*Engine).play},
		{"genmove", "COLOR", 1, (*Engine).genmove},
		{"showboard", "", 0, func(e *Engine, _ context.Context, _ []string) (string, error) { return "\n" + e.showboard(), nil }},
		{"final_score", "", 0, func(e *Engine, _ context.Context, _ []string) (string, error) {
			return goboard.ScoreText(e.state.Board().Score()), nil
		}},
		{"is_legal", "COLOR VERTEX", 2, (*Engine).isLegal},
		{"time_settings", "", -1, func(*Engine, context.Context, []string) (string, error) { return "", nil }},
		{"time_left", "", -1, func(*Engine, context.Context, []string) (string, error) { return "", nil }},
	}
}

// errQuit ends the session after the reply to quit.
var errQuit = errors.New("quit")

// Serve reads commands from r until quit or the end of the input, and
// writes the replies to w: "=id reply" for a success, "?id message" for a
// failure, each followed by an empty line. Empty lines and comments get no
// reply. It returns nil at quit or at the end of the input, the error of a
// failed read or write, and ctx's error as soon as ctx is done, whether a
// command is running (its reply is written first) or Serve is waiting for
// the next line: a read of r then in progress is left to end on its own,
// and r is not read again.
func (e *Engine) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	switch {
	case ctx == nil:
		return errors.New("gtp: Serve with a nil context (use context.Background())")
	case r == nil || w == nil:
		return errors.New("gtp: Serve needs a reader and a writer (nil given)")
	}
	lines := make(chan readResult)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(bufio.NewReader(r), lines, stop)
	bw := bufio.NewWriter(w)
	for {
		var in readResult
		select {
		case <-ctx.Done():
			return ctx.Err()
		case in = <-lines:
		}
		if in.err != nil && in.line == "" && !in.tooLong {
			return endOfInput(bw, in.err)
		}
		reply, quit := fmt.Sprintf("? line too long (more than %d bytes)\n\n", MaxLine), false
		if !in.tooLong {
			reply, quit = e.Do(ctx, in.line)
		}
		bw.WriteString(reply)
		if err := bw.Flush(); err != nil {
			return err
		}
		switch {
		case quit:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case in.err != nil: // the last line had no end
			return endOfInput(bw, in.err)
		}
	}
}

// readResult is one line that readLines read, as readLine returns it.
type readResult struct {
	line    string
	tooLong bool
	err     error
}

// readLines sends the lines of br to lines, one at a time, until a read
// fails or stop is closed.
func readLines(br *bufio.Reader, lines chan<- readResult, stop <-chan struct{}) {
	for {
		line, tooLong, err := readLine(br)
		select {
		case lines <- readResult{line, tooLong, err}:
		case <-stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// endOfInput flushes the replies and returns nil at the end of the input,
// the read error otherwise.
func endOfInput(bw *bufio.Writer, rerr error) error {
	if err := bw.Flush(); err != nil {
		return err
	}
	if errors.Is(rerr, io.EOF) {
		return nil
	}
	return rerr
}

// Do runs one command line (without its end) and returns its reply: GTP's
// "=" or "?", the id, the text and the empty line that ends it; "" for a
// line that gets none (empty, or a comment). quit is true after quit.
func (e *Engine) Do(ctx context.Context, line string) (reply string, quit bool) {
	id, name, args, ok := parseCommand(line)
	if !ok {
		return "", false
	}
	text, err := e.run(ctx, name, args)
	if errors.Is(err, errQuit) {
		return fmt.Sprintf("=%s\n\n", id), true
	}
	mark := "="
	if err != nil {
		mark, text = "?", err.Error()
	}
	if text != "" {
		text = " " + text
	}
	return fmt.Sprintf("%s%s%s\n\n", mark, id, text), false
}

// readLine reads one line without its end. A line longer than MaxLine
// is read to its end and dropped: tooLong reports it, and line is "".
func readLine(br *bufio.Reader) (line string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(b)+len(chunk) <= MaxLine+2 {
			b = append(b, chunk...)
		} else {
			tooLong, b = true, nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			return "", true, err
		}
		return strings.TrimRight(string(b), "\r\n"), false, err
	}
}

// parseCommand preprocesses a line as GTP says (control characters other
// than tab removed, tabs made spaces, comments after # dropped) and splits
// it into an optional numeric id, the command's name and its arguments. ok
// is false for a line with no command.
func parseCommand(line string) (id, name string, args []string, ok bool) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	clean := strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r < 32 || r == 127:
			return -1
		}
		return r
	}, line)
	f := strings.Fields(clean)
	if len(f) == 0 {
		return "", "", nil, false
	}
	if _, err := strconv.ParseUint(f[0], 10, 63); err == nil {
		id, f = f[0], f[1:]
		if len(f) == 0 {
			return id, "", nil, true
		}
	}
	return id, f[0], f[1:], true
}

// run runs one command and returns its reply text, or an error whose text
// is the failure's message.
func (e *Engine) run(ctx context.Context, name string, args []string) (reply string, err error) {
	defer func() {
		if p := recover(); p != nil {
			reply, err = "", fmt.Errorf("internal error: %v", p)
		}
	}()
	if name == "" {
		return "", errors.New("syntax error: an id without a command")
	}
	for _, c := range commands {
		if c.name != name {
			continue
		}
		if c.nargs >= 0 && len(args) != c.nargs {
			return "", fmt.Errorf("syntax error: want %s %s", name, c.usage)
		}
		return c.run(e, ctx, args)
	}
	return "", errors.New("unknown command")
}

// knownCommand runs known_command COMMAND.
func knownCommand(_ *Engine, _ context.Context, args []string) (string, error) {
	for _, c := range commands {
		if c.name == args[0] {
			return "true", nil
		}
	}
	return "false", nil
}

// version is the module's version and the engine's settings.
func (e *Engine) version(context.Context, []string) (string, error) {
	return fmt.Sprintf("%s (rule %s, %d simulations per move)", version.Module, e.cfg.Player.Name, e.cfg.Budget), nil
}

// reset sets the board size and komi and clears the board.
func (e *Engine) reset(size int, komi float64) error {
	cfg := goboard.Config{Size: size, Komi: komi, NoKomi: komi == 0, MaxMoves: 100 * size * size}
	st, err := match.NewGoState(cfg)
	if err != nil {
		return err
	}
	e.board, e.state = cfg, st
	return nil
}

// boardsize runs boardsize SIZE.
func (e *Engine) boardsize(_ context.Context, args []string) (string, error) {
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return "", fmt.Errorf("syntax error: boardsize %q is not an integer", args[0])
	}
	if n < goboard.MinSize || n > goboard.MaxSize {
		return "", fmt.Errorf("unacceptable size: %d, want %d to %d", n, goboard.MinSize, goboard.MaxSize)
	}
	return "", e.reset(n, e.komi())
}

// komi returns the current komi.
func (e *Engine) komi() float64 { return e.state.Board().Komi() }

// setKomi runs komi KOMI: the game goes on with the new komi.
func (e *Engine) setKomi(_ context.Context, args []string) (string, error) {
	k, err := strconv.ParseFloat(args[0], 64)
	if err != nil || math.IsNaN(k) || math.IsInf(k, 0) {
		return "", fmt.Errorf("syntax error: komi %q is not a number", args[0])
	}
	cfg := e.board
	cfg.Komi, cfg.NoKomi = k, k == 0
	st, err := replay(cfg, e.state.Moves())
	if err != nil {
		return "", errors.New(trimPkg(err))
	}
	e.board, e.state = cfg, st
	return "", nil
}

// replay returns the game after moves on the empty board of cfg.
func replay(cfg goboard.Config, moves []string) (*match.GoState, error) {
	h, err := goboard.NewHistory(cfg, moves...)
	if err != nil {
		return nil, err
	}
	return &match.GoState{History: h}, nil
}

// color reads a GTP color and returns "b" or "w".
func color(s string) (string, error) {
	switch strings.ToLower(s) {
	case "b", "black":
		return "b", nil
	case "w", "white":
		return "w", nil
	}
	return "", fmt.Errorf("syntax error: invalid color %q, want b, black, w or white", s)
}

// move reads a GTP color and vertex.
func (e *Engine) move(args []string) (c, vertex string, err error) {
	if c, err = color(args[0]); err != nil {
		return "", "", err
	}
	if _, err := goboard.ParseVertex(args[1], e.board.Size); err != nil {
		return "", "", fmt.Errorf("syntax error: %v", trimPkg(err))
	}
	return c, args[1], nil
}

// play runs play COLOR VERTEX.
func (e *Engine) play(_ context.Context, args []string) (string, error) {
	c, v, err := e.move(args)
	if err != nil {
		return "", err
	}
	if err := e.state.PlayAs(c, v); err != nil {
		return "", fmt.Errorf("illegal move: %v", trimPkg(err))
	}
	return "", nil
}

// isLegal runs is_legal COLOR VERTEX.
func (e *Engine) isLegal(_ context.Context, args []string) (string, error) {
	c, v, err := e.move(args)
	if err != nil {
		return "", err
	}
	if _, err := goboard.NewGame(e.board, append(e.state.Moves(), c+" "+v)...); err != nil {
		return "0", nil
	}
	return "1", nil
}

// genmove runs genmove COLOR: a search for color from the current position,
// and its most visited move played. When color is not the player to move,
// the search runs as if the other player had passed. When the game is over,
// or would be over after that pass, it answers pass.
func (e *Engine) genmove(ctx context.Context, args []string) (string, error) {
	c, err := color(args[0])
	if err != nil {
		return "", err
	}
	st := e.state
	if st.Over() {
		return "pass", nil
	}
	b := st.Board()
	if toMove := colorOf(b.ToMove()); c != toMove {
		moves := st.Moves()
		if st, err = replay(e.board, append(moves[:len(moves):len(moves)], toMove+" pass")); err != nil {
			return "", fmt.Errorf("internal error: %v", err)
		}
		if st.Over() {
			return "pass", nil
		}
	}
	m, err := e.thinker.Think(ctx, st, e.cfg.Budget, core.MostVisited, match.GameSeed(e.cfg.Seed, len(st.Moves())))
	if err != nil {
		return "", fmt.Errorf("search failed: %v", err)
	}
	v := goboard.Vertex(m, b.Size())
	if err := e.state.PlayAs(c, v); err != nil {
		return "", fmt.Errorf("internal error: the search chose %s: %v", v, err)
	}
	return v, nil
}

// colorOf returns "b" for Black and "w" for White.
func colorOf(c goboard.Color) string {
	if c == goboard.White {
		return "w"
	}
	return "b"
}

// showboard draws the board as GNU Go does, with the komi, the player to
// move, the moves played and how the game stands.
func (e *Engine) showboard() string {
	b := e.state.Board()
	return fmt.Sprintf("%skomi %v, %s to move, %d moves played, %s; Tromp-Taylor score %s",
		b, b.Komi(), b.ToMove(), b.MovesPlayed(), b.Status(), goboard.ScoreText(b.Score()))
}

// trimPkg drops the "goboard: " prefix of a board error, and the "move N: "
// that names the move's place in the history.
func trimPkg(err error) string {
	s := strings.TrimPrefix(err.Error(), "goboard: ")
	if rest, ok := strings.CutPrefix(s, "move "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			if _, err := strconv.Atoi(rest[:i]); err == nil {
				s = rest[i+2:]
			}
		}
	}
	return s
}
