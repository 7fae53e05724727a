package core_test

import (
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
)

// TestMinimaxBackup checks every stored node's minimax value against the
// value recomputed from its children's, bit for bit, after searches on
// random trees with chance nodes in both growth modes. The serial backup
// stops climbing where no value can change (backupMinimax's doc); this is
// the evidence that it never stops too early.
func TestMinimaxBackup(t *testing.T) {
	shape := gen.Shape{MaxDepth: 5, MaxBranching: 4, MaxNodes: 60, Arbitrary: true, Chance: true}
	rapid.Check(t, func(rt *rapid.T) {
		tr := gen.Trees(shape).Draw(rt, "tree")
		growth := rapid.SampledFrom([]core.Growth{core.GrowPaper, core.GrowPractical}).Draw(rt, "growth")
		sims := rapid.IntRange(1, 300).Draw(rt, "sims")
		cfg := core.Config{Seed: rapid.Uint64().Draw(rt, "seed"), Growth: growth, Backup: core.BackupMinimax}
		s := newSearch(t, tr.Game(), core.UCT{C: 1}, cfg)
		run(t, s, sims)
		nodes := dump(s) // depth first, children in index order
		for i, nd := range nodes {
			if nd.Visits == 0 {
				continue
			}
			want := nd.W / float64(nd.Visits) // a leaf: the mean, exact for fixed rewards on the grid
			if nd.Children > 0 {
				want = fromChildren(nd.Kind, children(nodes, i))
			}
			if math.Float64bits(nd.Value) != math.Float64bits(want) {
				rt.Fatalf("node %v (%v, %d visits): value %v, recomputed %v", nd.Path, nd.Kind, nd.Visits, nd.Value, want)
			}
		}
	})
}

// children returns the children of nodes[i] in a depth-first dump.
func children(nodes []core.NodeInfo, i int) []core.NodeInfo {
	var out []core.NodeInfo
	for j := i + 1; j < len(nodes) && len(nodes[j].Path) > len(nodes[i].Path); j++ {
		if len(nodes[j].Path) == len(nodes[i].Path)+1 {
			out = append(out, nodes[j])
		}
	}
	return out
}

// fromChildren is a node's minimax value from its visited children's, as
// core.BackupMinimax defines it: the first largest (smallest) at a max
// (min) node, the visit-weighted mean in index order at a chance node.
func fromChildren(kind core.Kind, kids []core.NodeInfo) float64 {
	v, seen, sum, weight := 0.0, false, 0.0, 0.0
	for _, k := range kids {
		if k.Visits == 0 {
			continue
		}
		switch kind {
		case core.Max:
			if !seen || k.Value > v {
				v = k.Value
			}
		case core.Min:
			if !seen || k.Value < v {
				v = k.Value
			}
		default:
			weight += float64(k.Visits)
			sum += float64(k.Visits) * k.Value
		}
		seen = true
	}
	if kind == core.Chance {
		return sum / weight
	}
	return v
}
