package bench_test

import (
	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// benchRules are the rules of the rule sweep, in the order of the tables:
// the catalogue's own, at their default parameters, so that a benchmark's
// rule=NAME is the rule a user gets from rules.Parse(NAME).
var benchRules = []ruleCase{
	{"uct", rules.MustParse("uct").Rule},
	{"smoothed", rules.MustParse("smoothed").Rule},
	{"rave", rules.MustParse("rave").Rule},
	{"eps-greedy", rules.MustParse("eps-greedy").Rule},
	{"threshold", rules.MustParse("threshold:v=0.3,rule=uct").Rule},
	// The costliest rule of the checker's default run, a softmax with a
	// decaying temperature (last, so that the indices above stay).
	{"boltzmann-decay", rules.MustParse("boltzmann-decay").Rule},
}

// ruleCase is a rule with the name its benchmarks carry.
type ruleCase struct {
	name string
	rule core.Rule
}
