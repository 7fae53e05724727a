package props

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDeepestFirst: of the trap families, those at least twice as deep as
// most start first, the deepest first, then every other in order, the
// smallest, where a witness is found soonest, among them; a check of one
// tree has no order to change.
func TestDeepestFirst(t *testing.T) {
	o, err := Options{}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	trees := o.trees()
	order := deepestFirst(trees)
	var names []string
	for _, i := range order[:5] {
		names = append(names, trees[i].name)
	}
	want := []string{"trap eps-deep:l=8", "trap coquelin-munos:d=8", "trap eps-deep:l=4", "trap coquelin-munos:d=4", trees[0].name}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("the first trees started (-want +got):\n%s", d)
	}
	seen := make([]bool, len(order))
	for _, i := range order {
		seen[i] = true
	}
	for i, ok := range seen {
		if !ok || len(order) != len(o.traps()) {
			t.Fatalf("tree %d not started, or %d trees ordered for %d traps", i, len(order), len(o.traps()))
		}
	}
	if got := deepestFirst(trees[:1]); got != nil {
		t.Errorf("one tree: order %v", got)
	}
}
