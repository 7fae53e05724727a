package rules_test

import (
	"context"
	"slices"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// TestOpaque: the wrapper hides every optional interface but core.Needer,
// forwards the needs, and searches exactly as the rule it wraps, for every
// rule of the catalogue and every engine preset.
func TestOpaque(t *testing.T) {
	if rules.Opaque(nil) != nil {
		t.Errorf("Opaque(nil) is not nil")
	}
	entries := append(rules.All(), rules.Engines()...)
	for _, e := range entries {
		in := rules.MustParse(e.Name)
		o := rules.Opaque(in.Rule)
		if _, ok := o.(core.Scorer); ok {
			t.Errorf("%s: Opaque is a core.Scorer", e.Name)
		}
		if _, ok := o.(core.Stochastic); ok {
			t.Errorf("%s: Opaque is core.Stochastic", e.Name)
		}
		if _, ok := o.(core.Builtin); ok {
			t.Errorf("%s: Opaque is core.Builtin", e.Name)
		}
		if _, ok := o.(core.VirtualExperience); ok {
			t.Errorf("%s: Opaque is a core.VirtualExperience", e.Name)
		}
		if _, ok := o.(interface{ Urgency(*core.Site, int) float64 }); ok {
			t.Errorf("%s: Opaque has Urgency", e.Name)
		}
		if _, ok := o.(core.Needer); !ok {
			t.Errorf("%s: Opaque is not a core.Needer", e.Name)
		}
		got, want := core.NeedsOf(o), core.NeedsOf(in.Rule)
		if got.AMAF != want.AMAF || got.Priors != want.Priors || got.Squares != want.Squares || (got.Virtual == nil) != (want.Virtual == nil) {
			t.Errorf("%s: needs %+v, want %+v", e.Name, got, want)
		}
		// The same search: the same visits at every root child.
		visits := func(r core.Rule) []int64 {
			cfg := core.Config{Seed: 7, Backup: in.Backup}
			s, err := core.New(tree.MustParse(priorTree).Game(), r, cfg)
			if err == nil {
				err = s.Run(context.Background(), 500)
			}
			if err != nil {
				t.Fatalf("%s: %v", e.Name, err)
			}
			var out []int64
			for i := range 4 {
				st, _ := s.Lookup([]int32{int32(i)})
				out = append(out, st.Visits)
			}
			return out
		}
		if a, b := visits(in.Rule), visits(o); !slices.Equal(a, b) {
			t.Errorf("%s: root visits %v, wrapped %v", e.Name, a, b)
		}
	}
}
