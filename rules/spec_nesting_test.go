package rules_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/rules"
)

// nested is a spec of depth thresholds around uct:c=0.5.
func nested(depth int) string {
	return strings.Repeat("threshold:v=0.25,rule=", depth) + "uct:c=0.5"
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestParseNesting is the bad-input table of nested wrappers: up to
// MaxNesting rules parse, and every level's Spec is canonical and parses
// back to itself; deeper specs, the 8,000 and 20,000 levels that took
// gigabytes, are an error that names the limit. Memory is at most 16 KiB
// a level read (and 64 KiB for whatever else runs), whatever the depth.
func TestParseNesting(t *testing.T) {
	tests := []struct {
		depth int // thresholds around uct
		ok    bool
	}{
		{0, true},
		{1, true},
		{rules.MaxNesting - 1, true},
		{rules.MaxNesting, false},
		{8_000, false},
		{20_000, false},
	}
	for _, tt := range tests {
		spec := nested(tt.depth)
		var in *rules.Instance
		var err error
		bytes := allocated(func() { in, err = rules.Parse(spec) })
		// Each level parsed costs a few KiB (Lookup builds the catalogue).
		if limit := uint64(min(tt.depth+1, rules.MaxNesting))*16<<10 + 64<<10; bytes > limit {
			t.Errorf("depth %d: Parse allocated %d bytes, want under %d", tt.depth, bytes, limit)
		}
		if !tt.ok {
			want := "wrappers nested more than MaxNesting = 16 deep"
			if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "rules: threshold: parameter \"rule\": threshold:") {
				t.Errorf("depth %d: %.200v, want an error saying %q", tt.depth, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("depth %d: %v", tt.depth, err)
			continue
		}
		levels := 0
		for lv := in; lv != nil; lv = lv.Inner {
			levels++
			again, err := rules.Parse(lv.Spec)
			if err != nil || again.Spec != lv.Spec {
				t.Errorf("depth %d, level %d: Parse(%q) = %v, %v; want the same spec", tt.depth, levels, lv.Spec, again, err)
			}
		}
		want := strings.Repeat("threshold:v=0.25,vmin=0,rule=", tt.depth) + "uct:c=0.5"
		if in.Spec != want || levels != tt.depth+1 {
			t.Errorf("depth %d: Spec %q with %d levels, want %q with %d", tt.depth, in.Spec, levels, want, tt.depth+1)
		}
	}
}

// TestParseErrorDeepInside: an error in the innermost of MaxNesting rules
// names every level on the way.
func TestParseErrorDeepInside(t *testing.T) {
	spec := strings.Repeat("threshold:rule=", rules.MaxNesting-1) + "uct:c=x"
	_, err := rules.Parse(spec)
	want := "rules: " + strings.Repeat(`threshold: parameter "rule": `, rules.MaxNesting-1) + `uct: parameter "c": "x" is not a number`
	if err == nil || err.Error() != want {
		t.Errorf("Parse(%q) = %v, want %s", spec, err, want)
	}
}
