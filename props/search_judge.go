package props

import (
	"fmt"
	"math"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// A whole search offers no limit probe: its strongest claim is finite,
// "the decision stays wrong through the largest budget run, with this
// mechanism behind it". The criterion reads it from the search's reports
// alone, and reads a mean against an exact value (a child's value, a
// terminal's reward) with a margin from the evidence: the simulations
// behind the mean, a bound on its variance, and the number of readings
// made of the tree (its seeds and nodes), so that the family of readings
// of one tree errs at most at Criterion.ErrorRate. The rule path's fixed
// gap δ (Criterion.Gap) stays where a share is read (Eq. 4, the decision
// rule): a share kept over a close pair is what a consistent search does
// at finite budgets, and the rule path's limit probe needs δ.

// searchJudgement is what the criterion reads from one whole search.
type searchJudgement struct {
	// seedResult's OptimalFrom, RootError, Visited and Recent, and Wrong:
	// Eq. 6 with the decided child leading (wrongDecision).
	seedResult
	// wrongAll says that the decision is outside Opt(root) at every
	// checkpoint of the window, leading or not; wrongAllText is its Eq. 6
	// finding.
	wrongAll     bool
	wrongAllText Finding
	// mechanisms are the mechanisms in view, judged against exact values:
	// Eq. 5, Eq. 4 and Eq. 7, in that order, each the first found; flat
	// are those with which a decision wrong throughout needs no lead:
	// the same, but for Eq. 4 a share that does not fall at all.
	mechanisms, flat []Finding
	// against are Eq. 6 and the decision rule's findings when the search
	// decides against its own statistics; nil otherwise.
	against []Finding
}

// judgeSearch reads the snapshots of one whole search of tr, one of seeds
// searches of the tree. With nodes false the search reported the root's
// children alone: only the root is judged, and only the root's children's
// terminals are read for Eq. 7; the shares of nodes visited are unknown
// (0).
func (cr Criterion) judgeSearch(tr *tree.Tree, sol *tree.Solution, snaps []snapshot, window int, nodes bool, seeds int) searchJudgement {
	j := searchJudgement{seedResult: cr.readSeed(tr, sol, snaps, window)}
	if !nodes {
		j.Visited, j.Recent = 0, 0
	}
	last := len(snaps) - 1
	first := last - window
	win := snaps[first:]
	j.wrongAll = true
	for _, s := range win {
		j.wrongAll = j.wrongAll && !optimal(sol, s.decision)
	}
	if j.wrongAll {
		j.wrongAllText = wrongThroughout(tr, sol, win, seeds)
	}
	alpha := cr.readingRate(seeds, tr.Len())
	a := win[0]
	var eq5, eq4, eq4Flat *Finding
	for _, p := range a.seen.ids { // node order: the shallowest first
		if !nodes && p != 0 {
			break
		}
		if k := tr.Kind(p); (k != core.Max && k != core.Min) || a.visits(p) < cr.MinParentVisits {
			continue
		}
		if eq5 == nil {
			eq5 = cr.starvedChild(tr, sol, win, p, alpha)
		}
		if eq4 == nil {
			eq4 = cr.keptShare(tr, sol, win, snaps[first+window/2], p, cr.ShareKept)
		}
		if eq4Flat == nil && j.wrongAll {
			eq4Flat = cr.keptShare(tr, sol, win, snaps[first+window/2], p, 1)
		}
	}
	eq7 := cr.terminalAway(tr, win, alpha)
	j.mechanisms, j.flat = found(eq5, eq4, eq7), found(eq5, eq4Flat, eq7)
	if wrong, rule := cr.decisionAgainst(tr, sol, win); wrong != nil {
		j.against = []Finding{*wrong, *rule}
	}
	return j
}

// found lists the findings that are not nil.
func found(fs ...*Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out
}

// wrongThroughout is the Eq. 6 finding of a decision outside Opt(root) at
// every checkpoint of win, read without the lead wrongDecision asks: the
// tree's verdict uses it when every one of its seeds is so wrong.
func wrongThroughout(tr *tree.Tree, sol *tree.Solution, win []snapshot, seeds int) Finding {
	z := win[len(win)-1]
	every := ""
	if seeds > 1 {
		every = fmt.Sprintf(", as on every one of the %d seeds searched", seeds)
	}
	best, bestN := mostVisitedOptimal(tr, sol, z)
	d := z.decision
	return Finding{Condition: Eq6, Node: "0", Child: d, Text: fmt.Sprintf(
		"root decision outside the optimal children at every budget from %d to %d%s; at %d it is child %d (V=%g) with %d simulations, the optimal child %d (V=%g) has %d",
		win[0].budget, z.budget, every, z.budget, d, sol.Value(tr.Child(0, d)), z.visits(tr.Child(0, d)), best, sol.Value(0), bestN)}
}

// readingRate is the error rate of each reading of a whole search's
// statistics against exact values, on a tree of n nodes searched with
// seeds seeds: at most three per node and seed (a child's visits against
// its parent's mean, Eq. 5; a terminal's mean against its reward, Eq. 7;
// a chance child's visits against its probability), so that the family
// of a tree's readings errs at most at ErrorRate (Bonferroni).
func (cr Criterion) readingRate(seeds, n int) float64 {
	return cr.ErrorRate / float64(3*seeds*n)
}

// meanMargin is how far below (or above) its expectation a mean of n
// rewards in [0,1], each of conditional variance at most v, falls only at
// the one-sided error rate alpha, by Bernstein's inequality for martingale
// differences (Freedman's): sqrt(2·v·L/n) + L/(3n), L = ln(1/alpha). A
// search's rewards are drawn by its own adaptive choices, so they are not
// independent; the bound holds all the same for the mean of what each
// simulation was expected to return given the search so far. +Inf for
// n = 0.
func meanMargin(n int64, v, alpha float64) float64 {
	if n <= 0 {
		return math.Inf(1)
	}
	l := math.Log(1 / alpha)
	return math.Sqrt(2*v*l/float64(n)) + l/(3*float64(n))
}

// spread bounds the variance of rewards in [0,1] whose mean lies between
// a and b: μ(1−μ) at the μ of [a, b] nearest to 1/2.
func spread(a, b float64) float64 {
	mu := min(max(0.5, min(a, b)), max(a, b))
	return mu * (1 - mu)
}

// starvedChild is the Eq. 5 finding of a whole search at p: through the
// window p's simulations grow ParentGrowth-fold at least, while a child
// gets at most StarvedVisits of them although its value beats p's mean,
// from p's chooser's side, at every checkpoint, and at the last by more
// than meanMargin of p's simulations at error rate alpha (the variance
// bounded by spread between the mean and the value). Of such children it
// names the one of the highest value.
func (cr Criterion) starvedChild(tr *tree.Tree, sol *tree.Solution, win []snapshot, p int32, alpha float64) *Finding {
	a, z := win[0], win[len(win)-1]
	if z.visits(p) < cr.ParentGrowth*a.visits(p) {
		return nil
	}
	kind := tr.Kind(p)
	best, bestV := -1, math.Inf(-1)
	for k := range tr.NumChildren(p) {
		c := tr.Child(p, k)
		v := chooser(kind, sol.Value(c))
		if z.visits(c)-a.visits(c) > cr.StarvedVisits || v <= bestV {
			continue
		}
		worth := true
		for _, s := range win {
			worth = worth && v > chooser(kind, s.value(p))
		}
		if worth {
			best, bestV = k, v
		}
	}
	if best < 0 {
		return nil
	}
	mean := chooser(kind, z.value(p))
	margin := meanMargin(z.visits(p), spread(mean, bestV), alpha)
	if bestV-mean <= margin {
		return nil
	}
	c := tr.Child(p, best)
	got := fmt.Sprintf("stays at %s", plural(int(z.visits(c)), "simulation"))
	if n := z.visits(c) - a.visits(c); n > 0 {
		got = fmt.Sprintf("gets %d of them (%d in all)", n, z.visits(c))
	}
	stays := "≤" // the node's mean, max's perspective, against the child's value
	if kind == core.Min {
		stays = "≥"
	}
	path := tree.FormatPath(tr.Path(p))
	return &Finding{Condition: Eq5, Node: path, Child: best, Text: fmt.Sprintf(
		"%v node %s: child %d (V=%g) %s while the node goes from %d to %d simulations, and the node's mean stays %s %.3f, short of the child's value (by %.3f at %d, where %d simulations explain at most %.3f)",
		kind, path, best, sol.Value(c), got, a.visits(p), z.visits(p), stays, maxMean(kind, win, p), bestV-mean, z.budget, z.visits(p), margin)}
}

// terminalAway is the Eq. 7 finding of a whole search: a terminal
// reported with simulations at the window's start (below the root's
// children only for a search that reports every node) whose mean stays
// away from its reward at every checkpoint of win by more than
// meanMargin of its simulations at error rate alpha (variance bound 1/4).
// A search that averages the rewards it reaches reports a terminal's
// reward exactly, whatever its selection; one that values a terminal by
// anything else (a roll-out, a heuristic, a backup that never reaches it)
// does not, and converges to the values of another game; a prior mixed
// into the mean fades like 1/n, inside the margin. It returns the first
// such terminal, in the tree's breadth-first order.
func (cr Criterion) terminalAway(tr *tree.Tree, win []snapshot, alpha float64) *Finding {
	a, z := win[0], win[len(win)-1]
	for _, i := range a.seen.ids {
		if tr.Kind(i) != core.Terminal || a.visits(i) < 1 {
			continue
		}
		r := tr.Reward(i)
		away := true
		for _, s := range win {
			away = away && math.Abs(s.value(i)-r) > meanMargin(s.visits(i), 0.25, alpha)
		}
		if away {
			path := tree.FormatPath(tr.Path(i))
			return &Finding{Condition: Eq7, Node: path, Child: -1, Text: fmt.Sprintf(
				"terminal node %s (reward %g) has the mean %.3f after %d simulations (%.3f after %d at %d; %d simulations explain at most %.3f): the search does not value it by its reward",
				path, r, z.value(i), z.visits(i), a.value(i), a.visits(i), a.budget, z.visits(i), meanMargin(z.visits(i), 0.25, alpha))}
		}
	}
	return nil
}
