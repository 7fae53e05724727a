package main

import (
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// palette has 15 colours that stay apart on white (Tableau 10 and five
// darker ones); rules beyond it reuse them with other glyphs.
var palette = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}, {148, 103, 189, 255},
	{140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255}, {188, 189, 34, 255}, {23, 190, 207, 255},
	{0, 0, 0, 255}, {0, 70, 140, 255}, {160, 90, 0, 255}, {0, 110, 60, 255}, {130, 0, 70, 255},
}

var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}

// Size of the figure: two charts side by side and the legend.
const (
	figW   = 12 * vg.Inch
	figH   = 4.5 * vg.Inch
	legend = 2 * vg.Inch
)

// writePlots draws convergence.png and convergence.svg in dir: the share of
// searches whose root decision is wrong, and the share of the root's
// simulations that went to optimal children, against the simulations run,
// one line per rule; solid for rules the papers call consistent, dashed for
// the others.
func writePlots(dir string, rs []ruleResult) error {
	png := vgimg.NewWith(vgimg.UseWH(figW, figH), vgimg.UseDPI(110), vgimg.UseBackgroundColor(color.White))
	drawFigure(draw.New(png), rs)
	if err := writeTo(filepath.Join(dir, "convergence.png"), vgimg.PngCanvas{Canvas: png}); err != nil {
		return err
	}
	svg := vgsvg.NewWith(vgsvg.UseWH(figW, figH))
	drawFigure(draw.New(svg), rs)
	return writeTo(filepath.Join(dir, "convergence.svg"), svg)
}

func writeTo(name string, w io.WriterTo) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if _, err := w.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// drawFigure draws both charts and the legend on c.
func drawFigure(c draw.Canvas, rs []ruleResult) {
	wrong := chart("Wrong root decisions", "share of searches whose decision is not optimal")
	share := chart("Simulations of the optimal root children", "share of the root's simulations")
	leg := plot.NewLegend()
	leg.Left, leg.Top = true, true
	leg.TextStyle.Font.Size = vg.Points(10)
	for i, r := range rs {
		var w, s plotter.XYs
		for _, p := range r.Curve {
			w = append(w, plotter.XY{X: float64(p.Budget), Y: p.Wrong})
			s = append(s, plotter.XY{X: float64(p.Budget), Y: p.OptimalShare})
		}
		l1, p1 := line(w, i, r.Predicted.Consistent)
		l2, p2 := line(s, i, r.Predicted.Consistent)
		wrong.Add(l1, p1)
		share.Add(l2, p2)
		leg.Add(r.Name, l1, p1)
	}
	width := c.Max.X - c.Min.X - legend
	left := draw.Crop(c, 0, -(width/2 + legend), 0, 0)
	right := draw.Crop(c, width/2, -legend, 0, 0)
	wrong.Draw(left)
	share.Draw(right)
	lc := draw.Crop(c, width+vg.Points(10), 0, 0, -vg.Points(30))
	leg.Draw(lc)
	note := leg.TextStyle
	note.Font.Size = vg.Points(9)
	for i, s := range []string{"solid: the papers predict consistent", "dashed: they predict inconsistent"} {
		lc.FillText(note, vg.Point{X: lc.Min.X, Y: lc.Min.Y + vg.Points(float64(40-14*i))}, s)
	}
}

// chart returns an empty chart with a log2 x axis over simulations and a
// y axis over [0,1].
func chart(title, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "simulations (log scale)"
	p.Y.Label.Text = ylabel
	p.X.Scale = plot.LogScale{}
	var ticks []plot.Tick
	for b := 64; b <= 1<<26; b *= 4 {
		ticks = append(ticks, plot.Tick{Value: float64(b), Label: strconv.Itoa(b)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.02, 1.02
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"},
		{Value: 0.5, Label: "0.5"}, {Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"}})
	p.Add(plotter.NewGrid())
	return p
}

// line returns the line and the points of rule i.
func line(xys plotter.XYs, i int, consistent bool) (*plotter.Line, *plotter.Scatter) {
	l, err := plotter.NewLine(xys)
	s, err2 := plotter.NewScatter(xys)
	if err != nil || err2 != nil { // only for NaN or infinite values, which curves do not have
		l, s = &plotter.Line{}, &plotter.Scatter{}
	}
	col := palette[i%len(palette)]
	l.Color, l.Width = col, vg.Points(1.5)
	if !consistent {
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: glyphs[i%len(glyphs)]}
	return l, s
}
