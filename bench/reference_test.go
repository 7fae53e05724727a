package bench_test

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// reference is UCT in practical mode on synth written by hand for that one
// workload, the yardstick of the engine's hot loop: no
// interface call for the rule or the game (the synth hash is computed in
// place), no Site, no optional statistic, no error or context checks, one
// slice of 16-byte nodes and the same tables of 1/n, 1/sqrt(n) and
// sqrt(ln n) that core uses. It makes every choice the engine makes, so
// that with the same seed it stores the same tree with the same statistics
// (TestReferenceMatchesEngine): unvisited children first in index order,
// else the highest UCT score, ties to the lower index, scores computed as
// core.UCTScore computes them and compared by their bits; a stored leaf is
// rolled out by uniform moves (core.RNG.IntN) on its first visit and
// expanded on its second.
type reference struct {
	b, d  int
	c     float64
	nodes []refNode
	path  []int32
	rng   core.RNG
	tab   *refTables
}

// refNode is a stored position, laid out as core's: reward sum (max's
// side), visits, first child (−1 until expanded).
type refNode struct {
	w     float64
	n     uint32
	first int32
}

const (
	refRecip   = 1 << 15 // counts whose 1/n and 1/sqrt(n) are looked up, as core's recipSize
	refSqrtLog = 1 << 18 // counts whose sqrt(ln n) is looked up, as core's sqrtLogSize
)

// refTables are the reference's lookup tables, computed as core computes
// its own, so that every score is the same float64.
type refTables struct {
	recip   [refRecip]struct{ inv, isq float64 }
	sqrtLog [refSqrtLog]float64
}

func newRefTables() *refTables {
	t := new(refTables)
	for i := 1; i < refRecip; i++ {
		n := float64(i)
		t.recip[i].inv, t.recip[i].isq = 1/n, 1/math.Sqrt(n)
	}
	for i := range t.sqrtLog {
		t.sqrtLog[i] = math.Sqrt(math.Log(max(float64(i), 1)))
	}
	return t
}

// newReference returns the reference search of synth(b, d) with UCT's
// constant c, room for capacity nodes reserved.
func newReference(b, d int, c float64, capacity int) *reference {
	return &reference{b: b, d: d, c: c, nodes: make([]refNode, 0, capacity), path: make([]int32, 0, 64), tab: newRefTables()}
}

// reset empties the tree and reseeds the generator.
func (r *reference) reset(seed uint64) {
	r.rng.Seed(seed)
	r.nodes = append(r.nodes[:0], refNode{first: -1})
}

// The synth game's constants (games.Synth, bench/doc.go).
const (
	synthRoot   = 0x243F6A8885A308D3
	synthGolden = 0x9E3779B97F4A7C15
	synthLeaf   = 0xD1B54A32D192ED03
)

func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// run performs sims simulations.
func (r *reference) run(sims int) {
	b, d := r.b, r.d
	for range sims {
		path := r.path[:0]
		h, depth, cur := uint64(synthRoot), 0, int32(0)
		var reward float64
		for {
			path = append(path, cur)
			if depth == d {
				reward = float64(mix(h^synthLeaf) & 1)
				break
			}
			nd := &r.nodes[cur]
			if nd.first < 0 {
				if nd.n == 0 {
					reward = r.rollout(h, depth)
					break
				}
				nd = r.expand(cur, b)
			}
			i := r.choose(r.nodes[nd.first:int(nd.first)+b], nd.n, depth&1 == 1)
			h = mix(h + uint64(i+1)*synthGolden)
			depth++
			cur = nd.first + int32(i)
		}
		r.backup(path, reward)
	}
}

// expand stores the k children of node cur, unvisited, and returns cur.
func (r *reference) expand(cur int32, k int) *refNode {
	first := len(r.nodes)
	for range k {
		r.nodes = append(r.nodes, refNode{first: -1})
	}
	nd := &r.nodes[cur]
	nd.first = int32(first)
	return nd
}

// backup adds reward to the nodes of path and keeps path's buffer.
func (r *reference) backup(path []int32, reward float64) {
	for _, p := range path {
		nd := &r.nodes[p]
		nd.n++
		nd.w += reward
	}
	r.path = path
}

// runGame is run with the game behind core.Game, as the engine has it:
// the same loop, which calls g's Kind, NumMoves, Play and Reward at every
// position and its core.Playouter for the roll-out instead of computing
// the synth hash in place. Against run, it measures what pluggability
// costs a hand-written loop; against the engine, what the engine costs
// beyond that. With the same seed it stores the same tree as run.
func (r *reference) runGame(sims int, g core.Game, p core.Playouter) {
	for range sims {
		path := r.path[:0]
		g.Reset()
		cur := int32(0)
		var reward float64
		for {
			path = append(path, cur)
			kind := g.Kind()
			if kind == core.Terminal {
				reward = g.Reward()
				break
			}
			k := g.NumMoves()
			nd := &r.nodes[cur]
			if nd.first < 0 {
				if nd.n == 0 {
					reward, _ = p.Playout(&r.rng, math.MaxInt)
					break
				}
				nd = r.expand(cur, k)
			}
			i := r.choose(r.nodes[nd.first:int(nd.first)+k], nd.n, kind == core.Min)
			g.Play(i)
			cur = nd.first + int32(i)
		}
		r.backup(path, reward)
	}
}

// choose is UCT's selection among the children kids of a node with parentN
// visits; flip at min nodes.
func (r *reference) choose(kids []refNode, parentN uint32, flip bool) int {
	t := r.tab
	var sl float64
	if parentN < refSqrtLog {
		sl = t.sqrtLog[parentN]
	} else {
		sl = math.Sqrt(math.Log(float64(parentN)))
	}
	cs := r.c * sl
	best, bestBits := 0, uint64(0)
	for i := range kids {
		n, w := kids[i].n, kids[i].w
		if n == 0 {
			return i
		}
		if flip {
			w = float64(n) - w
		}
		var inv, isq float64
		if n < refRecip {
			inv, isq = t.recip[n].inv, t.recip[n].isq
		} else {
			inv, isq = 1/float64(n), 1/math.Sqrt(float64(n))
		}
		if bits := math.Float64bits(float64(w*inv) + float64(cs*isq)); bits > bestBits {
			best, bestBits = i, bits
		}
	}
	return best
}

// rollout plays uniform moves from a position of hash h at depth to the
// end and returns max's reward.
func (r *reference) rollout(h uint64, depth int) float64 {
	for ; depth < r.d; depth++ {
		h = mix(h + uint64(r.rng.IntN(r.b)+1)*synthGolden)
	}
	return float64(mix(h^synthLeaf) & 1)
}

// walk calls fn for every stored node in depth-first order, children in
// index order, as core.Search.Walk does.
func (r *reference) walk(fn func(n uint32, w float64)) {
	var visit func(i int32)
	visit = func(i int32) {
		nd := r.nodes[i]
		fn(nd.n, nd.w)
		if nd.first >= 0 {
			for j := range int32(r.b) {
				visit(nd.first + j)
			}
		}
	}
	visit(0)
}

// TestReferenceMatchesEngine: the reference and core, with the same seed,
// store the same tree with the same visits and reward sums, node for node,
// so that BenchmarkReference compares the same work.
func TestReferenceMatchesEngine(t *testing.T) {
	const n = 30_000
	for _, sd := range []uint64{seed, 7} {
		cfg := practical
		cfg.Seed = sd
		s := newSearch(t, synth(t, 8, 10), core.UCT{C: math.Sqrt2}, cfg)
		if err := s.Run(context.Background(), n); err != nil {
			t.Fatal(err)
		}
		type stat struct {
			n uint32
			w float64
		}
		var engine []stat
		s.Walk(func(info core.NodeInfo) bool {
			engine = append(engine, stat{uint32(info.Visits), info.W})
			return true
		})
		g := synth(t, 8, 10)
		for name, run := range map[string]func(*reference){
			"reference": func(r *reference) { r.run(n) },
			"reference with the game behind core.Game": func(r *reference) { r.runGame(n, g, g) },
		} {
			r := newReference(8, 10, math.Sqrt2, 0)
			r.reset(sd)
			run(r)
			var ref []stat
			r.walk(func(n uint32, w float64) { ref = append(ref, stat{n, w}) })
			if len(engine) != len(ref) {
				t.Fatalf("seed %d: engine stored %d nodes, %s %d", sd, len(engine), name, len(ref))
			}
			for i := range engine {
				if engine[i] != ref[i] {
					t.Fatalf("seed %d: node %d (depth-first): engine %+v, %s %+v", sd, i, engine[i], name, ref[i])
				}
			}
		}
	}
}

// BenchmarkReference measures the engine's hot loop against the reference
// in the same op, on the reference workload (synth b=8 d=10, UCT C=√2,
// practical mode, 200,000 simulations from an empty tree, seed 1): each op
// runs one search of each of three loops, in an order that rotates from op
// to op, and times each with its thread's CPU clock, so that all meet the
// same machine. The loops: the engine; the reference (run); and the
// reference with the game behind core.Game (runGame). It reports each
// one's ns/sim and engine/reference, the ratio of the engine's CPU time
// to the reference's (the project aims at ≤ 0.9, docs/speed.md), and
// engine/game-reference, the ratio to the reference that pays for a
// pluggable game as the engine does.
func BenchmarkReference(b *testing.B) {
	ctx := context.Background()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	threadCPU()
	cfg := practical
	cfg.Seed = seed
	probe := newSearch(b, synth(b, 8, 10), core.UCT{C: math.Sqrt2}, cfg)
	if err := probe.Run(ctx, sims); err != nil {
		b.Fatal(err)
	}
	cfg.Capacity = probe.Nodes()
	s := newSearch(b, synth(b, 8, 10), core.UCT{C: math.Sqrt2}, cfg)
	// Each loop has its own memory: a loop that ran just before on the same
	// nodes would leave the next one its tree in the caches.
	r := newReference(8, 10, math.Sqrt2, cfg.Capacity)
	rg := newReference(8, 10, math.Sqrt2, cfg.Capacity)
	g := synth(b, 8, 10)
	loops := [3]func(){
		func() {
			s.Reset(seed)
			if err := s.Run(ctx, sims); err != nil {
				b.Fatal(err)
			}
		},
		func() {
			r.reset(seed)
			r.run(sims)
		},
		func() {
			rg.reset(seed)
			rg.runGame(sims, g, g)
		},
	}
	for _, loop := range loops {
		loop()
	}
	for _, ref := range []*reference{r, rg} {
		if len(ref.nodes) != s.Nodes() {
			b.Fatalf("a reference loop stored %d nodes, the engine %d", len(ref.nodes), s.Nodes())
		}
	}
	runtime.GC()
	b.ReportAllocs()
	var cpu [3]int64
	op := 0
	for b.Loop() {
		for j := range loops {
			k := (op + j) % len(loops)
			c0 := threadCPU()
			loops[k]()
			cpu[k] += int64(threadCPU() - c0)
		}
		op++
	}
	per := float64(b.N) * sims
	b.ReportMetric(float64(cpu[0])/per, "engine-ns/sim")
	b.ReportMetric(float64(cpu[1])/per, "reference-ns/sim")
	b.ReportMetric(float64(cpu[2])/per, "game-reference-ns/sim")
	b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "engine/reference")
	b.ReportMetric(float64(cpu[0])/float64(cpu[2]), "engine/game-reference")
}
