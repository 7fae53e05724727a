package props

import (
	"fmt"
	"math"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// Constants of the criterion; props' package doc explains each.
const (
	// gapMin is δ, the least value gap the criterion reads as a real one.
	gapMin = 1.0 / 8
	// seMultiple scales the standard error a gap must also exceed.
	seMultiple = 4
	// minParentVisits is the visits a node needs at the window's start
	// before its children are judged.
	minParentVisits = 32
	// minShareVisits is the visits a worse child needs, at the window's start
	// and in its second half, for its share to be judged.
	minShareVisits = 10
	// shareKept is the ratio of the worse child's share in the window's
	// second half to its share in the first half above which Eq. 4 fails;
	// shareKeptLong is the same in the confirmation's window, whose halves
	// lie 16 times apart (not 4) and hold 16 times the simulations, so that
	// a constant share stays within a few percent of 1 while one that
	// vanishes like n^-0.1 falls below 0.76.
	shareKept     = 0.75
	shareKeptLong = 0.9
	// decisionSigmas is how clearly the wrong root child must lead the best
	// optimal one at the last checkpoint, in standard deviations of a fair
	// split of their visits.
	decisionSigmas = 4
)

// Condition names the part of the theorem a finding is about.
type Condition string

// The conditions of the paper's theorem, and rule faults.
const (
	Eq4       Condition = "Eq. 4" // a clearly worse child keeps a non-vanishing share
	Eq5       Condition = "Eq. 5" // a child starves while its parent's value stays below its true value
	Eq6       Condition = "Eq. 6" // the root decision stays wrong as the budget doubles
	RuleFault Condition = "fault" // the rule returned a non-finite score or panicked
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
	Fault       *Fault
	// RootError is |V̂(root) − V(root)| at the last checkpoint (Eq. 7).
	RootError float64
	// Visited is the share of the tree's nodes visited at all; Recent the
	// share visited during the window.
	Visited, Recent float64
}

// judgeSeed applies the criterion to the snapshots of one search.
func judgeSeed(tr *tree.Tree, sol *tree.Solution, snaps []snapshot, window int, kept float64) seedResult {
	last := len(snaps) - 1
	first := last - window
	mid := first + window/2
	r := seedResult{OptimalFrom: -1}
	for k := last; k >= 0 && optimal(sol, snaps[k].decision); k-- {
		r.OptimalFrom = k
	}
	r.Wrong = wrongDecision(tr, sol, snaps[first:])
	n := tr.Len()
	a, z := snaps[first], snaps[last]
	for p := range int32(n) {
		kind := tr.Kind(p)
		if (kind != core.Max && kind != core.Min) || a.visits[p] < minParentVisits {
			continue
		}
		if r.Eq5 == nil {
			r.Eq5 = starvation(tr, sol, snaps[first:], p)
		}
		if r.Eq4 == nil {
			r.Eq4 = keptShare(tr, snaps[first:], snaps[mid], p, kept)
		}
	}
	r.RootError = math.Abs(z.value[0] - sol.Value(0))
	visited, recent := 0, 0
	for i := range n {
		if z.visits[i] > 0 {
			visited++
		}
		if z.visits[i] > a.visits[i] {
			recent++
		}
	}
	r.Visited, r.Recent = float64(visited)/float64(n), float64(recent)/float64(n)
	return r
}

func optimal(sol *tree.Solution, d int) bool { return d >= 0 && sol.IsOptimal(0, d) }

// wrongDecision is the Eq. 6 finding: the decision is outside Opt(root) at
// every checkpoint of win, and at the last one the decided child leads every
// optimal child by decisionSigmas standard deviations of a fair split.
func wrongDecision(tr *tree.Tree, sol *tree.Solution, win []snapshot) *Finding {
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
	dn := z.visits[tr.Child(0, z.decision)]
	best, bestN := -1, int64(-1)
	for _, k := range sol.Optimal(0) {
		if v := z.visits[tr.Child(0, int(k))]; v > bestN {
			best, bestN = int(k), v
		}
	}
	if float64(dn-bestN) < decisionSigmas*math.Sqrt(float64(dn+bestN)) {
		return nil
	}
	return &Finding{Condition: Eq6, Node: "0", Child: z.decision, Text: fmt.Sprintf(
		"root decision child %d (V=%g) at every budget from %d to %d; at %d it has %d simulations, the optimal child %d (V=%g) %d",
		z.decision, sol.Value(tr.Child(0, z.decision)), win[0].budget, z.budget, z.budget, dn, best, sol.Value(0), bestN)}
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
// simulated (×4 at least) and its empirical value stays δ below its true
// value from its chooser's side, yet a child gets no simulation at all.
func starvation(tr *tree.Tree, sol *tree.Solution, win []snapshot, p int32) *Finding {
	a, z := win[0], win[len(win)-1]
	if z.visits[p] < 4*a.visits[p] {
		return nil
	}
	kind := tr.Kind(p)
	truth := chooser(kind, sol.Value(p))
	for _, s := range win {
		if truth-chooser(kind, s.value[p]) < gapMin {
			return nil
		}
	}
	for k := range tr.NumChildren(p) {
		c := tr.Child(p, k)
		if z.visits[c] == a.visits[c] {
			return &Finding{Condition: Eq5, Node: tree.FormatPath(tr.Path(p)), Child: k, Text: fmt.Sprintf(
				"%v node %s: child %d (V=%g) stays at %d simulations while the node goes from %d to %d and its mean stays ≤ %.3f, below its value %g",
				kind, tree.FormatPath(tr.Path(p)), k, sol.Value(c), z.visits[c], a.visits[p], z.visits[p],
				maxMean(kind, win, p), sol.Value(p))}
		}
	}
	return nil
}

// maxMean is the highest chooser-side mean of p over the window, in max's
// perspective.
func maxMean(kind core.Kind, win []snapshot, p int32) float64 {
	m := math.Inf(-1)
	for _, s := range win {
		m = math.Max(m, chooser(kind, s.value[p]))
	}
	return chooser(kind, m)
}

// keptShare is the Eq. 4 finding at p: two children whose means differ, from
// p's chooser's side, clearly (clearGap), while the worse one's share of p's new simulations in the
// window's second half is still kept (shareKept or shareKeptLong) of its
// share in the first half.
func keptShare(tr *tree.Tree, win []snapshot, mid snapshot, p int32, kept float64) *Finding {
	a, z := win[0], win[len(win)-1]
	kind := tr.Kind(p)
	k := tr.NumChildren(p)
	for bi := range k {
		b := tr.Child(p, bi)
		for wi := range k {
			w := tr.Child(p, wi)
			if wi == bi || a.visits[w] < minShareVisits || a.visits[b] < minShareVisits {
				continue
			}
			if !clearGap(kind, win, b, w) {
				continue
			}
			dw1, dp1 := mid.visits[w]-a.visits[w], mid.visits[p]-a.visits[p]
			dw2, dp2 := z.visits[w]-mid.visits[w], z.visits[p]-mid.visits[p]
			if dw2 < minShareVisits || dp1 <= 0 || dp2 <= 0 {
				continue
			}
			s1, s2 := float64(dw1)/float64(dp1), float64(dw2)/float64(dp2)
			if s2 >= kept*s1 {
				return &Finding{Condition: Eq4, Node: tree.FormatPath(tr.Path(p)), Child: wi, Text: fmt.Sprintf(
					"%v node %s: child %d (mean %.3f) keeps %.1f%% of the new simulations (%.1f%% before) though child %d's mean is %.3f, from %d to %d simulations",
					kind, tree.FormatPath(tr.Path(p)), wi, z.value[w], 100*s2, 100*s1, bi, z.value[b], a.visits[p], z.visits[p])}
			}
		}
	}
	return nil
}

// clearGap reports whether child b's mean beats child w's, from the side of
// the player at a node of kind, by δ at every checkpoint of win and, at the
// last, also by seMultiple standard errors (with the variance bound 1/4 of
// rewards in [0,1]).
func clearGap(kind core.Kind, win []snapshot, b, w int32) bool {
	for _, s := range win {
		if !(chooser(kind, s.value[b])-chooser(kind, s.value[w]) >= gapMin) {
			return false
		}
	}
	z := win[len(win)-1]
	se := math.Sqrt(0.25/float64(z.visits[b]) + 0.25/float64(z.visits[w]))
	return chooser(kind, z.value[b])-chooser(kind, z.value[w]) >= seMultiple*se
}
