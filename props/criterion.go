package props

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// Criterion holds the thresholds with which the checker reads a search's
// checkpoints: the one place where they are set. The package doc explains
// how each is used; DefaultCriterion is what a zero Options.Criterion means.
type Criterion struct {
	// Gap is δ, the least value gap read as a real one: a node's mean below
	// its value (Eq. 5), two children's means apart (Eq. 4).
	Gap float64
	// SEMultiple is how many standard errors (variance bound 1/4) a gap
	// between two children's means must also exceed at the last checkpoint.
	SEMultiple float64
	// MinParentVisits is the simulations a node needs at the window's start
	// before its children are judged.
	MinParentVisits int64
	// ParentGrowth is how many times a node's simulations must grow over
	// the window for a child without any to count as starved (Eq. 5).
	ParentGrowth int64
	// MinShareVisits is the simulations the two children of an Eq. 4
	// finding need at the window's start, and the worse one in the window's
	// second half.
	MinShareVisits int64
	// ShareKept is the ratio of the worse child's share of the new
	// simulations in the window's second half to its share in the first
	// half at or above which Eq. 4 fails.
	ShareKept float64
	// DecisionSigmas is how clearly the wrong root child must lead the best
	// optimal one at the last checkpoint (Eq. 6), in standard deviations of
	// a fair split of their simulations.
	DecisionSigmas float64

	// The two thresholds below read whole searches (RunSearch), whose
	// strongest claim is finite ("stuck through the largest budget run"):
	// there a gap between a mean and an exact value is read with a margin
	// from the evidence (the simulations behind the mean, a bound on its
	// variance, the tests made), not with Gap. A zero field means its
	// default.

	// ErrorRate is the family-wise error rate, per tree, of the readings
	// of a whole search's statistics against exact values (a mean against
	// a value or a reward, a chance node's visits against its
	// probabilities): each of a tree's seeds × nodes × 3 readings is a
	// Bernstein bound at ErrorRate divided by their number (readingRate).
	// 0 means 1e-6.
	ErrorRate float64
	// StarvedVisits is the most simulations a child of a whole search may
	// get over the window and still count as starved (Eq. 5): "kept at a
	// handful". 0 means 3; negative means none.
	StarvedVisits int64
}

// The defaults of the whole-search thresholds (Criterion's zero fields).
const (
	defaultErrorRate     = 1e-6
	defaultStarvedVisits = 3
)

// withDefaults fills in the whole-search thresholds left zero.
func (cr Criterion) withDefaults() Criterion {
	if cr.ErrorRate == 0 {
		cr.ErrorRate = defaultErrorRate
	}
	switch {
	case cr.StarvedVisits == 0:
		cr.StarvedVisits = defaultStarvedVisits
	case cr.StarvedVisits < 0:
		cr.StarvedVisits = 0
	}
	return cr
}

// DefaultCriterion is the criterion at which props' package doc states its
// measured error rates.
var DefaultCriterion = Criterion{
	Gap:             1.0 / 8,
	SEMultiple:      4,
	MinParentVisits: 32,
	ParentGrowth:    4,
	MinShareVisits:  10,
	ShareKept:       0.75,
	DecisionSigmas:  4,
	ErrorRate:       defaultErrorRate,
	StarvedVisits:   defaultStarvedVisits,
}

// check reports what is wrong with cr, or nil.
func (cr Criterion) check() error {
	switch {
	case !(cr.Gap > 0 && cr.Gap <= 1):
		return fmt.Errorf("props: Criterion.Gap %v, want (0,1]", cr.Gap)
	case !(cr.SEMultiple >= 0 && cr.DecisionSigmas >= 0):
		return fmt.Errorf("props: Criterion.SEMultiple %v and DecisionSigmas %v, want ≥ 0", cr.SEMultiple, cr.DecisionSigmas)
	case cr.MinParentVisits < 1 || cr.MinShareVisits < 1 || cr.ParentGrowth < 1:
		return fmt.Errorf("props: Criterion.MinParentVisits %d, MinShareVisits %d and ParentGrowth %d, want ≥ 1",
			cr.MinParentVisits, cr.MinShareVisits, cr.ParentGrowth)
	case !(cr.ShareKept > 0):
		return fmt.Errorf("props: Criterion.ShareKept %v, want > 0", cr.ShareKept)
	case !(cr.ErrorRate > 0 && cr.ErrorRate < 1):
		return fmt.Errorf("props: Criterion.ErrorRate %v, want (0,1)", cr.ErrorRate)
	}
	return nil
}

// Condition names the part of the theorem a finding is about.
type Condition string

// The conditions of the paper's theorem, and rule faults.
const (
	Eq4 Condition = "Eq. 4" // a clearly worse child keeps a non-vanishing share
	Eq5 Condition = "Eq. 5" // a child starves while its parent's value stays below its true value
	Eq6 Condition = "Eq. 6" // the root decision stays wrong as the budget doubles
	Eq7 Condition = "Eq. 7" // a terminal's mean stays away from its reward (whole searches)
	// DecisionRule: a whole search decides against its own statistics.
	DecisionRule Condition = "decision rule"
	RuleFault    Condition = "fault" // the rule broke its contract: the verdict Faulted
)

// Finding is one piece of evidence about one node, over the window.
type Finding struct {
	Condition Condition `json:"condition"`
	// Node is the path of the node the finding is about ("0" is the root).
	Node string `json:"node"`
	// Child is the child that starves (Eq. 5), keeps its share (Eq. 4) or is
	// decided (Eq. 6), by index.
	Child int `json:"child"`
	// Text says it in one line, with the counts and values.
	Text string `json:"text"`
}

// seedResult is what the criterion reads from one search of one tree.
type seedResult struct {
	Seed uint64
	// Wrong: the decision is outside Opt(root) at every window checkpoint,
	// clearly at the last one (Eq. 6 fails).
	Wrong *Finding
	// OptimalFrom is the first checkpoint index from which every decision is
	// optimal, or -1.
	OptimalFrom int
	Eq5, Eq4    *Finding // the shallowest findings, if any
	eq5At       int32    // the node of Eq5
	eq5Frozen   []bool   // its children that got no simulation in the window
	eq4At       int32    // the node of Eq4
	Fault       *Fault
	// RootError is |V̂(root) − V(root)| at the last checkpoint (Eq. 7).
	RootError float64
	// Visited is the share of the tree's nodes visited at all; Recent the
	// share visited during the window.
	Visited, Recent float64
}

// findings lists the seed's evidence: Eq. 6, and the mechanism behind it.
func (r seedResult) findings() []Finding {
	out := []Finding{*r.Wrong}
	for _, f := range []*Finding{r.Eq5, r.Eq4} {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out
}

// judgeSeed applies the criterion to the snapshots of one search.
func (cr Criterion) judgeSeed(tr *tree.Tree, sol *tree.Solution, snaps []snapshot, window int) seedResult {
	r := cr.readSeed(tr, sol, snaps, window)
	last := len(snaps) - 1
	first := last - window
	mid := first + window/2
	a, z := snaps[first], snaps[last]
	for j, p := range a.seen.ids { // the nodes with simulations, in node order
		kind := tr.Kind(p)
		if (kind != core.Max && kind != core.Min) || a.n[j] < cr.MinParentVisits {
			continue
		}
		if r.Eq5 == nil {
			r.Eq5, r.eq5At = cr.starvation(tr, sol, snaps[first:], p), p
		}
		if r.Eq4 == nil {
			r.Eq4, r.eq4At = cr.keptShare(tr, sol, snaps[first:], snaps[mid], p, cr.ShareKept), p
		}
	}
	if r.Eq5 != nil {
		r.eq5Frozen = make([]bool, 0, tr.NumChildren(r.eq5At))
		for k := range tr.NumChildren(r.eq5At) {
			c := tr.Child(r.eq5At, k)
			r.eq5Frozen = append(r.eq5Frozen, z.visits(c) == a.visits(c))
		}
	}
	return r
}

// readSeed reads what every search is judged by: when its decision became
// optimal for good, Eq. 6 over the window, the root's error and the
// shares of nodes visited (of the snapshots' layout, over the tree's
// size).
func (cr Criterion) readSeed(tr *tree.Tree, sol *tree.Solution, snaps []snapshot, window int) seedResult {
	last := len(snaps) - 1
	first := last - window
	r := seedResult{OptimalFrom: -1}
	for k := last; k >= 0 && optimal(sol, snaps[k].decision); k-- {
		r.OptimalFrom = k
	}
	r.Wrong = cr.wrongDecision(tr, sol, snaps[first:])
	a, z := snaps[first], snaps[last]
	r.RootError = math.Abs(z.value(0) - sol.Value(0))
	visited, recent := 0, 0
	for j := range z.n {
		if z.n[j] > 0 {
			visited++
		}
		if z.n[j] > a.n[j] {
			recent++
		}
	}
	n := tr.Len()
	r.Visited, r.Recent = float64(visited)/float64(n), float64(recent)/float64(n)
	return r
}

func optimal(sol *tree.Solution, d int) bool { return d >= 0 && sol.IsOptimal(0, d) }

// wrongDecision is the Eq. 6 finding: the decision is outside Opt(root) at
// every checkpoint of win, and at the last one the decided child leads every
// optimal child by DecisionSigmas standard deviations of a fair split.
func (cr Criterion) wrongDecision(tr *tree.Tree, sol *tree.Solution, win []snapshot) *Finding {
	for _, s := range win {
		if optimal(sol, s.decision) {
			return nil
		}
	}
	z := win[len(win)-1]
	if z.decision < 0 {
		return &Finding{Condition: Eq6, Node: "0", Child: -1,
			Text: fmt.Sprintf("no root decision at %d simulations", z.budget)}
	}
	dn := z.visits(tr.Child(0, z.decision))
	best, bestN := mostVisitedOptimal(tr, sol, z)
	if float64(dn-bestN) < cr.DecisionSigmas*math.Sqrt(float64(dn+bestN)) {
		return nil
	}
	return &Finding{Condition: Eq6, Node: "0", Child: z.decision, Text: fmt.Sprintf(
		"root decision child %d (V=%g) at every budget from %d to %d; at %d it has %s and the optimal child %d (V=%g) has %d",
		z.decision, sol.Value(tr.Child(0, z.decision)), win[0].budget, z.budget, z.budget, plural(int(dn), "simulation"), best, sol.Value(0), bestN)}
}

// mostVisitedOptimal returns the optimal root child with the most
// simulations at z, by index, and its simulations.
func mostVisitedOptimal(tr *tree.Tree, sol *tree.Solution, z snapshot) (int, int64) {
	best, bestN := -1, int64(-1)
	for _, k := range sol.Optimal(0) {
		if v := z.visits(tr.Child(0, int(k))); v > bestN {
			best, bestN = int(k), v
		}
	}
	return best, bestN
}

// chooser turns a max-perspective value into the perspective of the player
// moving at a node of kind k.
func chooser(k core.Kind, v float64) float64 {
	if k == core.Min {
		return 1 - v
	}
	return v
}

// starvation is the Eq. 5 finding at p: through the window p keeps being
// simulated (×ParentGrowth at least) and its empirical value stays δ below its true
// value from its chooser's side, yet a child gets no simulation at all.
func (cr Criterion) starvation(tr *tree.Tree, sol *tree.Solution, win []snapshot, p int32) *Finding {
	a, z := win[0], win[len(win)-1]
	if z.visits(p) < cr.ParentGrowth*a.visits(p) {
		return nil
	}
	kind := tr.Kind(p)
	truth := chooser(kind, sol.Value(p))
	for _, s := range win {
		if truth-chooser(kind, s.value(p)) < cr.Gap {
			return nil
		}
	}
	for k := range tr.NumChildren(p) {
		c := tr.Child(p, k)
		if z.visits(c) == a.visits(c) {
			stays, side := "≤", "below" // the mean, max's perspective, against the value
			if kind == core.Min {
				stays, side = "≥", "above"
			}
			return &Finding{Condition: Eq5, Node: tree.FormatPath(tr.Path(p)), Child: k, Text: fmt.Sprintf(
				"%v node %s: child %d (V=%g) stays at %s while the node goes from %d to %d and its mean stays %s %.3f, %s its value %g",
				kind, tree.FormatPath(tr.Path(p)), k, sol.Value(c), plural(int(z.visits(c)), "simulation"), a.visits(p), z.visits(p),
				stays, maxMean(kind, win, p), side, sol.Value(p))}
		}
	}
	return nil
}

// maxMean is the highest chooser-side mean of p over the window, in max's
// perspective.
func maxMean(kind core.Kind, win []snapshot, p int32) float64 {
	m := math.Inf(-1)
	for _, s := range win {
		m = math.Max(m, chooser(kind, s.value(p)))
	}
	return chooser(kind, m)
}

// keptShare is the Eq. 4 finding at p: two children whose means differ, from
// p's chooser's side, clearly (clearGap), and whose values differ by δ too
// (a gap between means of children of equal value is transient for a rule
// that learns the values), while the worse one's share of p's new simulations in the
// window's second half is still kept (kept, the criterion's ShareKept) of its
// share in the first half. A terminal child's mean is its reward, so it
// needs one simulation where another needs MinShareVisits.
//
// Its cost is linear in p's children: the candidates for the better child
// are taken in decreasing order of their mean at the window's end, at most
// maxBetter of them, stopping at the first too close to the worse child.
func (cr Criterion) keptShare(tr *tree.Tree, sol *tree.Solution, win []snapshot, mid snapshot, p int32, kept float64) *Finding {
	a, z := win[0], win[len(win)-1]
	kind := tr.Kind(p)
	enough := func(c int32, n int64) bool {
		if tr.Kind(c) == core.Terminal {
			return n >= 1
		}
		return n >= cr.MinShareVisits
	}
	// Both children need simulations at the window's start: the visited
	// children, at positions lo to hi−1 in the snapshots of the search,
	// which share them, in child order.
	first := tr.First(p)
	lo, hi := a.seen.span(first, first+int32(tr.NumChildren(p)))
	var better []int // children with enough simulations, best mean at the end first
	for j := lo; j < hi; j++ {
		if c := a.seen.ids[j]; enough(c, a.n[j]) {
			better = append(better, int(c-first))
		}
	}
	if len(better) < 2 {
		return nil
	}
	endMean := func(i int) float64 { return chooser(kind, z.value(tr.Child(p, i))) }
	slices.SortStableFunc(better, func(x, y int) int { return cmp.Compare(endMean(y), endMean(x)) })
	for j := lo; j < hi; j++ {
		w := a.seen.ids[j]
		wi := int(w - first)
		if a.n[j] < cr.MinShareVisits {
			continue
		}
		dw1, dp1 := mid.n[j]-a.n[j], mid.visits(p)-a.visits(p)
		dw2, dp2 := z.n[j]-mid.n[j], z.visits(p)-mid.visits(p)
		if dw2 < cr.MinShareVisits || dp1 <= 0 || dp2 <= 0 {
			continue
		}
		s1, s2 := float64(dw1)/float64(dp1), float64(dw2)/float64(dp2)
		if s2 < kept*s1 {
			continue
		}
		for n, bi := range better {
			if n == maxBetter || endMean(bi)-endMean(wi) < cr.Gap {
				break
			}
			b := tr.Child(p, bi)
			if bi == wi || chooser(kind, sol.Value(b))-chooser(kind, sol.Value(w)) < cr.Gap || !cr.clearGap(tr, kind, win, b, w) {
				continue // the gap must be real (in the values) as well as seen (in the means)
			}
			return &Finding{Condition: Eq4, Node: tree.FormatPath(tr.Path(p)), Child: wi, Text: fmt.Sprintf(
				"%v node %s: child %d (mean %.3f) keeps %.1f%% of the new simulations (%.1f%% before) though child %d's mean is %.3f, from %d to %d simulations",
				kind, tree.FormatPath(tr.Path(p)), wi, z.value(w), 100*s2, 100*s1, bi, z.value(b), a.visits(p), z.visits(p))}
		}
	}
	return nil
}

// maxBetter bounds the candidates for the better child of an Eq. 4
// finding that keptShare tries for each worse child.
const maxBetter = 8

// clearGap reports whether child b's mean beats child w's, from the side of
// the player at a node of kind, by δ at every checkpoint of win and, at the
// last, also by SEMultiple standard errors (with the variance bound 1/4 of
// rewards in [0,1], and none for a terminal child, whose mean is exact).
func (cr Criterion) clearGap(tr *tree.Tree, kind core.Kind, win []snapshot, b, w int32) bool {
	for _, s := range win {
		if !(chooser(kind, s.value(b))-chooser(kind, s.value(w)) >= cr.Gap) {
			return false
		}
	}
	z := win[len(win)-1]
	variance := func(c int32) float64 {
		if tr.Kind(c) == core.Terminal {
			return 0
		}
		return 0.25 / float64(z.visits(c))
	}
	se := math.Sqrt(variance(b) + variance(w))
	return chooser(kind, z.value(b))-chooser(kind, z.value(w)) >= cr.SEMultiple*se
}

// decisionAgainst is the finding of a whole search whose decision rule
// goes against its own statistics: at every checkpoint of win it decides
// a child outside Opt(root) other than its most visited child, which is
// optimal and whose mean beats the decided child's clearly (clearGap).
// Eq. 6 holds of the most visited child; a search that decides otherwise,
// against both its visits and its means, stays wrong whatever its
// selection does. It returns the Eq. 6 finding and the decision rule's,
// or nils.
func (cr Criterion) decisionAgainst(tr *tree.Tree, sol *tree.Solution, win []snapshot) (wrong, rule *Finding) {
	most := func(s snapshot) int {
		best := 0
		for k := range tr.NumChildren(0) {
			if s.visits(tr.Child(0, k)) > s.visits(tr.Child(0, best)) {
				best = k
			}
		}
		return best
	}
	z := win[len(win)-1]
	d, m := z.decision, most(z)
	for _, s := range win {
		if s.decision != d || most(s) != m || optimal(sol, d) || !optimal(sol, m) {
			return nil, nil
		}
	}
	if d < 0 || !cr.clearGap(tr, tr.Kind(0), win, tr.Child(0, m), tr.Child(0, d)) {
		return nil, nil
	}
	dc, mc := tr.Child(0, d), tr.Child(0, m)
	wrong = &Finding{Condition: Eq6, Node: "0", Child: d, Text: fmt.Sprintf(
		"root decision child %d (V=%g) at every budget from %d to %d; at %d it has %s and its most visited child %d (V=%g) has %d",
		d, sol.Value(dc), win[0].budget, z.budget, z.budget, plural(int(z.visits(dc)), "simulation"), m, sol.Value(mc), z.visits(mc))}
	rule = &Finding{Condition: DecisionRule, Node: "0", Child: d, Text: fmt.Sprintf(
		"the search decides child %d (mean %.3f) over its most visited child %d (mean %.3f), which is optimal, at every budget from %d to %d: its decision goes against its own statistics",
		d, z.value(dc), m, z.value(mc), win[0].budget, z.budget)}
	return wrong, rule
}
