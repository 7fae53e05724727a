package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mctscheck/mctscheck/games/connect4"
)

// gameConnect4 is Connect Four's -game name (see gameTable).
const gameConnect4 = "connect4"

// checkGameName validates the -game flag of a command form that only
// Connect Four has, such as its solver's flags.
func checkGameName(name string) error {
	if name == gameConnect4 {
		return nil
	}
	if _, err := lookupGame(name); err != nil {
		return err
	}
	return usagef("-game %q: this form of the command takes -game %s only", name, gameConnect4)
}

// gameFlagIn reports whether args give -game, so that check and solve hand
// the command line to their game form, which has flags of its own.
func gameFlagIn(args []string) bool { return flagIn(args, "game") }

// flagIn reports whether args give the flag name before any "--".
func flagIn(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && n == name {
			return true
		}
	}
	return false
}

// parseMoves parses a -moves flag, or a position of a -positions file.
func parseMoves(where, moves string) (connect4.Position, error) {
	p, err := connect4.Parse(moves)
	if err != nil {
		return p, usagef("%s: %v", where, strings.TrimPrefix(err.Error(), "connect4: "))
	}
	return p, nil
}

// gamePosition is one position to check, with where it comes from.
type gamePosition struct {
	where string // "FILE:LINE" or "-moves"
	moves string
	pos   connect4.Position
	score *int // the file's score, if it gives one
}

// readPositions reads a file of Connect Four positions in the format of
// Pons' test sets: one position a line, "MOVES SCORE" or "MOVES"; blank
// lines and lines starting with # are skipped. It reads at most limit
// positions (0: all).
func readPositions(path string, stdin io.Reader, limit int) ([]gamePosition, error) {
	var out []gamePosition
	err := readLines(path, stdin, limit, func(where, text string) error {
		gp, err := parsePositionLine(where, text)
		out = append(out, gp)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// parsePositionLine reads a line of a Connect Four -positions file:
// "MOVES SCORE" or "MOVES".
func parsePositionLine(where, text string) (gamePosition, error) {
	fields := strings.Fields(text)
	if len(fields) > 2 {
		return gamePosition{}, usagef("%s: %d fields, want MOVES or MOVES SCORE", where, len(fields))
	}
	gp := gamePosition{where: where, moves: fields[0]}
	var err error
	if gp.pos, err = parseMoves(where, fields[0]); err != nil {
		return gp, err
	}
	if len(fields) == 2 {
		sc, err := strconv.Atoi(fields[1])
		if err != nil || sc < -connect4.Cells || sc > connect4.Cells {
			return gp, usagef("%s: score %q, want an integer from -%d to %d", where, fields[1], connect4.Cells, connect4.Cells)
		}
		gp.score = &sc
	}
	return gp, nil
}

// solverError says that a solve ran out of its budget or time: never a
// value.
func solverError(err error, maxNodes int64, timeout time.Duration) error {
	switch {
	case errors.Is(err, connect4.ErrBudget):
		return fmt.Errorf("no value: the solver ran out of its budget of %d positions (-max-nodes)", maxNodes)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("no value: the solver ran out of its time (-timeout %v)", timeout)
	}
	return err
}

const solveGameUsage = `Usage: mctscheck solve -game connect4 -moves MOVES [-json]
       mctscheck solve -game connect4 -positions FILE [-analyze] [-json]

Solve with -game solves a position of a real game exactly. For Connect Four
(-game connect4), MOVES is a move string: the columns played from the empty
board, 1 to 7 from the left, first player first, as in Pascal Pons' test
sets ("4453": first player in the centre, second player on top of it, ...).
It prints the value for the player to move (1 a win, 0.5 a draw, 0 a loss),
Pons' score (0 a draw; a win scores 22 minus the stones the winner has
played when the game ends, so a faster win scores more; a loss the negative
of the opponent's), and the value and score of each legal move: the value,
for the player who makes it, of the position it leads to.

The solver is exact: a search that runs out of -max-nodes positions or of
-timeout gives no value, but an error (exit code 3).

With -positions it solves every position of FILE with one solver, as
Pons' solver does: see mctscheck solve -game connect4 -positions - -h.

Examples:

  mctscheck solve -game connect4 -moves 4453
  mctscheck solve -game connect4 -moves 2252576253462244111563365343671351441 -json
  mctscheck solve -game connect4 -moves '' -timeout 10m
`

// solveGameDoc is the JSON document of solve -game.
type solveGameDoc struct {
	Game     string             `json:"game"`
	Position string             `json:"position"`
	Stones   int                `json:"stones"`
	ToMove   string             `json:"to_move"`
	Over     bool               `json:"over"`
	Value    float64            `json:"value"`
	Score    int                `json:"score"`
	Moves    map[string]float64 `json:"moves"`
	Scores   map[string]int     `json:"scores"`
	Optimal  []int              `json:"optimal"`
	Nodes    int64              `json:"nodes"`
	Elapsed  time.Duration      `json:"elapsed_ns"`
}

// solveConnect4 runs solve -game connect4.
func solveConnect4(e *env, args []string) error {
	fs := newFlagSet("solve", solveGameUsage)
	game := fs.String("game", "", "the `GAME`: "+gameNames())
	moves := fs.String("moves", "", "the position, a move string of `MOVES` (columns 1 to 7; '' is the empty board)")
	maxNodes := fs.Int64("max-nodes", 0, "stop, with no value, after `N` positions searched (0: no bound)")
	timeout := fs.Duration("timeout", 0, "stop, with no value, after this `duration` (0: none)")
	tableBits := fs.Int("table-bits", connect4.DefaultTableBits, fmt.Sprintf("the solver's table grows to at most 2^`N` entries of 8 bytes (%d to %d)", connect4.MinTableBits, connect4.MaxTableBits))
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	if err := fs.parse(e, args); err != nil {
		return err
	}
	if err := checkGameName(*game); err != nil {
		return err
	}
	switch {
	case !fs.isSet("moves"):
		return usagef("-moves: missing; give a move string such as 4453 ('' for the empty board)")
	case *maxNodes < 0:
		return usagef("-max-nodes %d: want ≥ 0 (0: no bound)", *maxNodes)
	case *timeout < 0:
		return usagef("-timeout %v: want ≥ 0 (0: none)", *timeout)
	}
	p, err := parseMoves("-moves", *moves)
	if err != nil {
		return err
	}
	s, err := connect4.NewSolver(connect4.Config{TableBits: *tableBits, MaxNodes: *maxNodes})
	if err != nil {
		return usagef("-table-bits: %v", strings.TrimPrefix(err.Error(), "connect4: "))
	}
	ctx, cancel := withTimeout(e.ctx, *timeout)
	defer cancel()
	start := time.Now()
	doc := solveGameDoc{Game: gameConnect4, Position: p.String(), Stones: p.Stones(), ToMove: "first", Over: p.Over(),
		Moves: map[string]float64{}, Scores: map[string]int{}, Optimal: []int{}}
	if p.Stones()%2 == 1 {
		doc.ToMove = "second"
	}
	if p.Over() {
		doc.Score, err = s.Score(ctx, p)
	} else {
		var ms []connect4.ColumnScore
		ms, err = s.Moves(ctx, p)
		doc.Score = -connect4.Cells
		for _, m := range ms {
			doc.Score = max(doc.Score, m.Score)
		}
		for _, m := range ms {
			col := strconv.Itoa(m.Column + 1)
			doc.Moves[col], doc.Scores[col] = m.Value(), m.Score
			if m.Score == doc.Score {
				doc.Optimal = append(doc.Optimal, m.Column+1)
			}
		}
	}
	if err != nil {
		return solverError(err, *maxNodes, *timeout)
	}
	doc.Value, doc.Nodes, doc.Elapsed = connect4.Value(doc.Score), s.Nodes(), time.Since(start)
	if *asJSON {
		return writeJSON(e.stdout, doc)
	}
	printSolveGame(e.stdout, p, &doc)
	return nil
}

// valueWords says a value for the player to move.
func valueWords(v float64) string {
	switch v {
	case 1:
		return "a win"
	case 0:
		return "a loss"
	}
	return "a draw"
}

func printSolveGame(w io.Writer, p connect4.Position, d *solveGameDoc) {
	pos := d.Position
	if pos == "" {
		pos = "(empty board)"
	}
	fmt.Fprintf(w, "position  %s: %d stones, %s player to move\n", pos, d.Stones, d.ToMove)
	for _, row := range strings.Split(strings.TrimRight(p.Board(), "\n"), "\n") {
		fmt.Fprintf(w, "          %s\n", row)
	}
	fmt.Fprintf(w, "          1234567\n")
	if d.Over {
		fmt.Fprintf(w, "value     %s (game over): %s for the player to move, score %d\n", num(d.Value), valueWords(d.Value), d.Score)
		return
	}
	fmt.Fprintf(w, "value     %s: %s for the player to move, score %d\n", num(d.Value), valueWords(d.Value), d.Score)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "column\tvalue\tscore\toptimal")
	for c := 1; c <= connect4.Width; c++ {
		col := strconv.Itoa(c)
		if v, ok := d.Moves[col]; ok {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", col, num(v), d.Scores[col], star(d.Scores[col] == d.Score))
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "solved in %d positions, %v\n", d.Nodes, d.Elapsed.Round(time.Millisecond))
}

// withTimeout is ctx with a deadline d from now, or ctx itself for d = 0
// (no timeout); cancel releases it.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return context.WithCancel(ctx)
}
