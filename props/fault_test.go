package props_test

import (
	"math"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// lateNaN scores child 1 NaN once the node has lateNaNFrom real simulations:
// the argmax passes over the NaN (child 0 keeps winning), so only the
// guard's checkpoints can see it.
type lateNaN struct{}

const lateNaNFrom = 100

func (lateNaN) Select(s *core.Site) int { return core.ArgmaxScore(s, lateNaN{}) }
func (lateNaN) Score(s *core.Site, i int) float64 {
	if i == 1 && s.ParentVisits() >= lateNaNFrom {
		return math.NaN()
	}
	return 1 / (1 + s.N(i))
}

// TestFaultAtCheckpoint: a NaN that never wins the argmax is found at the
// node's next checkpoint (a power of two of its visits), with its inputs.
func TestFaultAtCheckpoint(t *testing.T) {
	rep, err := props.CheckTree(bg, lateNaN{}, tree.MustParse("(max 1 0)"), props.Options{Seeds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Faulted || rep.Witness == nil || rep.Witness.Fault == nil {
		t.Fatalf("want a fault, got %s", rep.Summary)
	}
	f := rep.Witness.Fault
	if !strings.Contains(f.Message, "score NaN for child 1") || !strings.Contains(f.Inputs, "n=128") || f.Sim != 128 {
		t.Errorf("fault %+v, want child 1's NaN at the root's checkpoint of 128 visits", f)
	}
}

// TestGuardedUCTKeepsItsVerdict: core's UCT cannot score NaN, so the guard
// lets the search run UCT's own loop (core.Builtin); the check must come
// out as it does for the same scores behind a rule the guard re-scores.
func TestGuardedUCTKeepsItsVerdict(t *testing.T) {
	tr := tree.MustParse("(max (min 1 0) (min 0 0 1) 0.25)")
	opts := props.Options{Seeds: 2}
	direct, err := props.CheckTree(bg, core.UCT{C: math.Sqrt2}, tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	scored, err := props.CheckTree(bg, infFPU{}, tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	if direct.Verdict != scored.Verdict || direct.Sims != scored.Sims || direct.OptimalFrom != scored.OptimalFrom {
		t.Errorf("core.UCT: %s; the same scores through Score: %s", direct.Summary, scored.Summary)
	}
}
