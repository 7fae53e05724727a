package cli

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

const solveUsage = `Usage: mctscheck solve -tree TREE [-json]
       mctscheck solve -game connect4 -moves MOVES [-json]

Solve prints the exact Bellman value V of the root and of each root child of
a tree (max and min take the best child for their player, chance nodes the
expectation; values are for the max player) and the optimal set: the root
children whose value equals the root's. With -game it solves a position of
a real game instead: see mctscheck solve -game connect4 -h.

Examples:

  mctscheck solve -tree '(max (min 1 0) (chance 0.5:1 0.5:0) 0.25)'
  mctscheck solve -tree @witness.txt -json
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
		return cmdSolveGame(e, args)
	}
	fs := newFlagSet("solve", solveUsage)
	treeArg := fs.String("tree", "", "the `TREE`: text in the tree format, or @FILE (@- for stdin)")
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	if err := fs.parse(e, args); err != nil {
		return err
	}
	tr, err := readTree(*treeArg, e.stdin)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeSolveJSON(e.stdout, tr, tree.Solve(tr))
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
