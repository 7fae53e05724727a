package props

import (
	"context"
	"math"
	"slices"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// snapshot is the state of one search at one checkpoint: its decision,
// and the real simulations and V̂ (max's perspective) of the explicit
// tree's nodes. The criterion reads the statistics of visited nodes only
// (an unvisited node has 0 simulations and no V̂), so a snapshot holds
// those alone, and its size follows the simulations, not the tree.
type snapshot struct {
	budget   int64
	decision int // root child picked by the decision rule, -1 if none
	seen     *seenNodes
	n        []int64   // n[j]: simulations through node seen.ids[j]
	v        []float64 // v[j]: its V̂, NaN while it is unvisited
}

// seenNodes are the nodes one search visited by any of its checkpoints,
// in increasing order: the positions of their statistics in each of the
// search's snapshots.
type seenNodes struct{ ids []int32 }

// slot returns the position of node id, and whether it was visited.
func (s *seenNodes) slot(id int32) (int, bool) { return slices.BinarySearch(s.ids, id) }

// span returns the positions lo to hi−1 of the visited nodes in [from, to).
func (s *seenNodes) span(from, to int32) (lo, hi int) {
	lo, _ = slices.BinarySearch(s.ids, from)
	hi, _ = slices.BinarySearch(s.ids, to)
	return lo, hi
}

// visits returns the simulations through node id: 0 if it is unvisited.
func (s *snapshot) visits(id int32) int64 {
	if j, ok := s.seen.slot(id); ok {
		return s.n[j]
	}
	return 0
}

// value returns V̂ of node id: NaN if it is unvisited.
func (s *snapshot) value(id int32) float64 {
	if j, ok := s.seen.slot(id); ok {
		return s.v[j]
	}
	return math.NaN()
}

// allNodes is the set of every node of a tree of n nodes, in which a
// node's position is its number: the snapshots of a whole search's
// reports (on the small trees a Searcher is given) are laid out over it.
func allNodes(n int) *seenNodes {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	return &seenNodes{ids: ids}
}

// emptySnapshot returns a snapshot over seen in which every node is
// unvisited.
func emptySnapshot(budget int64, decision int, seen *seenNodes) snapshot {
	s := snapshot{budget: budget, decision: decision, seen: seen,
		n: make([]int64, len(seen.ids)), v: make([]float64, len(seen.ids))}
	for j := range s.v {
		s.v[j] = math.NaN()
	}
	return s
}

// checkpoint is a search at one budget as recorded: the visited nodes in
// any order.
type checkpoint struct {
	budget   int64
	decision int
	nodes    []visitedNode
}

// visitedNode is one visited node's statistics at a checkpoint.
type visitedNode struct {
	id     int32
	visits int64
	value  float64
}

// snapMemory is the memory of one search's checkpoints and snapshots,
// which a seat keeps for the seeds that search on it in turn: a seed
// whose snapshots nobody reads any more leaves it to the next seed, so
// that a check allocates snapshots for the seeds it searches at once, not
// for every seed. The zero value is empty.
type snapMemory struct {
	nodes [][]visitedNode // each checkpoint's visited nodes
	ids   []int32
	n     []int64
	v     []float64
	snaps []snapshot
	seen  seenNodes
}

// grow returns s resliced to n elements, in its own memory if it has room.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// snapshotsOf lays out a search's checkpoints as snapshots that share the
// set of nodes visited at any of them, in mem's memory (nil: new memory).
func snapshotsOf(cps []checkpoint, mem *snapMemory) []snapshot {
	if mem == nil {
		mem = new(snapMemory)
	}
	ids := mem.ids[:0]
	for _, cp := range cps {
		for _, nd := range cp.nodes {
			ids = append(ids, nd.id)
		}
	}
	slices.Sort(ids)
	mem.ids = ids
	mem.seen = seenNodes{ids: slices.Clip(slices.Compact(ids))}
	seen, width := &mem.seen, len(mem.seen.ids)
	mem.n, mem.v = grow(mem.n, len(cps)*width), grow(mem.v, len(cps)*width)
	mem.snaps = grow(mem.snaps, len(cps))
	for k, cp := range cps {
		s := snapshot{budget: cp.budget, decision: cp.decision, seen: seen,
			n: mem.n[k*width : (k+1)*width : (k+1)*width], v: mem.v[k*width : (k+1)*width : (k+1)*width]}
		clear(s.n)
		for j := range s.v {
			s.v[j] = math.NaN()
		}
		for _, nd := range cp.nodes {
			j, _ := seen.slot(nd.id)
			s.n[j], s.v[j] = nd.visits, nd.value
		}
		mem.snaps[k] = s
	}
	return mem.snaps
}

// observer runs a search of one tree and records snapshots.
type observer struct {
	tr      *tree.Tree
	rule    core.Rule // the rule, guarded
	opts    Options
	search  *core.Search
	budgets []int64
	sims    int64 // simulations run, for the speed figure
	// stop, if set, ends the search after the checkpoint k whose decision
	// it accepts (the shrinker's candidates: a seed decided optimally in
	// the window cannot fail), and pruned records that it did.
	stop   func(k, decision int) bool
	pruned bool
	// mem, if set, is the memory the snapshots are laid out in (a seat's).
	mem *snapMemory
}

// run searches with seed through every checkpoint. A rule fault comes back
// as a *Fault error, and so do declarations that the search's choices
// contradict (guarded.audit).
func (o *observer) run(ctx context.Context, seed uint64) ([]snapshot, error) {
	s := o.search
	s.Reset(seed)
	cps := make([]checkpoint, 0, len(o.budgets))
	if o.mem == nil {
		o.mem = new(snapMemory)
	}
	o.mem.nodes = grow(o.mem.nodes, len(o.budgets))
	var chunk int64
	r := o.opts.meter.begin()
	for _, b := range o.budgets {
		ran, err := runTo(ctx, s, b, r, o.opts.Workers >= 2, &chunk)
		o.sims += ran
		if err != nil {
			r.end(false)
			if f, ok := faultOf(err); ok {
				return nil, f
			}
			return nil, err
		}
		cps = append(cps, o.record(cps, b))
		if o.stop != nil && o.stop(len(cps)-1, cps[len(cps)-1].decision) {
			o.pruned = true
			break
		}
	}
	r.end(!o.pruned)
	if f := auditOf(o.rule); f != nil {
		return nil, f
	}
	return snapshotsOf(cps, o.mem), nil
}

// record reads the search's visited nodes by explicit node: the
// checkpoint after cps.
func (o *observer) record(cps []checkpoint, budget int64) checkpoint {
	cp := checkpoint{budget: budget, decision: o.search.Decide(o.opts.Decision)}
	// This checkpoint's memory, at once as large as the nodes it may have
	// visited: stored ones, on a path of some simulation.
	k := len(cps)
	nodes := slices.Grow(o.mem.nodes[k][:0], min(o.search.Nodes(), 1+int(budget)*max(o.tr.Depth(), 1)))
	ids := make([]int32, 0, 16) // explicit node at each depth of the walk
	o.search.Walk(func(info core.NodeInfo) bool {
		d := len(info.Path)
		ids = ids[:d]
		id := int32(0)
		if d > 0 {
			id = o.tr.Child(ids[d-1], int(info.Path[d-1]))
		}
		ids = append(ids, id)
		if info.Visits > 0 {
			nodes = append(nodes, visitedNode{id: id, visits: info.Visits, value: info.Value})
		}
		return true
	})
	cp.nodes, o.mem.nodes[k] = nodes, nodes
	return cp
}
