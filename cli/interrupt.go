package cli

import (
	"fmt"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// Interrupted is the agreement of a rule whose check Ctrl-C stopped: the
// run neither confirms nor refutes its prediction.
const Interrupted Agreement = "interrupted"

// verdictInterrupted is the verdict of a rule whose check Ctrl-C stopped.
const verdictInterrupted props.Verdict = "interrupted"

// interruptedResult is the result of a check of in that Ctrl-C stopped,
// if started after done of total trees.
func interruptedResult(in *rules.Instance, o props.Options, started bool, done, total int) ruleResult {
	rep := &props.Report{Rule: o.RuleSpec, Verdict: verdictInterrupted, Trees: done, Seeds: o.Seeds, MaxBudget: int64(o.MaxBudget)}
	r := newRuleResult(in, o, rep)
	r.Agreement = Interrupted
	r.started, r.treesPlanned = started, total
	rep.Summary = r.interruptedSummary()
	rep.Unconverged, rep.Recoveries, rep.Curve = []props.TreeRef{}, []string{}, []props.CurvePoint{}
	return r
}

// interrupted reports whether the result is of an interrupted check.
func (r *ruleResult) interrupted() bool { return r.Agreement == Interrupted }

// interruptedSummary is the verdict in words of an interrupted check.
func (r *ruleResult) interruptedSummary() string {
	if !r.started {
		return "interrupted before it started"
	}
	if r.treesPlanned == 0 {
		return fmt.Sprintf("interrupted after %s, no witness so far", plural(r.Trees, "tree"))
	}
	return fmt.Sprintf("interrupted after %d of %d trees, no witness so far", r.Trees, r.treesPlanned)
}

// interruption ends a command that Ctrl-C stopped after it wrote what it
// had: exit code 130, with msg on stderr.
type interruption struct{ msg string }

func (e *interruption) Error() string { return e.msg }
