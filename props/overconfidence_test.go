package props_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// sure is a whole search that splits its simulations evenly over the root
// children, decides child 0 and reports the mean Mean for every child
// (for max): as confident as it is told, whatever the tree.
type sure struct{ Mean float64 }

func (s sure) Search(ctx context.Context, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
	k := len(t.Nodes[0].Children)
	for _, b := range checkpoints {
		cp := props.Checkpoint{Sims: b, Visits: make([]int64, k), Means: make([]float64, k)}
		for c := range k {
			cp.Visits[c] = b / int64(k)
			if int64(c) < b%int64(k) {
				cp.Visits[c]++
			}
			cp.Means[c] = s.Mean
		}
		if err := report(cp); err != nil {
			return err
		}
	}
	return nil
}

// TestOverconfidence: the paper's §4 figure counts, at each budget, the
// searches of lost trees whose decided child's mean is above 0.9 for the
// player to move, and nothing on trees that are not lost.
func TestOverconfidence(t *testing.T) {
	o := props.Options{Seeds: 3, MaxBudget: 1024, Window: 2}
	points := func(share float64, overconfident int) []props.OverconfidencePoint {
		var out []props.OverconfidencePoint
		for b := int64(64); b <= 1024; b *= 2 {
			out = append(out, props.OverconfidencePoint{Budget: b, Searches: 3, Overconfident: overconfident, Share: share})
		}
		return out
	}
	for _, c := range []struct {
		name, tree string
		mean       float64
		want       []props.OverconfidencePoint // nil: no figure
	}{
		// Both of max's moves lose (V = 0): 0.95 for max is overconfident.
		{"max sure", "(max (min 1 0) (min 0 1))", 0.95, points(1, 3)},
		{"max at 0.9", "(max (min 1 0) (min 0 1))", 0.9, points(0, 0)},
		{"max unsure", "(max (min 1 0) (min 0 1))", 0.5, points(0, 0)},
		// Min loses too (V = 1 for max): a mean of 0.05 is 0.95 for min.
		{"min sure", "(min (max 1 0) (max 0 1))", 0.05, points(1, 3)},
		{"min unsure", "(min (max 1 0) (max 0 1))", 0.95, points(0, 0)},
		// Worth 1/2 to max: not lost, no figure.
		{"even", "(max (chance 0.5:1 0.5:0) (min 1 0.5))", 0.95, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := props.RunSearchTree(bg, sure{c.mean}, tree.MustParse(c.tree), o)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict == props.Faulted {
				t.Fatalf("%s", rep.Summary)
			}
			var got []props.OverconfidencePoint
			if rep.Overconfidence != nil {
				got = rep.Overconfidence.Points
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("points (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOverconfidenceRule: a rule's check has the figure too, one point per
// budget over every search of a lost tree. Min's only refutation is a
// chance node worth 1/4 to max, the last of its children: greedy (first-
// play urgency 1) tries each child once and, when the refutation's first
// draw is max's 1 (one seed in four), never tries it again, and is sure
// of a lost position as MoGo was; UCT tries it again and is not.
func TestOverconfidenceRule(t *testing.T) {
	tr := tree.MustParse("(max (min 1 1 1 (chance 0.25:1 0.75:0)))")
	o := props.Options{Seeds: 16, MaxBudget: 4096, KeepOrder: true}
	for _, c := range []struct {
		rule     core.Rule
		sure     bool // some search is more than 90% confident at the last budget
		rightful bool // every search is at most 90% confident at the last budget
	}{{greedy{}, true, false}, {core.UCT{C: 1}, false, true}} {
		rep, err := props.CheckTree(bg, c.rule, tr, o)
		if err != nil {
			t.Fatal(err)
		}
		oc := rep.Overconfidence
		if oc == nil || len(oc.Points) != len(rep.Curve) {
			t.Fatalf("%T: %+v, want a point per budget of %d", c.rule, oc, len(rep.Curve))
		}
		for i, p := range oc.Points {
			if p.Budget != rep.Curve[i].Budget || p.Searches != 16 || p.Share != float64(p.Overconfident)/16 {
				t.Errorf("%T: point %+v, want budget %d over 16 searches", c.rule, p, rep.Curve[i].Budget)
			}
		}
		last := oc.Points[len(oc.Points)-1]
		if (last.Overconfident > 0) != c.sure || (last.Overconfident == 0) != c.rightful {
			t.Errorf("%T: %d of 16 searches more than 90%% confident at %d", c.rule, last.Overconfident, last.Budget)
		}
		t.Logf("%T: %d of 16 searches more than 90%% confident at %d", c.rule, last.Overconfident, last.Budget)
	}
}
