package plot

import (
	"fmt"
	"image/color"
	"path/filepath"
	"strconv"

	"github.com/mctscheck/mctscheck/cli"
	"github.com/mctscheck/mctscheck/engine"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// EngineFiles are the files EngineShares writes.
var EngineFiles = []string{"share.png", "share.svg"}

// classColours are the lines' colours, one per class in order (the
// palette of the convergence figure's first colours, then more).
var classColours = []color.RGBA{
	blue, red, {44, 160, 44, 255}, {255, 127, 14, 255}, {148, 103, 189, 255},
	{140, 86, 75, 255}, {227, 119, 194, 255}, {110, 110, 110, 255}, {188, 189, 34, 255}, {23, 190, 207, 255},
}

// EngineShares draws share.png and share.svg in dir: the share of optimal
// moves against the budget (log scale), one line per class of positions
// (the positions file's cases, such as the prior of the winning move). It
// is a [cli.EnginePlotter]; a budget where a class has no trial without
// fault has no point.
func EngineShares(dir string, shares []engine.ClassShare) ([]string, error) {
	const w, h = 6.4 * vg.Inch, 4 * vg.Inch
	png := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(100), vgimg.UseBackgroundColor(color.White))
	drawShares(draw.New(png), shares)
	if err := writeTo(filepath.Join(dir, EngineFiles[0]), vgimg.PngCanvas{Canvas: png}); err != nil {
		return nil, err
	}
	svg := vgsvg.NewWith(vgsvg.UseWH(w, h))
	drawShares(draw.New(svg), shares)
	if err := writeTo(filepath.Join(dir, EngineFiles[1]), svg); err != nil {
		return nil, err
	}
	return EngineFiles, nil
}

var _ cli.EnginePlotter = EngineShares

// drawShares draws the chart of the shares on c, with its legend in a
// strip of its own right of the chart, so that it covers neither the axes
// nor the lines; it returns the rectangles of the data area and of the
// legend.
func drawShares(c draw.Canvas, shares []engine.ClassShare) (data, legend vg.Rectangle) {
	p, leg := sharePlot(shares)
	width := vg.Length(0)
	for _, name := range leg.names {
		width = max(width, leg.ThumbnailWidth+leg.TextStyle.Rectangle(" "+name).Size().X)
	}
	if len(leg.names) > 0 {
		width += 2 * legendMargin
	}
	chart := draw.Crop(c, 0, -width, 0, 0)
	p.Draw(chart)
	data = p.DataCanvas(chart).Rectangle
	strip := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: c.Max.X - width + legendMargin, Y: data.Min.Y},
		Max: vg.Point{X: c.Max.X - legendMargin, Y: data.Max.Y},
	}}
	if len(leg.names) > 0 {
		leg.Draw(strip)
	}
	return data, strip.Rectangle
}

// legendMargin is the space above and under the legend's strip.
const legendMargin = 4 * vg.Millimeter

// shareLegend is the legend of the chart and its entries' names.
type shareLegend struct {
	plot.Legend
	names []string
}

// sharePlot is the chart of the shares, and its legend, drawn apart.
func sharePlot(shares []engine.ClassShare) (*plot.Plot, shareLegend) {
	leg := shareLegend{Legend: plot.NewLegend()}
	leg.Top, leg.Left = true, true
	p := plot.New()
	p.Title.Text = "Share of optimal moves against the budget, per case of positions"
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text = "visits"
	p.Y.Label.Text = "share of trials whose move is optimal"
	p.X.Scale = plot.LogScale{}
	p.Y.Min, p.Y.Max = -0.02, 1.02
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.5, Label: "0.5"}, {Value: 1, Label: "1"}})
	p.Add(plotter.NewGrid())
	lo, hi := 0, 0
	for i, cs := range shares {
		var pts plotter.XYs
		trials := 0
		for j, b := range cs.Budgets {
			if cs.Played[j] == 0 {
				continue
			}
			pts = append(pts, plotter.XY{X: float64(b), Y: float64(cs.Optimal[j]) / float64(cs.Played[j])})
			trials += cs.Played[j]
			if lo == 0 || b < lo {
				lo = b
			}
			hi = max(hi, b)
		}
		if len(pts) == 0 {
			continue
		}
		col := classColours[i%len(classColours)]
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil { // only NaN or infinite values fail, which shares are not
			continue
		}
		l.Color, l.Width = col, vg.Points(1.6)
		s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		p.Add(l, s)
		name := fmt.Sprintf("%s (%d trials)", cs.Class, trials)
		leg.Add(name, l, s)
		leg.names = append(leg.names, name)
	}
	if lo == 0 || lo == hi { // no point, or one budget: a range a log scale takes
		lo, hi = max(lo/2, 1), max(hi*2, 2)
	}
	p.X.Min, p.X.Max = float64(lo)/1.3, float64(hi)*1.3
	var ticks []plot.Tick
	for b := 1; b <= hi; b *= 4 {
		if b >= lo/2 {
			ticks = append(ticks, plot.Tick{Value: float64(b), Label: strconv.Itoa(b)})
		}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	return p, leg
}
