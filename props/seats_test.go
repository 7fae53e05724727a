package props

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// checkerFor returns a checker of the catalogue rule name with opts at
// their defaults.
func checkerFor(t *testing.T, name string, opts Options) *checker {
	t.Helper()
	in := rules.MustParse(name)
	opts.Backup = in.Backup
	o, err := opts.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	return &checker{rule: in.Rule, opts: o}
}

// TestSeatsReused: a tree's seeds share as many seats as they search at
// once, one a job, whatever the number of seeds and in whatever orders.
func TestSeatsReused(t *testing.T) {
	tr := gen.Trees(DefaultShape).Example(3)
	for _, tc := range []struct {
		jobs int
		keep bool
	}{{jobs: 1}, {jobs: 3}, {jobs: 1, keep: true}, {jobs: 2, keep: true}} {
		c := checkerFor(t, "uct", Options{Seeds: 12, Jobs: tc.jobs, KeepOrder: tc.keep, MaxBudget: 1024})
		sub := newTreeSubject(tr)
		res, err := c.seeds(context.Background(), "t", sub, "")
		if err != nil || res.Verdict != NoCounterexample {
			t.Fatalf("jobs %d: %v, %v; want no counterexample", tc.jobs, res.Verdict, err)
		}
		if n := len(sub.seats.free); n < 1 || n > tc.jobs {
			t.Errorf("jobs %d, keep order %v: %d seats, want 1 to %d", tc.jobs, tc.keep, n, tc.jobs)
		}
	}
}

// TestSeatSameAsFresh: a seed searched in a seat that earlier seeds used
// (its tree shuffled again in place, its search reset, its solution
// solved again) reads the same snapshots and judges the same as in a new
// seat, for rules that keep different statistics, on trees with chance
// nodes and priors.
func TestSeatSameAsFresh(t *testing.T) {
	trees := []*tree.Tree{gen.Trees(DefaultShape).Example(5), gen.Trees(DefaultShape).Example(8),
		tree.MustParse("(max" + strings.Repeat(" (min 0.5 0.25)", 40) + " (min 1 0.75))")}
	for _, name := range []string{"uct", "eps-greedy", "boltzmann-minimax", "prior", "rave"} {
		for ti, tr := range trees {
			c := checkerFor(t, name, Options{MaxBudget: 1024})
			shared := newTreeSubject(tr)
			for seed := range uint64(6) {
				order := shared.order(c, int(seed), seed+1)
				r1, _, _, err1 := c.runSeed(context.Background(), shared, seed+1, order)
				fresh := newTreeSubject(tr)
				r2, _, _, err2 := c.runSeed(context.Background(), fresh, seed+1, order)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s tree %d seed %d: %v, %v", name, ti, seed, err1, err2)
				}
				if d := seedDiff(r1, r2); d != "" {
					t.Errorf("%s tree %d seed %d: a used seat judges %s", name, ti, seed, d)
				}
				// The snapshots themselves, read before the seat is left to
				// the next seed (runSeed leaves it as it returns).
				ob1, err1 := shared.observe(context.Background(), c, seed+1, order)
				ob2, err2 := fresh.observe(context.Background(), c, seed+1, order)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s tree %d seed %d: %v, %v", name, ti, seed, err1, err2)
				}
				if !slices.Equal(ob1.snaps[0].seen.ids, ob2.snaps[0].seen.ids) {
					t.Errorf("%s tree %d seed %d: a used seat's search visits other nodes", name, ti, seed)
				}
				for k := range ob1.snaps {
					a, b := ob1.snaps[k], ob2.snaps[k]
					if a.decision != b.decision || !slices.Equal(a.n, b.n) || !slices.EqualFunc(a.v, b.v, sameFloat) {
						t.Errorf("%s tree %d seed %d: checkpoint %d differs in a used seat", name, ti, seed, k)
					}
				}
				ob1.leave(true, false)
			}
		}
	}
}

func sameFloat(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }

// seedDiff says how two seeds' judgements differ, or returns "".
func seedDiff(a, b seedResult) string {
	text := func(f *Finding) string {
		if f == nil {
			return ""
		}
		return f.Text
	}
	switch {
	case text(a.Wrong) != text(b.Wrong), text(a.Eq5) != text(b.Eq5), text(a.Eq4) != text(b.Eq4):
		return "other findings: " + text(a.Wrong) + text(a.Eq5) + text(a.Eq4) + " | " + text(b.Wrong) + text(b.Eq5) + text(b.Eq4)
	case a.OptimalFrom != b.OptimalFrom, !sameFloat(a.RootError, b.RootError), a.Visited != b.Visited, a.Recent != b.Recent:
		return "other figures"
	case !slices.Equal(a.eq5Frozen, b.eq5Frozen), a.eq5At != b.eq5At, a.eq4At != b.eq4At:
		return "other nodes"
	}
	return ""
}

// TestSnapshotsOf: snapshots read a node's statistics by its number, 0
// simulations and no mean where it is unvisited, and list the visited
// children of a node by their positions.
func TestSnapshotsOf(t *testing.T) {
	snaps := snapshotsOf([]checkpoint{
		{budget: 1, decision: 0, nodes: []visitedNode{{5, 1, 0.5}, {0, 1, 0.5}}},
		{budget: 2, decision: 1, nodes: []visitedNode{{9, 1, 1}, {0, 2, 0.75}, {5, 1, 0.5}}},
	}, nil)
	a, z := snaps[0], snaps[1]
	if !slices.Equal(a.seen.ids, []int32{0, 5, 9}) || a.seen != z.seen {
		t.Fatalf("seen %v and %v, want [0 5 9] shared", a.seen.ids, z.seen.ids)
	}
	if a.visits(9) != 0 || !math.IsNaN(a.value(9)) || z.visits(9) != 1 || z.value(9) != 1 || a.visits(3) != 0 || !math.IsNaN(z.value(3)) {
		t.Errorf("node 9: %d %v, then %d %v; node 3: %d %v", a.visits(9), a.value(9), z.visits(9), z.value(9), a.visits(3), z.value(3))
	}
	if z.visits(0) != 2 || z.value(0) != 0.75 || a.decision != 0 || z.decision != 1 || z.budget != 2 {
		t.Errorf("root %d %v, decisions %d %d", z.visits(0), z.value(0), a.decision, z.decision)
	}
	for _, tc := range []struct{ from, to, lo, hi int32 }{{1, 9, 1, 2}, {1, 10, 1, 3}, {6, 9, 2, 2}, {0, 100, 0, 3}} {
		if lo, hi := a.seen.span(tc.from, tc.to); lo != int(tc.lo) || hi != int(tc.hi) {
			t.Errorf("span(%d, %d) = %d, %d; want %d, %d", tc.from, tc.to, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestCheckTreeAllocates: checking a large tree allocates, per node,
// about what a few seeds searched at once hold (the tree in their
// orders, their searches, the solutions), not a copy of the tree and
// of its statistics for every seed and checkpoint; a chain of 2^17 nodes,
// 8 seeds, one job.
func TestCheckTreeAllocates(t *testing.T) {
	const inner = 1 << 16
	var b strings.Builder
	for d := range inner {
		b.WriteString([]string{"(max 0 ", "(min 1 "}[d%2])
	}
	b.WriteString("1" + strings.Repeat(")", inner))
	tr := tree.MustParse(b.String())
	in := rules.MustParse("uct")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rep, err := CheckTree(context.Background(), in.Rule, tr, Options{Seeds: 8, MaxBudget: 1024})
	runtime.ReadMemStats(&after)
	if err != nil || rep.Verdict != NoCounterexample {
		t.Fatalf("%v, %v; want no counterexample", rep.Verdict, err)
	}
	if perNode := float64(after.TotalAlloc-before.TotalAlloc) / float64(tr.Len()); perNode > 150 {
		t.Errorf("the check allocated %.0f bytes a node, want at most 150", perNode)
	}
}

// TestSnapshotsReuseMemory: snapshots laid out again in the memory of
// earlier ones are those of the new checkpoints, nothing of the old left,
// and a seed no larger than the last allocates nothing for them.
func TestSnapshotsReuseMemory(t *testing.T) {
	mem := new(snapMemory)
	big := []checkpoint{
		{budget: 1, nodes: []visitedNode{{0, 1, 0.5}, {3, 1, 0.5}, {4, 1, 1}}},
		{budget: 2, nodes: []visitedNode{{0, 2, 0.5}, {3, 1, 0.5}, {4, 1, 1}}},
		{budget: 4, nodes: []visitedNode{{0, 4, 0.5}, {3, 2, 0.5}, {4, 2, 1}}},
	}
	small := []checkpoint{
		{budget: 1, decision: 1, nodes: []visitedNode{{0, 1, 0.25}}},
		{budget: 2, decision: 1, nodes: []visitedNode{{0, 2, 0.25}, {2, 1, 0}}},
	}
	snapshotsOf(big, mem)
	var snaps []snapshot
	if allocs := testing.AllocsPerRun(10, func() { snaps = snapshotsOf(small, mem) }); allocs != 0 {
		t.Errorf("%v allocations laying out a smaller search in used memory, want 0", allocs)
	}
	fresh := snapshotsOf(small, nil)
	if len(snaps) != 2 {
		t.Fatalf("%d snapshots, want 2", len(snaps))
	}
	for k := range snaps {
		for _, id := range []int32{0, 2, 3, 4} {
			got, want := snaps[k], fresh[k]
			if got.visits(id) != want.visits(id) || fmt.Sprint(got.value(id)) != fmt.Sprint(want.value(id)) || got.budget != want.budget || got.decision != want.decision {
				t.Errorf("snapshot %d, node %d: %d %v, want %d %v", k, id, got.visits(id), got.value(id), want.visits(id), want.value(id))
			}
		}
	}
}
