package core

import (
	"context"
	"math"
	"testing"
)

// treeGame is a uniform tree of the given branching and depth whose
// leaves are won (1) or lost (0) by a hash of their path, alternating max
// and min levels: rewards of 0 and 1 keep every reward sum exact, whatever
// the order of its additions.
type treeGame struct {
	b, d  int
	depth int
	h     uint64
}

func (g *treeGame) Reset()           { g.depth, g.h = 0, 1 }
func (g *treeGame) Play(i int)       { g.depth++; g.h = (g.h*31 + uint64(i) + 7) * 0x9E3779B97F4A7C15 }
func (g *treeGame) Prob(int) float64 { return 0 }
func (g *treeGame) Reward() float64  { return float64(g.h >> 63) }
func (g *treeGame) NumMoves() int {
	if g.depth == g.d {
		return 0
	}
	return g.b
}
func (g *treeGame) Kind() Kind {
	switch {
	case g.depth == g.d:
		return Terminal
	case g.depth%2 == 1:
		return Min
	}
	return Max
}

// TestBatchSeesItsOwn: a worker that holds back its backups near the root
// reads them back, so when it runs alone in a two-worker search it makes
// the serial search's choices, simulation for simulation, and once it has
// written them out the tree is the serial search's, node for node. The
// rules cover the direct UCT loop and a site (Threshold); virtual loss
// must not count the worker's own simulation.
func TestBatchSeesItsOwn(t *testing.T) {
	const sims = 3000
	for _, rule := range []Rule{UCT{C: math.Sqrt2}, Threshold{Rule: UCT{C: 1}, V: 0.3}} {
		for _, vl := range []VirtualLoss{{}, {N: 1}} {
			for _, growth := range []Growth{GrowPaper, GrowPractical} {
				cfg := Config{Growth: growth, Seed: 9, VirtualLoss: vl}
				serial, err := New(&treeGame{b: 3, d: 7}, rule, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if err := serial.Run(context.Background(), sims); err != nil {
					t.Fatal(err)
				}
				par, err := NewTreeParallel([]Game{&treeGame{b: 3, d: 7}, &treeGame{b: 3, d: 7}}, rule, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if !par.batching() {
					t.Fatal("a two-worker search does not batch")
				}
				w, b := par.workers[0], &par.par.batches[0]
				flushes := 0
				for i := range sims {
					w.t = int64(i)
					if err := par.simulateShared(w, b); err != nil {
						t.Fatal(err)
					}
					if b.sims == 0 {
						flushes++
					}
				}
				par.flush(b)
				if flushes >= sims/2 {
					t.Errorf("%d write-outs in %d simulations: the batch holds nothing back", flushes, sims)
				}
				if par.count != serial.count {
					t.Fatalf("%T %v %v: %d nodes, serial %d", rule, vl, growth, par.count, serial.count)
				}
				if !sameTree(serial, par, 0, 0, 3) {
					t.Errorf("%T %v %v: the batched worker's tree differs from the serial search's", rule, vl, growth)
				}
				if par.fly.used() && *par.fly.at(0) != 0 {
					t.Errorf("%T %v %v: a simulation left in flight", rule, vl, growth)
				}
			}
		}
	}
}

// sameTree reports whether node i of a and node j of b have the same
// statistics and the same subtrees, every inner node having b children.
func sameTree(a, b *Search, i, j int32, k int32) bool {
	x, y := a.nodes.at(i), b.nodes.at(j)
	if x.n != y.n || x.w != y.w || (x.first < 0) != (y.first < 0) {
		return false
	}
	for c := int32(0); c < k && x.first >= 0; c++ {
		if !sameTree(a, b, x.first+c, y.first+c, k) {
			return false
		}
	}
	return true
}

// TestHoldLimit: a worker holds back one simulation at a time at first,
// and at most batchSims, never more than about 1/32 of the simulations run.
func TestHoldLimit(t *testing.T) {
	for _, c := range []struct {
		t    int64
		want int
	}{{0, 1}, {31, 1}, {32, 2}, {32 * batchSims, batchSims}, {1 << 40, batchSims}} {
		if got := holdLimit(c.t); got != c.want {
			t.Errorf("holdLimit(%d) = %d, want %d", c.t, got, c.want)
		}
	}
}

// TestFlightCounts: a worker's simulation in flight counts once, for the
// other workers, on every node of its path, whether the top levels count
// it with its flight or the deeper ones with the shared counts, and not
// at all once backed up.
func TestFlightCounts(t *testing.T) {
	gs := []Game{&treeGame{b: 3, d: 9}, &treeGame{b: 3, d: 9}}
	s, err := NewTreeParallel(gs, UCT{C: 1}, Config{Seed: 4, VirtualLoss: VirtualLoss{N: 1}})
	if err != nil {
		t.Fatal(err)
	}
	w0, b0 := s.workers[0], &s.par.batches[0]
	w1, b1 := s.workers[1], &s.par.batches[1]
	for i := range 500 { // worker 0 alone grows the tree
		w0.t = int64(i)
		if err := s.simulateShared(w0, b0); err != nil {
			t.Fatal(err)
		}
	}
	s.flush(b0)
	check := func(inFlight bool) {
		t.Helper()
		path := w1.path
		if len(path) <= batchDepth+1 {
			t.Fatalf("a path of %d nodes does not reach below the flights", len(path))
		}
		for d := range len(path) - 1 {
			st := path[d]
			others, kids := s.othersInFlight(b0, d, st.node, st.first, st.kids)
			if want := uint32(0); d < batchDepth { // deeper, others assumes worker 0 in flight too
				if inFlight {
					want = 1
				}
				if others != want {
					t.Errorf("in flight %v: depth %d: %d others in flight, want %d", inFlight, d, others, want)
				}
			}
			for i, c := range kids {
				want := uint32(0)
				if inFlight && st.first+int32(i) == path[d+1].node {
					want = 1
				}
				if c != want {
					t.Errorf("in flight %v: depth %d, child %d: %d others in flight, want %d", inFlight, d, i, c, want)
				}
			}
		}
	}
	w1.t = 500
	r, err := descend[sharedRun](s, w1, b1)
	if err != nil {
		t.Fatal(err)
	}
	check(true)
	s.backupShared(w1, r, b1)
	check(false)
}
