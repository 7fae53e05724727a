package props_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// uniformLiar always picks child 0 but declares uniform probabilities.
type uniformLiar struct{}

func (uniformLiar) Select(*core.Site) int { return 0 }
func (uniformLiar) Probs(s *core.Site, dst []float64) []float64 {
	for range s.Len() {
		dst = append(dst, 1/float64(s.Len()))
	}
	return dst
}

// scoreLiar scores the last child best but picks the first.
type scoreLiar struct{}

func (scoreLiar) Select(*core.Site) int             { return 0 }
func (scoreLiar) Score(_ *core.Site, i int) float64 { return float64(i) }

// impossibleLiar declares child 0 impossible and picks it.
type impossibleLiar struct{}

func (impossibleLiar) Select(*core.Site) int { return 0 }
func (impossibleLiar) Probs(s *core.Site, dst []float64) []float64 {
	for i := range s.Len() {
		p := 0.0
		if i == 1 {
			p = 1
		}
		dst = append(dst, p)
	}
	return dst
}

// TestLiesAreFaults: a verdict never rests on a declaration the rule's own
// choices contradict: each liar gets the verdict fault (FaultLie), with
// the disagreement named, where trusting it gave "inconclusive … recovers".
func TestLiesAreFaults(t *testing.T) {
	tr := tree.MustParse("(max (min 1 0) 0.5)")
	for _, tc := range []struct {
		name string
		rule core.Rule
		want []string
	}{
		{"uniform", uniformLiar{}, []string{"declared probabilities disagree with the rule's choices", "child 0 of node 0", "was declared 0.5", "chosen"}},
		{"scores", scoreLiar{}, []string{"declared scores disagree with the rule's choice: Select chose child 0, scored 0, while child 1 scored 1"}},
		{"impossible", impossibleLiar{}, []string{"Select chose child 0, declared impossible"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := props.CheckTree(bg, tc.rule, tr, props.Options{Seeds: 1})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != props.Faulted || rep.Witness.Fault.Kind != props.FaultLie {
				t.Fatalf("%s, want a fault (lie)", rep.Summary)
			}
			for _, w := range tc.want {
				if !strings.Contains(rep.Witness.Fault.Message, w) {
					t.Errorf("the fault %q does not say %q", rep.Witness.Fault.Message, w)
				}
			}
			if !strings.HasPrefix(rep.Summary, "fault (lie): declared") {
				t.Errorf("summary %q, want it to start with the fault", rep.Summary)
			}
		})
	}
}

// TestHonestDeclarationsPass: ε-greedy that declares its true
// probabilities is judged, never faulted, on a tree where the probe reads
// them (its constant ε keeps a worse child's share: inconsistent).
func TestHonestDeclarationsPass(t *testing.T) {
	rep, err := props.CheckTree(bg, honestEps{0.2}, tree.MustParse("(max (min 1 1 1 0) 0.03125)"), props.Options{Seeds: 4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Inconsistent {
		t.Fatalf("%s, want inconsistent", rep.Summary)
	}
}

// honestEps is epsGreedy with its probabilities declared.
type honestEps struct{ eps float64 }

func (e honestEps) Select(s *core.Site) int { return epsGreedy(e).Select(s) }
func (e honestEps) Probs(s *core.Site, dst []float64) []float64 {
	g := greedy{}.Select(s)
	for i := range s.Len() {
		p := e.eps / float64(s.Len())
		if i == g {
			p += 1 - e.eps
		}
		dst = append(dst, p)
	}
	return dst
}

// TestTruthfulDeclarationsNoFault: an ε-greedy that declares its
// probabilities truly is never taken for a liar, though the limit probe's
// windows at every scale share their draws (common random numbers): only
// independent selections are evidence. On these trees and seeds the
// probe's records, counted over all its windows, had called it a liar.
func TestTruthfulDeclarationsNoFault(t *testing.T) {
	trees := []string{"(max (min 1 1 0) 0.0625)", "(max (min 1 0) 0.5)", "(max (max 0 1) 0.5)", "(min (max 0 0 1) 0.75 (max 0 0.5))"}
	for _, eps := range []float64{0.1, 0.2, 0.3} {
		for _, text := range trees {
			rep, err := props.CheckTree(context.Background(), rules.EpsGreedy{Eps: eps}, tree.MustParse(text), props.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict == props.Faulted {
				t.Errorf("eps-greedy ε = %v on %s: %s", eps, text, rep.Summary)
			}
		}
	}
}
