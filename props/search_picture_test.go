package props

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/tree"
)

// TestSearchPictureWithoutNodes: the picture of a search that reported
// its root's children alone knows them and the root, marks every other
// node unknown (−1 visits, NaN means, null in JSON), and says why; the
// criterion judges the root alone.
func TestSearchPictureWithoutNodes(t *testing.T) {
	tr := tree.MustParse("(max (max 0 0.5) (min 1 0.25))")
	st, pre := newSearchTree(tr)
	run := &searchRun{tr: tr, st: st, pre: pre, seed: 1, budgets: []int64{64, 128, 256}}
	for _, b := range run.budgets {
		if err := run.take(Checkpoint{Sims: b, Decision: 0, Visits: []int64{b, 0}, Means: []float64{0.25, math.NaN()}}); err != nil {
			t.Fatal(err)
		}
	}
	s := searchPicture(tr, run.snaps, run.nodes)
	k := tr.NumChildren(0)
	for i := range tr.Len() {
		known := i <= k
		if s.Reported(i) != known || !known && (s.Visits[i] != -1 || !math.IsNaN(s.Means[i])) {
			t.Errorf("node %d: visits %d, mean %v, reported %v", i, s.Visits[i], s.Means[i], s.Reported(i))
		}
	}
	if s.Visits[1] != 256 || s.Means[1] != 0.25 || s.Visits[2] != 0 || !math.IsNaN(s.Means[2]) || s.NotReported == "" {
		t.Errorf("the root's children: %+v", s)
	}
	js, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"visits":[256,256,0,-1,-1,-1,-1]`) || !strings.Contains(string(js), `"means":[0.25,0.25,null,null,null,null,null]`) ||
		!strings.Contains(string(js), `"not_reported":"`) {
		t.Errorf("JSON: %s", js)
	}
	var back WitnessSearch
	if err := json.Unmarshal(js, &back); err != nil || len(back.Means) != tr.Len() || !math.IsNaN(back.Means[3]) || back.Means[0] != 0.25 {
		t.Errorf("back from JSON: %+v, %v", back, err)
	}
	j := DefaultCriterion.judgeSearch(tr, tree.Solve(tr), run.snaps, 2, run.nodes, 1)
	for _, f := range j.mechanisms {
		if f.Node != "0" {
			t.Errorf("a finding below the root: %+v", f)
		}
	}
}
