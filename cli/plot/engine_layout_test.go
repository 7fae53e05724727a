package plot

import (
	"testing"

	"github.com/mctscheck/mctscheck/engine"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// TestEngineLegendApart: the share figure's legend lies in a strip of its
// own, apart from the data area (the lines and the top of the y axis) and
// inside the figure, whatever the number of classes.
func TestEngineLegendApart(t *testing.T) {
	budgets := []int{16, 64, 256, 1024}
	class := func(name string) engine.ClassShare {
		return engine.ClassShare{Class: name, Budgets: budgets, Played: []int{4, 4, 4, 4}, Optimal: []int{4, 4, 4, 4}}
	}
	for n := 1; n <= 10; n++ {
		var shares []engine.ClassShare
		for i := range n {
			shares = append(shares, class(string(rune('a'+i))+"-prior"))
		}
		const w, h = 6.4 * vg.Inch, 4 * vg.Inch
		c := draw.New(vgimg.New(w, h))
		data, legend := drawShares(c, shares)
		overlap := data.Min.X < legend.Max.X && legend.Min.X < data.Max.X && data.Min.Y < legend.Max.Y && legend.Min.Y < data.Max.Y
		inside := legend.Min.X >= 0 && legend.Min.Y >= 0 && legend.Max.X <= w && legend.Max.Y <= h
		if overlap || !inside || data.Size().X < w/2 {
			t.Errorf("%d classes: data area %v, legend %v in a %v×%v figure", n, data, legend, w, h)
		}
	}
}
