package props_test

import (
	"context"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// coreSearch is a catalogue rule's search in package core (paper mode,
// the rule's backup, the most visited child decided), run as a whole
// search: what the search path of the checker sees of a program whose
// selection is that rule. It reports every node, or, with rootOnly, the
// root's children alone.
type coreSearch struct {
	rule     core.Rule
	backup   core.Backup
	rootOnly bool
}

// Search implements props.Searcher.
func (c coreSearch) Search(ctx context.Context, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
	tr, err := tree.Parse(t.Text)
	if err != nil {
		return err
	}
	s, err := core.New(tr.Game(), c.rule, core.Config{Seed: seed, Backup: c.backup})
	if err != nil {
		return err
	}
	k := len(t.Nodes[0].Children)
	for _, cp := range checkpoints {
		if err := s.Run(ctx, int(cp-s.Sims())); err != nil {
			return err
		}
		a := props.Checkpoint{Sims: cp, Decision: s.Decide(core.MostVisited), Visits: make([]int64, k), Means: make([]float64, k)}
		if !c.rootOnly {
			a.NodeVisits, a.NodeMeans = make([]int64, len(t.Nodes)), make([]float64, len(t.Nodes))
		}
		s.Walk(func(info core.NodeInfo) bool {
			p := 0 // the node's preorder number: its path followed down t
			for _, step := range info.Path {
				p = t.Nodes[p].Children[step]
			}
			if len(info.Path) == 1 {
				a.Visits[info.Path[0]], a.Means[info.Path[0]] = info.Visits, info.Value
			}
			if a.NodeVisits != nil {
				a.NodeVisits[p], a.NodeMeans[p] = info.Visits, info.Value
			}
			return true
		})
		if err := report(a); err != nil {
			return err
		}
	}
	return nil
}

// searchSweepJobs are the whole searches of the sweep: every spec of
// sweepGrid run in package core as a whole search, reporting every node
// ("search") and the root's children alone ("search, root only"), and the
// textbook search of the examples, correct and with the bugs that are only
// slow; each with its prediction.
func searchSweepJobs(t *testing.T) []sweepJob {
	var jobs []sweepJob
	for _, spec := range sweepGrid {
		in, err := rules.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		family := "search: " + familyOf(spec)
		pred := predictedWord(in.Predicted.Consistent)
		o := props.Options{BinaryOnly: in.Predicted.BinaryOnly(), RuleSpec: "search:" + in.Spec}
		jobs = append(jobs, sweepJob{family: family, spec: "search:" + in.Spec, search: coreSearch{rule: in.Rule, backup: in.Backup}, opts: o, predicted: pred})
		o.RuleSpec = "search-root:" + in.Spec
		jobs = append(jobs, sweepJob{family: family + ", root only", spec: o.RuleSpec, search: coreSearch{rule: in.Rule, backup: in.Backup, rootOnly: true}, opts: o, predicted: pred})
	}
	for _, bug := range []string{"", "virtual-loss-kept", "final-by-mean"} {
		spec := "textbook"
		if bug != "" {
			spec += " --bug " + bug
		}
		jobs = append(jobs, sweepJob{family: "search: textbook", spec: spec, search: textbookMCTS{Bug: bug}, opts: props.Options{RuleSpec: spec}, predicted: "consistent"},
			sweepJob{family: "search: textbook, root only", spec: spec + ", root only", search: rootOnly{textbookMCTS{Bug: bug}}, opts: props.Options{RuleSpec: spec}, predicted: "consistent"})
	}
	return jobs
}
