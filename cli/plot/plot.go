// Package plot draws the convergence figure of a run's report with gonum's
// plotting library: convergence.png and convergence.svg, one panel per
// rule. It is apart from package cli so that a command built with cli.Main
// links no plotting (gonum, fonts, PDF and LaTeX back ends) unless it asks:
//
//	tool := cli.Tool{Rules: mine, Plot: plot.Convergence}
//	os.Exit(tool.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
//
// cmd/mctscheck does so.
package plot

import (
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/cli"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Colours, those of report.html's charts (internal/picture): every tree in
// blue, the witness tree's search in red, shares of simulations dashed.
var (
	blue = color.RGBA{31, 119, 180, 255}
	red  = color.RGBA{214, 39, 40, 255}
)

// Layout of the figure: small multiples, one panel per rule, at most
// maxCols across. With fewer rules than maxCols the panels are wider, so
// that the figure is never narrower than minWidth: one rule gets one large
// panel, not a small one in a corner of an empty figure.
const (
	maxCols  = 4
	panelW   = 3.6 * vg.Inch
	panelH   = 2.6 * vg.Inch
	minWidth = 7.2 * vg.Inch
	lineH    = 16 // points per line of the header
)

// layout is the figure's geometry for n rules.
type layout struct {
	cols, rows int
	w, h       vg.Length // the figure
	panelH     vg.Length
	header     []string // the lines of the header
}

// figure lays out the figure for n rules.
func figure(n int) layout {
	l := layout{cols: min(max(n, 1), maxCols)}
	l.rows = max((n+l.cols-1)/l.cols, 1)
	l.w = max(vg.Length(l.cols)*panelW, minWidth)
	l.panelH = panelH * min(l.w/vg.Length(l.cols)/panelW, 1.6)
	l.header = wrap(headerText, l.w-vg.Points(24))
	l.h = vg.Length(l.rows)*l.panelH + l.headerH()
	return l
}

// headerH is the height of the header, below which the panels start.
func (l layout) headerH() vg.Length { return vg.Points(float64(lineH*len(l.header) + 16)) }

// headerText explains every panel.
const headerText = "Each panel: one rule, against the simulations run (log scale). " +
	"Blue: over every search of every tree, the share whose root decision is wrong (solid) " +
	"and the optimal root children's share of the root's simulations (dashed). " +
	"Red, for a rule with a witness: the witness tree's own search, its decision wrong (1) or optimal (0) (thick), " +
	"and its optimal root children's share (dashed). The title says what the papers predict and whether the check reproduced it."

// Files are the files Convergence writes.
var Files = []string{"convergence.png", "convergence.svg"}

// Convergence draws convergence.png and convergence.svg in dir: one panel
// per rule, so that no rule's line hides another's. Each shows, against the
// simulations run, the share of searches whose root decision is wrong and
// the share of the root's simulations that went to optimal children, over
// every tree, and for a rule with a witness the witness tree's own search,
// whose decision stays wrong where the average may fall near 0; the
// panel's colour says what the rule's prediction is. It is a [cli.Plotter].
func Convergence(dir string, rs []cli.Convergence) ([]string, error) {
	l := figure(len(rs))
	png := vgimg.NewWith(vgimg.UseWH(l.w, l.h), vgimg.UseDPI(100), vgimg.UseBackgroundColor(color.White))
	drawFigure(draw.New(png), l, rs)
	if err := writeTo(filepath.Join(dir, Files[0]), vgimg.PngCanvas{Canvas: png}); err != nil {
		return nil, err
	}
	svg := vgsvg.NewWith(vgsvg.UseWH(l.w, l.h))
	drawFigure(draw.New(svg), l, rs)
	if err := writeTo(filepath.Join(dir, Files[1]), svg); err != nil {
		return nil, err
	}
	return Files, nil
}

var _ cli.Plotter = Convergence

// wrap breaks text into lines no wider than w in the header's font.
func wrap(text string, w vg.Length) []string {
	sty := noteStyle()
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		try := strings.TrimSpace(line + " " + word)
		if line != "" && sty.Width(try) > w {
			lines = append(lines, line)
			try = word
		}
		line = try
	}
	return append(lines, line)
}

// noteStyle is the header's text style.
func noteStyle() draw.TextStyle {
	note := plot.New().Title.TextStyle
	note.Font.Size = vg.Points(11)
	note.XAlign = draw.XLeft
	return note
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
func drawFigure(c draw.Canvas, l layout, rs []cli.Convergence) {
	note := noteStyle()
	y := c.Max.Y
	for _, line := range l.header {
		y -= vg.Points(lineH)
		c.FillText(note, vg.Point{X: c.Min.X + vg.Points(12), Y: y}, line)
	}
	body := draw.Crop(c, 0, 0, 0, -l.headerH())
	tiles := draw.Tiles{Rows: l.rows, Cols: l.cols, PadX: vg.Points(6), PadY: vg.Points(6),
		PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
	for i, r := range rs {
		panel(r).Draw(tiles.At(body, i%l.cols, i/l.cols))
	}
}

// panel is the chart of one rule.
func panel(r cli.Convergence) *plot.Plot {
	p := plot.New()
	pred := "predicted consistent"
	if !r.PredictedConsistent {
		pred = "predicted inconsistent"
	}
	p.Title.Text = r.Rule + ": " + pred + ", " + string(r.Agreement)
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.Title.Padding = vg.Points(4)
	p.X.Label.Text = "simulations"
	p.Y.Label.Text = "share"
	p.X.Label.TextStyle.Font.Size = vg.Points(8)
	p.Y.Label.TextStyle.Font.Size = vg.Points(8)
	p.X.Scale = plot.LogScale{}
	if len(r.Curve) == 0 { // an interrupted check: an empty panel, on a range a log scale takes, that says so
		p.X.Min, p.X.Max = 64, float64(max(r.MaxBudget, 128))
	}
	if r.Agreement == cli.Interrupted {
		p.Title.Text = r.Rule + ": " + pred + ", unfinished (interrupted)"
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
	dashed := []vg.Length{vg.Points(4), vg.Points(3)}
	if l, err := plotter.NewLine(share); err == nil { // only NaN or infinite values fail, which curves do not have
		l.Color, l.Width, l.Dashes = blue, vg.Points(1.2), dashed
		p.Add(l)
	}
	if l, s, err := plotter.NewLinePoints(wrong); err == nil {
		l.Color, l.Width = blue, vg.Points(1.8)
		s.GlyphStyle = draw.GlyphStyle{Color: blue, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
		p.Add(l, s)
		if len(r.Witness) > 0 {
			p.Legend.Add("all trees", l, s)
		}
	}
	if len(r.Witness) > 0 {
		var wit, witShare plotter.XYs
		for _, pt := range r.Witness {
			wit = append(wit, plotter.XY{X: float64(pt.Budget), Y: pt.Wrong})
			witShare = append(witShare, plotter.XY{X: float64(pt.Budget), Y: pt.OptimalShare})
		}
		if l, err := plotter.NewLine(witShare); err == nil {
			l.Color, l.Width, l.Dashes = red, vg.Points(1.2), dashed
			p.Add(l)
		}
		if l, s, err := plotter.NewLinePoints(wit); err == nil {
			l.Color, l.Width = red, vg.Points(3)
			s.GlyphStyle = draw.GlyphStyle{Color: red, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
			p.Add(l, s)
			p.Legend.Add("witness tree", l, s)
		}
		// The legend goes above the share 1, where no line is.
		p.Y.Max = 1.3
		p.Legend.Top, p.Legend.Left = true, false
		p.Legend.XOffs = -vg.Points(10)
		p.Legend.TextStyle.Font.Size = vg.Points(8)
	}
	return p
}
