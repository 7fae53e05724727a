package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

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
}

// ruleResult is the verdict on one rule with its evidence, in check and run
// documents: the checker's report, with the rule it is about, how the tool
// checked it and whether the verdict is what the papers predict.
type ruleResult struct {
	ruleCheck
	*props.Report
	agreement
	// For an interrupted check: whether it had started, and the trees it
	// would have checked (Report.Trees holds those it did).
	started      bool
	treesPlanned int
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
)

// agreement is a result's agreement with the prediction.
type agreement struct {
	Agreement Agreement `json:"agreement"`
}

// MarshalJSON writes the result as one object: the rule and how it was
// checked, then the report's fields, with the agreement right after the
// verdict.
func (r ruleResult) MarshalJSON() ([]byte, error) {
	rep, err := objectOf(r.Report)
	if err == nil {
		err = r.fixSummary(rep)
	}
	if err != nil {
		return nil, err
	}
	v := rep.index("verdict") + 1
	return joinObjects(r.ruleCheck, rep[:v], r.agreement, rep[v:])
}

// agreementOf compares verdict v with prediction p, for a check on the
// checker's own trees (the traps and random trees).
func agreementOf(p rules.Prediction, v props.Verdict) Agreement {
	switch {
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
// a witness outside the prediction's class of games (inClass false: e.g. a
// tree with chance nodes, for a claim about binary deterministic games) does
// not contradict a rule predicted consistent on that class: both are "not
// refuted".
func agreementOnChosen(p rules.Prediction, v props.Verdict, inClass bool) Agreement {
	a := agreementOf(p, v)
	if a == Contradicted && (!p.Consistent || !inClass) {
		return NotRefuted
	}
	return a
}

// newRuleResult describes the report of a check of in.
func newRuleResult(in *rules.Instance, o props.Options, rep *props.Report) ruleResult {
	return ruleResult{
		ruleCheck: ruleCheck{Name: label(in), Spec: in.Spec, Backup: o.Backup.String(), Growth: o.Growth.String(),
			BinaryOnly: o.BinaryOnly, Predicted: predictionOf(in.Predicted)},
		Report:    rep,
		agreement: agreement{Agreement: agreementOf(in.Predicted, rep.Verdict)},
	}
}

// observed is the verdict in a table cell, inconclusive with its count.
func (r *ruleResult) observed() string {
	if r.interrupted() {
		if !r.started {
			return "interrupted (not started)"
		}
		return fmt.Sprintf("interrupted (%d/%d)", r.Trees, r.treesPlanned)
	}
	if r.Verdict == props.Inconclusive {
		return fmt.Sprintf("inconclusive (%d/%d)", r.Inconclusive, r.Trees)
	}
	return strings.ReplaceAll(string(r.Verdict), "-", " ")
}

// witnessCell is the witness in a table cell: "5 nodes, Eq. 5".
func (r *ruleResult) witnessCell() string {
	if r.Witness == nil {
		return "—"
	}
	return fmt.Sprintf("%d nodes, %s", r.Witness.Nodes, r.Witness.Condition)
}

// frugality is the observed frugality in a table cell: the share of nodes
// visited at all, and during the window.
func (r *ruleResult) frugality() string {
	return fmt.Sprintf("%.0f%% (%.0f%%)", 100*r.Visited, 100*r.Recent)
}

// agreeCell is the agreement in a table cell, a contradiction in capitals.
func (r *ruleResult) agreeCell() string {
	if r.Agreement == Contradicted {
		return "CONTRADICTED"
	}
	return string(r.Agreement)
}

// rate formats simulations per second: "4.2M".
func rate(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.0fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// tableHeader and tableRow are the columns of the run table.
var tableHeader = []string{"RULE", "PREDICTED", "OBSERVED", "WITNESS", "FRUGAL", "VISITED (RECENT)", "SIMS/S", "PREDICTION"}

func (r *ruleResult) tableRow() []string {
	return []string{r.Name, predictedShort(r.Predicted), r.observed(), r.witnessCell(), frugalShort(r.Predicted.Frugal),
		r.frugality(), rate(r.SimsPerSecond), r.agreeCell()}
}

// label is the rule's name in tables, its spec when it has non-default
// parameters.
func label(in *rules.Instance) string {
	if def, err := rules.Parse(in.Entry.Name); err == nil && def.Spec == in.Spec {
		return in.Entry.Name
	}
	return in.Spec
}

// printTable writes the run table, the witnesses and the tally.
func printTable(w io.Writer, doc *runDoc) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(tableHeader, "\t"))
	for i := range doc.Rules {
		fmt.Fprintln(tw, strings.Join(doc.Rules[i].tableRow(), "\t"))
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%s; bdg: binary deterministic games only;\n", doc.scale())
	fmt.Fprintln(w, "inconclusive (n/N): no witness, but n of N trees did not converge; visited: share of tree nodes searched (in the last doublings).")
	var wit []ruleResult
	for _, r := range doc.Rules {
		if r.Witness != nil {
			wit = append(wit, r)
		}
	}
	if len(wit) > 0 {
		fmt.Fprintln(w, "\nWitnesses: the minimal tree on which the root decision stays wrong, and why (replay lines in report.md):")
		for _, r := range wit {
			fmt.Fprintf(w, "  %-19s %s\n", r.Name, r.Witness.Tree)
			if n := len(r.Witness.Findings); n > 0 {
				f := r.Witness.Findings[n-1]
				fmt.Fprintf(w, "  %-19s %s: %s\n", "", f.Condition, f.Text)
			}
		}
	}
	fmt.Fprintf(w, "\n%s\n", doc.tally())
}

// scale says what each rule was checked on.
func (doc *runDoc) scale() string {
	o := doc.Options
	return fmt.Sprintf("%d trap trees (%d for bdg rules) and %d random trees × %d seeds, budgets %d to %d doubling",
		doc.traps, doc.binaryTraps, o.Trees, o.Seeds, o.MinBudget, o.MaxBudget)
}

// tally counts the rules whose prediction was reproduced, not refuted and
// contradicted, and names the contradicted ones.
func (doc *runDoc) tally() string {
	var bad []string
	for _, r := range doc.Rules {
		if r.Agreement == Contradicted {
			pred := "consistent"
			if !r.Predicted.Consistent {
				pred = "inconsistent"
			}
			bad = append(bad, fmt.Sprintf("%s (predicted %s, observed %s)", r.Name, pred, r.Verdict))
		}
	}
	s := fmt.Sprintf("Of %d rules, the papers' prediction is reproduced for %d, not refuted (inconclusive or stuck) for %d, contradicted for %d",
		len(doc.Rules), doc.Reproduced, doc.NotRefuted, doc.Contradicted)
	if doc.Partial {
		s = fmt.Sprintf("PARTIAL (interrupted): %d of %d rules checked. ", len(doc.Rules)-doc.Interrupted, len(doc.Rules)) +
			s + fmt.Sprintf(", interrupted for %d", doc.Interrupted)
	}
	if len(bad) == 0 {
		return s + "."
	}
	return s + ": " + strings.Join(bad, ", ") + "."
}

// writeReport writes report.md, report.json and the convergence plots to dir.
func writeReport(dir string, doc *runDoc) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var js bytes.Buffer
	if err := writeJSON(&js, doc); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "report.json"), js.Bytes(), 0o644); err != nil {
		return err
	}
	if err := writePlots(dir, doc.Rules); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.md"), markdown(doc), 0o644)
}

// markdown renders the report.
func markdown(doc *runDoc) []byte {
	var b bytes.Buffer
	o := doc.Options
	fmt.Fprintf(&b, "# mctscheck report\n\n")
	fmt.Fprintf(&b, "`%s`\n\n", doc.Command)
	fmt.Fprintf(&b, "Each rule was checked on %s (seeds %d to %d), in %s mode, until its first witness. %s\n\n",
		doc.scale(), o.Seed, o.Seed+uint64(o.Seeds)-1, o.Growth, doc.tally())
	fmt.Fprintf(&b, "| %s |\n|%s\n", strings.Join(tableHeader, " | "), strings.Repeat("---|", len(tableHeader)))
	for i := range doc.Rules {
		row := doc.Rules[i].tableRow()
		row[0] = "[" + row[0] + "](#" + anchor(row[0]) + ")"
		if doc.Rules[i].Agreement == Contradicted {
			row[len(row)-1] = "**contradicted**"
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(row, " | "))
	}
	fmt.Fprintf(&b, "\n*bdg*: checked on binary deterministic games only (no chance nodes, rewards in {0,1}), the papers' condition. "+
		"*inconclusive (n/N)*: no witness, but n of N trees did not converge by the last budget. "+
		"*visited (recent)*: the share of the tree's nodes the searches visited at all (during the criterion's window), averaged over trees; "+
		"a frugal rule leaves part of the tree unvisited.\n\n")
	fmt.Fprintf(&b, "## Convergence\n\n![convergence](convergence.png)\n\n"+
		"Left: the share of searches whose root decision is not optimal, against the simulations run. "+
		"Right: the mean share of the root's simulations that went to optimal children. One line per rule, over every search "+
		"of every tree the rule was checked on (an inconsistent rule stops at its first witness, so its line covers fewer trees). "+
		"Also as [SVG](convergence.svg); the numbers are in report.json.\n\n")
	fmt.Fprintf(&b, "## Rules\n")
	for _, r := range doc.Rules {
		fmt.Fprintf(&b, "\n### %s\n\n", r.Name)
		agree := "prediction " + string(r.Agreement)
		if r.Agreement == Contradicted {
			agree = "**prediction contradicted**"
		}
		p := r.Predicted
		fmt.Fprintf(&b, "- spec: `%s`, %s backups\n", r.Spec, r.Backup)
		fmt.Fprintf(&b, "- predicted: %s, frugal: %s (%s): %s\n", predictedLong(p), p.Frugal, p.Source, p.Why)
		fmt.Fprintf(&b, "- observed: %s; %s\n", r.summary(), agree)
		fmt.Fprintf(&b, "- frugality: %.1f%% of the nodes visited, %.1f%% during the window; %s simulations/s\n",
			100*r.Visited, 100*r.Recent, rate(r.SimsPerSecond))
		for _, rec := range r.Recoveries {
			fmt.Fprintf(&b, "- recovers: %s\n", rec)
		}
		w := r.Witness
		if w == nil {
			continue
		}
		fmt.Fprintf(&b, "\nWitness (%s, %d nodes, shrunk from %s in %d evaluations):\n\n```\n%s\n```\n\n", w.Condition, w.Nodes, w.From, w.Shrinks, w.Tree)
		for _, f := range w.Findings {
			fmt.Fprintf(&b, "- %s: %s\n", f.Condition, f.Text)
		}
		if f := w.Fault; f != nil {
			fmt.Fprintf(&b, "- fault at node %s, simulation %d: %s\n\n```\n%s\n```\n", f.Node, f.Sim, f.Message, strings.TrimRight(f.Inputs, "\n"))
		}
		fmt.Fprintf(&b, "\nReplay%s:\n\n```sh\n", doc.replayNote)
		for _, l := range w.Replay {
			fmt.Fprintln(&b, l)
		}
		fmt.Fprintf(&b, "```\n")
	}
	return b.Bytes()
}

// anchor is the GitHub heading anchor of a rule name.
func anchor(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			b.WriteRune(c)
		case c == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
