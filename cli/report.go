package cli

// This file is the report writer: the run's table on stdout and the report
// directory (report.md, report.html, report.json and the plots of
// Tool.Plot).

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
		r.frugality(), r.speed(), r.agreeCell()}
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
			if r.Verdict == props.Faulted {
				fmt.Fprintf(w, "  %-19s FAULT (%s): %s\n", r.Name, r.Witness.Fault.Kind, oneLine(r.Witness.Fault.Message))
				continue
			}
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
	if doc.checkedOn != "" {
		return fmt.Sprintf("%s × %s, budgets %d to %d doubling", doc.checkedOn, plural(o.Seeds, "seed"), o.MinBudget, o.MaxBudget)
	}
	return fmt.Sprintf("%d trap trees (%d for bdg rules) and %s × %s, budgets %d to %d doubling",
		doc.traps, doc.binaryTraps, plural(o.Trees, "random tree"), plural(o.Seeds, "seed"), o.MinBudget, o.MaxBudget)
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
	s := fmt.Sprintf("Of %s, %s is reproduced for %d, not refuted (inconclusive or stuck) for %d, contradicted for %d",
		plural(len(doc.Rules), "rule"), doc.expectation, doc.Reproduced, doc.NotRefuted, doc.Contradicted)
	if doc.Faulted > 0 {
		var names []string
		for _, r := range doc.Rules {
			if r.Agreement == NotJudged {
				names = append(names, r.Name)
			}
		}
		s += fmt.Sprintf(", and %d could not be judged: %s faulted (not a finding about consistency: fix the rule, then check again)",
			doc.Faulted, strings.Join(names, ", "))
	}
	if doc.Options.Shard != "" {
		s = fmt.Sprintf("SHARD %s (a part of the check: its verdicts are of that part only; merge makes the whole report). ", doc.Options.Shard) + s
	}
	if doc.Partial {
		why := "interrupted"
		if doc.Stopped == props.StoppedDeadline {
			why = "stopped at the deadline"
		}
		s = fmt.Sprintf("PARTIAL (%s): %d of %d rules checked. ", why, len(doc.Rules)-doc.Interrupted, len(doc.Rules)) +
			s + fmt.Sprintf(", %s for %d", why, doc.Interrupted)
	}
	if len(bad) == 0 {
		return s + "."
	}
	return s + ": " + strings.Join(bad, ", ") + "."
}

// reportPages are the pages of a report directory: report.md and
// report.html, which name the plots of Tool.Plot when it draws them.
type reportPages interface {
	// convergence is what the plots draw, one panel per check.
	convergence() []Convergence
	// withFigures records the plot files written, for the pages.
	withFigures(files []string)
	markdown() []byte
	writeHTML(w io.Writer) error
}

func (doc *runDoc) withFigures(files []string) { doc.figures = files }
func (doc *runDoc) markdown() []byte           { return markdown(doc) }
func (doc *runDoc) writeHTML(w io.Writer) error {
	return writeHTML(w, doc)
}

func (doc *runDoc) convergence() []Convergence {
	curves := make([]Convergence, len(doc.Rules))
	for i := range doc.Rules {
		curves[i] = doc.Rules[i].convergence()
	}
	return curves
}

// convergence is what the plots draw of the result.
func (r *ruleResult) convergence() Convergence {
	return Convergence{Rule: r.Name, PredictedConsistent: r.Predicted.Consistent, Agreement: r.Agreement,
		Curve: r.Curve, Witness: r.witnessCurve(), MaxBudget: r.MaxBudget}
}

// writeReport writes report.md, report.html, report.json (jsonDoc, the
// document -json prints) and, with a plotter, the convergence plots to
// dir, and returns the names of the files written.
func writeReport(dir string, doc reportPages, jsonDoc any, plot Plotter) ([]string, error) {
	files := []string{"report.md", "report.html", "report.json"}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var js bytes.Buffer
	if err := writeJSON(&js, jsonDoc); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "report.json"), js.Bytes(), 0o644); err != nil {
		return nil, err
	}
	doc.withFigures(nil)
	if plot != nil {
		figs, err := plot(dir, doc.convergence())
		if err != nil {
			return nil, fmt.Errorf("the plots: %w", err)
		}
		doc.withFigures(figs)
		files = append(files, figs...)
	}
	var page bytes.Buffer
	if err := doc.writeHTML(&page); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "report.html"), page.Bytes(), 0o644); err != nil {
		return nil, err
	}
	return files, os.WriteFile(filepath.Join(dir, "report.md"), doc.markdown(), 0o644)
}

// witnessCurve is the curve of the witness's search on its tree; nil
// without one.
func (r *ruleResult) witnessCurve() []props.CurvePoint {
	if r.Report == nil || r.Witness == nil || r.Witness.Search == nil {
		return nil
	}
	return r.Witness.Search.Curve
}

// markdown renders the report.
func markdown(doc *runDoc) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s report\n\n", doc.title)
	fmt.Fprintf(&b, "`%s`\n\n", doc.Command)
	fmt.Fprintf(&b, "%s\n\n", doc.intro())
	fmt.Fprintf(&b, "| %s |\n|%s\n", strings.Join(tableHeader, " | "), strings.Repeat("---|", len(tableHeader)))
	for i := range doc.Rules {
		row := doc.Rules[i].tableRow()
		row[0] = "[" + row[0] + "](#" + anchor(row[0]) + ")"
		switch doc.Rules[i].Agreement {
		case Contradicted:
			row[len(row)-1] = "**contradicted**"
		case NotJudged:
			row[2], row[len(row)-1] = "⚠ **"+row[2]+"**", "*not judged*"
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(row, " | "))
	}
	fmt.Fprintf(&b, "\n%s\n\n", tableNotes)
	if len(doc.figures) > 0 {
		fmt.Fprintf(&b, "## Convergence\n\n![convergence](%s)\n\n", doc.figures[0])
		fmt.Fprintf(&b, "One panel per rule, against the simulations run, in the colours of report.html's charts: in blue, over every search "+
			"of every tree the rule was checked on (an inconsistent rule stops at its first witness, so its panel covers fewer trees), "+
			"the share of searches whose root decision is not optimal (solid) and the mean share of the root's simulations that went to "+
			"optimal children (dashed); in red, for a rule with a witness, the witness tree's own search, its decision wrong (1) or optimal (0) "+
			"(thick) and its optimal children's share (dashed). The title says what the papers predict and whether the check reproduced it.")
		for _, f := range doc.figures[1:] {
			fmt.Fprintf(&b, " Also as [%s](%s).", strings.ToUpper(strings.TrimPrefix(filepath.Ext(f), ".")), f)
		}
		fmt.Fprintf(&b, " The numbers are in report.json.\n\n")
	}
	fmt.Fprintf(&b, "## Rules\n")
	for _, r := range doc.Rules {
		fmt.Fprintf(&b, "\n### %s\n\n", r.Name)
		for _, item := range r.items() {
			fmt.Fprintf(&b, "- %s\n", item)
		}
		witnessMarkdown(&b, r.Witness, doc.replayNote)
	}
	return b.Bytes()
}

// witnessMarkdown writes a witness, if any, as the report shows it: its
// heading, tree, findings and replay lines (replayNote after "Replay"),
// or a fault's text.
func witnessMarkdown(b *bytes.Buffer, w *props.Witness, replayNote string) {
	if w == nil {
		return
	}
	if w.Verdict == props.Faulted { // its text holds its replay lines
		fmt.Fprintf(b, "\nFault:\n\n```\n%s```\n", w.String())
		return
	}
	fmt.Fprintf(b, "\n%s:\n\n```\n%s\n```\n\n", witnessHeading(w), w.Tree)
	for _, f := range w.Findings {
		fmt.Fprintf(b, "- %s: %s\n", f.Condition, f.Text)
	}
	fmt.Fprintf(b, "\nReplay%s:\n\n```sh\n", replayNote)
	for _, l := range w.Replay {
		fmt.Fprintln(b, l)
	}
	fmt.Fprintf(b, "```\n")
}

// intro says what each rule was checked on, and the tally.
func (doc *runDoc) intro() string {
	o := doc.Options
	return fmt.Sprintf("Each rule was checked on %s (seeds %d to %d), in %s mode, until its first witness. %s",
		doc.scale(), o.Seed, o.Seed+uint64(o.Seeds)-1, o.Growth, doc.tally())
}

// tableNotes explains the table's abbreviations, in Markdown.
const tableNotes = "*bdg*: checked on binary deterministic games only (no chance nodes, rewards in {0,1}), the papers' condition. " +
	"*inconclusive (n/N)*: no witness, but n of N trees did not converge by the last budget. " +
	"*visited (recent)*: the share of the tree's nodes the searches visited at all (during the criterion's window), averaged over trees; " +
	"a frugal rule leaves part of the tree unvisited."

// items are what the report says of a rule before its witness, one
// Markdown line each.
func (r *ruleResult) items() []string {
	agree := "prediction " + string(r.Agreement)
	switch r.Agreement {
	case Contradicted:
		agree = "**prediction contradicted**"
	case NotJudged:
		agree = "**not judged: a fault of the rule, not a finding about consistency**"
	case Interrupted:
		agree = "prediction not compared: the check stopped before a verdict"
	}
	p := r.Predicted
	out := []string{
		fmt.Sprintf("spec: `%s`, %s backups", r.Spec, r.Backup),
		fmt.Sprintf("predicted: %s, frugal: %s (%s): %s", predictedLong(p), p.Frugal, p.Source, p.Why),
		fmt.Sprintf("observed: %s; %s", r.Summary, agree),
	}
	unfinished := ""
	if r.interrupted() {
		unfinished = " (unfinished: the trees done)"
	}
	switch {
	case r.frugalityKnown():
		out = append(out, fmt.Sprintf("frugality: %.1f%% of the nodes visited, %.1f%% during the window; %s simulations/s%s",
			100*r.Visited, 100*r.Recent, rate(r.SimsPerSecond), unfinished))
	case r.Sims > 0:
		out = append(out, fmt.Sprintf("speed: %s simulations/s%s", rate(r.SimsPerSecond), unfinished))
	}
	for _, rec := range r.Recoveries {
		out = append(out, "recovers: "+rec)
	}
	if !r.neverStarted() {
		out = append(out, "overconfidence: "+r.overconfidenceSeries())
	}
	return out
}

// witnessHeading introduces a witness tree.
func witnessHeading(w *props.Witness) string {
	if w.Unfinished {
		return fmt.Sprintf("Witness (%s, %d nodes, found on %s, not shrunk: the check stopped first)", w.Condition, w.Nodes, w.From)
	}
	return fmt.Sprintf("Witness (%s, %d nodes, shrunk from %s in %d evaluations)", w.Condition, w.Nodes, w.From, w.Shrinks)
}

// faultLine says where a rule faulted and how.
func faultLine(f *props.Fault) string {
	if f.Sim < 0 {
		return fmt.Sprintf("fault (%s) at node %s, in the limit probe: %s", f.Kind, f.Node, f.Message)
	}
	return fmt.Sprintf("fault (%s) at node %s, simulation %d: %s", f.Kind, f.Node, f.Sim, f.Message)
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
