package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/connect4"
	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/match"
	"github.com/mctscheck/mctscheck/props"
)

// gameTable is the one table of the games that -game names, which check,
// solve and match read. A game is added here: its entry parses its -game
// value into a gameSpec, which says how the three commands play, solve and
// check it.
var gameTable = []struct {
	prefix string // the -game value, or its start for a family of games
	syntax string // how -game writes it
	about  string
	parse  func(name string) (gameSpec, error) // name starts with prefix
}{
	{gameConnect4, gameConnect4, "Connect Four, 7 columns × 6 rows; positions are move strings of columns 1 to 7 (\"4453\"); exact solver", parseConnect4Name},
	{"go", "goN[:komi=K,cap=M]", "Go on N×N (N 5 to 19; go9 is 9×9), area scoring, komi K (default 7.5), the game ending at two passes or " +
		"M moves after its start position (default 3·N² from the empty board); positions are vertices from the empty board " +
		"(\"C3,D3,pass\"); exact values by alpha-beta for small endgames (give a cap)", parseGoName},
}

// gameSpec is a game that -game names, with its settings.
type gameSpec interface {
	// name is its -game value, as documents and replay lines write it.
	name() string
	// forMatch returns the game as match plays it.
	forMatch() (match.Game, error)
	// position reads a position: a -moves value, or a line of a
	// -positions file (where says which).
	position(where, text string, line bool) (checkedPosition, error)
	// maxNodes is check's default budget of the exact oracle, positions
	// per value.
	maxNodes() int64
	// binary reports whether the game's rewards are 0 and 1 only, as the
	// papers' binary deterministic games.
	binary() bool
	// solve runs solve -game with the command line args.
	solve(e *env, args []string) error
}

// checkedPosition is a position that check -game judges.
type checkedPosition struct {
	where string // "FILE:LINE" or "-moves"
	moves string // the position as -moves writes it
	over  bool   // the game has ended there
	// open returns a fresh game at the position and its exact oracle, with
	// a budget of maxNodes positions per value.
	open func(maxNodes int64) (core.Game, props.Oracle, error)
	// verify checks the report against what the file said of the
	// position; nil if it said nothing.
	verify func(rep *props.Report) error
}

// gameNames lists the -game syntaxes, for flags' help.
func gameNames() string {
	var s []string
	for _, g := range gameTable {
		s = append(s, g.syntax)
	}
	return strings.Join(s, ", ")
}

// lookupGame returns the game that a -game value names.
func lookupGame(name string) (gameSpec, error) {
	for _, g := range gameTable {
		rest, ok := strings.CutPrefix(name, g.prefix)
		if !ok || startsWithLetter(rest) { // "gomoku" is not a Go
			continue
		}
		spec, err := g.parse(name)
		if err != nil {
			return nil, usagef("-game %q: %v (games: %s)", name, err, gameNames())
		}
		return spec, nil
	}
	return nil, usagef("-game %q: unknown game (games: %s)", name, gameNames())
}

// startsWithLetter reports whether s starts with a letter.
func startsWithLetter(s string) bool {
	return s != "" && ('a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z')
}

// readLines calls each with every position line of a -positions file
// (path, or stdin for "-"), and where it is ("-positions: FILE:LINE"),
// up to limit positions (0: all). Blank lines and lines starting with #
// are skipped.
func readLines(path string, stdin io.Reader, limit int, each func(where, text string) error) error {
	var r io.Reader = stdin
	name := "stdin"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return usagef("-positions: %v", err)
		}
		defer f.Close()
		r, name = f, path
	}
	n := 0
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if err := each(fmt.Sprintf("-positions: %s:%d", name, line), text); err != nil {
			return err
		}
		if n++; limit > 0 && n == limit {
			break
		}
	}
	if err := sc.Err(); err != nil {
		return usagef("-positions: %s: %v", name, err)
	}
	if n == 0 {
		return usagef("-positions: %s: no positions", name)
	}
	return nil
}

// readCheckedPositions reads the positions of a -positions file of game g
// for check -game.
func readCheckedPositions(g gameSpec, path string, stdin io.Reader, limit int) ([]checkedPosition, error) {
	var out []checkedPosition
	err := readLines(path, stdin, limit, func(where, text string) error {
		cp, err := g.position(where, text, true)
		out = append(out, cp)
		return err
	})
	return out, err
}

// gameFlagValue returns the value of -game in args, or "".
func gameFlagValue(args []string) string {
	for i, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case name != "game":
		case eq:
			return value
		case i+1 < len(args):
			return args[i+1]
		}
	}
	return ""
}

// cmdSolveGame runs solve -game: the game's own solve.
func cmdSolveGame(e *env, args []string) error {
	name := gameFlagValue(args)
	if name == "" {
		// Let the flags of a game's solve say what is wrong (-h, a missing
		// value).
		return solveConnect4(e, args)
	}
	g, err := lookupGame(name)
	if err != nil {
		return err
	}
	return g.solve(e, args)
}

// connect4Spec is Connect Four. Its positions share one solver table.
type connect4Spec struct {
	base     *connect4.Oracle
	baseSize int64
}

func parseConnect4Name(name string) (gameSpec, error) {
	if name != gameConnect4 {
		return nil, fmt.Errorf("unknown game")
	}
	return &connect4Spec{}, nil
}

func (*connect4Spec) name() string                      { return gameConnect4 }
func (*connect4Spec) forMatch() (match.Game, error)     { return match.ConnectFour(), nil }
func (*connect4Spec) maxNodes() int64                   { return 100_000_000 }
func (*connect4Spec) binary() bool                      { return false } // draws
func (*connect4Spec) solve(e *env, args []string) error { return solveConnect4(e, args) }

func (c *connect4Spec) position(where, text string, line bool) (checkedPosition, error) {
	var gp gamePosition
	if line {
		var err error
		if gp, err = parsePositionLine(where, text); err != nil {
			return checkedPosition{}, err
		}
	} else {
		p, err := parseMoves(where, text)
		if err != nil {
			return checkedPosition{}, err
		}
		gp = gamePosition{where: where, moves: text, pos: p}
	}
	return checkedPosition{where: gp.where, moves: gp.moves, over: gp.pos.Over(),
		open: func(maxNodes int64) (core.Game, props.Oracle, error) {
			if c.base == nil || c.baseSize != maxNodes {
				base, err := connect4.NewOracle(connect4.Position{}, connect4.Config{MaxNodes: maxNodes})
				if err != nil {
					return nil, nil, err
				}
				c.base, c.baseSize = base, maxNodes
			}
			return connect4.NewGame(gp.pos), c.base.From(gp.pos), nil
		},
		verify: func(rep *props.Report) error { return checkScore(gp, rep) },
	}, nil
}

// checkScore checks a file's score against the solver's value.
func checkScore(gp gamePosition, rep *props.Report) error {
	if gp.score == nil || connect4.Value(*gp.score) == rep.Value {
		return nil
	}
	return usagef("%s: score %d says %s for the player to move, the solver %s", gp.where, *gp.score,
		valueWords(connect4.Value(*gp.score)), valueWords(rep.Value))
}

// goSpec is Go on a board of cfg; cap, if not 0, ends a game cap moves
// after its start position.
type goSpec struct {
	cfg goboard.Config
	cap int
}

// parseGoName reads goN[:komi=K,cap=M].
func parseGoName(name string) (gameSpec, error) {
	head, params, hasParams := strings.Cut(name, ":")
	n, err := strconv.Atoi(strings.TrimPrefix(head, "go"))
	if err != nil || strings.TrimPrefix(head, "go") != strconv.Itoa(n) {
		return nil, fmt.Errorf("want goN with N from %d to %d, e.g. go9", goboard.MinSize, goboard.MaxSize)
	}
	g := &goSpec{cfg: goboard.Config{Size: n}}
	if n < goboard.MinSize || n > goboard.MaxSize {
		return nil, fmt.Errorf("board size %d, want %d to %d", n, goboard.MinSize, goboard.MaxSize)
	}
	if hasParams {
		seen := map[string]bool{}
		for _, kv := range strings.Split(params, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || seen[k] {
				return nil, fmt.Errorf("%q: want komi=K and cap=M, each at most once", kv)
			}
			seen[k] = true
			switch k {
			case "komi":
				komi, err := strconv.ParseFloat(v, 64)
				if err != nil || math.IsInf(komi, 0) || math.IsNaN(komi) {
					return nil, fmt.Errorf("komi %q is not a number", v)
				}
				g.cfg.Komi, g.cfg.NoKomi = komi, komi == 0
			case "cap":
				c, err := strconv.Atoi(v)
				if err != nil || c < 1 || c > 100*n*n {
					return nil, fmt.Errorf("cap %q: want 1 to %d moves", v, 100*n*n)
				}
				g.cap = c
			default:
				return nil, fmt.Errorf("unknown parameter %q (komi, cap)", k)
			}
		}
	}
	if _, err := goboard.NewBoard(g.withCap(0)); err != nil {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "goboard: "))
	}
	return g, nil
}

// withCap returns the board's configuration for a start position after
// played moves.
func (g *goSpec) withCap(played int) goboard.Config {
	cfg := g.cfg
	if g.cap > 0 {
		cfg.MaxMoves = played + g.cap
	}
	return cfg
}

func (g *goSpec) name() string {
	var params []string
	if g.cfg.Komi != 0 || g.cfg.NoKomi {
		params = append(params, "komi="+strconv.FormatFloat(g.cfg.Komi, 'f', -1, 64))
	}
	if g.cap > 0 {
		params = append(params, "cap="+strconv.Itoa(g.cap))
	}
	name := fmt.Sprintf("go%d", g.cfg.Size)
	if len(params) > 0 {
		name += ":" + strings.Join(params, ",")
	}
	return name
}

func (g *goSpec) forMatch() (match.Game, error) { return match.Go(g.withCap(0)) }
func (g *goSpec) maxNodes() int64               { return 1 << 22 }

// binary: a komi with a half point leaves no draw.
func (g *goSpec) binary() bool {
	cfg := g.cfg
	return !cfg.NoKomi && cfg.Komi != math.Trunc(cfg.Komi) || cfg.Komi == 0 && !cfg.NoKomi
}

// goMoves reads a Go position: vertices from the empty board, separated by
// commas or spaces, alternately Black's and White's ("pass" to skip).
func goMoves(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
}

func (g *goSpec) position(where, text string, _ bool) (checkedPosition, error) {
	moves := goMoves(text)
	cfg := g.withCap(len(moves))
	game, err := goboard.NewGame(cfg, moves...)
	if err != nil {
		return checkedPosition{}, usagef("%s: %s", where, strings.TrimPrefix(err.Error(), "goboard: "))
	}
	var norm []string // "c3" as "C3": NewGame has read every vertex
	for _, mv := range moves {
		m, _ := goboard.ParseVertex(mv, g.cfg.Size)
		norm = append(norm, goboard.Vertex(m, g.cfg.Size))
	}
	return checkedPosition{where: where, moves: strings.Join(norm, ","), over: game.Kind() == core.Terminal,
		open: func(maxNodes int64) (core.Game, props.Oracle, error) {
			game, err := goboard.NewGame(cfg, moves...)
			if err != nil {
				return nil, nil, err
			}
			o, err := goboard.NewOracle(cfg, moves, maxNodes)
			return game, o, err
		},
	}, nil
}

const solveGoUsage = `Usage: mctscheck solve -game goN[:komi=K,cap=M] -moves MOVES [-max-nodes N] [-timeout D] [-json]

Solve with -game goN values a Go position exactly by alpha-beta to the end
of the game (two passes or the cap), under the rules of the search: area
scoring with komi, positional superko, eye fills not listed. MOVES are
vertices from the empty board, separated by commas or spaces, Black first
and the colors alternating ("C3,D3,pass"). It prints the value for the
player to move (1 a win, 0.5 a draw, 0 a loss) and the value of each listed
move for the player who makes it. Without a cap, only a board nearly full
is within reach; with cap=M the game ends M moves after the position.

A search that runs out of -max-nodes positions (per value) or of -timeout
gives no value, but an error (exit code 3).

Examples:

  mctscheck solve -game go5:komi=0.5,cap=6 -moves C3,C2,B3,D3,B2,D2,C4,B1,A2,C1
`

// solveGoDoc is the JSON document of solve -game goN.
type solveGoDoc struct {
	Game     string             `json:"game"`
	Position string             `json:"position"`
	ToMove   string             `json:"to_move"`
	Over     bool               `json:"over"`
	Value    float64            `json:"value"`
	Moves    map[string]float64 `json:"moves"`
	Optimal  []string           `json:"optimal"`
	Elapsed  time.Duration      `json:"elapsed_ns"`
}

func (g *goSpec) solve(e *env, args []string) error {
	fs := newFlagSet("solve", solveGoUsage)
	fs.String("game", "", "the `GAME`: "+gameNames())
	movesFlag := fs.String("moves", "", "the position, `MOVES` from the empty board ('' is the empty board)")
	maxNodes := fs.Int64("max-nodes", g.maxNodes(), "give no value beyond `N` positions searched per value")
	timeout := fs.Duration("timeout", 0, "stop, with no value, after this `duration` (0: none)")
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	if err := fs.parse(e, args); err != nil {
		return err
	}
	switch {
	case !fs.isSet("moves"):
		return usagef("-moves: missing; give vertices such as C3,D3 ('' for the empty board)")
	case *maxNodes < 1:
		return usagef("-max-nodes %d: want ≥ 1", *maxNodes)
	case *timeout < 0:
		return usagef("-timeout %v: want ≥ 0 (0: none)", *timeout)
	}
	pos, err := g.position("-moves", *movesFlag, false)
	if err != nil {
		return err
	}
	ctx, cancel := withTimeout(e.ctx, *timeout)
	defer cancel()
	start := time.Now()
	game, oracle, err := pos.open(*maxNodes)
	if err != nil {
		return err
	}
	gg := game.(*goboard.Game)
	b := gg.Board()
	doc := solveGoDoc{Game: g.name(), Position: pos.moves, ToMove: b.ToMove().String(), Over: pos.over,
		Moves: map[string]float64{}, Optimal: []string{}}
	// forMover turns a value for Black into one for the player to move.
	forMover := func(v float64) float64 {
		if b.ToMove() == goboard.White {
			return 1 - v
		}
		return v
	}
	value := func(path []int32) (float64, error) {
		v, ok, err := oracle.Value(ctx, path)
		switch {
		case err == context.DeadlineExceeded:
			return 0, fmt.Errorf("no value: the search ran out of its time (-timeout %v)", *timeout)
		case err != nil:
			return 0, err
		case !ok:
			return 0, fmt.Errorf("no value: the search ran out of its budget of %d positions (-max-nodes)", *maxNodes)
		}
		return forMover(v), nil
	}
	if doc.Value, err = value(nil); err != nil {
		return err
	}
	for i := range game.NumMoves() {
		v, err := value([]int32{int32(i)})
		if err != nil {
			return err
		}
		vertex := goboard.Vertex(gg.Move(i), b.Size())
		doc.Moves[vertex] = v
		if v == doc.Value {
			doc.Optimal = append(doc.Optimal, vertex)
		}
	}
	doc.Elapsed = time.Since(start)
	if *asJSON {
		return writeJSON(e.stdout, doc)
	}
	printSolveGo(e.stdout, b, gg, &doc)
	return nil
}

func printSolveGo(w io.Writer, b *goboard.Board, g *goboard.Game, d *solveGoDoc) {
	pos := d.Position
	if pos == "" {
		pos = "(empty board)"
	}
	fmt.Fprintf(w, "position  %s on %s: %s to move\n", pos, d.Game, d.ToMove)
	for _, row := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		fmt.Fprintf(w, "          %s\n", row)
	}
	over := ""
	if d.Over {
		over = " (game over)"
	}
	fmt.Fprintf(w, "value     %s%s: %s for the player to move\n", num(d.Value), over, valueWords(d.Value))
	if d.Over {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "move\tvalue\toptimal")
	for i := range g.NumMoves() {
		v := goboard.Vertex(g.Move(i), b.Size())
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v, num(d.Moves[v]), star(d.Moves[v] == d.Value))
	}
	tw.Flush()
	fmt.Fprintf(w, "solved in %v\n", d.Elapsed.Round(time.Millisecond))
}
