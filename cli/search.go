package cli

import (
	"errors"
	"fmt"
	"math"
	"text/tabwriter"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

const searchUsage = `Usage: mctscheck search -rule SPEC -tree TREE [-budget N] [-seed S] [flags]

Search runs one Monte-Carlo tree search with the rule on the tree and prints
the decision (the index of the root child it picks) and each root child's
statistics: n, the real simulations through it; w, the sum of their rewards;
value, the backed-up value (w/n, or the minimax value with -backup minimax);
V, its exact value. All rewards and values are for the max player. With
-checkpoints it also prints the root decision at each doubling of the budget
(1, 2, 4, ...), to watch the decision converge, or not.

Same rule, tree, budget and seed give the same output on any machine.

Examples:

  mctscheck search -rule uct -tree '(max (min 1 0) 0.5)' -budget 1000
  mctscheck search -rule greedy-fpu -tree '(max (max 0 1) 0.5)' -checkpoints
  mctscheck search -rule eps-greedy:eps=0.1 -tree @tree.txt -backup minimax -json
`

// searchDoc is the JSON document of search.
type searchDoc struct {
	Tree        string        `json:"tree"`
	Rule        string        `json:"rule"`
	Growth      string        `json:"growth"`
	Backup      string        `json:"backup"`
	DecisionBy  string        `json:"decision_rule"`
	Seed        uint64        `json:"seed"`
	Budget      int64         `json:"budget"`
	Sims        int64         `json:"sims"`
	Decision    int           `json:"decision"`
	Optimal     bool          `json:"optimal"`
	Value       *float64      `json:"value"`
	TrueValue   float64       `json:"true_value"`
	Children    []searchChild `json:"children"`
	Checkpoints []searchCkpt  `json:"checkpoints,omitempty"`
	ElapsedNS   time.Duration `json:"elapsed_ns"`
}

type searchChild struct {
	Index     int      `json:"index"`
	Move      int      `json:"move"`
	N         int64    `json:"n"`
	W         float64  `json:"w"`
	Value     *float64 `json:"value"`
	TrueValue float64  `json:"true_value"`
	Optimal   bool     `json:"optimal"`
}

type searchCkpt struct {
	Budget   int64 `json:"budget"`
	Decision int   `json:"decision"`
	Optimal  bool  `json:"optimal"`
}

func cmdSearch(e *env, args []string) error {
	fs := newFlagSet("search", searchUsage)
	ruleSpec := fs.String("rule", "", "the rule `SPEC`, e.g. uct or uct:c=0.7 (see mctscheck rules)")
	treeArg := fs.String("tree", "", "the `TREE`: text in the tree format, or @FILE (@- for stdin)")
	budget := fs.Int64("budget", 10000, "`N`, the simulations to run")
	seed := fs.Uint64("seed", 1, "the search's `seed`")
	growth, backup := engineFlags(fs)
	var decision decisionFlag
	fs.Var(&decision, "decision", "the decision rule, `most-visited|highest-mean|secure` (default most-visited)")
	checkpoints := fs.Bool("checkpoints", false, "also print the root decision at each doubling of the budget")
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	if err := fs.parse(e, args); err != nil {
		return err
	}
	in, err := parseRule(*ruleSpec)
	if err != nil {
		return err
	}
	tr, err := readTree(*treeArg, e.stdin)
	if err != nil {
		return err
	}
	if err := needChooser(tr); err != nil {
		return err
	}
	if *budget < 1 || *budget > math.MaxInt32 {
		return usagef("-budget %d: want 1 to %d simulations", *budget, math.MaxInt32)
	}
	sol := tree.Solve(tr)
	s, err := core.New(tr.Game(), in.Rule, core.Config{Seed: *seed, Growth: growth.g, Backup: backup.of(in)})
	if err != nil {
		return err
	}
	doc := searchDoc{Tree: tr.String(), Rule: in.Spec, Growth: growth.g.String(), Backup: backup.of(in).String(),
		DecisionBy: decision.d.String(), Seed: *seed, Budget: *budget, TrueValue: sol.Value(0)}
	start := time.Now()
	var marks []int64
	if *checkpoints {
		for b := int64(1); b < *budget; b *= 2 {
			marks = append(marks, b)
		}
	}
	marks = append(marks, *budget)
	for _, b := range marks {
		if err := s.Run(e.ctx, int(b-s.Sims())); err != nil {
			var re *core.RuleError
			if errors.As(err, &re) {
				fmt.Fprintf(e.stderr, "%s: search: the rule failed: %v\n", e.tool.name(), err)
				return errFault
			}
			return err
		}
		if *checkpoints {
			d := s.Decide(decision.d)
			doc.Checkpoints = append(doc.Checkpoints, searchCkpt{Budget: b, Decision: d, Optimal: d >= 0 && sol.IsOptimal(0, d)})
		}
	}
	doc.ElapsedNS = time.Since(start)
	doc.Sims = s.Sims()
	doc.Decision = s.Decide(decision.d)
	doc.Optimal = doc.Decision >= 0 && sol.IsOptimal(0, doc.Decision)
	if root, ok := s.Lookup(nil); ok {
		doc.Value = finite(root.Value)
	}
	for k := range tr.NumChildren(0) {
		c := tr.Child(0, k)
		sc := searchChild{Index: k, Move: tr.Move(c), TrueValue: sol.Value(c), Optimal: sol.IsOptimal(0, k)}
		if info, ok := s.Lookup([]int32{int32(k)}); ok {
			sc.N, sc.W, sc.Value = info.Visits, info.W, finite(info.Value)
		}
		doc.Children = append(doc.Children, sc)
	}
	if *asJSON {
		return writeJSON(e.stdout, doc)
	}
	printSearch(e, &doc)
	return nil
}

// finite returns a pointer to v, or nil when v is NaN (no simulations).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func printSearch(e *env, d *searchDoc) {
	w := e.stdout
	fmt.Fprintf(w, "tree      %s\n", d.Tree)
	fmt.Fprintf(w, "rule      %s (growth %s, backup %s, seed %d)\n", d.Rule, d.Growth, d.Backup, d.Seed)
	fmt.Fprintf(w, "budget    %d simulations in %v\n", d.Sims, d.ElapsedNS.Round(time.Microsecond))
	verdict := "optimal"
	if !d.Optimal {
		verdict = "NOT optimal"
	}
	fmt.Fprintf(w, "decision  child %d (%s), %s; root value %s, V = %s\n", d.Decision, d.DecisionBy, verdict, optNum(d.Value), num(d.TrueValue))
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "child\tmove\tn\tw\tvalue\tV\toptimal\t")
	for _, c := range d.Children {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", c.Index, c.Move, c.N, short(c.W), optNum(c.Value), num(c.TrueValue), star(c.Optimal))
	}
	tw.Flush()
	if len(d.Checkpoints) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "budget\tdecision\toptimal\t")
	for _, c := range d.Checkpoints {
		fmt.Fprintf(tw, "%d\t%d\t%s\t\n", c.Budget, c.Decision, yesNo(c.Optimal))
	}
	tw.Flush()
}

// short formats a statistic with at most 6 significant digits.
func short(v float64) string { return fmt.Sprintf("%.6g", v) }

func optNum(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.4f", *v)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
