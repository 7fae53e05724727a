package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/props"
)

// quick are the flags of a cheap run: greedy-fpu's witness is in the traps.
var quick = []string{"-trees", "2", "-seeds", "1", "-budget", "1024"}

// readReport reads dir/name.
func readReport(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// wantHTMLWitness checks that page draws greedy-fpu's witness: its tree,
// with the decided child and the starved one marked, its curve beside the
// average, the evidence and the replay line of tool.
func wantHTMLWitness(t *testing.T, page, tool string) {
	t.Helper()
	for _, s := range []string{
		`<tr class="v-inconsistent">`,
		`<svg xmlns="http://www.w3.org/2000/svg" class="tree"`,
		`<g class="node kind-terminal chosen" data-path="0.1">`,
		`<g class="node kind-max mechanism" data-path="0.0">`,
		`<svg xmlns="http://www.w3.org/2000/svg" class="curve"`,
		`<polyline class="witness"`,
		`<polyline class="average"`,
		"Eq. 5: max node 0: child 0 (V=1) stays at 1 simulation ",
		tool + " check -rule &#39;",
	} {
		if !strings.Contains(page, s) {
			t.Errorf("report.html has no %s", s)
		}
	}
}

// TestReportHTML: run writes report.html beside report.md, with the
// witness drawn, without any plotter (mctscheckTool has none here).
func TestReportHTML(t *testing.T) {
	dir := t.TempDir()
	r := mctscheck(t, "", append([]string{"-rules", "greedy-fpu,uct", "-out", dir}, quick...)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "(report.md, report.html, report.json)") {
		t.Errorf("the report line does not name report.html:\n%s", r.stdout)
	}
	page := readReport(t, dir, "report.html")
	wantHTMLWitness(t, page, "mctscheck")
	if n := strings.Count(page, `<figure class="convergence"><svg`); n != 2 {
		t.Errorf("%d convergence charts, want one per rule (2)", n)
	}
	_, overview, _ := strings.Cut(page, `<div class="overview">`)
	overview, _, _ = strings.Cut(overview, "</div>")
	if n := strings.Count(overview, `<svg xmlns="http://www.w3.org/2000/svg" class="curve"`); n != 2 || strings.Contains(page, "<img") {
		t.Errorf("the overview has %d SVG panels, want one per rule (2), and no image", n)
	}
	if n := strings.Count(page, `class="curve legend"`); n != 1 {
		t.Errorf("%d legends of the charts, want one", n)
	}
	if n := strings.Count(page, `class="tree"`); n != 1 {
		t.Errorf("%d tree drawings, want one (greedy-fpu's witness; uct has none)", n)
	}
}

// TestToolReportHTML: a user's command (cli.Main, no plotter) writes
// report.html with its witness drawn and its own replay lines.
func TestToolReportHTML(t *testing.T) {
	dir := t.TempDir()
	r := mycheck(t, append([]string{"-out", dir}, quick...)...)
	if r.code != exitFinding {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	page := readReport(t, dir, "report.html")
	wantHTMLWitness(t, page, "mycheck")
	if !strings.Contains(page, `<td class="contradicted">CONTRADICTED</td>`) {
		t.Errorf("report.html does not mark the contradicted prediction")
	}
	if strings.Contains(page, "convergence.png") {
		t.Errorf("report.html shows a figure no plotter drew")
	}
}

// TestCheckOut: check -out writes the report directory, whose report.json
// is the -json document, and -dot prints the witness as DOT.
func TestCheckOut(t *testing.T) {
	dir := t.TempDir()
	args := append([]string{"check", "-rule", "greedy-fpu"}, quick...)
	r := mctscheck(t, "", append(args, "-out", dir)...)
	if r.code != 0 || !strings.Contains(r.stdout, "Report: "+filepath.Join(dir, "report.md")+" (report.md, report.html, report.json)") {
		t.Fatalf("exit %d, no report line:\n%s%s", r.code, r.stdout, r.stderr)
	}
	wantHTMLWitness(t, readReport(t, dir, "report.html"), "mctscheck")
	md := readReport(t, dir, "report.md")
	if !strings.Contains(md, "`mctscheck check -rule greedy-fpu -budget 1024 -seeds 1 -trees 2`") {
		t.Errorf("report.md does not give the check command:\n%s", md)
	}
	js := mctscheck(t, "", append(args, "-json")...)
	if diff := cmp.Diff(normalize(t, js.stdout), normalize(t, readReport(t, dir, "report.json"))); diff != "" {
		t.Errorf("report.json is not the -json document (-json +report.json):\n%s", diff)
	}

	dot := mctscheck(t, "", append(args, "-dot")...)
	if dot.code != 0 || !strings.HasPrefix(dot.stdout, `digraph "witness" {`) ||
		!strings.Contains(dot.stdout, `n2 [shape=box, label="0.1 terminal\nV=0.5\nn=1023\nmean=0.5"`) {
		t.Errorf("check -dot: exit %d\n%s%s", dot.code, dot.stdout, dot.stderr)
	}
	graphvizReads(t, dot.stdout)
	none := mctscheck(t, "", "check", "-rule", "uct", "-tree", "(max 1 0)", "-dot")
	if none.code != 0 || none.stdout != "" || !strings.Contains(none.stderr, "no witness tree to draw (no-counterexample)") {
		t.Errorf("check -dot without a witness: exit %d\n%s%s", none.code, none.stdout, none.stderr)
	}
	for _, bad := range [][]string{
		{"check", "-rule", "uct", "-json", "-dot"},
		{"solve", "-tree", "1", "-json", "-dot"},
		{"check", "-rule", "uct", "-out", filepath.Join(dir, "report.md")},
	} {
		if r := mctscheck(t, "", bad...); r.code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", bad, r.code, exitUsage, r.stderr)
		}
	}
}

// TestSolveDOT: solve -dot prints the tree as DOT, the values and the
// optimal moves without a search.
func TestSolveDOT(t *testing.T) {
	r := mctscheck(t, "", "solve", "-tree", "(max (min 1 0) (chance 0.5:1 0.5:0) 0.25)", "-dot")
	for _, s := range []string{`n1 [shape=invtriangle, label="0.0 min\nV=0"`, `n2 [shape=circle, label="0.1 chance\nV=0.5"`,
		`n0 -> n2 [color="#2ca02c", penwidth=4]`, `n2 -> n6 [label="p=0.5"]`} {
		if r.code != 0 || !strings.Contains(r.stdout, s) {
			t.Errorf("solve -dot: exit %d, no %s\n%s%s", r.code, s, r.stdout, r.stderr)
		}
	}
	if strings.Contains(r.stdout, "n=") {
		t.Errorf("solve -dot shows simulations:\n%s", r.stdout)
	}
	graphvizReads(t, r.stdout)
}

// graphvizReads has Graphviz's dot read the text, when it is installed.
func graphvizReads(t *testing.T, dot string) {
	t.Helper()
	bin, err := exec.LookPath("dot")
	if err != nil {
		return
	}
	cmd := exec.Command(bin, "-Tsvg", "-o", os.DevNull)
	cmd.Stdin = strings.NewReader(dot)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("dot -Tsvg: %v\n%s", err, out)
	}
}

// TestFaultRowStyle: a fault is shown apart from the findings, in the
// HTML table's row style and in report.md's table.
func TestFaultRowStyle(t *testing.T) {
	f := &props.Fault{Kind: props.FaultNaN, Message: "score NaN for child 0"}
	rep := &props.Report{Verdict: props.Faulted, Summary: "fault (nan): score NaN", Curve: []props.CurvePoint{},
		Witness: &props.Witness{Verdict: props.Faulted, Condition: props.RuleFault, Fault: f}}
	r := ruleResult{ruleCheck: ruleCheck{Name: "broken", Spec: "broken"}, Verdict: props.Faulted, Report: rep,
		agreement: agreement{Agreement: NotJudged}}
	doc := &runDoc{Command: "mctscheck run", Rules: []ruleResult{r}, title: "mctscheck", expectation: "the papers' prediction"}
	var page bytes.Buffer
	if err := writeHTML(&page, doc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `<tr class="v-fault"><td><a href="#broken">broken</a></td>`) ||
		!strings.Contains(page.String(), "tr.v-fault td {") {
		t.Errorf("report.html has no fault row style:\n%s", page.String())
	}
	if md := markdown(doc); !bytes.Contains(md, []byte("| [broken](#broken) | inconsistent | ⚠ **FAULT (nan)** |")) || !bytes.Contains(md, []byte("*not judged*")) {
		t.Errorf("report.md's table does not mark the fault:\n%s", md)
	}
}

// TestInlineHTML: the report's Markdown texts become HTML, escaped.
func TestInlineHTML(t *testing.T) {
	got := string(inlineHTML("a <b> `x<'y'>` and **z** *w* (from `go run ./cmd/x` in place of `x`)"))
	want := "a &lt;b&gt; <code>x&lt;&#39;y&#39;&gt;</code> and <strong>z</strong> <em>w</em> (from <code>go run ./cmd/x</code> in place of <code>x</code>)"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestReportHTMLSearchInJSON: the witness's search that report.html draws
// is in the JSON document too, for any reader of it.
func TestReportHTMLSearchInJSON(t *testing.T) {
	r := mctscheck(t, "", append([]string{"check", "-rule", "greedy-fpu", "-json"}, quick...)...)
	var doc struct {
		Witness struct {
			Search struct {
				Visits   []int64
				Decision int
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if s := doc.Witness.Search; len(s.Visits) != 5 || s.Visits[0] != 1024 || s.Decision != 1 {
		t.Errorf("witness search %+v: want 5 nodes' visits, 1024 at the root, child 1 decided", s)
	}
}
