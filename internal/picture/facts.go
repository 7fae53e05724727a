package picture

import (
	"math"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// Facts are what a drawing of a tree shows, whatever draws it: the SVG and
// the DOT renderings read nothing else.
type Facts struct {
	// Nodes are the tree's nodes in its breadth-first numbering.
	Nodes []Node
	// Searched says that a search's statistics are in: Visits, Mean,
	// Share and Chosen, of the nodes Reported. Without one (solve -dot)
	// the drawing shows the values only.
	Searched bool
	// Unreported counts the nodes whose statistics the search did not
	// report (a whole search that reports the root's children only): they
	// are drawn "not reported", never as zeros.
	Unreported int
	// Budget is the search's last budget, in simulations; 0 without one.
	Budget int64
	// Mechanism names the finding that keeps the decision wrong, as the
	// drawing's caption gives it, e.g. "Eq. 5: child 0 of node 0 starved";
	// empty if none.
	Mechanism string
}

// Node is one node of the tree with what is known of it.
type Node struct {
	ID     int32
	Parent int32  // -1 for the root
	Index  int    // its index among its parent's children
	Path   string // the node's name in reports: "0" the root, "0.1" its child 1
	Depth  int
	Kind   core.Kind
	// Value is the node's exact Bellman value V for max (tree.Solve): a
	// terminal's reward, a chooser's best child's, a chance node's mean.
	Value float64
	// Prob is its probability under a chance parent; 0 otherwise.
	Prob float64
	// Optimal says that it is an optimal child of its max or min parent.
	Optimal bool
	// Reported says that the search reported the node's statistics:
	// Visits, the simulations through it at the last budget, Mean, their
	// mean reward for max (NaN without simulations), and Share, its share
	// of its siblings' simulations (0 when they have none; NaN when some
	// sibling's are not reported). They are zero and NaN, and mean
	// nothing, for a node not reported.
	Reported bool
	Visits   int64
	Mean     float64
	Share    float64
	// Chosen says that it is the root child the search decided at the last
	// budget.
	Chosen bool
	// Mechanism says that it is the child the finding behind the
	// decision is about: the one starved (Eq. 5), or the worse one that
	// keeps its share (Eq. 4).
	Mechanism bool
}

// IsRootChild says whether the node is a child of the root.
func (n *Node) IsRootChild() bool { return n.Parent == 0 }

// Of gathers the facts of tr, with the search s on it and the findings
// about it when given (a witness's Search and Findings; nil for a tree
// alone). s's visits must be indexed by tr's nodes, as a witness's are.
func Of(tr *tree.Tree, s *props.WitnessSearch, findings []props.Finding) *Facts {
	sol := tree.Solve(tr)
	f := &Facts{Nodes: make([]Node, tr.Len()), Searched: s != nil && len(s.Visits) > 0 && len(s.Visits) <= tr.Len()}
	for i := range f.Nodes {
		id := int32(i)
		n := Node{ID: id, Parent: tr.Parent(id), Path: tree.FormatPath(tr.Path(id)), Kind: tr.Kind(id), Value: sol.Value(id),
			Mean: math.NaN(), Share: math.NaN()}
		if p := n.Parent; p >= 0 {
			n.Index = int(id - tr.First(p))
			n.Depth = f.Nodes[p].Depth + 1
			switch tr.Kind(p) {
			case core.Chance:
				n.Prob = tr.Prob(id)
			case core.Max, core.Min:
				n.Optimal = sol.IsOptimal(p, n.Index)
			}
		}
		f.Nodes[i] = n
	}
	if f.Searched {
		if len(s.Curve) > 0 {
			f.Budget = s.Curve[len(s.Curve)-1].Budget
		}
		for i := range f.Nodes {
			n := &f.Nodes[i]
			if n.Reported = s.Reported(int32(i)); !n.Reported {
				f.Unreported++
				continue
			}
			n.Visits = s.Visits[i]
			if i < len(s.Means) && s.Means[i] != nil {
				n.Mean = *s.Means[i]
			}
		}
		for i := range f.Nodes {
			n := &f.Nodes[i]
			if n.Parent < 0 || !n.Reported {
				continue
			}
			if sum, ok := f.childVisits(tr, n.Parent); ok {
				n.Share = 0
				if sum > 0 {
					n.Share = float64(n.Visits) / float64(sum)
				}
			}
		}
		if k := s.Decision; k >= 0 && k < tr.NumChildren(0) {
			f.Nodes[tr.Child(0, k)].Chosen = true
		}
	}
	f.mark(tr, findings)
	return f
}

// childVisits sums the simulations of p's children; false if some
// child's are not reported.
func (f *Facts) childVisits(tr *tree.Tree, p int32) (int64, bool) {
	var sum int64
	for k := range tr.NumChildren(p) {
		c := &f.Nodes[tr.Child(p, k)]
		if !c.Reported {
			return 0, false
		}
		sum += c.Visits
	}
	return sum, true
}

// mark marks the child the last Eq. 5 or Eq. 4 finding is about, and
// names the finding; a finding about a node whose statistics the search
// did not report is not drawn.
func (f *Facts) mark(tr *tree.Tree, findings []props.Finding) {
	for i := len(findings) - 1; i >= 0; i-- {
		fd := findings[i]
		var what string
		switch fd.Condition {
		case props.Eq5:
			what = "starved"
		case props.Eq4:
			what = "keeps its share"
		default:
			continue
		}
		at, ok := follow(tr, fd.Node)
		if !ok || fd.Child < 0 || fd.Child >= tr.NumChildren(at) {
			return
		}
		if c := &f.Nodes[tr.Child(at, fd.Child)]; f.Searched && !c.Reported {
			continue // the search said nothing of it: the drawing says nothing either
		}
		f.Nodes[tr.Child(at, fd.Child)].Mechanism = true
		f.Mechanism = string(fd.Condition) + ": child " + strconv.Itoa(fd.Child) + " of node " + fd.Node + " " + what
		return
	}
}

// follow finds the node a finding names by its path ("0", "0.1").
func follow(tr *tree.Tree, path string) (int32, bool) {
	steps := strings.Split(path, ".")
	if steps[0] != "0" {
		return 0, false
	}
	var p []int32
	for _, s := range steps[1:] {
		k, err := strconv.Atoi(s)
		if err != nil {
			return 0, false
		}
		p = append(p, int32(k))
	}
	at, err := tr.Follow(p)
	return at, err == nil
}

// Num formats a value in the shortest form that reads back exactly; the
// trees' values are dyadic, so it is short.
func Num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Mean formats a search's mean: with up to three decimals, "0.5",
// "0.998"; "?" for NaN, none.
func Mean(m float64) string {
	if math.IsNaN(m) {
		return "?"
	}
	if t := strconv.FormatFloat(m, 'f', -1, 64); len(t) <= 5 {
		return t
	}
	return strconv.FormatFloat(m, 'f', 3, 64)
}

// Percent formats a share as a whole percentage, but below 1% with one
// significant digit and above 99% with as many decimals as it takes to
// tell it from 100%: "50%", "0.006%", "99.99%".
func Percent(s float64) string {
	p := 100 * s
	switch {
	case p > 0 && p < 1:
		return strconv.FormatFloat(p, 'f', int(math.Ceil(-math.Log10(p))), 64) + "%"
	case p > 99 && p < 100:
		for prec := 1; ; prec++ {
			if t := strconv.FormatFloat(p, 'f', prec, 64); t != "100."+strings.Repeat("0", prec) {
				return t + "%"
			}
		}
	}
	return strconv.FormatFloat(p, 'f', 0, 64) + "%"
}
