package picture_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/internal/picture"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// greedyWitness checks greedy-fpu on the tree of its first-loss trap and
// returns the witness, with its search.
func greedyWitness(t *testing.T) *props.Witness {
	t.Helper()
	in, err := rules.Parse("greedy-fpu")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := props.CheckTree(context.Background(), in.Rule, tree.MustParse("(max (max 0 1) 0.5)"),
		props.Options{Seeds: 1, KeepOrder: true, MaxBudget: 4096, RuleSpec: in.Spec})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Witness == nil || rep.Witness.Search == nil {
		t.Fatalf("no witness with a search: %s", rep.Summary)
	}
	return rep.Witness
}

// TestFacts: the facts of greedy-fpu's witness are the tree's and the
// search's: kinds, exact values, the optimal and the decided root child,
// the shares of the root's simulations, the starved child.
func TestFacts(t *testing.T) {
	w := greedyWitness(t)
	f := picture.Of(w.Tree, w.Search, w.Findings)
	type node struct {
		Path    string
		Kind    string
		Value   float64
		Optimal bool
		Visits  int64
		Chosen  bool
		Starved bool
	}
	var got []node
	for _, n := range f.Nodes {
		got = append(got, node{n.Path, n.Kind.String(), n.Value, n.Optimal, n.Visits, n.Chosen, n.Mechanism})
	}
	want := []node{
		{"0", "max", 1, false, 4096, false, false},
		{"0.0", "max", 1, true, 1, false, true}, // the good move lost its first simulation
		{"0.1", "terminal", 0.5, false, 4095, true, false},
		{"0.0.0", "terminal", 0, false, 1, false, false},
		{"0.0.1", "terminal", 1, true, 0, false, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("facts (-want +got):\n%s", diff)
	}
	if !f.Searched || f.Budget != 4096 || f.Nodes[2].Share != 4095.0/4096 || f.Nodes[1].Share+f.Nodes[2].Share != 1 {
		t.Errorf("searched %v at %d, root shares %v and %v: want the last budget's shares, summing to 1",
			f.Searched, f.Budget, f.Nodes[1].Share, f.Nodes[2].Share)
	}
	if m := f.Nodes[2].Mean; m != 0.5 || !math.IsNaN(f.Nodes[4].Mean) || f.Unreported != 0 {
		t.Errorf("mean of node 0.1 %v, of the unvisited 0.0.1 %v, %d nodes unreported: want 0.5, NaN and none", m, f.Nodes[4].Mean, f.Unreported)
	}
	if f.Mechanism != "Eq. 5: child 0 of node 0 starved" {
		t.Errorf("mechanism %q", f.Mechanism)
	}
	alone := picture.Of(w.Tree, nil, nil)
	for _, n := range alone.Nodes {
		if n.Visits != 0 || n.Chosen || n.Mechanism || alone.Searched {
			t.Errorf("a tree without a search has search facts: %+v", n)
		}
	}
}

// svgElement is an SVG document read back, enough to count its parts.
type svgElement struct {
	XMLName  xml.Name
	Class    string       `xml:"class,attr"`
	Path     string       `xml:"data-path,attr"`
	Text     string       `xml:",chardata"`
	Children []svgElement `xml:",any"`
}

// parseSVG parses s as XML, failing the test if it is not well formed.
func parseSVG(t *testing.T, s string) svgElement {
	t.Helper()
	var root svgElement
	if err := xml.Unmarshal([]byte(s), &root); err != nil {
		t.Fatalf("not well-formed XML: %v\n%s", err, s)
	}
	if root.XMLName.Local != "svg" {
		t.Fatalf("root element %s, want svg", root.XMLName.Local)
	}
	return root
}

// walk calls fn on e and every element below it.
func walk(e svgElement, fn func(svgElement)) {
	fn(e)
	for _, c := range e.Children {
		walk(c, fn)
	}
}

// TestSVG: the drawing is well-formed SVG with one shape per node of the
// kind's form, each node's name beside it, the decided child and the
// starved one marked, the values, the visits and the root shares written.
func TestSVG(t *testing.T) {
	w := greedyWitness(t)
	svg := string(picture.Of(w.Tree, w.Search, w.Findings).SVG())
	root := parseSVG(t, svg)
	shapes := map[string]int{}
	classes := map[string]string{}
	var texts, ids []string
	walk(root, func(e svgElement) {
		switch e.XMLName.Local {
		case "polygon", "circle", "rect":
			shapes[e.XMLName.Local]++
		case "g":
			classes[e.Path] = e.Class
		case "text":
			texts = append(texts, e.Text)
			if e.Class == "path" {
				ids = append(ids, e.Text)
			}
		}
	})
	if want := []string{"0", "0.0", "0.1", "0.0.0", "0.0.1"}; !cmp.Equal(want, ids) {
		t.Errorf("node names drawn %q, want %q: the names the texts use", ids, want)
	}
	if want := map[string]int{"polygon": 2, "rect": 3}; !cmp.Equal(want, shapes) {
		t.Errorf("shapes %v, want %v (two max triangles, three terminal squares)", shapes, want)
	}
	if classes["0.1"] != "node kind-terminal chosen" || classes["0.0"] != "node kind-max mechanism" {
		t.Errorf("node classes %v: want 0.1 chosen, 0.0 the mechanism's", classes)
	}
	all := strings.Join(texts, "|")
	for _, s := range []string{"V=0.5", "n=4095", "99.98%", "0.02%", "optimal", "chosen", "Eq. 5: starved"} {
		if !strings.Contains(all, s) {
			t.Errorf("no text %q in the drawing: %s", s, all)
		}
	}
	if got := strings.Count(svg, `<line class="optimal"`); got != 2 {
		t.Errorf("%d optimal edges, want 2 (the root's to 0.0, 0.0's to 0.0.1)", got)
	}
	chance := string(picture.Of(tree.MustParse("(max (chance 0.25:1 0.75:0) 0.5)"), nil, nil).SVG())
	if c := strings.Count(chance, "<circle"); c != 1 || !strings.Contains(chance, "p=0.25") || strings.Contains(chance, "n=") {
		t.Errorf("a chance node is drawn as %d circles, its edges without probabilities, or with visits without a search:\n%s", c, chance)
	}
	big := tree.MustParse("(max" + strings.Repeat(" 0", picture.MaxDrawn) + ")")
	if s := picture.Of(big, nil, nil).SVG(); s != "" {
		t.Errorf("a tree of %d nodes is drawn", big.Len())
	}
}

// TestCurve: the chart has the average's line, and with a witness its
// search's decision and share too, well-formed; the witness's wrong
// decision is drawn above the average that falls.
func TestCurve(t *testing.T) {
	avg := []props.CurvePoint{{Budget: 64, Wrong: 0.5}, {Budget: 128, Wrong: 0.25}, {Budget: 256, Wrong: 0.05}}
	wit := []props.CurvePoint{{Budget: 64, Wrong: 1, OptimalShare: 0.1}, {Budget: 128, Wrong: 1}, {Budget: 256, Wrong: 1}}
	count := func(svg string) map[string]int {
		n := map[string]int{}
		walk(parseSVG(t, svg), func(e svgElement) {
			if e.XMLName.Local == "polyline" {
				n[e.Class]++
			}
		})
		return n
	}
	if got, want := count(string(picture.Curve(avg, nil))), map[string]int{"average": 2, "avgshare": 2}; !cmp.Equal(want, got) {
		t.Errorf("without a witness: lines %v, want %v (the line and its legend)", got, want)
	}
	both := string(picture.Curve(avg, wit))
	if got, want := count(both), map[string]int{"average": 2, "avgshare": 2, "witness": 2, "share": 2}; !cmp.Equal(want, got) {
		t.Errorf("with a witness: lines %v, want %v", got, want)
	}
	if !strings.Contains(both, "witness tree: its search&#39;s decision wrong (1) or optimal (0)") {
		t.Errorf("no legend for the witness's line:\n%s", both)
	}
	if picture.Curve(nil, nil) != "" {
		t.Error("an empty chart is drawn")
	}
	// The overview's panels draw the same lines in the same classes,
	// without a legend of their own: Legend's has every line.
	ov := string(picture.Overview([]picture.Panel{{Title: "uct", Note: "predicted consistent", Average: avg, Witness: wit},
		{Title: "rave", Note: "predicted inconsistent", Unfinished: "unfinished: interrupted after 3 of 131 trees"}}))
	if got, want := count(ov), map[string]int{"average": 1, "avgshare": 1, "witness": 1, "share": 1}; !cmp.Equal(want, got) {
		t.Errorf("overview: lines %v, want %v", got, want)
	}
	if n := strings.Count(ov, "<svg"); n != 2 || !strings.Contains(ov, ">unfinished: interrupted after 3 of 131 trees</text>") {
		t.Errorf("overview: %d panels, want 2, the second unfinished:\n%s", n, ov)
	}
	leg := string(picture.Legend())
	if got, want := count(leg), map[string]int{"average": 1, "avgshare": 1, "witness": 1, "share": 1}; !cmp.Equal(want, got) {
		t.Errorf("legend: lines %v, want %v", got, want)
	}
}

// TestDOT: the DOT text names every node and edge with the facts, quotes
// what it must, and Graphviz (when installed) reads it.
func TestDOT(t *testing.T) {
	w := greedyWitness(t)
	var b bytes.Buffer
	if err := picture.Of(w.Tree, w.Search, w.Findings).WriteDOT(&b, "witness", `rule "x\y"`); err != nil {
		t.Fatal(err)
	}
	dot := b.String()
	for _, s := range []string{
		`label="rule \"x\\y\""`,
		`n2 [shape=box, label="0.1 terminal\nV=0.5\nn=4095\nmean=0.5"`,
		`color="#d62728", penwidth=3`,
		`n0 -> n1 [color="#2ca02c", penwidth=4, label="0.02%"]`,
		`n0 -> n2 [label="99.98%"]`,
	} {
		if !strings.Contains(dot, s) {
			t.Errorf("no %s in\n%s", s, dot)
		}
	}
	graphviz(t, dot)
}

// graphviz has Graphviz's dot read the text, if it is installed.
func graphviz(t *testing.T, dot string) {
	t.Helper()
	bin, err := exec.LookPath("dot")
	if err != nil {
		t.Log("Graphviz's dot is not installed: the DOT text is not drawn")
		return
	}
	cmd := exec.Command(bin, "-Tsvg")
	cmd.Stdin = strings.NewReader(dot)
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Errorf("dot -Tsvg: %v\n%s\n%s", err, errb.String(), dot)
	}
}

// TestNotReported: a search that reported the root's children only has
// its other nodes drawn "not reported", in SVG and in DOT, never with
// visits or a mean, and its root's shares drawn as reported.
func TestNotReported(t *testing.T) {
	tr := tree.MustParse("(max (min 1 0) (min 0 1) 0.5)")
	half, third := 0.5, 0.25
	s := &props.WitnessSearch{Curve: []props.CurvePoint{{Budget: 64, Searches: 1}}, Decision: 2,
		Visits: []int64{64, 16, 16, 32}, Means: []*float64{&half, &third, &third, &half}}
	f := picture.Of(tr, s, nil)
	if !f.Searched || f.Unreported != 4 {
		t.Fatalf("searched %v, %d unreported: want a search with the 4 grandchildren unreported", f.Searched, f.Unreported)
	}
	for _, n := range f.Nodes {
		if n.Reported != (n.Depth <= 1) || !n.Reported && (n.Visits != 0 || !math.IsNaN(n.Mean) || !math.IsNaN(n.Share)) {
			t.Errorf("node %s: %+v", n.Path, n)
		}
	}
	svg := string(f.SVG())
	parseSVG(t, svg)
	if got := strings.Count(svg, `class="unreported"`); got != 4 || strings.Count(svg, ">not reported<") != 4 || !strings.Contains(svg, ">n=16<") || !strings.Contains(svg, ">50%<") ||
		!strings.Contains(svg, ">mean=0.25<") || strings.Contains(svg, "NaN") {
		t.Errorf("%d nodes drawn not reported, want 4, the root children with their visits, means and shares, and no NaN:\n%s", got, svg)
	}
	var b bytes.Buffer
	if err := f.WriteDOT(&b, "witness", ""); err != nil {
		t.Fatal(err)
	}
	dot := b.String()
	for _, want := range []string{`n4 [shape=box, label="0.0.0 terminal\nV=1\nnot reported", tooltip="node 0.0.0: terminal, V=1, its statistics not reported by the search"]`,
		`n1 [shape=invtriangle, label="0.0 min\nV=0\nn=16\nmean=0.25"`, `n0 -> n3 [color="#2ca02c", penwidth=4, label="50%"]`} {
		if !strings.Contains(dot, want) {
			t.Errorf("no %s in\n%s", want, dot)
		}
	}
	if strings.Contains(dot, "NaN") {
		t.Errorf("NaN in\n%s", dot)
	}
	graphviz(t, dot)
}

func TestPercent(t *testing.T) {
	for _, tt := range []struct {
		share float64
		want  string
	}{{0, "0%"}, {1, "100%"}, {0.5, "50%"}, {0.987, "99%"}, {4095.0 / 4096, "99.98%"}, {1.0 / 16384, "0.006%"}, {0.995, "99.5%"}, {0.0005, "0.05%"}, {0.99, "99%"}} {
		if got := picture.Percent(tt.share); got != tt.want {
			t.Errorf("Percent(%v) = %s, want %s", tt.share, got, tt.want)
		}
	}
}

func ExampleFacts_WriteDOT() {
	f := picture.Of(tree.MustParse("(max (min 1 0) 0.25)"), nil, nil)
	f.WriteDOT(os.Stdout, "tree", "")
	// Output:
	// digraph "tree" {
	//   graph [fontname="Helvetica", fontsize=12, labelloc=b, nodesep=0.5, ranksep=0.6];
	//   node [fontname="Helvetica", fontsize=11, style=filled, fillcolor="#f4f4f4", color="#333333"];
	//   edge [fontname="Helvetica", fontsize=11, color="#9a9a9a", arrowhead=none];
	//   n0 [shape=triangle, label="0 max\nV=0.25", tooltip="node 0: max, V=0.25"];
	//   n1 [shape=invtriangle, label="0.0 min\nV=0", tooltip="node 0.0: min, V=0"];
	//   n2 [shape=box, label="0.1 terminal\nV=0.25", tooltip="node 0.1: terminal, V=0.25, optimal"];
	//   n3 [shape=box, label="0.0.0 terminal\nV=1", tooltip="node 0.0.0: terminal, V=1"];
	//   n4 [shape=box, label="0.0.1 terminal\nV=0", tooltip="node 0.0.1: terminal, V=0, optimal"];
	//   n0 -> n1;
	//   n0 -> n2 [color="#2ca02c", penwidth=4];
	//   n1 -> n3;
	//   n1 -> n4 [color="#2ca02c", penwidth=4];
	// }
}
