package props

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// Searcher is a whole Monte-Carlo tree search, checked as it is: its own
// selection, expansion, roll-outs, backups and final decision, in Go
// (without package core) or in any language behind a pipe (package
// searchexec, docs/protocol.md). The checker gives it a tree and a seed;
// it searches once, and at each checkpoint reports its root decision and
// statistics.
type Searcher interface {
	// Search searches t once, drawing its random numbers from seed (the
	// same t and seed must give the same reports). checkpoints are
	// simulation counts, increasing: when the search has run
	// checkpoints[i] simulations it calls report with its state, then goes
	// on. If report returns an error, Search returns it at once; when ctx
	// ends, Search returns ctx.Err(). Search may be called from several
	// goroutines at once, when Options.Jobs ≥ 2.
	Search(ctx context.Context, t *SearchTree, seed uint64, checkpoints []int64, report func(Checkpoint) error) error
}

// SearchTree is the game a Searcher searches: an explicit tree, as plain
// data that needs no package of mctscheck to read. Nodes are numbered in
// the order in which they appear in Text (preorder: a node, then its
// children's subtrees in order), the root 0.
type SearchTree struct {
	// Text is the tree in the text format, as the search protocol sends it.
	Text  string
	Nodes []SearchNode
}

// SearchNode is a node of a SearchTree, with the edge into it.
type SearchNode struct {
	// Kind is "max", "min", "chance" or "terminal". Max maximises the
	// rewards, min minimises them, chance draws a child by Prob.
	Kind string
	// Reward is a terminal's reward for max, in [0,1]; 0 at other nodes.
	Reward float64
	// Children are the children's numbers in SearchTree.Nodes, in order;
	// empty at a terminal.
	Children []int
	// Prob is the probability of the edge into the node under a chance
	// node; 0 otherwise.
	Prob float64
	// Move is the move identity of the edge into the node (its index among
	// its siblings unless the tree says otherwise; 0 at the root), Prior
	// its prior when HasPrior: the tree format's @move and ~prior.
	Move     int
	Prior    float64
	HasPrior bool
}

// Checkpoint is a Searcher's state after Sims simulations.
type Checkpoint struct {
	// Sims is the checkpoint's count of simulations.
	Sims int64
	// Done, if not 0, is the simulations the search ran, fewer than Sims:
	// a search may end early (a solver that has proven the root's value)
	// and report its final state at this checkpoint and the later ones.
	Done int64
	// Decision is the root child the search would play now, by index.
	Decision int
	// Visits and Means are each root child's simulations and mean reward,
	// for max (the tree's rewards are max's), in the tree's child order; a
	// child with no simulation has any mean (NaN, say). The visits add up
	// to the simulations run (Done, or Sims), or one fewer for a search that
	// counts the root's own first expansion as a simulation.
	Visits []int64
	Means  []float64
	// NodeVisits and NodeMeans, if not nil, are every node's simulations
	// and mean, in SearchTree.Nodes' order (0 and any mean for a node the
	// search has not stored). With them the checker judges the mechanism
	// below the root too (Eq. 4, Eq. 5 at node 0.1, Eq. 7 at terminals).
	NodeVisits []int64
	NodeMeans  []float64
}

// NewSearchTree returns tr as a Searcher gets it: its nodes in preorder.
func NewSearchTree(tr *tree.Tree) *SearchTree {
	st, _ := newSearchTree(tr)
	return st
}

// newSearchTree returns tr as a SearchTree, and each preorder number's
// node in tr.
func newSearchTree(tr *tree.Tree) (*SearchTree, []int32) {
	st := &SearchTree{Text: tr.String(), Nodes: make([]SearchNode, 0, tr.Len())}
	pre := make([]int32, 0, tr.Len())
	var walk func(i int32) int
	walk = func(i int32) int {
		k := len(st.Nodes)
		pre = append(pre, i)
		n := SearchNode{Kind: tr.Kind(i).String(), Reward: tr.Reward(i), Prob: tr.Prob(i), Move: tr.Move(i)}
		n.Prior, n.HasPrior = tr.Prior(i)
		st.Nodes = append(st.Nodes, n)
		for c := range tr.NumChildren(i) {
			j := walk(tr.Child(i, c))
			st.Nodes[k].Children = append(st.Nodes[k].Children, j)
		}
		return k
	}
	walk(0)
	return st, pre
}

// searchRun is one search of one tree: the reports checked and read as
// snapshots of the explicit tree.
type searchRun struct {
	tr      *tree.Tree
	st      *SearchTree
	pre     []int32 // the tree's node of each preorder number
	seed    uint64
	budgets []int64
	snaps   []snapshot
	all     *seenNodes // every node of tr, the snapshots' layout
	nodes   bool       // the reports carry every node's statistics
	metered *running   // counts the simulations as checkpoints come
	ran     int64      // the simulations counted so far
}

// take checks one report and records it, or returns the *Fault it is.
func (r *searchRun) take(cp Checkpoint) error {
	if f := r.check(cp); f != nil {
		return f
	}
	r.snaps = append(r.snaps, r.snapshot(cp))
	r.metered.add(cp.Sims - r.ran) // the work planned, as a checkpoint counts it
	r.ran = cp.Sims
	return nil
}

// fault returns the fault of this search at its current checkpoint.
func (r *searchRun) fault(kind FaultKind, format string, args ...any) *Fault {
	sim := int64(0)
	if i := len(r.snaps); i < len(r.budgets) {
		sim = r.budgets[i]
	}
	return &Fault{Kind: kind, Message: fmt.Sprintf(format, args...), Node: "0", Sim: sim,
		Inputs: fmt.Sprintf("the search of %s with seed %d, checkpoints %d to %d doubling", r.st.Text, r.seed, r.budgets[0], r.budgets[len(r.budgets)-1])}
}

// complete fills in where f, a fault the searcher returned, happened: at
// the root, at the current checkpoint, in this search.
func (r *searchRun) complete(f *Fault) *Fault {
	if f.Inputs == "" {
		g := r.fault(f.Kind, "%s", f.Message)
		f.Node, f.Sim, f.Inputs = g.Node, g.Sim, g.Inputs
	}
	return f
}

// check returns the fault of a report whose counts do not add up, or nil:
// the checkpoint's count, one visit count and mean per child (and per
// node), a legal decision, visits that add up and never go down, means in
// [0,1].
func (r *searchRun) check(cp Checkpoint) *Fault {
	i := len(r.snaps)
	if i >= len(r.budgets) {
		return r.fault(FaultGarbage, "reported a checkpoint after the last one, %d", r.budgets[len(r.budgets)-1])
	}
	sims, k := r.budgets[i], r.tr.NumChildren(0)
	switch {
	case cp.Sims != sims:
		return r.fault(FaultGarbage, "reported %d simulations at the checkpoint of %d", cp.Sims, sims)
	case cp.Done < 0 || cp.Done > sims || i > 0 && cp.Done != 0 && cp.Done < r.snaps[i-1].visits(0):
		return r.fault(FaultRange, "reported %d simulations done at the checkpoint of %d", cp.Done, sims)
	case len(cp.Visits) != k || len(cp.Means) != k:
		return r.fault(FaultGarbage, "reported %d visit counts and %d means for a root with %d children", len(cp.Visits), len(cp.Means), k)
	case cp.Decision < 0 || cp.Decision >= k:
		return r.fault(FaultRange, "decided child %d of a root with %d children: not a legal root move", cp.Decision, k)
	case i > 0 && (cp.NodeVisits != nil) != r.nodes:
		return r.fault(FaultGarbage, "reported every node's statistics at some checkpoints only")
	case cp.NodeVisits != nil && (len(cp.NodeVisits) != r.tr.Len() || len(cp.NodeMeans) != r.tr.Len()):
		return r.fault(FaultGarbage, "reported %d node visit counts and %d node means for a tree of %d nodes", len(cp.NodeVisits), len(cp.NodeMeans), r.tr.Len())
	}
	if cp.Done > 0 {
		sims = cp.Done
	}
	sum := int64(0)
	for c := range k {
		if f := r.checkNode(r.tr.Child(0, c), cp.Visits[c], cp.Means[c]); f != nil {
			return f
		}
		sum += cp.Visits[c]
	}
	if sum > sims || sum < sims-1 {
		return r.fault(FaultRange, "the root children's visits add up to %d after %d simulations", sum, sims)
	}
	if cp.NodeVisits == nil {
		return nil
	}
	if cp.NodeVisits[0] != sims {
		return r.fault(FaultRange, "the root has %d visits after %d simulations", cp.NodeVisits[0], sims)
	}
	post := make([]int, r.tr.Len()) // the preorder number of each node
	for p, id := range r.pre {
		post[id] = p
	}
	for p, id := range r.pre {
		v, m := cp.NodeVisits[p], cp.NodeMeans[p]
		if f := r.checkNode(id, v, m); f != nil {
			return f
		}
		if r.tr.Parent(id) == 0 {
			if c := id - r.tr.First(0); v != cp.Visits[c] || v > 0 && m != cp.Means[c] {
				return r.fault(FaultRange, "root child %d has %d visits and the mean %v among the nodes, but %d and %v among the root's children",
					c, v, m, cp.Visits[c], cp.Means[c])
			}
		}
		kids := int64(0)
		for c := range r.tr.NumChildren(id) {
			kids += cp.NodeVisits[post[r.tr.Child(id, c)]]
		}
		if kids > v {
			return r.fault(FaultRange, "node %s's children have %d visits in all, more than its own %d", tree.FormatPath(r.tr.Path(id)), kids, v)
		}
	}
	return nil
}

// checkNode checks the visits v and mean m of node id against the last
// checkpoint's.
func (r *searchRun) checkNode(id int32, v int64, m float64) *Fault {
	path := tree.FormatPath(r.tr.Path(id))
	switch {
	case v < 0:
		return r.fault(FaultRange, "node %s has %d visits", path, v)
	case v > 0 && math.IsNaN(m):
		return r.fault(FaultNaN, "node %s has %d visits and the mean NaN", path, v)
	case v > 0 && !(m >= 0 && m <= 1):
		return r.fault(FaultRange, "node %s's mean is %v, outside [0,1]", path, m)
	case len(r.snaps) > 0 && v < r.snaps[len(r.snaps)-1].visits(id):
		return r.fault(FaultRange, "node %s's visits went down from %d to %d", path, r.snaps[len(r.snaps)-1].visits(id), v)
	}
	return nil
}

// snapshot is a checked report as the criterion reads it. Without every
// node's statistics the root's mean is its children's, weighted by their
// visits, and the other nodes count as unvisited.
func (r *searchRun) snapshot(cp Checkpoint) snapshot {
	if r.all == nil {
		r.all = allNodes(r.tr.Len())
	}
	s := emptySnapshot(cp.Sims, cp.Decision, r.all) // a node's position is its number
	if cp.NodeVisits != nil {
		r.nodes = true
		for p, id := range r.pre {
			if s.n[id] = cp.NodeVisits[p]; s.n[id] > 0 {
				s.v[id] = cp.NodeMeans[p]
			}
		}
		return s
	}
	s.n[0] = cp.Sims
	if cp.Done > 0 {
		s.n[0] = cp.Done
	}
	sum, w := int64(0), 0.0
	for c, v := range cp.Visits {
		id := r.tr.Child(0, c)
		if s.n[id] = v; v > 0 {
			s.v[id] = cp.Means[c]
			sum += v
			w += float64(v) * cp.Means[c]
		}
	}
	if sum > 0 {
		s.v[0] = w / float64(sum)
	}
	return s
}

// searchOutcome is one search of one tree, read: its verdict on that
// search (stuck or not), a fault, or an error of the check.
type searchOutcome struct {
	seed, order uint64
	tr          *tree.Tree // the tree in the seed's order
	r           seedResult
	findings    []Finding // Eq. 6 and the mechanisms behind it, when stuck
	stuck       bool
	nodes       bool // the searcher reported every node
	fault       *Fault
	curve       curveEntry
	last        *snapshot // the report at the last checkpoint
	sims        int64
	err         error
}

// witnessSearch is the search of out, for a picture of its witness: on a
// search that reports the root's children only, the root and its children
// are reported and the rest is unknown.
func (out *searchOutcome) witnessSearch() *WitnessSearch {
	reported := out.tr.Len()
	if !out.nodes {
		reported = 1 + out.tr.NumChildren(0)
	}
	return newWitnessSearch(out.curve, out.last, reported)
}

// runSearch searches tr (in its own order) with the i-th seed of o, in
// that seed's child order, and reads the reports. A whole search has no
// limit probe: it is stuck when its decision is wrong over the window
// (Eq. 6) with a mechanism behind it that the theory names (Eq. 5, Eq. 4,
// or Eq. 7 at a terminal), or when it decides against its own statistics
// (a decision rule that overrules an optimal most visited child with a
// clearly better mean).
func runSearch(ctx context.Context, s Searcher, o Options, tr *tree.Tree, i int) (out searchOutcome) {
	out.seed = o.Seed + uint64(i)
	out.tr = tr
	if i > 0 && !o.KeepOrder {
		out.order = out.seed
		out.tr = tr.Shuffled(core.NewRNG(out.order ^ orderSalt))
	}
	st, pre := newSearchTree(out.tr)
	run := &searchRun{tr: out.tr, st: st, pre: pre, seed: out.seed, budgets: o.budgets(), metered: o.meter.begin()}
	err := searchSafely(ctx, s, run)
	run.metered.end(err == nil && len(run.snaps) == len(run.budgets))
	if len(run.snaps) > 0 {
		out.sims = run.snaps[len(run.snaps)-1].budget
	}
	var f *Fault
	switch {
	case ctx.Err() != nil:
		out.err = ctx.Err()
		return out
	case errors.As(err, &f):
		out.fault = run.complete(f)
		return out
	case err != nil:
		out.fault = run.fault(FaultCrash, "Search: %v", err)
		return out
	case len(run.snaps) < len(run.budgets):
		out.fault = run.fault(FaultGarbage, "returned after %d of %d checkpoints", len(run.snaps), len(run.budgets))
		return out
	}
	sol := tree.Solve(out.tr)
	out.curve = curveOf(out.tr, sol, run.snaps)
	out.last = &run.snaps[len(run.snaps)-1]
	out.nodes = run.nodes
	out.r = o.Criterion.judgeSeed(out.tr, sol, run.snaps, o.Window)
	if out.r.Wrong == nil {
		wrong, rule := o.Criterion.decisionAgainst(out.tr, sol, run.snaps[len(run.snaps)-1-o.Window:])
		if wrong == nil {
			return out
		}
		out.findings = []Finding{*wrong, *rule}
	} else {
		out.findings = out.r.findings()
	}
	if run.nodes {
		if f := o.Criterion.terminalDrift(out.tr, run.snaps[len(run.snaps)-1-o.Window:]); f != nil {
			out.findings = append(out.findings, *f)
		}
	}
	if out.stuck = len(out.findings) > 1; out.stuck {
		out.findings[0].Text += fmt.Sprintf("; stuck through %d simulations, the largest budget run (a whole search has no limit probe: a return after it is not excluded)", o.MaxBudget)
	}
	return out
}

// searchSafely runs one search, turning a panic of the searcher into a
// fault.
func searchSafely(ctx context.Context, s Searcher, run *searchRun) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = run.fault(FaultPanic, "panic: %v", p)
		}
	}()
	return s.Search(ctx, run.st, run.seed, run.budgets, run.take)
}

// searchSummary says a whole search's verdict and its evidence in one line.
func searchSummary(r *Report) string {
	switch r.Verdict {
	case Stuck:
		return fmt.Sprintf("stuck: %s witness with %d nodes after %s: the root decision stays wrong through %d simulations, the largest budget run; a whole search has no limit probe, so its limit is not shown",
			r.Witness.Condition, r.Witness.Nodes, plural(r.Trees, "tree"), r.MaxBudget)
	case Faulted:
		f := r.Witness.Fault
		return fmt.Sprintf("fault: %s after %s: %s", f.Kind, plural(r.Trees, "tree"), f.Message)
	}
	return r.summary()
}

// forSearch checks that o suits a whole search, whose engine is its own,
// and fills in the defaults.
func (o Options) forSearch() (Options, error) {
	var set []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"Growth", o.Growth != 0}, {"Backup", o.Backup != 0}, {"Decision", o.Decision != 0},
		{"Workers", o.Workers != 0}, {"VirtualLoss", o.VirtualLoss != (core.VirtualLoss{})}, {"Horizon", o.Horizon != 0}} {
		if f.set {
			set = append(set, f.name)
		}
	}
	if len(set) > 0 {
		return o, fmt.Errorf("props: Options.%s: a whole search has its own engine and no limit probe; leave them zero", strings.Join(set, ", "))
	}
	return o.withDefaults()
}
