package cli

// This file writes report.html: report.md's table and texts, with a chart
// of each rule's convergence and a drawing of each witness tree, drawn by
// internal/picture with the standard library, so that every command built
// on this package (cli.Main too) writes it.

import (
	"fmt"
	"html/template"
	"io"
	"regexp"
	"strings"

	"github.com/mctscheck/mctscheck/internal/picture"
	"github.com/mctscheck/mctscheck/props"
)

// htmlPage is report.html's content, as its template writes it.
type htmlPage struct {
	Title, Command string
	Intro, Notes   template.HTML
	Header         []string
	Rows           []htmlRow
	// Overview is the convergence of every rule, a panel each, and Legend
	// the legend of its lines and of each rule's chart; Figures are the
	// convergence figures of Tool.Plot, if any, as files.
	Overview, Legend template.HTML
	Figures          []string
	Rules            []htmlRule
	ReplayNote       template.HTML
}

type htmlRow struct {
	Class string // the verdict's row style: "v-inconsistent", "v-fault", …
	Cells []htmlCell
}

type htmlCell struct {
	Text, Class, Link string
}

type htmlRule struct {
	Name, Anchor string
	Items        []template.HTML
	Curve        template.HTML // the rule's convergence chart, with its witness's search
	Unfinished   string        // why the check has no full chart: an interrupted check
	Witness      *htmlWitness
}

type htmlWitness struct {
	Heading    string
	Tree       string
	Drawing    template.HTML // the tree; empty if not drawn
	NotDrawn   string        // why not
	Caption    string
	Findings   []props.Finding
	Fault      string
	Inputs     string
	Replay     []string
	ReplayNote template.HTML // the parenthesis after "Replay"
}

// writeHTML writes doc as report.html to w.
func writeHTML(w io.Writer, doc *runDoc) error {
	pg := htmlPage{Title: doc.title + " report", Command: doc.Command, Intro: inlineHTML(doc.intro()), Notes: inlineHTML(tableNotes),
		Header: tableHeader, ReplayNote: inlineHTML(doc.replayNote), Figures: doc.figures, Legend: picture.Legend()}
	var panels []picture.Panel
	for i := range doc.Rules {
		r := &doc.Rules[i]
		p := picture.Panel{Title: r.Name, Note: fmt.Sprintf("predicted %s, %s", predictedShort(r.Predicted), r.Agreement)}
		if r.interrupted() {
			p.Note, p.Unfinished = "predicted "+predictedShort(r.Predicted), "unfinished: "+r.Summary
		}
		if r.Report != nil {
			p.Average, p.Witness = r.Curve, r.witnessCurve()
		}
		panels = append(panels, p)
	}
	pg.Overview = picture.Overview(panels)
	for i := range doc.Rules {
		r := &doc.Rules[i]
		row := htmlRow{Class: "v-" + string(r.Verdict)}
		if r.interrupted() {
			row.Class = "v-interrupted"
		}
		for _, c := range r.tableRow() {
			row.Cells = append(row.Cells, htmlCell{Text: c})
		}
		row.Cells[0].Link = "#" + anchor(r.Name)
		if r.Agreement == Contradicted {
			row.Cells[len(row.Cells)-1].Class = "contradicted"
		}
		pg.Rows = append(pg.Rows, row)
		hr := htmlRule{Name: r.Name, Anchor: anchor(r.Name)}
		for _, item := range r.items() {
			hr.Items = append(hr.Items, inlineHTML(item))
		}
		if r.Report != nil {
			hr.Curve = picture.Curve(r.Curve, r.witnessCurve())
			hr.Witness = htmlWitnessOf(r.Witness, pg.ReplayNote)
		}
		if r.interrupted() {
			hr.Unfinished = "Unfinished: " + r.Summary + "."
		}
		pg.Rules = append(pg.Rules, hr)
	}
	return pageTemplate.Execute(w, pg)
}

// htmlWitness describes a witness for the page, with its tree drawn and
// the note after "Replay".
func htmlWitnessOf(w *props.Witness, replayNote template.HTML) *htmlWitness {
	if w == nil || w.Tree == nil {
		return nil
	}
	hw := &htmlWitness{Heading: witnessHeading(w), Tree: w.Tree.String(), Findings: w.Findings, Replay: w.Replay, ReplayNote: replayNote}
	if f := w.Fault; f != nil {
		hw.Fault, hw.Inputs = faultLine(f), strings.TrimRight(f.Inputs, "\n")
	}
	facts := picture.Of(w.Tree, w.Search, w.Findings)
	if hw.Drawing = facts.SVG(); hw.Drawing == "" {
		hw.NotDrawn = "The tree is not drawn: it has more nodes than a page can show legibly; its text is above."
	}
	hw.Caption = treeCaption(facts)
	return hw
}

// treeCaption is the legend of a tree drawing.
func treeCaption(f *picture.Facts) string {
	s := "▲ max, ▼ min, ● chance, ■ terminal, each with its name beside it (0 the root, 0.1 its child 1), as the texts name nodes; " +
		"V is the exact value for max (tree.Solve). Thick green edges are optimal moves."
	if f.Searched {
		s += " n counts the replayed search's simulations through each node at " + itoa(f.Budget) +
			"; each root edge carries its child's share of them; the child outlined in red is the root decision there."
	}
	if f.Searched {
		s += " mean is the search's mean reward for max through the node."
	}
	if f.Unreported > 0 {
		s += " The search reported the root's children only: the nodes below them are marked not reported, their statistics unknown (not zero)."
	}
	if f.Mechanism != "" {
		s += " Orange dashes: " + f.Mechanism + "."
	}
	return s
}

// itoa formats n in decimal.
func itoa(n int64) string { return picture.Num(float64(n)) }

// inlineMarkdown matches the Markdown the reports' texts use: `code`,
// **bold** and *emphasis*.
var inlineMarkdown = regexp.MustCompile("`([^`]*)`|\\*\\*([^*]+)\\*\\*|\\*([^*]+)\\*")

// inlineHTML renders a text of the Markdown report as HTML: escaped, with
// its code, bold and emphasis as HTML's.
func inlineHTML(s string) template.HTML {
	var b strings.Builder
	last := 0
	for _, m := range inlineMarkdown.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(template.HTMLEscapeString(s[last:m[0]]))
		for g, tag := range []string{"code", "strong", "em"} {
			if lo := m[2+2*g]; lo >= 0 {
				b.WriteString("<" + tag + ">" + template.HTMLEscapeString(s[lo:m[3+2*g]]) + "</" + tag + ">")
			}
		}
		last = m[1]
	}
	b.WriteString(template.HTMLEscapeString(s[last:]))
	return template.HTML(b.String())
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
{{define "style"}}<style>
body { font: 15px/1.45 sans-serif; color: #222; max-width: 1100px; margin: 1.5em auto; padding: 0 1em; }
code, pre { font: 13px monospace; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
.table { overflow-x: auto; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #eee; }
tr.v-inconsistent td { background: #fde3e3; }
tr.v-stuck td { background: #fdecd2; }
tr.v-inconclusive td { background: #f1f1f1; }
tr.v-no-counterexample td { background: #e6f4e6; }
tr.v-fault td { background: #ece0f7; }
tr.v-fault td:first-child { border-left: 6px solid #7b3fa0; }
tr.v-fault td:nth-child(3) { font-weight: bold; color: #5a1f80; }
tr.v-interrupted td { background: #fff; color: #777; font-style: italic; }
td.contradicted { font-weight: bold; color: #b00; }
.legend span { display: inline-block; padding: 0 0.5em; margin-right: 0.4em; border: 1px solid #ccc; }
figure { margin: 1em 0; max-width: 100%; }
figure.witness { overflow-x: auto; }
figcaption { font-size: 13px; color: #444; max-width: 480px; }
svg.curve { max-width: 100%; height: auto; }
.overview { display: flex; flex-wrap: wrap; gap: 0.5em 1em; }
.overview svg.curve { flex: 1 1 280px; max-width: 360px; }
section.rule { border-top: 1px solid #ddd; margin-top: 1.5em; }
.pictures { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
p.unfinished { font-style: italic; color: #777; }
@media (max-width: 700px) {
  body { font-size: 14px; padding: 0 0.5em; }
  table { font-size: 12px; }
  th, td { padding: 0.2em 0.3em; }
}
</style>{{end}}{{template "style"}}
</head>
<body>
<h1>{{.Title}}</h1>
<p><code>{{.Command}}</code></p>
<p>{{.Intro}}</p>
<div class="table"><table>
<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr class="{{.Class}}">{{range .Cells}}<td{{if .Class}} class="{{.Class}}"{{end}}>{{if .Link}}<a href="{{.Link}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</td>{{end}}</tr>
{{end}}</table></div>
<p class="legend">Rows: <span style="background:#fde3e3">inconsistent: a witness</span><span style="background:#fdecd2">stuck: wrong through the horizon</span><span style="background:#f1f1f1">inconclusive</span><span style="background:#e6f4e6">no counterexample</span><span style="background:#ece0f7; border-left: 6px solid #7b3fa0">fault: the rule broke its contract, not a finding about consistency</span></p>
<p>{{.Notes}}</p>
<h2>Convergence</h2>
<figure class="convergence-legend">{{.Legend}}<figcaption>The lines of every chart below, against the simulations run (log scale): over every search of every tree the rule was checked on (an inconsistent rule stops at its first witness), and on its witness tree, its replayed search.</figcaption></figure>
<figure><div class="overview">
{{.Overview}}</div><figcaption>One panel per rule{{if .Figures}}; also as {{range $i, $f := .Figures}}{{if $i}} and {{end}}<a href="{{$f}}">{{$f}}</a>{{end}}{{end}}. The numbers are in report.json.</figcaption></figure>
<h2>Rules</h2>
{{range .Rules}}<section class="rule" id="{{.Anchor}}">
<h3>{{.Name}}</h3>
<ul>{{range .Items}}<li>{{.}}</li>{{end}}</ul>
{{if .Unfinished}}<p class="unfinished">{{.Unfinished}}</p>
{{end}}{{template "evidence" .}}</section>
{{end}}</body>
</html>
{{define "evidence"}}<div class="pictures">
{{with .Witness}}<figure class="witness">{{if .Drawing}}{{.Drawing}}{{else}}<p>{{.NotDrawn}}</p>{{end}}<figcaption>{{.Caption}}</figcaption></figure>
{{end}}{{if .Curve}}<figure class="convergence">{{.Curve}}<figcaption>The root decision against the budget{{if .Witness}}: on the witness tree (its replayed search) and on average over every search of every tree checked, which hides a wrong decision on one tree{{else}}, over every search of every tree checked{{end}}.</figcaption></figure>
{{end}}</div>
{{with .Witness}}<h4>{{.Heading}}</h4>
<pre>{{.Tree}}</pre>
<ul>{{range .Findings}}<li>{{.Condition}}: {{.Text}}</li>{{end}}{{if .Fault}}<li>{{.Fault}}</li>{{end}}</ul>
{{if .Inputs}}<pre>{{.Inputs}}</pre>
{{end}}<p>Replay{{.ReplayNote}}:</p>
<pre>{{range .Replay}}{{.}}
{{end}}</pre>
{{end}}{{end}}`))
