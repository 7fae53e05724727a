package cli

// This file is check -search's report directory (-out): report.json, the
// -json document, and report.md and report.html, which say what the
// search was checked on and what it reported, and draw its witness with
// the statistics it reported (internal/picture), as a rule's report does.

import (
	"bytes"
	"fmt"
	"html/template"
	"io"

	"github.com/mctscheck/mctscheck/internal/picture"
	"github.com/mctscheck/mctscheck/props"
)

// searchReport is the report of one check of a whole search.
type searchReport struct {
	doc        *checkDoc
	command    string
	title      string
	replayNote string
	jobs       int
	figures    []string // the plot files written, if any
}

// newSearchReport is the report of the check -search whose command line
// is command and whose document is d.
func newSearchReport(e *env, command string, d *checkDoc, jobs int) *searchReport {
	return &searchReport{doc: d, command: command, title: e.tool.name() + " report: a whole search",
		replayNote: e.tool.replayNote(), jobs: jobs}
}

func (s *searchReport) convergence() []Convergence {
	return []Convergence{s.doc.convergence()}
}

func (s *searchReport) withFigures(files []string) { s.figures = files }

// items are what the report says of the search before its witness, one
// Markdown line each.
func (s *searchReport) items() []string {
	r := &s.doc.ruleResult
	claim := fmt.Sprintf("the claim of the program's author, that the search is consistent: %s", r.Agreement)
	switch {
	case r.Verdict == props.Faulted:
		claim = "the claim of the program's author, that the search is consistent: **not judged: a fault of the program, not a finding about consistency**"
	case r.interrupted():
		claim = "the claim of the program's author, that the search is consistent: not compared, the check stopped before a verdict"
	}
	out := []string{
		fmt.Sprintf("search: `%s`, run as it is: its own selection, expansion, roll-outs, backups and decision", r.Spec),
		"checked: " + searchScale(s.doc, s.jobs) + ", each search's root decision judged against the exact solution of its tree",
	}
	if r.Handles != nil {
		out = append(out, "handles: "+handles(*r.Handles))
	}
	out = append(out,
		"statistics: "+nodesReported(r.NodesReported),
		"observed: "+r.Summary,
		claim,
	)
	if r.Verdict != props.Faulted { // a fault's figures say nothing of the search
		frugal := "not known: the program reported the root children's statistics only"
		if r.NodesReported != nil && *r.NodesReported {
			frugal = fmt.Sprintf("%.1f%% of the nodes visited, %.1f%% during the window", 100*r.Visited, 100*r.Recent)
		}
		out = append(out, "frugality: "+frugal, fmt.Sprintf("speed: %s simulations/s", rate(r.SimsPerSecond)))
	}
	return append(out, "overconfidence: "+r.overconfidenceSeries())
}

// nodesReported says which statistics a search reported.
func nodesReported(all *bool) string {
	switch {
	case all == nil:
		return "not known: no search was read"
	case *all:
		return "every node's (the program declared `nodes`): the mechanisms below the root are judged too"
	}
	return "the root children's only (the program did not declare `nodes`): nothing below the root is known, and the drawing marks it *not reported*"
}

// figureNote is the caption of the plot of Tool.Plot, in Markdown.
func (s *searchReport) figureNote() string {
	note := "The root decision against the simulations run: the solid line is the share of searches whose root decision is not optimal, " +
		"over every search of every tree checked, with the witness tree's search beside it; the dashed line the mean share of the root's " +
		"simulations that went to optimal children."
	for _, f := range s.figures[1:] {
		note += fmt.Sprintf(" Also as [%s](%s).", f, f)
	}
	return note + " The numbers are in report.json."
}

func (s *searchReport) markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n`%s`\n\n", s.title, s.command)
	if s.doc.Stopped != "" {
		fmt.Fprintf(&b, "**PARTIAL**: the check %s before its end; this is what finished.\n\n", stoppedWords(s.doc.Stopped))
	}
	for _, item := range s.items() {
		fmt.Fprintf(&b, "- %s\n", item)
	}
	if len(s.figures) > 0 {
		fmt.Fprintf(&b, "\n![convergence](%s)\n\n%s\n", s.figures[0], s.figureNote())
	}
	witnessMarkdown(&b, s.doc.Witness, s.replayNote)
	return b.Bytes()
}

// searchPage is a search's report.html, as searchTemplate writes it.
type searchPage struct {
	Title, Command string
	Partial        string
	Items          []template.HTML
	Evidence       htmlRule // the witness drawn and the curves, which the plots of Tool.Plot repeat
}

func (s *searchReport) writeHTML(w io.Writer) error {
	r := &s.doc.ruleResult
	pg := searchPage{Title: s.title, Command: s.command}
	if s.doc.Stopped != "" {
		pg.Partial = "PARTIAL: the check " + stoppedWords(s.doc.Stopped) + " before its end; this is what finished."
	}
	for _, item := range s.items() {
		pg.Items = append(pg.Items, inlineHTML(item))
	}
	pg.Evidence.Curve = picture.Curve(r.Curve, r.witnessCurve())
	pg.Evidence.Witness = htmlWitnessOf(r.Witness, inlineHTML(s.replayNote))
	return searchTemplate.Execute(w, pg)
}

// searchTemplate is report.html for a search, with the style and the
// evidence (the witness drawn, the curves, the replay) of a rule's.
var searchTemplate = template.Must(template.Must(pageTemplate.Clone()).New("search").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
{{template "style"}}
</head>
<body>
<h1>{{.Title}}</h1>
<p><code>{{.Command}}</code></p>
{{if .Partial}}<p class="partial"><strong>{{.Partial}}</strong></p>
{{end}}<section class="rule">
<ul>{{range .Items}}<li>{{.}}</li>{{end}}</ul>
{{template "evidence" .Evidence}}</section>
</body>
</html>
`))
