package core

import (
	"context"
	"testing"
)

// kidsGame is a max node with k terminal children.
type kidsGame struct{ k, at int }

func (g *kidsGame) Reset()           { g.at = -1 }
func (g *kidsGame) Play(i int)       { g.at = i }
func (g *kidsGame) Prob(int) float64 { return 0 }
func (g *kidsGame) Reward() float64  { return float64(g.at % 2) }
func (g *kidsGame) NumMoves() int {
	if g.at < 0 {
		return g.k
	}
	return 0
}
func (g *kidsGame) Kind() Kind {
	if g.at < 0 {
		return Max
	}
	return Terminal
}

// TestVirtualLossFastPath: with whole virtual counts, a tree-parallel
// UCT search scores the snapshot with the virtual loss added (lossInto and
// the loop over nodes) and must choose as UCT.Select does on a site that
// carries the in-flight simulations as virtual experience.
func TestVirtualLossFastPath(t *testing.T) {
	rng := NewRNG(3)
	for _, vl := range []VirtualLoss{{N: 1}, {N: 3, Value: 0.5}, {N: 2, Value: 1}} {
		for _, kind := range []Kind{Max, Min} {
			for trial := range 300 {
				k := 2 + rng.IntN(6)
				s, err := NewTreeParallel([]Game{&kidsGame{k: k}, &kidsGame{k: k}}, UCT{C: 0.1 + 2*rng.Float64()}, Config{VirtualLoss: vl})
				if err != nil {
					t.Fatal(err)
				}
				if s.uct == nil {
					t.Fatal("no UCT loop for a whole virtual loss")
				}
				if err := s.Run(context.Background(), k+1); err != nil {
					t.Fatal(err)
				}
				root := s.nodes.at(0)
				first := root.first
				kids := make([]Stats, k)
				var total uint64
				for i := range k {
					n := uint64(1 + rng.IntN(50))
					if trial%3 == 0 {
						n += uint64(rng.IntN(1 << 14))
					}
					w := float64(rng.IntN(int(n)+1)) / 2
					f := uint32(rng.IntN(3))
					*s.nodes.at(first + int32(i)) = node{w: w, n: uint32(n), first: -1}
					*s.fly.at(first + int32(i)) = f
					vn := float64(f) * vl.N
					kids[i] = Stats{Visits: n, W: w, K1: vn, K2: vn * s.lossValue(kind)}
					total += n
				}
				rootFly := uint32(1 + rng.IntN(3)) // this worker's and the others'
				*root = node{w: float64(total) / 3, n: uint32(total), first: first}
				*s.fly.at(0) = rootFly
				vn := float64(rootFly-1) * vl.N
				self := Stats{Visits: total, W: float64(total) / 3, K1: vn, K2: vn * s.lossValue(Max)}
				site, err := NewSite(kind, self, kids, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				want := s.rule.Select(site)
				got := s.chooseUCTShared(s.workers[0], nil, 0, root, first, k, kind, 0)
				if got != want {
					t.Fatalf("%v %v trial %d: loop over nodes chose %d, UCT.Select on the site %d\n%+v\n%+v", vl, kind, trial, got, want, self, kids)
				}
			}
		}
	}
}
