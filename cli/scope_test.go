package cli

import (
	"encoding/json"
	"testing"
)

// TestCheckScope: a check on a tree outside a prediction's class of games
// (a chance node, for smoothed's claim about binary deterministic games)
// neither reproduces nor contradicts it, while the same check on
// a binary deterministic tree reproduces it.
func TestCheckScope(t *testing.T) {
	for _, c := range []struct{ tree, want string }{
		{"(max (chance 0.5:1 0.5:1) 0)", "not refuted"},
		{"(max (max 0 1) 0.25)", "not refuted"}, // a reward of 1/4: not binary
		{"(max (max 0 1) 0)", "reproduced"},
	} {
		r := mctscheck(t, "", "check", "-rule", "smoothed", "-tree", c.tree, "-budget", "4096", "-json")
		var doc struct {
			Verdict   string `json:"verdict"`
			Agreement string `json:"agreement"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 0 {
			t.Fatalf("%s: exit %d, %v\n%s%s", c.tree, r.code, err, r.stdout, r.stderr)
		}
		if doc.Agreement != c.want {
			t.Errorf("smoothed on %s: %s, agreement %q, want %q", c.tree, doc.Verdict, doc.Agreement, c.want)
		}
	}
}
