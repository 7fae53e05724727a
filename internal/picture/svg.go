package picture

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/mctscheck/mctscheck/core"
)

// MaxDrawn is the largest tree SVG draws: a shrunk witness has a handful
// of nodes, and a tree of hundreds would be too wide to read on a page.
const MaxDrawn = 200

// The tree's geometry, in pixels: a column per leaf, a row per depth, and
// the node's size (half its width).
const (
	colW    = 116
	rowH    = 150
	nodeR   = 17
	margin  = 16
	textGap = 15 // between the lines of text under a node
)

// svgTree is a laid-out drawing, as the template writes it.
type svgTree struct {
	W, H  int
	Label string
	Edges []svgEdge
	Nodes []svgNode
}

type svgEdge struct {
	X1, Y1, X2, Y2 int
	Class          string
	Label          string // the share of a root child, a chance child's probability
	LX, LY         int
}

type svgNode struct {
	Path, Class, Title string
	X, Y               int
	Shape              template.HTML // the node's outline, made by shape from numbers only
	Lines              []svgLine
	ID                 svgLine // the node's name, as the text names it, beside its shape
}

type svgLine struct {
	Text, Class string
	X, Y        int
}

var treeTemplate = template.Must(template.New("tree").Parse(`<svg xmlns="http://www.w3.org/2000/svg" class="tree" width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="{{.Label}}">
<style>
.tree text { font: 13px sans-serif; fill: #222; text-anchor: middle; paint-order: stroke; stroke: #fff; stroke-width: 4px; stroke-linejoin: round; }
.tree line { stroke: #9a9a9a; stroke-width: 1.5; }
.tree line.optimal { stroke: #2ca02c; stroke-width: 4; }
.tree .shape { fill: #f4f4f4; stroke: #333; stroke-width: 1.5; }
.tree .chosen .shape { stroke: #d62728; stroke-width: 4; }
.tree .mechanism .shape { stroke: #ff7f0e; stroke-width: 3; stroke-dasharray: 5 3; }
.tree .chosen.mechanism .shape { stroke: #d62728; }
.tree text.share { font-weight: bold; }
.tree text.optimal { fill: #2ca02c; font-weight: bold; }
.tree text.chosen { fill: #d62728; font-weight: bold; }
.tree text.mechanism { fill: #c85a00; }
.tree text.path { font-size: 12px; fill: #555; text-anchor: start; }
.tree text.unreported { fill: #777; font-style: italic; }
</style>
{{range .Edges}}<line class="{{.Class}}" x1="{{.X1}}" y1="{{.Y1}}" x2="{{.X2}}" y2="{{.Y2}}"/>
{{end}}{{range .Edges}}{{if .Label}}<text class="edge share" x="{{.LX}}" y="{{.LY}}">{{.Label}}</text>
{{end}}{{end}}{{range .Nodes}}<g class="node {{.Class}}" data-path="{{.Path}}"><title>{{.Title}}</title>{{.Shape}}<text class="path" x="{{.ID.X}}" y="{{.ID.Y}}">{{.ID.Text}}</text>{{range .Lines}}<text class="{{.Class}}" x="{{.X}}" y="{{.Y}}">{{.Text}}</text>{{end}}</g>
{{end}}</svg>`))

// SVG draws the tree as an SVG element: max nodes as triangles pointing
// up, min nodes as triangles pointing down, chance nodes as circles and
// terminals as squares, each with its name beside it (0 the root, 0.1 its
// child 1: the "node 0.1" of the reports' texts), its value V and, after
// a search, its simulations; an optimal move's edge is thick and green, the root child
// the search decided is outlined in red, the child the finding is about
// in orange dashes, and each root edge carries the child's share of the
// root's simulations (a chance edge its probability). It returns "" for a
// tree of more than MaxDrawn nodes.
func (f *Facts) SVG() template.HTML {
	if len(f.Nodes) > MaxDrawn {
		return ""
	}
	t := f.layout()
	var b strings.Builder
	if err := treeTemplate.Execute(&b, t); err != nil {
		panic(err) // the template and its data are ours: an error is a bug
	}
	return template.HTML(b.String())
}

// layout places the nodes: each leaf in a column of its own, in
// depth-first order, each inner node above the middle of its children.
func (f *Facts) layout() svgTree {
	n := len(f.Nodes)
	x := make([]int, n)
	children := make([][]int32, n)
	for i := 1; i < n; i++ {
		p := f.Nodes[i].Parent
		children[p] = append(children[p], int32(i))
	}
	col := 0
	var place func(i int32)
	place = func(i int32) {
		cs := children[i]
		if len(cs) == 0 {
			x[i] = margin + colW/2 + col*colW
			col++
			return
		}
		for _, c := range cs {
			place(c)
		}
		x[i] = (x[cs[0]] + x[cs[len(cs)-1]]) / 2
	}
	place(0)
	y := func(i int) int { return margin + 3*textGap + nodeR + f.Nodes[i].Depth*rowH }
	t := svgTree{W: max(2*margin+col*colW, 240), Label: fmt.Sprintf("tree of %d nodes", n)}
	for i := range f.Nodes {
		nd := f.svgNode(&f.Nodes[i], x[i], y(i))
		t.H = max(t.H, nd.Y+nodeR+margin, nd.Lines[len(nd.Lines)-1].Y+margin)
		t.Nodes = append(t.Nodes, nd)
	}
	for i := 1; i < n; i++ {
		nd := &f.Nodes[i]
		p := int(nd.Parent)
		// From under the parent's text to the child's top: no edge
		// crosses a node's text.
		from := y(p) + nodeR + 3
		if p > 0 {
			from = t.Nodes[p].Lines[len(t.Nodes[p].Lines)-1].Y + 6
		}
		e := svgEdge{X1: x[p], Y1: from, X2: x[i], Y2: y(i) - nodeR}
		if nd.Optimal {
			e.Class = "optimal"
		}
		var lab []string
		if nd.Prob > 0 {
			lab = append(lab, "p="+Num(nd.Prob))
		}
		if f.Searched && nd.IsRootChild() && !math.IsNaN(nd.Share) {
			lab = append(lab, Percent(nd.Share))
		}
		if len(lab) > 0 {
			e.Label = strings.Join(lab, " ")
			e.LX, e.LY = (e.X1+e.X2)/2, (e.Y1+e.Y2)/2+4
		}
		t.Edges = append(t.Edges, e)
	}
	return t
}

// svgNode draws one node at (x, y): its shape and its lines of text.
func (f *Facts) svgNode(nd *Node, x, y int) svgNode {
	s := svgNode{Path: nd.Path, X: x, Y: y, Shape: shape(nd.Kind, x, y), Class: "kind-" + nd.Kind.String(), Title: f.Describe(nd),
		ID: svgLine{Text: nd.Path, X: x + nodeR + 3, Y: y + 4}}
	line := func(text, class string) {
		s.Lines = append(s.Lines, svgLine{Text: text, Class: class, X: x, Y: y + nodeR + textGap*(len(s.Lines)+1)})
	}
	line("V="+Num(nd.Value), "value")
	class := "visits"
	if f.Searched && !nd.Reported {
		class = "unreported"
	}
	for _, st := range f.stats(nd) {
		line(st, class)
	}
	if nd.IsRootChild() && nd.Optimal {
		line("optimal", "optimal")
	}
	if nd.Chosen {
		s.Class += " chosen"
		line("chosen", "chosen")
	}
	if nd.Mechanism {
		s.Class += " mechanism"
		line(f.mechanismWord(), "mechanism")
	}
	if nd.Parent < 0 {
		for i := range s.Lines { // the root's text above it, out of its children's edges
			s.Lines[i].Y = y - nodeR - textGap*(len(s.Lines)-i) + 4
		}
	}
	return s
}

// stats are the lines that give a node's statistics, after a search: its
// simulations and mean, or that the search did not report them.
func (f *Facts) stats(nd *Node) []string {
	switch {
	case !f.Searched:
		return nil
	case !nd.Reported:
		return []string{"not reported"}
	case math.IsNaN(nd.Mean):
		return []string{fmt.Sprintf("n=%d", nd.Visits)}
	}
	return []string{fmt.Sprintf("n=%d", nd.Visits), "mean=" + Mean(nd.Mean)}
}

// mechanismWord is what the mechanism's child is, in a word or two.
func (f *Facts) mechanismWord() string {
	cond, _, _ := strings.Cut(f.Mechanism, ":")
	if strings.HasSuffix(f.Mechanism, "starved") {
		return cond + ": starved"
	}
	return cond + ": keeps share"
}

// Describe says what is known of a node in one line, for a tooltip.
func (f *Facts) Describe(nd *Node) string {
	s := fmt.Sprintf("node %s: %s, V=%s", nd.Path, nd.Kind, Num(nd.Value))
	if nd.Prob > 0 {
		s += ", probability " + Num(nd.Prob)
	}
	if nd.Optimal {
		s += ", optimal"
	}
	switch {
	case f.Searched && !nd.Reported:
		s += ", its statistics not reported by the search"
	case f.Searched:
		s += fmt.Sprintf(", %s at %d", simulations(nd.Visits), f.Budget)
		if nd.Parent >= 0 && !math.IsNaN(nd.Share) {
			s += fmt.Sprintf(" (%s of node %s's)", Percent(nd.Share), f.Nodes[nd.Parent].Path)
		}
		if !math.IsNaN(nd.Mean) {
			s += ", mean " + Mean(nd.Mean)
		}
	}
	if nd.Chosen {
		s += ", the search's decision"
	}
	if nd.Mechanism {
		s += "; " + f.Mechanism
	}
	return s
}

// shape is the outline of a node of kind k centred on (x, y).
func shape(k core.Kind, x, y int) template.HTML {
	r := nodeR
	var s string
	switch k {
	case core.Max:
		s = fmt.Sprintf(`<polygon class="shape" points="%d,%d %d,%d %d,%d"/>`, x, y-r, x-r, y+r*4/5, x+r, y+r*4/5)
	case core.Min:
		s = fmt.Sprintf(`<polygon class="shape" points="%d,%d %d,%d %d,%d"/>`, x, y+r, x-r, y-r*4/5, x+r, y-r*4/5)
	case core.Chance:
		s = fmt.Sprintf(`<circle class="shape" cx="%d" cy="%d" r="%d"/>`, x, y, r*4/5)
	default:
		s = fmt.Sprintf(`<rect class="shape" x="%d" y="%d" width="%d" height="%d"/>`, x-r*3/4, y-r*3/4, r*3/2, r*3/2)
	}
	return template.HTML(s) // numbers only: nothing to escape
}

// simulations writes "1 simulation", "2 simulations".
func simulations(n int64) string {
	if n == 1 {
		return "1 simulation"
	}
	return fmt.Sprintf("%d simulations", n)
}
