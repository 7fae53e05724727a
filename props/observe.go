package props

import (
	"context"
	"math"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// snapshot is the state of one search at one checkpoint, indexed by the
// explicit tree's node numbers.
type snapshot struct {
	budget   int64
	decision int       // root child picked by the decision rule, -1 if none
	visits   []int64   // real simulations through each node
	value    []float64 // V̂ of each node, max's perspective; NaN if unvisited
}

// observer runs searches of one tree and records snapshots.
type observer struct {
	tr      *tree.Tree
	rule    core.Rule // the rule, guarded
	opts    Options
	search  *core.Search
	budgets []int64
	sims    int64 // simulations run, for the speed figure
	// stop, if set, ends the search after the checkpoint k whose snapshot
	// it accepts (the shrinker's candidates: a seed decided optimally in
	// the window cannot fail), and pruned records that it did.
	stop   func(k int, sn *snapshot) bool
	pruned bool
}

func newObserver(tr *tree.Tree, rule core.Rule, opts Options) (*observer, error) {
	g := guard(rule)
	s, err := newSearch(tr, g, opts)
	if err != nil {
		return nil, err
	}
	return &observer{tr: tr, rule: g, opts: opts, search: s, budgets: opts.budgets()}, nil
}

// run searches with seed through every checkpoint. A rule fault comes back
// as a *Fault error, and so do declarations that the search's choices
// contradict (guarded.audit).
func (o *observer) run(ctx context.Context, seed uint64) ([]snapshot, error) {
	s := o.search
	s.Reset(seed)
	snaps := make([]snapshot, 0, len(o.budgets))
	for _, b := range o.budgets {
		before := s.Sims()
		err := s.Run(ctx, int(b-before))
		o.sims += s.Sims() - before
		if err != nil {
			if f, ok := faultOf(err); ok {
				return nil, f
			}
			return nil, err
		}
		snaps = append(snaps, o.snap(b))
		if o.stop != nil && o.stop(len(snaps)-1, &snaps[len(snaps)-1]) {
			o.pruned = true
			break
		}
	}
	if f := auditOf(o.rule); f != nil {
		return nil, f
	}
	return snaps, nil
}

// snap records the search's statistics by explicit node.
func (o *observer) snap(budget int64) snapshot {
	n := o.tr.Len()
	sn := snapshot{budget: budget, decision: o.search.Decide(o.opts.Decision),
		visits: make([]int64, n), value: make([]float64, n)}
	for i := range sn.value {
		sn.value[i] = math.NaN()
	}
	ids := make([]int32, 0, 16) // explicit node at each depth of the walk
	o.search.Walk(func(info core.NodeInfo) bool {
		d := len(info.Path)
		ids = ids[:d]
		id := int32(0)
		if d > 0 {
			id = o.tr.Child(ids[d-1], int(info.Path[d-1]))
		}
		ids = append(ids, id)
		sn.visits[id] = info.Visits
		sn.value[id] = info.Value
		return true
	})
	return sn
}
