package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/match"
)

const gtpUsage = `Usage: mctscheck gtp -rule SPEC [-budget N] [-size 9] [-komi 7.5] [-seed S]

Gtp plays Go as a GTP engine (Go Text Protocol, version 2) on standard
input and output, for GNU Go's twogtp, gogui or any GTP controller. Its
genmove runs one search of -budget simulations with the rule from the
current position (practical growth, light playouts, the match command's
search) and plays the most visited move; it passes when the search says so
and never resigns. Rules: area scoring (Tromp-Taylor) with komi, no
suicide, positional superko; final_score counts the board as it stands,
without removing dead stones.

Commands: protocol_version, name, version, known_command, list_commands,
quit, boardsize, clear_board, komi, play, genmove, showboard, final_score,
is_legal, time_settings and time_left (accepted and ignored). Errors get
GTP's "? message" replies. The same commands and seed give the same
replies. Gtp has no -json: its output is the protocol.

Examples:

  mctscheck gtp -rule threshold:v=0.3,rule=mc-rave -budget 2000
  echo 'genmove b' | mctscheck gtp -rule uct -budget 500
  gnugo --mode gtp   # the other side; scripts/gtp-vs-gnugo.sh plays a game
`

// gtpMaxLine bounds a command line; longer lines are refused.
const gtpMaxLine = 1 << 16

func cmdGTP(e *env, args []string) error {
	fs := newFlagSet("gtp", gtpUsage)
	ruleSpec := fs.String("rule", "", "the rule `SPEC` of genmove's searches, e.g. mc-rave or uct:c=0.7")
	budget := fs.Int("budget", 1000, "`N` simulations per genmove")
	size := fs.Int("size", goboard.DefaultSize, "the board `size` at the start, 5 to 19 (boardsize changes it)")
	komi := fs.Float64("komi", goboard.DefaultKomi, "the `komi` at the start (komi changes it)")
	seed := fs.Uint64("seed", 1, "the `seed` of the searches")
	if err := fs.parse(e, args); err != nil {
		return err
	}
	in, err := parseRule(*ruleSpec)
	if err != nil {
		return err
	}
	if *budget < 1 || *budget > match.MaxBudget {
		return usagef("-budget %d: want 1 to %d simulations", *budget, match.MaxBudget)
	}
	g := &gtp{player: match.Player{Name: in.Spec, Rule: in.Rule, Backup: in.Backup}, budget: *budget, seed: *seed, env: e}
	if err := g.reset(*size, *komi); err != nil {
		return usagef("-size %d -komi %v: %v", *size, *komi, err)
	}
	return g.serve(e.stdin, e.stdout)
}

// gtp is the state of a GTP session.
type gtp struct {
	env    *env
	player match.Player
	budget int
	seed   uint64
	cfg    goboard.Config
	state  *match.GoState
}

// gtpCommands are the commands gtp knows, in list_commands order.
var gtpCommands = []string{"protocol_version", "name", "version", "known_command", "list_commands", "quit",
	"boardsize", "clear_board", "komi", "play", "genmove", "showboard", "final_score", "is_legal",
	"time_settings", "time_left"}

// errQuit ends the session after the reply to quit.
var errQuit = errors.New("quit")

// reset sets the board size and komi and clears the board.
func (g *gtp) reset(size int, komi float64) error {
	cfg := goboard.Config{Size: size, Komi: komi, NoKomi: komi == 0, MaxMoves: 100 * size * size}
	st, err := match.NewGoState(cfg)
	if err != nil {
		return err
	}
	g.cfg, g.state = cfg, st
	return nil
}

// serve reads commands from r until quit or the end of the input, and
// writes the replies to w.
func (g *gtp) serve(r io.Reader, w io.Writer) error {
	br := bufio.NewReader(r)
	bw := bufio.NewWriter(w)
	for {
		line, tooLong, rerr := readLine(br)
		if rerr != nil && line == "" && !tooLong {
			if ferr := bw.Flush(); ferr != nil {
				return ferr
			}
			if errors.Is(rerr, io.EOF) {
				return nil
			}
			return rerr
		}
		id, name, args, ok := parseCommand(line)
		reply, failed := "", false
		switch {
		case tooLong:
			reply, failed = fmt.Sprintf("line too long (more than %d bytes)", gtpMaxLine), true
		case ok:
			var err error
			reply, err = g.command(name, args)
			if errors.Is(err, errQuit) {
				fmt.Fprintf(bw, "=%s\n\n", id)
				return bw.Flush()
			}
			if err != nil {
				reply, failed = err.Error(), true
			}
		}
		if ok || tooLong { // empty lines and comments get no reply
			mark := "="
			if failed {
				mark = "?"
			}
			if reply != "" {
				reply = " " + reply
			}
			fmt.Fprintf(bw, "%s%s%s\n\n", mark, id, reply)
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if rerr != nil { // the last line had no end
			if errors.Is(rerr, io.EOF) {
				return nil
			}
			return rerr
		}
	}
}

// readLine reads one line without its end. A line longer than gtpMaxLine
// is read to its end and dropped: tooLong reports it, and line is "".
func readLine(br *bufio.Reader) (line string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(b)+len(chunk) <= gtpMaxLine+2 {
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
	var b strings.Builder
	for _, r := range line {
		switch {
		case r == '#':
			goto done
		case r == '\t':
			b.WriteByte(' ')
		case r < 32 || r == 127:
		default:
			b.WriteRune(r)
		}
	}
done:
	f := strings.Fields(b.String())
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

// command runs one command and returns its reply text, or an error whose
// text is the failure's message.
func (g *gtp) command(name string, args []string) (reply string, err error) {
	defer func() {
		if p := recover(); p != nil {
			reply, err = "", fmt.Errorf("internal error: %v", p)
		}
	}()
	nargs := func(n int, form string) error {
		if len(args) != n {
			return fmt.Errorf("syntax error: want %s %s", name, form)
		}
		return nil
	}
	switch name {
	case "":
		return "", errors.New("syntax error: an id without a command")
	case "protocol_version":
		return "2", nargs(0, "")
	case "name":
		return "mctscheck", nargs(0, "")
	case "version":
		return g.version(), nargs(0, "")
	case "known_command":
		if err := nargs(1, "COMMAND"); err != nil {
			return "", err
		}
		for _, c := range gtpCommands {
			if c == args[0] {
				return "true", nil
			}
		}
		return "false", nil
	case "list_commands":
		return strings.Join(gtpCommands, "\n"), nargs(0, "")
	case "quit":
		return "", errQuit
	case "boardsize":
		if err := nargs(1, "SIZE"); err != nil {
			return "", err
		}
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return "", fmt.Errorf("syntax error: boardsize %q is not an integer", args[0])
		}
		if n < goboard.MinSize || n > goboard.MaxSize {
			return "", fmt.Errorf("unacceptable size: %d, want %d to %d", n, goboard.MinSize, goboard.MaxSize)
		}
		return "", g.reset(n, g.komi())
	case "clear_board":
		if err := nargs(0, ""); err != nil {
			return "", err
		}
		return "", g.reset(g.state.Board().Size(), g.komi())
	case "komi":
		return "", g.setKomi(args)
	case "play":
		if err := nargs(2, "COLOR VERTEX"); err != nil {
			return "", err
		}
		return "", g.play(args[0], args[1])
	case "is_legal":
		if err := nargs(2, "COLOR VERTEX"); err != nil {
			return "", err
		}
		c, err := gtpColor(args[0])
		if err != nil {
			return "", err
		}
		if _, err := goboard.ParseVertex(args[1], g.state.Board().Size()); err != nil {
			return "", fmt.Errorf("syntax error: %v", trimPkg(err))
		}
		if _, err := goboard.NewGame(g.cfg, append(g.state.Moves(), c+" "+args[1])...); err != nil {
			return "0", nil
		}
		return "1", nil
	case "genmove":
		if err := nargs(1, "COLOR"); err != nil {
			return "", err
		}
		return g.genmove(args[0])
	case "showboard":
		return "\n" + g.showboard(), nargs(0, "")
	case "final_score":
		if err := nargs(0, ""); err != nil {
			return "", err
		}
		return match.ScoreText(g.state.Board().Score()), nil
	case "time_settings", "time_left":
		return "", nil
	}
	return "", errors.New("unknown command")
}

// version is the module's version and the engine's settings.
func (g *gtp) version() string {
	v := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return fmt.Sprintf("%s (rule %s, %d simulations per move)", v, g.player.Name, g.budget)
}

// komi returns the current komi.
func (g *gtp) komi() float64 { return g.state.Board().Komi() }

// setKomi runs komi: the game goes on with the new komi.
func (g *gtp) setKomi(args []string) error {
	if len(args) != 1 {
		return errors.New("syntax error: want komi KOMI")
	}
	k, err := strconv.ParseFloat(args[0], 64)
	if err != nil || math.IsNaN(k) || math.IsInf(k, 0) {
		return fmt.Errorf("syntax error: komi %q is not a number", args[0])
	}
	cfg := g.cfg
	cfg.Komi, cfg.NoKomi = k, k == 0
	st, err := replay(cfg, g.state.Moves())
	if err != nil {
		return errors.New(trimPkg(err))
	}
	g.cfg, g.state = cfg, st
	return nil
}

// replay returns the state after moves on the empty board of cfg.
func replay(cfg goboard.Config, moves []string) (*match.GoState, error) {
	st, err := match.NewGoState(cfg)
	if err != nil {
		return nil, err
	}
	for _, mv := range moves {
		c, v, _ := strings.Cut(mv, " ")
		if err := st.PlayAs(c, v); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// gtpColor reads a GTP color and returns "b" or "w".
func gtpColor(s string) (string, error) {
	switch strings.ToLower(s) {
	case "b", "black":
		return "b", nil
	case "w", "white":
		return "w", nil
	}
	return "", fmt.Errorf("syntax error: invalid color %q, want b, black, w or white", s)
}

// play runs play COLOR VERTEX.
func (g *gtp) play(color, vertex string) error {
	c, err := gtpColor(color)
	if err != nil {
		return err
	}
	if _, err := goboard.ParseVertex(vertex, g.state.Board().Size()); err != nil {
		return fmt.Errorf("syntax error: %v", trimPkg(err))
	}
	if err := g.state.PlayAs(c, vertex); err != nil {
		return fmt.Errorf("illegal move: %v", trimPkg(err))
	}
	return nil
}

// genmove runs genmove COLOR: a search for color from the current position,
// and its most visited move played. When color is not the player to move,
// the search runs as if the other player had passed. At the end of the
// game it answers pass.
func (g *gtp) genmove(color string) (string, error) {
	c, err := gtpColor(color)
	if err != nil {
		return "", err
	}
	st := g.state
	b := st.Board()
	toMove := "b"
	if b.ToMove() == goboard.White {
		toMove = "w"
	}
	if c != toMove {
		if st, err = replay(g.cfg, append(st.Moves()[:len(st.Moves()):len(st.Moves())], toMove+" pass")); err != nil {
			return "", fmt.Errorf("internal error: %v", err)
		}
	}
	if st.Over() {
		return "pass", nil
	}
	m, err := match.Think(g.env.ctx, st, g.player, g.budget, core.MostVisited, match.GameSeed(g.seed, len(st.Moves())))
	if err != nil {
		return "", fmt.Errorf("search failed: %v", err)
	}
	v := goboard.Vertex(m, b.Size())
	if err := g.state.PlayAs(c, v); err != nil {
		return "", fmt.Errorf("internal error: the search chose %s: %v", v, err)
	}
	return v, nil
}

// showboard draws the board as GNU Go does, with the komi, the player to
// move, the moves played and how the game stands.
func (g *gtp) showboard() string {
	b := g.state.Board()
	return fmt.Sprintf("%skomi %v, %s to move, %d moves played, %s; Tromp-Taylor score %s",
		b, b.Komi(), b.ToMove(), b.MovesPlayed(), b.Status(), match.ScoreText(b.Score()))
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
