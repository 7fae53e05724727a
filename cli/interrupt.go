package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// Interrupted is the agreement of a rule whose check Ctrl-C stopped: the
// run neither confirms nor refutes its prediction.
const Interrupted Agreement = "interrupted"

// notStarted is the result of a check of in that Ctrl-C (or the deadline)
// stopped before it started, in a run that stopped for the reason
// stopped (props.StoppedInterrupted or props.StoppedDeadline).
func notStarted(in *rules.Instance, o props.Options, stopped string) ruleResult {
	rep := &props.Report{Rule: o.RuleSpec, Verdict: props.Interrupted, Stopped: stopped, Seeds: o.Seeds, MaxBudget: int64(o.MaxBudget),
		Summary: "interrupted before it started", Unconverged: []props.TreeRef{}, Recoveries: []string{}, Curve: []props.CurvePoint{}}
	if stopped == props.StoppedDeadline {
		rep.Summary = "stopped at the deadline before it started"
	}
	return newRuleResult(in, o, rep)
}

// interrupted reports whether the result is of a check stopped before its
// verdict (Ctrl-C, the deadline).
func (r *ruleResult) interrupted() bool { return r.Agreement == Interrupted }

// neverStarted reports whether the result is of a check stopped before
// it started (notStarted), which has no figures.
func (r *ruleResult) neverStarted() bool { return r.interrupted() && r.TreesPlanned == 0 }

// stoppedBy is why ctx ended: props.StoppedDeadline when its deadline
// passed, props.StoppedInterrupted otherwise (Ctrl-C).
func stoppedBy(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return props.StoppedDeadline
	}
	return props.StoppedInterrupted
}

// interruption ends a command that Ctrl-C stopped after it wrote what it
// had: exit code 130, with msg on stderr.
type interruption struct{ msg string }

func (e *interruption) Error() string { return e.msg }

// deadlineStop ends a command that its -deadline stopped after it wrote
// what it had: msg on stderr, and the exit code of what was found by then
// (found: errFinding, errFault or nil).
type deadlineStop struct {
	msg   string
	found error
}

func (e *deadlineStop) Error() string { return e.msg }

// withDeadline returns e with a context that ends d from now (-deadline),
// and the function that releases it; e itself for d = 0, no deadline.
func (e *env) withDeadline(d time.Duration) (*env, context.CancelFunc, error) {
	switch {
	case d < 0:
		return nil, nil, usagef("-deadline %v: want a positive duration, such as 9m, or 0 for none", d)
	case d == 0:
		return e, func() {}, nil
	}
	ctx, cancel := context.WithTimeout(e.ctx, d)
	with := *e
	with.ctx, with.deadline = ctx, d
	return &with, cancel, nil
}

// stopped ends a command that stopped before its end for the reason why
// (props.StoppedInterrupted or props.StoppedDeadline), after it wrote what
// it had: exit code 130 for Ctrl-C; at the deadline, the code of what was
// found by then (found), the deadline's partial verdict being no verdict.
// what says what finished.
func (e *env) stopped(why, what string, found error) error {
	if why == props.StoppedDeadline {
		return &deadlineStop{msg: fmt.Sprintf("stopped at the deadline (-deadline %v): %s", e.deadline, what), found: found}
	}
	return &interruption{"interrupted: " + what}
}

// stoppedWords says how a check stopped (props.Report.Stopped), after
// "the check".
func stoppedWords(stopped string) string {
	if stopped == props.StoppedDeadline {
		return "stopped at its deadline"
	}
	return "was interrupted"
}

// written says where a stopped command's partial report is, if anywhere.
func written(out string) string {
	if out == "" {
		return "nothing written"
	}
	return "partial report in " + out
}
