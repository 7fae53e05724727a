package engine

import (
	"fmt"
	"slices"
	"strings"
)

// flag returns the findings about the position, or "": the share of
// optimal moves stays at 0 at every budget, some seeds never find an
// optimal move that others find, or the share falls from its best to the
// largest budget. Faulted trials do not count; budgets where every trial
// faulted are left out.
func flag(pr *PositionResult, cfg Config) string {
	sol := pr.Solution
	pr.SeedsNever, pr.SeedsFound = nil, nil
	if len(sol.Optimal) == len(sol.Moves) {
		return "" // every move is optimal
	}
	what := "an optimal move"
	if len(sol.Optimal) == 1 {
		what = "the only " + map[float64]string{1: "winning ", 0: "optimal ", 0.5: "drawing "}[sol.Value] + "move " + Vertex(sol.Optimal[0])
	}
	var ran []int // budgets with a trial that did not fault
	zero := true
	bestShare, bestBudget := -1.0, 0
	for _, b := range cfg.Budgets {
		n, k := pr.counts(b)
		if n == 0 {
			continue
		}
		ran = append(ran, b)
		zero = zero && k == 0
		if sh := float64(k) / float64(n); sh > bestShare {
			bestShare, bestBudget = sh, b
		}
	}
	if len(ran) == 0 {
		return "" // every trial failed: the faults say so
	}
	last := ran[len(ran)-1]
	if zero {
		n, _ := pr.counts(last)
		s := fmt.Sprintf("0 of %d %s at every budget up to %s: the engine does not find %s", n, plural(n, "seed"), budgetString(last), what)
		if later := pr.faultedAfter(last); later != "" {
			s += " (" + later + ")"
		}
		return s
	}
	var findings []string
	if s := seedSplit(pr, ran, what); s != "" {
		findings = append(findings, s)
	}
	if n, k := pr.counts(last); float64(k)/float64(n) < bestShare {
		bn, bk := pr.counts(bestBudget)
		findings = append(findings, fmt.Sprintf("the share of %s falls from %d/%d at %s to %d/%d at %s", what, bk, bn, budgetString(bestBudget), k, n, budgetString(last)))
	}
	return strings.Join(findings, "; ")
}

// faultedAfter says which budgets after b had trials that all faulted, or
// "".
func (pr *PositionResult) faultedAfter(b int) string {
	var later []string
	for _, t := range pr.Trials {
		if s := budgetString(t.Budget); t.Budget > b && !slices.Contains(later, s) {
			later = append(later, s)
		}
	}
	if len(later) == 0 {
		return ""
	}
	return "every trial at " + strings.Join(later, ", ") + " faulted"
}

// seedSplit flags the seeds that never played an optimal move while other
// seeds did: for those seeds the share stays at 0, whatever the budget.
// With trials at one budget only it says that the seeds disagree there.
// It records the seeds in pr.
func seedSplit(pr *PositionResult, ran []int, what string) string {
	if len(ran) == 0 || len(pr.Trials) == 0 {
		return ""
	}
	type record struct{ played, optimal int }
	bySeed := map[int]*record{}
	var seeds []int
	for _, t := range pr.Trials {
		if t.Fault != "" {
			continue
		}
		r := bySeed[t.Seed]
		if r == nil {
			r = &record{}
			bySeed[t.Seed] = r
			seeds = append(seeds, t.Seed)
		}
		r.played++
		if t.Optimal {
			r.optimal++
		}
	}
	slices.Sort(seeds)
	always := true
	for _, s := range seeds {
		switch r := bySeed[s]; {
		case r.optimal == 0 && (r.played >= 2 || len(ran) == 1):
			pr.SeedsNever = append(pr.SeedsNever, s)
		case r.optimal > 0:
			pr.SeedsFound = append(pr.SeedsFound, s)
			always = always && r.optimal == r.played
		}
	}
	if len(pr.SeedsNever) == 0 || len(pr.SeedsFound) == 0 {
		pr.SeedsNever, pr.SeedsFound = nil, nil
		return ""
	}
	if len(ran) == 1 {
		return fmt.Sprintf("the seeds disagree at %s: %s %s %s %s, %s %s %s (one budget: whether more visits bring the others to it is not measured)",
			budgetString(ran[0]), plural(len(pr.SeedsFound), "seed"), ints(pr.SeedsFound), verb(len(pr.SeedsFound), "plays", "play"), what,
			plural(len(pr.SeedsNever), "seed"), ints(pr.SeedsNever), verb(len(pr.SeedsNever), "does not", "do not"))
	}
	how := "at some budgets"
	if always {
		how = "at every budget"
	}
	return fmt.Sprintf("the seed decides, not the budget: %s %s never %s %s up to %s, %s %s %s it %s",
		plural(len(pr.SeedsNever), "seed"), ints(pr.SeedsNever), verb(len(pr.SeedsNever), "plays", "play"), what, budgetString(ran[len(ran)-1]),
		plural(len(pr.SeedsFound), "seed"), ints(pr.SeedsFound), verb(len(pr.SeedsFound), "plays", "play"), how)
}

// budgetString writes a budget as a power of two when it is one.
func budgetString(b int) string {
	if b > 0 && b&(b-1) == 0 && b >= 4 {
		e := 0
		for 1<<e < b {
			e++
		}
		return fmt.Sprintf("2^%d visits", e)
	}
	return fmt.Sprintf("%d %s", b, plural(b, "visit"))
}

// plural returns word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// verb returns one for a single subject, many for several.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ints writes a list of numbers: "1, 4, 7".
func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
