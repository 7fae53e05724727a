package cli

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

// Colours: the panels of rules predicted consistent in blue, inconsistent in
// red; the optimal children's share in grey.
var (
	blue = color.RGBA{31, 119, 180, 255}
	red  = color.RGBA{214, 39, 40, 255}
	grey = color.RGBA{110, 110, 110, 255}
)

// Layout of the figure: small multiples, one panel per rule, cols across.
const (
	cols   = 4
	panelW = 3.6 * vg.Inch
	panelH = 2.6 * vg.Inch
	header = 0.6 * vg.Inch
)

// figureSize returns the size of the figure for n rules.
func figureSize(n int) (w, h vg.Length) {
	rows := max((n+cols-1)/cols, 1)
	return cols * panelW, vg.Length(rows)*panelH + header
}

// writePlots draws convergence.png and convergence.svg in dir: one panel
// per rule, so that no rule's line hides another's. Each shows, against the
// simulations run, the share of searches whose root decision is wrong and
// the share of the root's simulations that went to optimal children; the
// panel's colour says what the papers predict.
func writePlots(dir string, rs []ruleResult) error {
	w, h := figureSize(len(rs))
	png := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(100), vgimg.UseBackgroundColor(color.White))
	drawFigure(draw.New(png), rs)
	if err := writeTo(filepath.Join(dir, "convergence.png"), vgimg.PngCanvas{Canvas: png}); err != nil {
		return err
	}
	svg := vgsvg.NewWith(vgsvg.UseWH(w, h))
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

// drawFigure draws the header and one panel per rule on c.
func drawFigure(c draw.Canvas, rs []ruleResult) {
	rows := max((len(rs)+cols-1)/cols, 1)
	note := plot.New().Title.TextStyle
	note.Font.Size = vg.Points(11)
	note.XAlign = draw.XLeft
	top := c.Max.Y - vg.Points(16)
	c.FillText(note, vg.Point{X: c.Min.X + vg.Points(12), Y: top},
		"Each panel: one rule, against the simulations run (log scale). Solid: share of searches whose root decision is wrong.")
	c.FillText(note, vg.Point{X: c.Min.X + vg.Points(12), Y: top - vg.Points(16)},
		"Dashed grey: share of the root's simulations that went to optimal children. Blue title: predicted consistent; red: predicted inconsistent.")
	body := draw.Crop(c, 0, 0, 0, -header)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(6), PadY: vg.Points(6),
		PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
	for i, r := range rs {
		panel(r).Draw(tiles.At(body, i%cols, i/cols))
	}
}

// panel is the chart of one rule.
func panel(r ruleResult) *plot.Plot {
	p := plot.New()
	pred, col := "predicted consistent", blue
	if !r.Predicted.Consistent {
		pred, col = "predicted inconsistent", red
	}
	p.Title.Text = r.Name + ": " + pred + ", " + string(r.Agreement)
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.Title.TextStyle.Color = col
	p.Title.Padding = vg.Points(4)
	p.X.Label.Text = "simulations"
	p.Y.Label.Text = "share"
	p.X.Label.TextStyle.Font.Size = vg.Points(8)
	p.Y.Label.TextStyle.Font.Size = vg.Points(8)
	p.X.Scale = plot.LogScale{}
	if len(r.Curve) == 0 { // an interrupted check: an empty panel, on a range a log scale takes
		p.X.Min, p.X.Max = 64, float64(max(r.MaxBudget, 128))
	}
	var ticks []plot.Tick
	for b := 64; b <= 1<<26; b *= 16 {
		ticks = append(ticks, plot.Tick{Value: float64(b), Label: strconv.Itoa(b)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.02, 1.02
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.5, Label: "0.5"}, {Value: 1, Label: "1"}})
	p.Add(plotter.NewGrid())
	var wrong, share plotter.XYs
	for _, pt := range r.Curve {
		wrong = append(wrong, plotter.XY{X: float64(pt.Budget), Y: pt.Wrong})
		share = append(share, plotter.XY{X: float64(pt.Budget), Y: pt.OptimalShare})
	}
	if l, err := plotter.NewLine(share); err == nil { // only NaN or infinite values fail, which curves do not have
		l.Color, l.Width, l.Dashes = grey, vg.Points(1.2), []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
	}
	if l, s, err := plotter.NewLinePoints(wrong); err == nil {
		l.Color, l.Width = col, vg.Points(1.8)
		s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
		p.Add(l, s)
	}
	return p
}
