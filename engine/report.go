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
// budget; then the flags, each with the moves the engine chose at the
// largest budget where it missed and why it missed them (the root visits
// of the optimal moves, where the engine reports them), the win rates it
// reported on lost positions, and the faults, alike ones counted on one
// line.
func (r *Report) WriteText(w io.Writer) {
	cfg := r.Config
	if r.Stopped != "" {
		fmt.Fprintf(w, "Stopped after %d of %d trials: %s.\n", r.Done, r.Total, r.Stopped)
		// The faults follow, alike ones on one line.
		r.writeFaults(w)
		return
	}
	if r.Interrupted {
		fmt.Fprintf(w, "Interrupted after %d of %d trials: the rows below hold the trials that finished.\n\n", r.Done, r.Total)
	}
	ownNetwork := strings.Contains(cfg.Command, "{network}")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	priorHead := "prior"
	if !ownNetwork {
		priorHead = "file's prior"
	}
	head := []string{"position", "case", "to move", "value", "optimal", priorHead}
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
			row = append(row, pr.Cell(b))
		}
		fmt.Fprintf(tw, "%s\n", strings.Join(row, "\t"))
	}
	tw.Flush()
	fmt.Fprintf(w, "\n(share of optimal moves: seeds whose genmove was optimal / seeds without fault, at each budget; fault: every trial faulted; –: not run; ")
	if ownNetwork {
		fmt.Fprintf(w, "prior: the network's prior of the optimal moves at the root)\n")
	} else {
		fmt.Fprintf(w, "file's prior: the prior the positions file gives the optimal moves, which this engine does not use: its command has no {network})\n")
	}
	flagged := 0
	for _, pr := range r.Positions {
		if pr.Flag == "" {
			continue
		}
		if flagged == 0 {
			fmt.Fprintf(w, "\nFlagged positions:\n")
		}
		flagged++
		last := pr.lastBudget()
		fmt.Fprintf(w, "  %s: %s; it plays %s\n", pr.Position.Name, pr.Flag, pr.chosen(last))
		fmt.Fprintf(w, "    why: %s\n", pr.Why(last))
	}
	if s := r.conclusions(); s != "" {
		fmt.Fprintf(w, "\nWhat the reasons mean (from the root visits the engine reported at the largest budget):\n%s", s)
	}
	if s := r.winrates(); s != "" {
		fmt.Fprintf(w, "\nWin rates the engine reported on positions the solver proves lost (share above 90%%):\n%s", s)
	}
	r.writeFaults(w)
	fmt.Fprintf(w, "\n%d %s, %d flagged, %d %s.\n", len(r.Positions), plural(len(r.Positions), "position"), flagged, r.Faults, plural(r.Faults, "fault"))
}

// writeFaults lists the faults, those with the same message on one line
// with their count and the first trial that had it.
func (r *Report) writeFaults(w io.Writer) {
	if r.Faults == 0 {
		return
	}
	type group struct {
		first string
		n     int
	}
	groups := map[string]*group{}
	var order []string
	for _, pr := range r.Positions {
		for _, t := range pr.Trials {
			if t.Fault == "" {
				continue
			}
			g := groups[t.Fault]
			if g == nil {
				g = &group{first: fmt.Sprintf("%s, budget %d, seed %d", pr.Position.Name, t.Budget, t.Seed)}
				groups[t.Fault] = g
				order = append(order, t.Fault)
			}
			g.n++
		}
	}
	fmt.Fprintf(w, "\nFaults (%d):\n", r.Faults)
	for _, f := range order {
		g := groups[f]
		if g.n == 1 {
			fmt.Fprintf(w, "  %s: %s\n", g.first, f)
		} else {
			fmt.Fprintf(w, "  %d trials, the first %s: %s\n", g.n, g.first, f)
		}
	}
	if h := r.BudgetHint(); h != "" {
		fmt.Fprintf(w, "  (%s)\n", h)
	}
}

// lastBudget is the largest budget at which a trial of the position did
// not fault, or 0.
func (pr *PositionResult) lastBudget() int {
	last := 0
	for _, t := range pr.Trials {
		if t.Fault == "" {
			last = max(last, t.Budget)
		}
	}
	return last
}

// misses is what the engine reported of the optimal moves in the trials
// at one budget that missed them.
type misses struct {
	missed int     // trials without fault that missed
	known  int     // of which the engine reported root visits
	never  int     // of which the optimal moves had 0 root visits
	visits int     // the optimal moves' root visits, summed over known
	total  int     // all root visits, summed over known
	prior  float64 // the engine's prior for the optimal moves, or -1
	// amafTrials count the missed trials with an AMAF value for the
	// optimal moves; amaf and amafPlayouts sum their values and playouts.
	amafTrials, amafPlayouts int
	amaf                     float64
}

func (pr *PositionResult) misses(b int) misses {
	m := misses{prior: -1}
	for _, t := range pr.Trials {
		if t.Budget != b || t.Fault != "" || t.Optimal {
			continue
		}
		m.missed++
		if t.OptimalVisits < 0 {
			continue
		}
		m.known++
		m.visits += t.OptimalVisits
		m.total += t.Visits
		if t.OptimalVisits == 0 {
			m.never++
		}
		if t.EnginePrior >= 0 {
			m.prior = t.EnginePrior
		}
		if t.OptimalAMAFPlayouts > 0 {
			m.amafTrials++
			m.amaf += t.OptimalAMAF
			m.amafPlayouts += t.OptimalAMAFPlayouts
		}
	}
	return m
}

// amafNote says what the engine reported of the optimal moves' AMAF value
// in the missed trials, or "".
func (m misses) amafNote() string {
	if m.amafTrials == 0 {
		return ""
	}
	return fmt.Sprintf("; its AMAF (RAVE) value, from the playouts that played it at a later turn, %.2f over %d playouts (mean of %d %s)",
		m.amaf/float64(m.amafTrials), m.amafPlayouts/m.amafTrials, m.amafTrials, plural(m.amafTrials, "missed trial"))
}

// Why says why the engine missed the optimal moves at budget b, from the
// root visits it reported for them in the trials that missed: never tried
// (0 visits), or tried and valued lower.
func (pr *PositionResult) Why(b int) string {
	moves := "the optimal moves"
	if len(pr.Solution.Optimal) == 1 {
		moves = Vertex(pr.Solution.Optimal[0])
	}
	m := pr.misses(b)
	at := budgetString(b)
	prior := ""
	if m.prior >= 0 {
		prior = fmt.Sprintf("; the engine's prior for it %.2g", m.prior)
	}
	switch {
	case m.missed == 0:
		return fmt.Sprintf("every trial at %s found %s", at, moves)
	case m.known == 0:
		return "unknown: the engine reported no root visits (Leela Zero lists them on stderr unless run with -q; Pachi with -d 4 and dumpthres=-1)"
	case m.never == m.known:
		return fmt.Sprintf("never tried: %s had 0 of %d root visits in %s of the %d missed trials at %s%s",
			moves, m.total/m.known, each(m.never, m.missed), m.missed, at, m.amafNote())
	case m.never == 0:
		return fmt.Sprintf("tried, valued lower: %s had %d of %d root visits (mean of the %d missed %s at %s%s)%s",
			moves, m.visits/m.known, m.total/m.known, m.known, plural(m.known, "trial"), at, prior, m.amafNote())
	}
	return fmt.Sprintf("never tried in %d of the %d missed trials at %s (0 root visits), tried and valued lower in the other %d (%s had %d of %d root visits on average)%s",
		m.never, m.missed, at, m.known-m.never, moves, m.visits/(m.known-m.never), m.total/m.known, m.amafNote())
}

// each writes "each" when n is all, else "n".
func each(n, all int) string {
	if n == all {
		return "each"
	}
	return fmt.Sprint(n)
}

// conclusions says what the reasons given for the flagged positions mean,
// for those that occur.
func (r *Report) conclusions() string {
	var never, tried int
	for _, pr := range r.Positions {
		if pr.Flag == "" {
			continue
		}
		m := pr.misses(pr.lastBudget())
		if m.never > 0 {
			never++
		}
		if m.known > m.never {
			tried++
		}
	}
	var b strings.Builder
	if never > 0 {
		fmt.Fprintf(&b, "  Never tried (%d %s): the search did not simulate the move once at this budget; its selection rule has not explored it "+
			"(a prior too small for its exploration term, a first-play urgency below the other moves' values, or, in a RAVE search without exploration, an AMAF value below them). "+
			"If it stays untried as the budget grows, more visits will not find it: the inconsistency this check is for.\n", never, plural(never, "position"))
	}
	if tried > 0 {
		fmt.Fprintf(&b, "  Tried, valued lower (%d %s): the search visits the move, but its estimates (the network's value, the finished games below it) "+
			"rank it lower at this budget. More visits may correct them: see whether the share grows with the budget.\n", tried, plural(tried, "position"))
	}
	return b.String()
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
	Command     string        `json:"command"`
	Budgets     []int         `json:"budgets"`
	Seeds       []int         `json:"seeds"`
	Positions   []PositionDoc `json:"positions"`
	Flagged     int           `json:"flagged"`
	Faults      int           `json:"faults"`
	Done        int           `json:"trials_done"`
	Total       int           `json:"trials_planned"`
	Interrupted bool          `json:"interrupted,omitempty"`
	Stopped     string        `json:"stopped,omitempty"`
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
	Why          string     `json:"why,omitempty"`
	SeedsNever   []int      `json:"seeds_never,omitempty"`
	SeedsFound   []int      `json:"seeds_found,omitempty"`
}

// TrialDoc is one genmove of a PositionDoc. Visits, OptimalVisits,
// EnginePrior and the AMAF fields are what the engine reported on stderr
// (absent when it reported nothing).
type TrialDoc struct {
	Budget        int      `json:"budget"`
	Seed          int      `json:"seed"`
	Move          string   `json:"move,omitempty"`
	Optimal       bool     `json:"optimal"`
	Winrate       *float64 `json:"winrate,omitempty"`
	Visits        *int     `json:"visits,omitempty"`
	OptimalVisits *int     `json:"optimal_visits,omitempty"`
	EnginePrior   *float64 `json:"engine_prior,omitempty"`
	// OptimalAMAF is the optimal moves' AMAF (RAVE) value at the root,
	// over OptimalAMAFPlayouts playouts (Pachi).
	OptimalAMAF         *float64 `json:"optimal_amaf,omitempty"`
	OptimalAMAFPlayouts *int     `json:"optimal_amaf_playouts,omitempty"`
	Fault               string   `json:"fault,omitempty"`
	FaultKind           string   `json:"fault_kind,omitempty"`
}

// Doc returns the report as a JSON document.
func (r *Report) Doc() Doc {
	d := Doc{Command: r.Config.Command, Budgets: r.Config.Budgets, Seeds: r.Config.Seeds, Faults: r.Faults,
		Done: r.Done, Total: r.Total, Interrupted: r.Interrupted, Stopped: r.Stopped, Positions: []PositionDoc{}}
	for _, pr := range r.Positions {
		sol := pr.Solution
		pd := PositionDoc{
			Name: pr.Position.Name, Case: pr.Position.Case, ToMove: pr.Position.ToMove.String(),
			Value: outcome(sol.Value), Priors: pr.Priors, OptimalPrior: pr.OptimalPrior, Flag: pr.Flag,
			SeedsNever: pr.SeedsNever, SeedsFound: pr.SeedsFound,
		}
		if pr.Flag != "" {
			pd.Why = pr.Why(pr.lastBudget())
		}
		for _, m := range sol.Optimal {
			pd.Optimal = append(pd.Optimal, Vertex(m))
		}
		for _, m := range sol.Moves {
			pd.Moves = append(pd.Moves, Vertex(m))
		}
		for _, t := range pr.Trials {
			td := TrialDoc{Budget: t.Budget, Seed: t.Seed, Move: t.Reply, Optimal: t.Optimal, Fault: t.Fault, FaultKind: t.FaultKind,
				Winrate: known(t.Winrate), EnginePrior: known(t.EnginePrior)}
			if t.Visits >= 0 {
				td.Visits, td.OptimalVisits = &t.Visits, &t.OptimalVisits
			}
			if t.OptimalAMAFPlayouts >= 0 {
				td.OptimalAMAF, td.OptimalAMAFPlayouts = &t.OptimalAMAF, &t.OptimalAMAFPlayouts
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

// known returns a pointer to x, or nil when x is negative (unknown).
func known(x float64) *float64 {
	if x < 0 {
		return nil
	}
	return &x
}

// ClassShare is the share of optimal moves against the budget over the
// positions of one class (the positions file's case, such as
// "tiny-prior"), as the figure of a check draws it. Positions where every
// move is optimal are left out: they cannot be missed.
type ClassShare struct {
	Class   string
	Budgets []int
	// Played and Optimal count, for each budget, the trials without
	// fault and those whose move was optimal.
	Played, Optimal []int
}

// ClassShares returns the shares of optimal moves by class, in the order
// the classes first appear among the positions.
func (r *Report) ClassShares() []ClassShare {
	var out []ClassShare
	index := map[string]int{}
	for _, pr := range r.Positions {
		if len(pr.Solution.Optimal) == len(pr.Solution.Moves) {
			continue
		}
		class := pr.Position.Case
		if class == "" {
			class = "(no case)"
		}
		i, ok := index[class]
		if !ok {
			i = len(out)
			index[class] = i
			n := len(r.Config.Budgets)
			out = append(out, ClassShare{Class: class, Budgets: r.Config.Budgets, Played: make([]int, n), Optimal: make([]int, n)})
		}
		for j, b := range r.Config.Budgets {
			n, k := pr.counts(b)
			out[i].Played[j] += n
			out[i].Optimal[j] += k
		}
	}
	return out
}
