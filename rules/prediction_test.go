package rules_test

import (
	"testing"

	"github.com/mctscheck/mctscheck/rules"
)

// TestPredictionScope: a claim about binary deterministic games applies to
// those games only, and an unrestricted claim to every game.
func TestPredictionScope(t *testing.T) {
	smoothed := rules.MustParse("smoothed").Predicted
	uct := rules.MustParse("uct").Predicted
	for _, c := range []struct {
		p         rules.Prediction
		bdg, want bool
	}{
		{smoothed, true, true},
		{smoothed, false, false},
		{uct, true, true},
		{uct, false, true},
	} {
		if got := c.p.AppliesTo(c.bdg); got != c.want {
			t.Errorf("%s: AppliesTo(%v) = %v, want %v", c.p, c.bdg, got, c.want)
		}
	}
	stuck := rules.Prediction{Consistent: true, Stuck: true, Frugal: rules.FrugalNo}
	if got, want := stuck.String(), "consistent, stuck in practice, not frugal"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}
