package props

import (
	"context"
	"fmt"
	"math"
	"slices"
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
//
// The checker recovers a panic of Search as a fault (FaultPanic), but only
// in the goroutine that called Search: a searcher that searches in
// goroutines of its own (tree-parallel workers) must recover their panics
// itself and return them as errors, or a panic there ends the whole
// program, check and all. Wait for the goroutines before Search returns.
type Searcher interface {
	// Search searches t once, drawing its random numbers from seed and
	// from nothing else: the same t and seed must give the same reports,
	// which the checker compares whenever it searches a tree again with a
	// seed (a witness and a fault are searched again before they are
	// reported). checkpoints are simulation counts, increasing: when the
	// search has run checkpoints[i] simulations it calls report with its
	// state, then goes on. If report returns an error, Search returns it
	// at once; when ctx ends, Search returns ctx.Err(). Search may be
	// called from several goroutines at once, when Options.Jobs ≥ 2.
	Search(ctx context.Context, t *SearchTree, seed uint64, checkpoints []int64, report func(Checkpoint) error) error
}

// A LateFaulter is a Searcher that learns of some faults only after the
// search that made them has returned: searchexec.Program, whose program may
// write output after its last answer, read to the end when the program
// stops. RunSearch, RunSearchTree and CheckSearch call LateFault once their
// searches (and the shrinker's) are done; a fault it returns, with the tree
// as sent and the seed of the search it followed, makes the verdict
// Faulted on that tree and seed.
type LateFaulter interface {
	Searcher
	LateFault() (f *Fault, t *SearchTree, seed uint64)
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

// Checkpoint is a Searcher's state after Sims simulations. The checker
// enforces every rule below; a report that breaks one is a fault of the
// search (the verdict Faulted), with its kind:
//
//   - Sims is the checkpoint asked for, exactly (garbage), and a search
//     reports every checkpoint, in order, and none after the last.
//   - Done is 0, or between the last checkpoint's simulations and Sims
//     (range).
//   - Decision is a root child, 0 ≤ Decision < k for a root of k children
//     (range).
//   - Visits and Means have k entries each (garbage); visits are ≥ 0 and
//     never go down from one checkpoint to the next (range); a child with
//     visits has a mean, not NaN (nan), in [0,1] (range).
//   - The root children's visits add up to the simulations run (Done, or
//     Sims), or to one fewer (range).
//   - NodeVisits and NodeMeans are given at every checkpoint or at none
//     (garbage), with one entry per node (garbage); each node's obey the
//     rules of visits and means above; the root's node visits equal the
//     simulations run exactly (range); a root child's are the same in
//     both lists (range); at each node its children's visits add up to at
//     most its own (range).
//   - Means are for max at every node, whoever moves there: a terminal's
//     mean is its reward. A search whose terminals under min nodes have
//     the mean 1 − reward reports for the side to move (perspective).
//   - With NodeVisits, a chance node's children's visits follow its
//     probabilities, within what Bernstein's inequality allows at the
//     criterion's error rate (chance): a search that picks outcomes, or
//     treats a chance node as a decision, searches another game.
//   - The same tree and seed give the same reports, searched again
//     (nondeterministic).
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
	// below the root too (Eq. 4, Eq. 5 at node 0.1, Eq. 7 at terminals);
	// without them nothing below the root's children is known, and the
	// checker states nothing about it.
	NodeVisits []int64
	NodeMeans  []float64
}

// NewSearchTree returns tr as a Searcher gets it: its nodes in preorder.
func NewSearchTree(tr *tree.Tree) *SearchTree {
	st, _, _ := newSearchTree(context.Background(), tr)
	return st
}

// newSearchTree returns tr as a SearchTree, and each preorder number's
// node in tr; or ctx's error, abandoning the copy of a tree of millions
// of nodes, if ctx ends before it is done.
func newSearchTree(ctx context.Context, tr *tree.Tree) (*SearchTree, []int32, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	st := &SearchTree{Text: tr.String(), Nodes: make([]SearchNode, 0, tr.Len())}
	pre := make([]int32, 0, tr.Len())
	var err error
	var walk func(i int32) int
	walk = func(i int32) int {
		k := len(st.Nodes)
		if k%nodesBetweenLooks == 0 && err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return k
		}
		pre = append(pre, i)
		n := SearchNode{Kind: tr.Kind(i).String(), Reward: tr.Reward(i), Prob: tr.Prob(i), Move: tr.Move(i)}
		n.Prior, n.HasPrior = tr.Prior(i)
		st.Nodes = append(st.Nodes, n)
		for c := range tr.NumChildren(i) {
			j := walk(tr.Child(i, c))
			if err != nil {
				return k
			}
			st.Nodes[k].Children = append(st.Nodes[k].Children, j)
		}
		return k
	}
	walk(0)
	if err != nil {
		return nil, nil, err
	}
	return st, pre, nil
}

// nodesBetweenLooks is how many nodes a long copy makes between two looks
// at its context: a look costs a lock, a node tens of nanoseconds.
const nodesBetweenLooks = 1 << 12

// searchRun is one search of one tree: the reports checked and read as
// snapshots of the explicit tree.
type searchRun struct {
	tr      *tree.Tree
	st      *SearchTree
	pre     []int32 // the tree's node of each preorder number
	seed    uint64
	budgets []int64 // the checkpoints searched to
	asks    []int64 // the check's checkpoints, which a fault says were asked for
	snaps   []snapshot
	// answers are every answer as it was given (copied), the one that
	// broke the contract included: what the answer log compares.
	answers []Checkpoint
	layout  *seenNodes // the nodes whose statistics the reports carry
	nodes   bool       // the reports carry every node's statistics
	metered *running   // counts the simulations as checkpoints come
	ran     int64      // the simulations counted so far
}

// take records one report, checks it, and keeps it as a snapshot, or
// returns the *Fault it is.
func (r *searchRun) take(cp Checkpoint) error {
	r.answers = append(r.answers, cp.clone())
	if f := r.check(cp); f != nil {
		return f
	}
	r.snaps = append(r.snaps, r.snapshot(cp))
	r.metered.add(cp.Sims - r.ran) // the work planned, as a checkpoint counts it
	r.ran = cp.Sims
	return nil
}

// clone returns cp with slices of its own: a searcher may reuse its own.
func (cp Checkpoint) clone() Checkpoint {
	cp.Visits, cp.Means = slices.Clone(cp.Visits), slices.Clone(cp.Means)
	cp.NodeVisits, cp.NodeMeans = slices.Clone(cp.NodeVisits), slices.Clone(cp.NodeMeans)
	return cp
}

// done returns the simulations the search ran by its last answer that
// kept the contract: 0 before the first.
func (r *searchRun) done() int64 {
	if len(r.snaps) == 0 {
		return 0
	}
	return r.snaps[len(r.snaps)-1].visits(0)
}

// asked says what the search was asked, as a fault's Inputs do.
func (r *searchRun) asked() string {
	asks := r.asks
	if asks == nil {
		asks = r.budgets
	}
	return searchAsked(r.st.Text, r.seed, asks)
}

// searchAsked names a search in a fault's Inputs: its tree as sent, its
// seed and its checkpoints.
func searchAsked(text string, seed uint64, asks []int64) string {
	return fmt.Sprintf("for the tree %s with seed %d, checkpoints %d to %d doubling", text, seed, asks[0], asks[len(asks)-1])
}

// fault returns the fault of this search at the checkpoint it was asked
// for, at node (a path, or "" when the fault names none).
func (r *searchRun) fault(kind FaultKind, node, format string, args ...any) *Fault {
	f := &Fault{Kind: kind, Message: fmt.Sprintf(format, args...), Node: node, Sim: r.done(), Inputs: r.asked()}
	if i := len(r.snaps); i < len(r.budgets) {
		f.Checkpoint = r.budgets[i]
	}
	return f
}

// complete fills in what is known of where f, a fault the searcher
// returned (a crash, a hang, garbage), happened: the checkpoint it was
// asked for and what it had answered. No node is known.
func (r *searchRun) complete(f *Fault) *Fault {
	if f.Inputs == "" {
		g := r.fault(f.Kind, "", "%s", f.Message)
		f.Node, f.Sim, f.Checkpoint, f.Inputs = "", g.Sim, g.Checkpoint, g.Inputs
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
		return r.fault(FaultGarbage, "", "reported a checkpoint after the last one, %d", r.budgets[len(r.budgets)-1])
	}
	sims, k := r.budgets[i], r.tr.NumChildren(0)
	switch {
	case cp.Sims != sims:
		return r.fault(FaultGarbage, "", "reported %d simulations at the checkpoint of %d", cp.Sims, sims)
	case cp.Done < 0 || cp.Done > sims || i > 0 && cp.Done != 0 && cp.Done < r.snaps[i-1].visits(0):
		return r.fault(FaultRange, "", "reported %d simulations done at the checkpoint of %d", cp.Done, sims)
	case len(cp.Visits) != k || len(cp.Means) != k:
		return r.fault(FaultGarbage, "0", "reported %d visit counts and %d means for a root with %d children", len(cp.Visits), len(cp.Means), k)
	case cp.Decision < 0 || cp.Decision >= k:
		return r.fault(FaultRange, "0", "decided child %d of a root with %d children: not a legal root move", cp.Decision, k)
	case i > 0 && (cp.NodeVisits != nil) != r.nodes:
		return r.fault(FaultGarbage, "", "reported every node's statistics at some checkpoints only")
	case cp.NodeVisits != nil && (len(cp.NodeVisits) != r.tr.Len() || len(cp.NodeMeans) != r.tr.Len()):
		return r.fault(FaultGarbage, "", "reported %d node visit counts and %d node means for a tree of %d nodes", len(cp.NodeVisits), len(cp.NodeMeans), r.tr.Len())
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
		return r.fault(FaultRange, "0", "the root children's visits add up to %d after %d simulations", sum, sims)
	}
	if cp.NodeVisits == nil {
		return nil
	}
	if cp.NodeVisits[0] != sims {
		return r.fault(FaultRange, "0", "the root has %d visits after %d simulations", cp.NodeVisits[0], sims)
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
		path := tree.FormatPath(r.tr.Path(id))
		if r.tr.Parent(id) == 0 {
			if c := id - r.tr.First(0); v != cp.Visits[c] || v > 0 && m != cp.Means[c] {
				return r.fault(FaultRange, path, "root child %d has %d visits and the mean %v among the nodes, but %d and %v among the root's children",
					c, v, m, cp.Visits[c], cp.Means[c])
			}
		}
		kids := int64(0)
		for c := range r.tr.NumChildren(id) {
			kids += cp.NodeVisits[post[r.tr.Child(id, c)]]
		}
		if kids > v {
			return r.fault(FaultRange, path, "node %s's children have %d visits in all, more than its own %d", path, kids, v)
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
		return r.fault(FaultRange, path, "node %s has %d visits", path, v)
	case v > 0 && math.IsNaN(m):
		return r.fault(FaultNaN, path, "node %s has %d visits and the mean NaN", path, v)
	case v > 0 && !(m >= 0 && m <= 1):
		return r.fault(FaultRange, path, "node %s's mean is %v, outside [0,1]", path, m)
	case len(r.snaps) > 0 && v < r.snaps[len(r.snaps)-1].visits(id):
		return r.fault(FaultRange, path, "node %s's visits went down from %d to %d", path, r.snaps[len(r.snaps)-1].visits(id), v)
	}
	return nil
}

// snapshot is a checked report as the criterion reads it. With every
// node's statistics its layout is every node; without, it holds the root
// and its children alone (nodes 0 to k, the tree numbering nodes
// breadth-first), the root's mean being its children's, weighted by their
// visits: what the search did below them is unknown, and no criterion
// reads it (a node outside the layout would read as unvisited).
func (r *searchRun) snapshot(cp Checkpoint) snapshot {
	if r.layout == nil {
		r.nodes = cp.NodeVisits != nil
		n := r.tr.Len()
		if !r.nodes {
			n = 1 + r.tr.NumChildren(0)
		}
		r.layout = allNodes(n)
	}
	s := emptySnapshot(cp.Sims, cp.Decision, r.layout) // a node's position is its number
	if r.nodes {
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

// searchSafely runs one search, turning a panic of the searcher into a
// fault.
func searchSafely(ctx context.Context, s Searcher, run *searchRun) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = run.fault(FaultPanic, "", "panic: %v", p)
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
