package gen_test

import (
	"math"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/tree"
)

// TestEngineTraps checks every engine trap: one optimal root child, a
// binary flag that says the truth, priors that normalise to the policy the
// name gives the only good move, and more than 16 children at wide nodes.
func TestEngineTraps(t *testing.T) {
	seen := map[string]bool{}
	for _, tr := range gen.EngineTraps() {
		if seen[tr.Name] {
			t.Errorf("%s twice", tr.Name)
		}
		seen[tr.Name] = true
		sol := tree.Solve(tr.Tree)
		if len(sol.Optimal(0)) != 1 || sol.Value(0) == 0 {
			t.Errorf("%s: value %v, optimal %v; want one optimal child, worth more than 0", tr.Name, sol.Value(0), sol.Optimal(0))
		}
		binary := true
		for i := range int32(tr.Tree.Len()) {
			if tr.Tree.Kind(i) == core.Terminal && tr.Tree.Reward(i) != 0 && tr.Tree.Reward(i) != 1 {
				binary = false
			}
		}
		if binary != tr.Binary {
			t.Errorf("%s: Binary %v, rewards say %v", tr.Name, tr.Binary, binary)
		}
		if !strings.Contains(tr.Name, ",p=") {
			continue
		}
		// The good move at the node whose children carry the trap's p.
		node := int32(0)
		if strings.HasPrefix(tr.Name, "fpu:") {
			node = tr.Tree.Child(0, 1)
		}
		k := tr.Tree.NumChildren(node)
		var sum, good float64
		for j := range k {
			h, ok := tr.Tree.Prior(tr.Tree.Child(node, j))
			if !ok {
				t.Fatalf("%s: child %d of node %d has no prior", tr.Name, j, node)
			}
			sum += h
			if tr.Tree.Kind(tr.Tree.Child(node, j)) == core.Terminal && tr.Tree.Reward(tr.Tree.Child(node, j)) == 1 {
				good = h
			}
		}
		p := tr.Name[strings.Index(tr.Name, ",p=")+3:]
		p = p[:strings.Index(p, ",")]
		if want := map[string]float64{"0": 0, "0.015625": 1.0 / 64, "0.0009765625": 1.0 / 1024}[p]; math.Abs(good/sum-want) > 1e-12 {
			t.Errorf("%s: the good move's policy is %v, want %v", tr.Name, good/sum, want)
		}
		if strings.HasPrefix(tr.Name, "wide:") && k <= 16 {
			t.Errorf("%s: %d children, want more than 16", tr.Name, k)
		}
	}
}

func TestEngineTrapErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
	}{
		{"PriorTrap k=1", second(gen.PriorTrap(1, 0, 0))},
		{"PriorTrap p=1", second(gen.PriorTrap(2, 1, 0))},
		{"PriorTrap v not dyadic", second(gen.PriorTrap(2, 0, 0.3))},
		{"PriorTrap v=1", second(gen.PriorTrap(2, 0, 1))},
		{"WideTrap k=16", second(gen.WideTrap(16, 0, 0))},
		{"FPUTrap k=65", second(gen.FPUTrap(65, 0, 0))},
		{"FPUTrap p<0", second(gen.FPUTrap(4, -0.1, 0))},
		{"HeuristicTrap h=0", second(gen.HeuristicTrap(0, 0.25))},
		{"HeuristicTrap v=0", second(gen.HeuristicTrap(-1, 0))},
	} {
		if c.err == nil || !strings.HasPrefix(c.err.Error(), "gen: ") {
			t.Errorf("%s: error %v, want one that starts with \"gen: \"", c.name, c.err)
		}
	}
}

func second(_ gen.Trap, err error) error { return err }
