package cli

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/connect4"
	"github.com/mctscheck/mctscheck/internal/picture"
	"github.com/mctscheck/mctscheck/tree"
)

const solveUsage = `Usage: mctscheck solve -tree TREE [-json | -dot]
       mctscheck solve -game connect4 -moves MOVES [-json]
       mctscheck solve -game connect4 -positions FILE [-analyze] [-json]

Solve prints the exact Bellman value V of the root and of each root child of
a tree (max and min take the best child for their player, chance nodes the
expectation; values are for the max player) and the optimal set: the root
children whose value equals the root's; -dot prints the tree as Graphviz
DOT instead, each node with its kind and value, optimal moves in green
(dot -Tsvg tree.dot > tree.svg draws it). With -game it solves a position of
a real game instead, or with -positions every position of a file: see
mctscheck solve -game connect4 -h.

Examples:

  mctscheck solve -tree '(max (min 1 0) (chance 0.5:1 0.5:0) 0.25)'
  mctscheck solve -tree @witness.txt -json
  mctscheck solve -tree '(max (min 1 0) (chance 0.5:1 0.5:0) 0.25)' -dot > tree.dot
`

// solveDoc is the JSON document of solve.
type solveDoc struct {
	Tree     string       `json:"tree"`
	Kind     string       `json:"kind"`
	Value    float64      `json:"value"`
	Children []solveChild `json:"children"`
	Optimal  []int        `json:"optimal"`
}

type solveChild struct {
	Index   int      `json:"index"`
	Move    int      `json:"move"`
	Kind    string   `json:"kind"`
	Prob    *float64 `json:"prob,omitempty"`
	Prior   *float64 `json:"prior,omitempty"`
	Value   float64  `json:"value"`
	Optimal bool     `json:"optimal"`
}

func cmdSolve(e *env, args []string) error {
	if gameFlagIn(args) {
		if flagGiven(args, "positions") {
			return cmdSolvePositions(e, args)
		}
		return cmdSolveGame(e, args)
	}
	fs := newFlagSet("solve", solveUsage)
	treeArg := fs.String("tree", "", "the `TREE`: text in the tree format, or @FILE (@- for stdin)")
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	asDOT := fs.Bool("dot", false, "print the tree as Graphviz DOT instead of text: kinds, values, optimal moves (dot -Tsvg draws it)")
	if err := fs.parse(e, args); err != nil {
		return err
	}
	if *asJSON && *asDOT {
		return usagef("-json, -dot: give one of them")
	}
	tr, err := readTree(*treeArg, e.stdin)
	if err != nil {
		return err
	}
	switch {
	case *asJSON:
		return writeSolveJSON(e.stdout, tr, tree.Solve(tr))
	case *asDOT:
		return picture.Of(tr, nil, nil).WriteDOT(e.stdout, "tree", "")
	}
	doc := solveTree(tr)
	fmt.Fprintf(e.stdout, "tree     %s\n", doc.Tree)
	fmt.Fprintf(e.stdout, "root     %s node, V = %s\n", doc.Kind, num(doc.Value))
	if len(doc.Children) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	if doc.Kind == "chance" {
		fmt.Fprintln(tw, "child\tmove\tkind\tprob\tV")
		for _, c := range doc.Children {
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\n", c.Index, c.Move, c.Kind, num(*c.Prob), num(c.Value))
		}
	} else {
		fmt.Fprintln(tw, "child\tmove\tkind\tV\toptimal")
		for _, c := range doc.Children {
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\n", c.Index, c.Move, c.Kind, num(c.Value), star(c.Optimal))
		}
	}
	tw.Flush()
	if doc.Kind == "chance" {
		fmt.Fprintln(e.stdout, "optimal  none: no one chooses at a chance root")
		return nil
	}
	fmt.Fprintf(e.stdout, "optimal  %s\n", childList(doc.Optimal))
	return nil
}

// solveTree solves t and describes its root.
func solveTree(t *tree.Tree) solveDoc {
	sol := tree.Solve(t)
	doc := solveDoc{Tree: t.String(), Kind: kindName(t.Kind(0)), Value: sol.Value(0), Children: []solveChild{}, Optimal: []int{}}
	for k := range t.NumChildren(0) {
		doc.Children = append(doc.Children, rootChild(t, sol, k))
	}
	for _, k := range sol.Optimal(0) {
		doc.Optimal = append(doc.Optimal, int(k))
	}
	return doc
}

// rootChild describes the root's child k.
func rootChild(t *tree.Tree, sol *tree.Solution, k int) solveChild {
	c := t.Child(0, k)
	sc := solveChild{Index: k, Move: t.Move(c), Kind: kindName(t.Kind(c)), Value: sol.Value(c), Optimal: sol.IsOptimal(0, k)}
	if t.Kind(0) == core.Chance {
		p := t.Prob(c)
		sc.Prob = &p
	}
	if h, ok := t.Prior(c); ok {
		sc.Prior = &h
	}
	return sc
}

// num formats a value in the shortest form that reads back exactly.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func star(b bool) string {
	if b {
		return "*"
	}
	return ""
}

// childList writes "child 1" or "children 0, 2".
func childList(ks []int) string {
	if len(ks) == 1 {
		return fmt.Sprintf("child %d", ks[0])
	}
	var s []string
	for _, k := range ks {
		s = append(s, strconv.Itoa(k))
	}
	return "children " + strings.Join(s, ", ")
}

// flagGiven reports whether args give the flag name before any "--".
func flagGiven(args []string, name string) bool {
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

const solvePositionsUsage = `Usage: mctscheck solve -game connect4 -positions FILE [-analyze] [-json] [flags]

Solve with -positions solves every position of FILE (- for stdin), one a
line as in Pascal Pons' test sets: "MOVES SCORE" or "MOVES"; blank lines
and lines starting with # are skipped. One solver serves the whole file:
its transposition table starts at 512 KiB, grows with the work up to
2^-table-bits entries of 8 bytes, and keeps what it learnt from one
position to the next, as Pons' solver does with the positions it reads.

It prints one line per position: "MOVES SCORE" as Pons' solver prints it,
or with -analyze "MOVES" and the score of each column 1 to 7 ("x" for a
full column), as his -a. Scores are Pons': for the player to move, 0 a
draw, a win 22 minus the stones the winner has played when the game ends.
A last line, starting with "#" so that the output reads back as a
positions file, gives the positions, nodes, time and table size. A score
that differs from the one FILE gives is a finding: each is reported on
standard error, and the exit code is 1.

With -json it prints one document instead: "positions", each with
"position", "score", "scores" (with -analyze: column to score),
"expected" (FILE's score, if given), "nodes" and "elapsed_ns"; then
"count", "nodes", "elapsed_ns", "table_bytes", "max_table_bytes" and
"disagreements".

-max-nodes bounds each position's search; -timeout the whole file. Either
running out gives no value but an error (exit code 3).

Examples:

  mctscheck solve -game connect4 -positions games/connect4/testdata/Test_L2_R2
  mctscheck solve -game connect4 -positions - -analyze < positions.txt
`

// solvePositionsDoc is the JSON document of solve -positions.
type solvePositionsDoc struct {
	Game          string           `json:"game"`
	File          string           `json:"positions_file"`
	Analyze       bool             `json:"analyze"`
	Positions     []solvedPosition `json:"positions"`
	Count         int              `json:"count"`
	Nodes         int64            `json:"nodes"`
	Elapsed       time.Duration    `json:"elapsed_ns"`
	TableBytes    int              `json:"table_bytes"`
	MaxTableBytes int              `json:"max_table_bytes"`
	Disagreements int              `json:"disagreements"`
}

// solvedPosition is one position of solve -positions.
type solvedPosition struct {
	Position string         `json:"position"`
	Score    int            `json:"score"`
	Scores   map[string]int `json:"scores,omitempty"`
	Expected *int           `json:"expected,omitempty"`
	Nodes    int64          `json:"nodes"`
	Elapsed  time.Duration  `json:"elapsed_ns"`
}

// cmdSolvePositions is solve -game connect4 -positions FILE.
func cmdSolvePositions(e *env, args []string) error {
	fs := newFlagSet("solve", solvePositionsUsage)
	game := fs.String("game", "", "the `GAME`: connect4")
	file := fs.String("positions", "", "solve the positions of `FILE`, one a line (- for stdin)")
	analyze := fs.Bool("analyze", false, "print the score of every column, not only the position's")
	maxNodes := fs.Int64("max-nodes", 0, "stop, with no value, after `N` positions searched for one position (0: no bound)")
	timeout := fs.Duration("timeout", 0, "stop, with no value, after this `duration` for the whole file (0: none)")
	tableBits := fs.Int("table-bits", connect4.DefaultTableBits, fmt.Sprintf("the solver's table grows to at most 2^`N` entries of 8 bytes (%d to %d; Pons' solver has 2^%d)", connect4.MinTableBits, connect4.MaxTableBits, connect4.DefaultTableBits))
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	if err := fs.parse(e, args); err != nil {
		return err
	}
	if err := checkGameName(*game); err != nil {
		return err
	}
	switch {
	case *file == "":
		return usagef("-positions: missing; give a file, or - for stdin")
	case *maxNodes < 0:
		return usagef("-max-nodes %d: want ≥ 0 (0: no bound)", *maxNodes)
	case *timeout < 0:
		return usagef("-timeout %v: want ≥ 0 (0: none)", *timeout)
	}
	s, err := connect4.NewSolver(connect4.Config{TableBits: *tableBits, MaxNodes: *maxNodes})
	if err != nil {
		return usagef("-table-bits: %v", strings.TrimPrefix(err.Error(), "connect4: "))
	}
	positions, err := readPositions(*file, e.stdin, 0)
	if err != nil {
		return err
	}
	ctx, cancel := withTimeout(e.ctx, *timeout)
	defer cancel()
	doc := solvePositionsDoc{Game: gameConnect4, File: *file, Analyze: *analyze, Positions: []solvedPosition{}}
	w := bufio.NewWriterSize(e.stdout, 1<<16)
	start := time.Now()
	for _, gp := range positions {
		sp, err := solvePosition(ctx, s, gp, *analyze)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", gp.where, gp.moves, solverError(err, *maxNodes, *timeout))
		}
		doc.Count++
		doc.Nodes += sp.Nodes
		if sp.Expected != nil && *sp.Expected != sp.Score {
			doc.Disagreements++
			fmt.Fprintf(e.stderr, "%s: %s: score %d, the file says %d\n", gp.where, gp.moves, sp.Score, *sp.Expected)
		}
		if *asJSON {
			doc.Positions = append(doc.Positions, sp)
			continue
		}
		w.WriteString(gp.moves)
		if *analyze {
			for c := 1; c <= connect4.Width; c++ {
				if v, ok := sp.Scores[strconv.Itoa(c)]; ok {
					fmt.Fprintf(w, " %d", v)
				} else {
					w.WriteString(" x")
				}
			}
		} else {
			fmt.Fprintf(w, " %d", sp.Score)
		}
		w.WriteByte('\n')
	}
	doc.Elapsed = time.Since(start)
	doc.TableBytes, doc.MaxTableBytes = s.TableBytes(), s.MaxTableBytes()
	if *asJSON {
		if err := writeJSON(w, doc); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "# %d positions, %d nodes (%.0f a position), %v (%v a position); table %s of at most %s\n",
			doc.Count, doc.Nodes, float64(doc.Nodes)/float64(doc.Count), doc.Elapsed.Round(time.Microsecond),
			(doc.Elapsed / time.Duration(doc.Count)).Round(100*time.Nanosecond), byteSize(doc.TableBytes), byteSize(doc.MaxTableBytes))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if doc.Disagreements > 0 {
		fmt.Fprintf(e.stderr, "mctscheck: solve: %d of %d scores differ from %s's\n", doc.Disagreements, doc.Count, *file)
		return errFinding
	}
	return nil
}

// solvePosition solves one position of a -positions file: its score, and
// with analyze the score of each move.
func solvePosition(ctx context.Context, s *connect4.Solver, gp gamePosition, analyze bool) (solvedPosition, error) {
	sp := solvedPosition{Position: gp.moves, Expected: gp.score}
	t0 := time.Now()
	if !analyze || gp.pos.Over() {
		score, err := s.Score(ctx, gp.pos)
		if err != nil {
			return sp, err
		}
		sp.Score = score
		if analyze {
			sp.Scores = map[string]int{}
		}
	} else {
		ms, err := s.Moves(ctx, gp.pos)
		if err != nil {
			return sp, err
		}
		sp.Score, sp.Scores = -connect4.Cells, map[string]int{}
		for _, m := range ms {
			sp.Score = max(sp.Score, m.Score)
			sp.Scores[strconv.Itoa(m.Column+1)] = m.Score
		}
	}
	sp.Nodes, sp.Elapsed = s.Nodes(), time.Since(t0)
	return sp, nil
}

// byteSize writes a size in bytes in KiB, MiB or GiB.
func byteSize(n int) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
