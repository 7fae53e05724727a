package props

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/internal/ctxtest"
	"github.com/mctscheck/mctscheck/tree"
)

// TestSearchPictureWithoutNodes: the picture of a search that reported
// its root's children alone knows them and the root, has nothing for any
// other node (unknown, not 0), and says why; the criterion judges the
// root alone.
func TestSearchPictureWithoutNodes(t *testing.T) {
	tr := tree.MustParse("(max (max 0 0.5) (min 1 0.25))")
	st, pre, err := newSearchTree(context.Background(), tr)
	if err != nil {
		t.Fatal(err)
	}
	run := &searchRun{tr: tr, st: st, pre: pre, seed: 1, budgets: []int64{64, 128, 256}}
	for _, b := range run.budgets {
		if err := run.take(Checkpoint{Sims: b, Decision: 0, Visits: []int64{b, 0}, Means: []float64{0.25, math.NaN()}}); err != nil {
			t.Fatal(err)
		}
	}
	s := searchPicture(tr, curveOf(tr, tree.Solve(tr), run.snaps), run.snaps, run.nodes)
	k := int32(tr.NumChildren(0))
	for i := range int32(tr.Len()) {
		if s.Reported(i) != (i <= k) {
			t.Errorf("node %d: reported %v", i, s.Reported(i))
		}
	}
	if len(s.Visits) != int(k)+1 || s.Visits[1] != 256 || *s.Means[1] != 0.25 || s.Visits[2] != 0 || s.Means[2] != nil || s.NotReported == "" {
		t.Errorf("the root's children: %+v", s)
	}
	js, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"visits":[256,256,0]`) || !strings.Contains(string(js), `"means":[0.25,0.25,null]`) ||
		!strings.Contains(string(js), `"not_reported":"`) {
		t.Errorf("JSON: %s", js)
	}
	j := DefaultCriterion.judgeSearch(tr, tree.Solve(tr), run.snaps, 2, run.nodes, 1)
	for _, f := range j.mechanisms {
		if f.Node != "0" {
			t.Errorf("a finding below the root: %+v", f)
		}
	}
}

// TestSearchTreeAbandoned: the copy of a large tree for a search gives up
// with the context's error when the context ends before or while it is
// made, and is whole when it does not.
func TestSearchTreeAbandoned(t *testing.T) {
	tr := tree.MustParse("(max" + strings.Repeat(" 0", 20_000) + " 1)")
	for _, looks := range []int{1, 2, 4} {
		if st, _, err := newSearchTree(ctxtest.EndsAt(looks), tr); !errors.Is(err, context.Canceled) || st != nil {
			t.Errorf("the context ending at its look %d: error %v, want context.Canceled and no tree", looks, err)
		}
	}
	st, pre, err := newSearchTree(context.Background(), tr)
	if err != nil || len(st.Nodes) != tr.Len() || len(pre) != tr.Len() || len(st.Nodes[0].Children) != tr.Len()-1 {
		t.Errorf("error %v; want %d nodes", err, tr.Len())
	}
}
