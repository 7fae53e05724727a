package picture

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/props"
)

// The lines of a convergence chart. Every chart draws each one in the
// same colour with the same name, the rule's own chart (Curve) as the
// overview's panels (Overview), so that one legend (Legend) reads them
// all: blue for every tree, red for the witness tree (the red of the
// decided child in the tree drawings), dashed for shares of simulations.
var lines = []struct {
	Class, Name string
}{
	{"average", "all trees: share of searches whose root decision is wrong"},
	{"avgshare", "all trees: optimal root children's share of the root's simulations"},
	{"witness", "witness tree: its search's decision wrong (1) or optimal (0)"},
	{"share", "witness tree: optimal root children's share of its simulations"},
}

// lineStyle is the CSS of the lines, for every chart and the legend.
const lineStyle = `.curve text { font: 12px sans-serif; fill: #222; }
.curve text.title { font-weight: bold; }
.curve text.unfinished { font-style: italic; fill: #777; }
.curve .axis { stroke: #333; stroke-width: 1; }
.curve .grid { stroke: #ddd; stroke-width: 1; }
.curve polyline { fill: none; }
.curve .average { stroke: #1f77b4; stroke-width: 2; }
.curve .avgshare { stroke: #1f77b4; stroke-width: 1.5; stroke-dasharray: 3 3; }
.curve .witness { stroke: #d62728; stroke-width: 3.5; }
.curve .share { stroke: #d62728; stroke-width: 1.5; stroke-dasharray: 7 4; }
.curve circle.average { fill: #1f77b4; stroke: none; }
.curve circle.witness { fill: #d62728; stroke: none; }
`

// The chart's geometry, in pixels.
const (
	chartW      = 480
	chartPlotH  = 170
	chartLeft   = 44
	chartRight  = 16
	chartTop    = 12
	chartLegend = 20 // per line of the legend
	panelW      = 300
	panelPlotH  = 120
	panelTitle  = 34 // the panel's two lines of title
)

// A series is one line of the chart.
type series struct {
	Class, Name string
	Points      string // the polyline's points, numbers only
	Dots        []dot
}

type dot struct{ X, Y int }

type tick struct {
	Pos   int
	Label string
}

type chart struct {
	W, H, Left, Right, Top, Bottom int
	XTicks, YTicks                 []tick
	Series                         []series
	Legend                         []legendLine
	Titles                         []titleLine
	Unfinished                     string // said instead of lines
	Label, XLabel                  string
	Style                          template.CSS
}

type legendLine struct {
	Class, Name   string
	X1, X2, TX, Y int
}

type titleLine struct {
	Text, Class string
	Y           int
}

var chartTemplate = template.Must(template.New("chart").Parse(`<svg xmlns="http://www.w3.org/2000/svg" class="curve" width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="{{.Label}}">
<style>
{{.Style}}</style>
{{range .Titles}}<text class="{{.Class}}" x="{{$.Left}}" y="{{.Y}}">{{.Text}}</text>
{{end}}{{range .YTicks}}<line class="grid" x1="{{$.Left}}" y1="{{.Pos}}" x2="{{$.Right}}" y2="{{.Pos}}"/><text x="{{$.Left}}" dx="-6" y="{{.Pos}}" dy="4" text-anchor="end">{{.Label}}</text>
{{end}}{{range .XTicks}}<line class="grid" x1="{{.Pos}}" y1="{{$.Top}}" x2="{{.Pos}}" y2="{{$.Bottom}}"/><text x="{{.Pos}}" y="{{$.Bottom}}" dy="16" text-anchor="middle">{{.Label}}</text>
{{end}}<line class="axis" x1="{{.Left}}" y1="{{.Bottom}}" x2="{{.Right}}" y2="{{.Bottom}}"/><line class="axis" x1="{{.Left}}" y1="{{.Top}}" x2="{{.Left}}" y2="{{.Bottom}}"/>
{{if .XLabel}}<text x="{{.Right}}" y="{{.Bottom}}" dy="32" text-anchor="end">{{.XLabel}}</text>
{{end}}{{if .Unfinished}}<text class="unfinished" x="{{.Left}}" dx="10" y="{{.Top}}" dy="24">{{.Unfinished}}</text>
{{end}}{{range $s := .Series}}<polyline class="{{$s.Class}}" points="{{$s.Points}}"><title>{{$s.Name}}</title></polyline>{{range $s.Dots}}<circle class="{{$s.Class}}" cx="{{.X}}" cy="{{.Y}}" r="3"/>{{end}}
{{end}}{{range .Legend}}<polyline class="{{.Class}}" points="{{.X1}},{{.Y}} {{.X2}},{{.Y}}"/><text x="{{.TX}}" y="{{.Y}}" dy="4">{{.Name}}</text>
{{end}}</svg>`))

// Curve draws the convergence of the root decision against the budget as
// an SVG chart, with its legend: over every search of every tree, the
// share of wrong decisions and the optimal root children's share of the
// root's simulations; and, when the rule has a witness, the witness
// search's own decision (wrong 1, right 0) and its optimal children's
// share. It returns "" when there is nothing to draw.
func Curve(average, witness []props.CurvePoint) template.HTML {
	c, ok := plotted(average, witness, chartW, chartTop, chartPlotH)
	if !ok {
		return ""
	}
	c.XLabel = "simulations (log scale)"
	legendTop := c.Bottom + 52
	for i, s := range c.Series {
		c.Legend = append(c.Legend, legendLine{Class: s.Class, Name: s.Name, X1: 8, X2: 38, TX: 46, Y: legendTop + i*chartLegend})
	}
	c.H = legendTop + len(c.Series)*chartLegend
	c.Label = "convergence of the root decision against the budget"
	return render(c)
}

// Panel is one rule's panel of the overview.
type Panel struct {
	// Title names the rule, and Note what was predicted and found.
	Title, Note string
	// Average and Witness are its curves, as Curve's.
	Average, Witness []props.CurvePoint
	// Unfinished, if set, says that the rule's check did not finish (it
	// was interrupted), across its panel, above what curve it has.
	Unfinished string
}

// Overview draws one small chart per rule, its lines in the colours of
// Curve's and of Legend, each panel an SVG that the page lays out as its
// width allows: small multiples, so that no rule's line hides another's.
func Overview(panels []Panel) template.HTML {
	var b strings.Builder
	for _, p := range panels {
		top := panelTitle + chartTop
		c, ok := plotted(p.Average, p.Witness, panelW, top, panelPlotH)
		if !ok {
			c = axes(panelW, top, panelPlotH, 0, 0)
			c.Unfinished = "no search to draw"
		}
		if p.Unfinished != "" {
			c.Unfinished = p.Unfinished
		}
		c.Titles = []titleLine{{Text: p.Title, Class: "title", Y: 14}, {Text: p.Note, Y: 30}}
		c.H = c.Bottom + 24
		c.Label = "convergence of " + p.Title
		b.WriteString(string(render(c)))
		b.WriteString("\n")
	}
	return template.HTML(b.String())
}

// Legend draws the names of the lines that the charts draw, each beside
// a stroke of its colour: the one legend of Curve's and Overview's charts.
func Legend() template.HTML {
	c := chart{W: chartW, Style: lineStyle, Label: "legend of the convergence charts"}
	for i, l := range lines {
		c.Legend = append(c.Legend, legendLine{Class: l.Class, Name: l.Name, X1: 8, X2: 38, TX: 46, Y: 12 + i*chartLegend})
	}
	c.H = 12 + len(lines)*chartLegend - 6
	var b strings.Builder
	if err := legendTemplate.Execute(&b, c); err != nil {
		panic(err) // the template and its data are ours: an error is a bug
	}
	return template.HTML(b.String())
}

var legendTemplate = template.Must(template.New("legend").Parse(`<svg xmlns="http://www.w3.org/2000/svg" class="curve legend" width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="{{.Label}}">
<style>
{{.Style}}</style>
{{range .Legend}}<polyline class="{{.Class}}" points="{{.X1}},{{.Y}} {{.X2}},{{.Y}}"/><text x="{{.TX}}" y="{{.Y}}" dy="4">{{.Name}}</text>
{{end}}</svg>`))

// render writes a chart as SVG.
func render(c chart) template.HTML {
	c.Style = lineStyle
	var b strings.Builder
	if err := chartTemplate.Execute(&b, c); err != nil {
		panic(err) // the template and its data are ours: an error is a bug
	}
	return template.HTML(b.String())
}

// axes is a chart of width w whose plot starts at top and is plotH high,
// its x axis from 2^lo to 2^hi simulations (none when lo = hi = 0).
func axes(w, top, plotH int, lo, hi float64) chart {
	c := chart{W: w, Left: chartLeft, Right: w - chartRight, Top: top, Bottom: top + plotH}
	for _, v := range []float64{0, 0.5, 1} {
		c.YTicks = append(c.YTicks, tick{Pos: c.y(v), Label: Num(v)})
	}
	if hi > 0 {
		stride := max(1, (int(hi-lo)+6)/6)
		for e := int(lo); e <= int(hi); e += stride {
			c.XTicks = append(c.XTicks, tick{Pos: c.x(int64(1)<<e, lo, hi), Label: strconv.FormatInt(int64(1)<<e, 10)})
		}
	}
	return c
}

// x places budget b on the axis from 2^lo to 2^hi.
func (c *chart) x(b int64, lo, hi float64) int {
	if hi == lo {
		return (c.Left + c.Right) / 2
	}
	return c.Left + int(math.Round((math.Log2(float64(b))-lo)/(hi-lo)*float64(c.Right-c.Left)))
}

// y places a share. Shares of 0 and 1 are common (a witness's decision is
// wrong or not): the scale leaves a margin so that no line lies on an axis.
func (c *chart) y(v float64) int {
	const pad = 6
	return c.Bottom - pad - int(math.Round(v*float64(c.Bottom-c.Top-2*pad)))
}

// plotted is the chart of the curves, w wide, its plot from top down plotH:
// axes, grid and lines, no legend; false when there is nothing to draw.
func plotted(average, witness []props.CurvePoint, w, top, plotH int) (chart, bool) {
	pts := witness
	if len(pts) == 0 {
		pts = average
	}
	if len(pts) == 0 {
		return chart{}, false
	}
	lo, hi := math.Log2(float64(pts[0].Budget)), math.Log2(float64(pts[len(pts)-1].Budget))
	for _, p := range average {
		lo, hi = math.Min(lo, math.Log2(float64(p.Budget))), math.Max(hi, math.Log2(float64(p.Budget)))
	}
	c := axes(w, top, plotH, lo, hi)
	add := func(line int, pts []props.CurvePoint, v func(props.CurvePoint) float64, dots bool) {
		s := series{Class: lines[line].Class, Name: lines[line].Name}
		var ps []string
		for _, p := range pts {
			d := dot{c.x(p.Budget, lo, hi), c.y(v(p))}
			if dots {
				s.Dots = append(s.Dots, d)
			}
			ps = append(ps, fmt.Sprintf("%d,%d", d.X, d.Y))
		}
		s.Points = strings.Join(ps, " ")
		c.Series = append(c.Series, s)
	}
	wrong := func(p props.CurvePoint) float64 { return p.Wrong }
	share := func(p props.CurvePoint) float64 { return p.OptimalShare }
	if len(average) > 0 {
		add(0, average, wrong, true)
		add(1, average, share, false)
	}
	if len(witness) > 0 {
		add(3, witness, share, false)
		add(2, witness, wrong, true)
	}
	return c, true
}
