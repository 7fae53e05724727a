package props

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// A check whose context ends before its end (Ctrl-C, a deadline) returns
// the context's error and, with it, the report of what finished: the trees
// judged, the curve of the searches done and, if a tree had already
// failed, its witness as found. Nothing judged is lost.

// stop settles the report of a check that stopped when ctx ended, after
// checking some of planned trees.
func (r *Report) stop(ctx context.Context, start time.Time, planned int) {
	r.Stopped = StoppedInterrupted
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		r.Stopped = StoppedDeadline
	}
	r.TreesPlanned = planned
	r.finish(start)
}

// foundWitness is the witness of res, the tree that failed, as found: in
// the failed seed's order, not shrunk, for a check that stopped before it
// could shrink it. Its replay is the caller's to set.
func foundWitness(o Options, res TreeResult, horizon uint64) *Witness {
	return &Witness{Verdict: res.Verdict, Rule: o.RuleSpec, Horizon: horizon, Tree: res.Tree, Nodes: res.Tree.Len(),
		Condition: condition(res.Findings), From: res.Name, Original: res.Tree, Findings: res.Findings, Fault: res.Fault,
		Seeds: []uint64{res.Seed}, Budgets: o.budgets(), Unfinished: true}
}

// stoppedWhy says how a check stopped, in a few words.
func (r *Report) stoppedWhy() string {
	if r.Stopped == StoppedDeadline {
		return "stopped at its deadline"
	}
	return "interrupted"
}

// stoppedSummary says what a check that stopped without a witness had
// found so far: no verdict.
func (r *Report) stoppedSummary() string {
	searches := 0
	if len(r.Curve) > 0 {
		searches = r.Curve[0].Searches
	}
	return fmt.Sprintf("%s after %d of %s (%d searches in all), no verdict: %d converged, %d did not converge so far; no witness so far",
		r.stoppedWhy(), r.Trees, plural(r.TreesPlanned, "tree"), searches, r.Converged, r.Inconclusive)
}

// unfinishedNote is what a summary adds for a witness the check stopped
// before shrinking.
func (r *Report) unfinishedNote() string {
	if r.Witness == nil || !r.Witness.Unfinished {
		return ""
	}
	return fmt.Sprintf("; %s before this witness was shrunk: it is the tree as found", r.stoppedWhy())
}
