package cli

import (
	"fmt"
	"strings"

	"github.com/mctscheck/mctscheck/internal/picture"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// optionsDoc is the checker's configuration, in check and run documents.
type optionsDoc struct {
	Trees     int    `json:"trees"`
	Traps     bool   `json:"traps"`
	Seeds     int    `json:"seeds"`
	Seed      uint64 `json:"seed"`
	MinBudget int    `json:"min_budget"`
	MaxBudget int    `json:"max_budget"`
	Growth    string `json:"growth"`
	// Shard is "K/N" for one part of a split check (-shard); absent for a
	// whole check.
	Shard string `json:"shard,omitempty"`
}

// ruleResult is the verdict on one rule with its evidence, in check and run
// documents: the checker's report, with the rule it is about, how the tool
// checked it and whether the verdict is what the papers predict. Its JSON
// form is encoding/json's of its fields: the rule and how it was checked,
// the verdict and the agreement, then the report's other fields.
type ruleResult struct {
	ruleCheck
	// Verdict is the report's, here so that the agreement follows it in
	// the JSON form; it hides Report.Verdict, which it always equals.
	Verdict props.Verdict `json:"verdict"`
	agreement
	*props.Report
}

// ruleCheck is the rule a result is about, how it was checked and what the
// papers predict about it.
type ruleCheck struct {
	Name       string        `json:"name"`
	Spec       string        `json:"spec"`
	Backup     string        `json:"backup"`
	Growth     string        `json:"growth"`
	BinaryOnly bool          `json:"binary_only"`
	Predicted  predictionDoc `json:"predicted"`
}

// Agreement compares a verdict with the papers' prediction, in the three
// words a finite run allows.
type Agreement string

const (
	// Reproduced: the predicted outcome was observed: a witness for a rule
	// predicted inconsistent, no counterexample for one predicted consistent.
	Reproduced Agreement = "reproduced"
	// NotRefuted: the check was inconclusive (no witness, some tree not
	// converged) or stuck (a decision wrong through the horizon, its limit
	// not shown: a practical finding, shown beside it). It neither
	// confirms nor refutes the prediction, which is about the limit.
	NotRefuted Agreement = "not refuted"
	// Contradicted: the opposite was observed: a witness for a rule
	// predicted consistent, or every tree converged for one predicted
	// inconsistent.
	Contradicted Agreement = "contradicted"
	// NotJudged: the rule faulted (a panic, a crash, a hang, a declaration
	// its own choices contradict): the check could not judge it, and its
	// exit code is that of a fault, not of a finding.
	NotJudged Agreement = "not judged"
)

// agreement is a result's agreement with the prediction.
type agreement struct {
	Agreement Agreement `json:"agreement"`
}

// agreementOf compares verdict v with prediction p, for a check on the
// checker's own trees (the traps and random trees).
func agreementOf(p rules.Prediction, v props.Verdict) Agreement {
	switch {
	case v == props.Interrupted:
		return Interrupted
	case v == props.Faulted:
		return NotJudged
	case v == props.Inconclusive, v == props.Stuck:
		return NotRefuted
	case (v == props.Inconsistent) != p.Consistent:
		return Reproduced
	}
	return Contradicted
}

// agreementOnChosen compares verdict v with prediction p for a check on
// trees or positions the user chose. There, no witness does not contradict
// a rule predicted inconsistent (the trees need hold none of its traps), and
// outside the prediction's class of games (inClass false: e.g. a tree with
// chance nodes, for a claim about binary deterministic games;
// rules.Prediction.AppliesTo) the claim says nothing, so no verdict there
// reproduces or contradicts it: both are "not refuted".
func agreementOnChosen(p rules.Prediction, v props.Verdict, inClass bool) Agreement {
	a := agreementOf(p, v)
	if a == NotJudged || a == Interrupted {
		return a
	}
	if !inClass { // the claim says nothing here: nothing is reproduced either
		return NotRefuted
	}
	if a == Contradicted && !p.Consistent {
		return NotRefuted
	}
	return a
}

// newRuleResult describes the report of a check of in.
func newRuleResult(in *rules.Instance, o props.Options, rep *props.Report) ruleResult {
	return ruleResult{
		ruleCheck: ruleCheck{Name: label(in), Spec: in.Spec, Backup: o.Backup.String(), Growth: o.Growth.String(),
			BinaryOnly: o.BinaryOnly, Predicted: predictionOf(in.Predicted)},
		Verdict:   rep.Verdict,
		Report:    rep,
		agreement: agreement{Agreement: agreementOf(in.Predicted, rep.Verdict)},
	}
}

// observed is the verdict in a table cell, inconclusive with its count.
func (r *ruleResult) observed() string {
	if r.interrupted() {
		word := "interrupted"
		if r.Stopped == props.StoppedDeadline {
			word = "stopped at deadline"
		}
		if r.neverStarted() {
			return word + " (not started)"
		}
		return fmt.Sprintf("%s (%d/%d)", word, r.Trees, r.TreesPlanned)
	}
	if r.Verdict == props.Inconclusive {
		return fmt.Sprintf("inconclusive (%d/%d)", r.Inconclusive, r.Trees)
	}
	if r.Verdict == props.Faulted {
		if r.Witness == nil || r.Witness.Fault == nil {
			return "FAULT"
		}
		return fmt.Sprintf("FAULT (%s)", r.Witness.Fault.Kind)
	}
	return strings.ReplaceAll(string(r.Verdict), "-", " ")
}

// witnessCell is the witness in a table cell: "5 nodes, Eq. 5".
func (r *ruleResult) witnessCell() string {
	switch {
	case r.Witness == nil:
		return "—"
	case r.Witness.Tree == nil:
		return string(r.Witness.Condition)
	}
	return fmt.Sprintf("%d nodes, %s", r.Witness.Nodes, r.Witness.Condition)
}

// frugality is the observed frugality in a table cell: the share of nodes
// visited at all, and during the window; "so far" after it for a check
// stopped before its verdict (Ctrl-C, the deadline), and "—" where no
// search reported it (a check stopped or faulted before its first tree, a
// whole search that reports the root alone): unknown, not 0%.
func (r *ruleResult) frugality() string {
	if !r.frugalityKnown() {
		return "—"
	}
	return fmt.Sprintf("%.0f%% (%.0f%%)", 100*r.Visited, 100*r.Recent) + r.soFar()
}

// frugalityKnown says whether some search reported its tree's frugality:
// a search visits the root at least, so a share of 0 is none.
func (r *ruleResult) frugalityKnown() bool { return r.Report != nil && r.Visited > 0 }

// speed is the simulations per second in a table cell: "—" when no
// simulation ran, "so far" after it for a check stopped before its verdict.
func (r *ruleResult) speed() string {
	if r.Report == nil || r.Sims == 0 {
		return "—"
	}
	return rate(r.SimsPerSecond) + r.soFar()
}

// soFar marks the figures of a check stopped before its verdict: " so
// far", or "".
func (r *ruleResult) soFar() string {
	if r.interrupted() {
		return " so far"
	}
	return ""
}

// agreeCell is the agreement in a table cell, a contradiction in capitals.
func (r *ruleResult) agreeCell() string {
	switch r.Agreement {
	case Contradicted:
		return "CONTRADICTED"
	case NotJudged:
		return "NOT JUDGED"
	}
	return string(r.Agreement)
}

// overconfidence says the paper's §4 figure in a line: the share of the
// searches of lost trees more than 90% confident, at the first and the
// last budget.
func (r *ruleResult) overconfidence() string {
	oc := r.Overconfidence
	if oc == nil || len(oc.Points) == 0 {
		return "no search of a lost tree was read, so the paper's overconfidence figure is not known"
	}
	first, last := oc.Points[0], oc.Points[len(oc.Points)-1]
	return fmt.Sprintf("more than 90%% confident of a lost tree in %s of %d searches at %d simulations, %s of %d at %d "+
		"(the paper's overconfidence figure, not a consistency verdict)",
		picture.Percent(first.Share), first.Searches, first.Budget, picture.Percent(last.Share), last.Searches, last.Budget)
}

// overconfidenceSeries says the paper's §4 figure at every budget, for
// the reports.
func (r *ruleResult) overconfidenceSeries() string {
	oc := r.Overconfidence
	if oc == nil || len(oc.Points) == 0 {
		return "no search of a lost tree was read (lost: exact value below 1/2 for the player to move at the root)"
	}
	var parts []string
	for _, p := range oc.Points {
		parts = append(parts, fmt.Sprintf("%d: %s (%d of %d)", p.Budget, picture.Percent(p.Share), p.Overconfident, p.Searches))
	}
	return "the searches of lost trees (exact value below 1/2 for the player to move at the root) whose decided move has a mean above 0.9 for that player, " +
		"by budget: " + strings.Join(parts, ", ") + "; *the paper's §4 figure, not a consistency verdict*"
}
