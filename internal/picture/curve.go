package picture

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/props"
)

// The chart's geometry, in pixels.
const (
	chartW      = 480
	chartPlotH  = 170
	chartLeft   = 44
	chartRight  = 16
	chartTop    = 12
	chartLegend = 20 // per line of the legend
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
	Label                          string
}

type legendLine struct {
	Class, Name   string
	X1, X2, TX, Y int
}

var chartTemplate = template.Must(template.New("chart").Parse(`<svg xmlns="http://www.w3.org/2000/svg" class="curve" width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="{{.Label}}">
<style>
.curve text { font: 12px sans-serif; fill: #222; }
.curve .axis { stroke: #333; stroke-width: 1; }
.curve .grid { stroke: #ddd; stroke-width: 1; }
.curve polyline { fill: none; }
.curve .average { stroke: #1f77b4; stroke-width: 2; }
.curve .witness { stroke: #d62728; stroke-width: 3.5; }
.curve .share { stroke: #2ca02c; stroke-width: 2; stroke-dasharray: 6 4; }
.curve circle.average { fill: #1f77b4; stroke: none; }
.curve circle.witness { fill: #d62728; stroke: none; }
.curve circle.share { fill: #2ca02c; stroke: none; }
</style>
{{range .YTicks}}<line class="grid" x1="{{$.Left}}" y1="{{.Pos}}" x2="{{$.Right}}" y2="{{.Pos}}"/><text x="{{$.Left}}" dx="-6" y="{{.Pos}}" dy="4" text-anchor="end">{{.Label}}</text>
{{end}}{{range .XTicks}}<line class="grid" x1="{{.Pos}}" y1="{{$.Top}}" x2="{{.Pos}}" y2="{{$.Bottom}}"/><text x="{{.Pos}}" y="{{$.Bottom}}" dy="16" text-anchor="middle">{{.Label}}</text>
{{end}}<line class="axis" x1="{{.Left}}" y1="{{.Bottom}}" x2="{{.Right}}" y2="{{.Bottom}}"/><line class="axis" x1="{{.Left}}" y1="{{.Top}}" x2="{{.Left}}" y2="{{.Bottom}}"/>
<text x="{{.Right}}" y="{{.Bottom}}" dy="32" text-anchor="end">simulations (log scale)</text>
{{range $s := .Series}}<polyline class="{{$s.Class}}" points="{{$s.Points}}"><title>{{$s.Name}}</title></polyline>{{range $s.Dots}}<circle class="{{$s.Class}}" cx="{{.X}}" cy="{{.Y}}" r="3"/>{{end}}
{{end}}{{range .Legend}}<polyline class="{{.Class}}" points="{{.X1}},{{.Y}} {{.X2}},{{.Y}}"/><text x="{{.TX}}" y="{{.Y}}" dy="4">{{.Name}}</text>
{{end}}</svg>`))

// Curve draws the convergence of the root decision against the budget as
// an SVG chart: the share of wrong decisions over every search of every
// tree (average), and, when the rule has a witness, the witness search's
// own decision (wrong 1, right 0) and its optimal children's share of the
// root's simulations. It returns "" when there is nothing to draw.
func Curve(average, witness []props.CurvePoint) template.HTML {
	pts := witness
	if len(pts) == 0 {
		pts = average
	}
	if len(pts) == 0 {
		return ""
	}
	lo, hi := math.Log2(float64(pts[0].Budget)), math.Log2(float64(pts[len(pts)-1].Budget))
	for _, p := range average {
		lo, hi = math.Min(lo, math.Log2(float64(p.Budget))), math.Max(hi, math.Log2(float64(p.Budget)))
	}
	c := chart{W: chartW, Left: chartLeft, Right: chartW - chartRight, Top: chartTop, Bottom: chartTop + chartPlotH}
	x := func(b int64) int {
		if hi == lo {
			return (c.Left + c.Right) / 2
		}
		return c.Left + int(math.Round((math.Log2(float64(b))-lo)/(hi-lo)*float64(c.Right-c.Left)))
	}
	// Shares of 0 and 1 are common (a witness's decision is wrong or not):
	// the scale leaves a margin so that no line lies on an axis.
	const pad = 6
	y := func(v float64) int { return c.Bottom - pad - int(math.Round(v*float64(c.Bottom-c.Top-2*pad))) }
	for _, v := range []float64{0, 0.5, 1} {
		c.YTicks = append(c.YTicks, tick{Pos: y(v), Label: Num(v)})
	}
	stride := max(1, (int(hi-lo)+6)/6)
	for e := int(lo); e <= int(hi); e += stride {
		c.XTicks = append(c.XTicks, tick{Pos: x(int64(1) << e), Label: strconv.FormatInt(int64(1)<<e, 10)})
	}
	add := func(class, name string, pts []props.CurvePoint, v func(props.CurvePoint) float64) {
		s := series{Class: class, Name: name}
		var ps []string
		for _, p := range pts {
			d := dot{x(p.Budget), y(v(p))}
			s.Dots = append(s.Dots, d)
			ps = append(ps, fmt.Sprintf("%d,%d", d.X, d.Y))
		}
		s.Points = strings.Join(ps, " ")
		c.Series = append(c.Series, s)
	}
	wrong := func(p props.CurvePoint) float64 { return p.Wrong }
	if len(average) > 0 {
		add("average", "all trees: share of searches whose root decision is wrong", average, wrong)
	}
	if len(witness) > 0 {
		add("share", "witness tree: optimal root children's share of simulations", witness,
			func(p props.CurvePoint) float64 { return p.OptimalShare })
		add("witness", "witness tree: its search's decision wrong (1) or optimal (0)", witness, wrong)
	}
	legendTop := c.Bottom + 52
	for i, s := range c.Series {
		c.Legend = append(c.Legend, legendLine{Class: s.Class, Name: s.Name, X1: 8, X2: 38, TX: 46, Y: legendTop + i*chartLegend})
	}
	c.H = legendTop + len(c.Series)*chartLegend
	c.Label = "convergence of the root decision against the budget"
	var b strings.Builder
	if err := chartTemplate.Execute(&b, c); err != nil {
		panic(err) // the template and its data are ours: an error is a bug
	}
	return template.HTML(b.String())
}
