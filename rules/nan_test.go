package rules_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// TestNaNParameters: a catalogue rule built directly with a NaN parameter
// (bypassing Parse, which refuses NaN) is a fault the search reports, a
// *core.RuleError, and not the default run silently (as
// rules.Boltzmann{Tau: NaN} once did), nor NaN scores that pick a child. UCT is
// core.UCT's to check (Builtin), threshold core.Threshold's.
func TestNaNParameters(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		rule core.Rule
		want string // in the error
	}{
		{rules.Boltzmann{Tau: nan, FPU: 1}, "Boltzmann.Tau is NaN"},
		{rules.BoltzmannDecay{C: nan, FPU: 1}, "BoltzmannDecay.C is NaN"},
		{rules.EpsGreedyDecay{C: nan}, "EpsGreedyDecay.C is NaN"},
		{rules.Smoothed{K: nan}, "Smoothed.K is NaN"},
		{rules.RAVE{K: nan, Floor: 0.1}, "RAVE.K is NaN"},
		{rules.MCRAVE{K: nan}, "MCRAVE.K is NaN"},
		{rules.NegativeHeuristic{K: nan}, "NegativeHeuristic.K is NaN"},
		{rules.Prior{C: 1, N0: nan}, "virtual"},
		{rules.Pachi{Equiv: 3000, Eqex: nan}, "virtual"},
		// Fields read as they are.
		{rules.GreedyFPU{FPU: nan}, "GreedyFPU.FPU is NaN"},
		{rules.EpsGreedy{Eps: nan}, "EpsGreedy.Eps is NaN"},
		{rules.Boltzmann{Tau: 0.1, FPU: nan}, "Boltzmann.FPU is NaN"},
		{rules.BoltzmannDecay{C: 1, FPU: nan}, "BoltzmannDecay.FPU is NaN"},
		{rules.Prior{C: nan, N0: 1}, "Prior.C is NaN"},
		{rules.RAVE{K: 1, Floor: nan}, "RAVE.Floor is NaN"},
	} {
		s, err := core.New(tree.MustParse("(max 0~0.5 1~0.5 (max 0 1)~0.5)").Game(), c.rule, core.Config{})
		if err != nil {
			t.Fatalf("%#v: %v", c.rule, err)
		}
		err = s.Run(context.Background(), 64)
		var re *core.RuleError
		if !errors.As(err, &re) || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(c.want)) {
			t.Errorf("%#v: Run = %v, want a *core.RuleError saying %q", c.rule, err, c.want)
		}
	}
	// Their zero values still mean the defaults.
	for _, r := range []core.Rule{rules.Boltzmann{}, rules.BoltzmannDecay{}, rules.EpsGreedyDecay{}, rules.Smoothed{},
		rules.RAVE{}, rules.MCRAVE{}, rules.NegativeHeuristic{}, rules.Prior{}, rules.Pachi{Equiv: 3000}} {
		s, err := core.New(tree.MustParse("(max 0 1)").Game(), r, core.Config{})
		if err == nil {
			err = s.Run(context.Background(), 64)
		}
		if err != nil {
			t.Errorf("%#v: %v", r, err)
		}
	}
}
