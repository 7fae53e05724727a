package props

import (
	"cmp"
	"math"
	"slices"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// OverconfidentAbove is the confidence beyond which a search of a lost
// tree counts as overconfident in the paper's §4 figure: MoGo's expected
// success rate was above 90% on a lost position in 13 of 30 runs.
const OverconfidentAbove = 0.9

// overconfidenceNote labels the figure in the JSON form.
const overconfidenceNote = "the paper's §4 figure, not a consistency verdict: of the searches of lost trees " +
	"(exact value below 1/2 for the player to move at the root), those whose decided root child has a mean above 0.9 " +
	"for that player, against the budget; it decides no verdict and no exit code"

// Overconfidence is the paper's §4 figure for a check (Berthier, Doghmen
// and Teytaud, §4: MoGo was more than 90% confident of winning a lost
// position in 13 of 30 runs): over the searches of lost trees, the share
// that is more than OverconfidentAbove confident, against the budget. A
// tree is lost when its exact value for the player to move at its root is
// below 1/2 (in a binary game, 0: lost whatever that player does); a
// search's confidence is the mean it reports for the root child it would
// play, for that player. It is not a consistency verdict: a consistent
// search may be overconfident at small budgets and an inconsistent one
// need not be, and it decides neither the verdict nor an exit code.
type Overconfidence struct {
	// Note says what the figure is, for a reader of the JSON form.
	Note string `json:"note"`
	// Points are the budgets at which some search of a lost tree had a
	// mean for its decided root child, in increasing order.
	Points []OverconfidencePoint `json:"points"`
}

// OverconfidencePoint is the §4 figure at one budget.
type OverconfidencePoint struct {
	Budget int64 `json:"budget"`
	// Searches counts the searches of lost trees whose decided root child
	// had a mean at this budget (a child without simulations has none,
	// and its search is not counted); Overconfident those whose mean, for
	// the player to move, is above OverconfidentAbove.
	Searches      int `json:"searches"`
	Overconfident int `json:"overconfident"`
	// Share is Overconfident / Searches.
	Share float64 `json:"share"`
}

// lostAtRoot reports whether tr is lost for the player to move at its
// root: its exact value for that player is below 1/2.
func lostAtRoot(tr *tree.Tree, sol *tree.Solution) bool {
	return forChooser(tr, 0, sol.Value(0)) < 0.5
}

// forChooser turns a value for max into one for the player who chooses at
// node id: max's at a max node, 1 − it at a min node.
func forChooser(tr *tree.Tree, id int32, v float64) float64 {
	if tr.Kind(id) == core.Min {
		return 1 - v
	}
	return v
}

// confidence is the mean the search reports, in snapshot s, for the root
// child it decided, for the player to move at the root; NaN without one
// (no decision, or a decided child without simulations).
func confidence(tr *tree.Tree, s *snapshot) float64 {
	if s.decision < 0 || s.decision >= tr.NumChildren(0) {
		return math.NaN()
	}
	return forChooser(tr, 0, s.value(tr.Child(0, s.decision)))
}

// addOverconfidence counts one search of a lost tree at budget b, whose
// confidence there is c (NaN: none, not counted).
func (r *Report) addOverconfidence(b int64, c float64) {
	if math.IsNaN(c) {
		return
	}
	if r.Overconfidence == nil {
		r.Overconfidence = &Overconfidence{Note: overconfidenceNote}
	}
	o := r.Overconfidence
	i, found := slices.BinarySearchFunc(o.Points, b, func(p OverconfidencePoint, b int64) int { return cmp.Compare(p.Budget, b) })
	if !found {
		o.Points = slices.Insert(o.Points, i, OverconfidencePoint{Budget: b})
	}
	p := &o.Points[i]
	p.Searches++
	if c > OverconfidentAbove {
		p.Overconfident++
	}
	p.Share = float64(p.Overconfident) / float64(p.Searches)
}
