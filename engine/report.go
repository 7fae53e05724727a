package engine

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteText writes the report: one row per position with its case, the
// optimal moves and their prior, and the share of optimal moves at each
// budget; then the flags, the moves the engine chose at the largest
// budget where it missed, the win rates it reported on lost positions,
// and the faults.
func (r *Report) WriteText(w io.Writer) {
	cfg := r.Config
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"position", "case", "to move", "value", "optimal", "prior"}
	for _, b := range cfg.Budgets {
		head = append(head, fmt.Sprint(b))
	}
	fmt.Fprintf(tw, "%s\n", strings.Join(head, "\t"))
	for _, pr := range r.Positions {
		p, sol := pr.Position, pr.Solution
		opt := vertices(sol.Optimal)
		if len(sol.Optimal) == len(sol.Moves) {
			opt = "all"
		}
		row := []string{p.Name, p.Case, p.ToMove.String(), outcome(sol.Value), opt, fmt.Sprintf("%.2g", pr.OptimalPrior)}
		for _, b := range cfg.Budgets {
			n, k := pr.counts(b)
			row = append(row, fmt.Sprintf("%d/%d", k, n))
		}
		fmt.Fprintf(tw, "%s\n", strings.Join(row, "\t"))
	}
	tw.Flush()
	fmt.Fprintf(w, "\n(share of optimal moves: seeds whose genmove was optimal / seeds without fault, at each budget; prior: the network's prior of the optimal moves at the root)\n")
	flagged := 0
	for _, pr := range r.Positions {
		if pr.Flag == "" {
			continue
		}
		if flagged == 0 {
			fmt.Fprintf(w, "\nFlagged positions:\n")
		}
		flagged++
		fmt.Fprintf(w, "  %s: %s; it plays %s\n", pr.Position.Name, pr.Flag, pr.chosen(cfg.Budgets[len(cfg.Budgets)-1]))
	}
	if s := r.winrates(); s != "" {
		fmt.Fprintf(w, "\nWin rates the engine reported on positions the solver proves lost (share above 90%%):\n%s", s)
	}
	if r.Faults > 0 {
		fmt.Fprintf(w, "\nFaults (%d):\n", r.Faults)
		for _, pr := range r.Positions {
			for _, t := range pr.Trials {
				if t.Fault != "" {
					fmt.Fprintf(w, "  %s, budget %d, seed %d: %s\n", pr.Position.Name, t.Budget, t.Seed, t.Fault)
				}
			}
		}
	}
	fmt.Fprintf(w, "\n%d positions, %d flagged, %d faults.\n", len(r.Positions), flagged, r.Faults)
}

func outcome(v float64) string {
	return map[float64]string{1: "win", 0: "loss", 0.5: "draw"}[v]
}

// chosen lists the moves played at budget b with their counts.
func (pr *PositionResult) chosen(b int) string {
	count := map[string]int{}
	var order []string
	for _, t := range pr.Trials {
		if t.Budget != b || t.Fault != "" {
			continue
		}
		m := t.Reply
		if t.Move >= 0 {
			m = Vertex(t.Move)
		}
		if count[m] == 0 {
			order = append(order, m)
		}
		count[m]++
	}
	slices.SortStableFunc(order, func(a, b string) int { return count[b] - count[a] })
	var s []string
	for _, m := range order {
		s = append(s, fmt.Sprintf("%s ×%d", m, count[m]))
	}
	if len(s) == 0 {
		return "nothing (every trial failed)"
	}
	return strings.Join(s, ", ") + " at " + budgetString(b)
}

// WinrateShare returns, for a position and budget, the trials whose
// reported win rate is known, those above 90%, and the mean win rate.
func (pr *PositionResult) WinrateShare(b int) (known, above int, mean float64) {
	for _, t := range pr.Trials {
		if t.Budget != b || t.Fault != "" || t.Winrate < 0 {
			continue
		}
		known++
		mean += t.Winrate
		if t.Winrate > 0.9 {
			above++
		}
	}
	if known > 0 {
		mean /= float64(known)
	}
	return
}

// winrates renders the win-rate table of lost positions, or "".
func (r *Report) winrates() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	rows := 0
	for _, pr := range r.Positions {
		if pr.Solution.Value != 0 {
			continue
		}
		row := []string{"  " + pr.Position.Name}
		any := false
		for _, bud := range r.Config.Budgets {
			n, k, mean := pr.WinrateShare(bud)
			if n > 0 {
				any = true
			}
			row = append(row, fmt.Sprintf("%d: %d/%d (mean %.0f%%)", bud, k, n, 100*mean))
		}
		if any {
			rows++
			fmt.Fprintf(tw, "%s\n", strings.Join(row, "\t"))
		}
	}
	tw.Flush()
	if rows == 0 {
		return ""
	}
	return b.String()
}

// Doc is the report as one JSON document.
type Doc struct {
	Command   string        `json:"command"`
	Budgets   []int         `json:"budgets"`
	Seeds     []int         `json:"seeds"`
	Positions []PositionDoc `json:"positions"`
	Flagged   int           `json:"flagged"`
	Faults    int           `json:"faults"`
}

// PositionDoc is one position of a Doc.
type PositionDoc struct {
	Name         string     `json:"name"`
	Case         string     `json:"case"`
	ToMove       string     `json:"to_move"`
	Value        string     `json:"value"`
	Optimal      []string   `json:"optimal"`
	Moves        []string   `json:"moves"`
	Priors       []float64  `json:"priors"`
	OptimalPrior float64    `json:"optimal_prior"`
	Trials       []TrialDoc `json:"trials"`
	Flag         string     `json:"flag,omitempty"`
}

// TrialDoc is one genmove of a PositionDoc.
type TrialDoc struct {
	Budget  int      `json:"budget"`
	Seed    int      `json:"seed"`
	Move    string   `json:"move,omitempty"`
	Optimal bool     `json:"optimal"`
	Winrate *float64 `json:"winrate,omitempty"`
	Fault   string   `json:"fault,omitempty"`
}

// Doc returns the report as a JSON document.
func (r *Report) Doc() Doc {
	d := Doc{Command: r.Config.Command, Budgets: r.Config.Budgets, Seeds: r.Config.Seeds, Faults: r.Faults}
	for _, pr := range r.Positions {
		sol := pr.Solution
		pd := PositionDoc{
			Name: pr.Position.Name, Case: pr.Position.Case, ToMove: pr.Position.ToMove.String(),
			Value: outcome(sol.Value), Priors: pr.Priors, OptimalPrior: pr.OptimalPrior, Flag: pr.Flag,
		}
		for _, m := range sol.Optimal {
			pd.Optimal = append(pd.Optimal, Vertex(m))
		}
		for _, m := range sol.Moves {
			pd.Moves = append(pd.Moves, Vertex(m))
		}
		for _, t := range pr.Trials {
			td := TrialDoc{Budget: t.Budget, Seed: t.Seed, Move: t.Reply, Optimal: t.Optimal, Fault: t.Fault}
			if t.Winrate >= 0 {
				w := t.Winrate
				td.Winrate = &w
			}
			pd.Trials = append(pd.Trials, td)
		}
		if pr.Flag != "" {
			d.Flagged++
		}
		d.Positions = append(d.Positions, pd)
	}
	return d
}
