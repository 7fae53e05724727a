package plot_test

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/cli"
	"github.com/mctscheck/mctscheck/cli/plot"
)

// run runs mctscheck with the plots on rules and returns the report
// directory.
func run(t *testing.T, rules string) string {
	t.Helper()
	dir := t.TempDir()
	tool := cli.MctscheckTool()
	tool.Plot = plot.Convergence
	var out, errb bytes.Buffer
	args := []string{"-rules", rules, "-trees", "2", "-seeds", "1", "-budget", "1024", "-out", dir}
	if code := tool.Run(args, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	return dir
}

// size returns the size in pixels of dir/convergence.png.
func size(t *testing.T, dir string) (w, h int) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "convergence.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img.Bounds().Dx(), img.Bounds().Dy()
}

// TestConvergence: the figure has one panel per rule, four across; one
// rule gets one wide panel, not a small one in a corner of a wide figure.
func TestConvergence(t *testing.T) {
	one := run(t, "uct")
	if w, h := size(t, one); w != 720 || h < 400 || h > 600 {
		t.Errorf("one rule: %d×%d pixels, want 720 wide and 400 to 600 high", w, h)
	}
	five := run(t, "uct,greedy-fpu,rave,eps-greedy,boltzmann")
	if w, h := size(t, five); w != 1440 || h < 500 || h > 700 {
		t.Errorf("five rules: %d×%d pixels, want 1440 wide (four panels across) and two rows", w, h)
	}
	svg, err := os.ReadFile(filepath.Join(five, "convergence.svg"))
	if err != nil || !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("greedy-fpu: predicted inconsistent, reproduced")) {
		t.Errorf("convergence.svg: %v, %.200s", err, svg)
	}
	md, err := os.ReadFile(filepath.Join(five, "report.md"))
	if err != nil || !bytes.Contains(md, []byte("![convergence](convergence.png)")) || !bytes.Contains(md, []byte("Also as [SVG](convergence.svg).")) {
		t.Errorf("report.md does not show the figure: %v\n%s", err, md)
	}
}

// TestWitnessCurve: a rule with a witness has the witness tree's own
// curve in its panel, beside the average over every tree (a legend names
// both); a rule without one has the average alone.
func TestWitnessCurve(t *testing.T) {
	dir := run(t, "greedy-fpu,uct")
	svg, err := os.ReadFile(filepath.Join(dir, "convergence.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(svg, []byte(">witness tree<")); n != 1 {
		t.Errorf("%d legends name the witness tree, want 1 (greedy-fpu's panel; uct has no witness)", n)
	}
	if n := bytes.Count(svg, []byte(">all trees<")); n != 1 {
		t.Errorf("%d legends name the average over all trees, want 1", n)
	}
}
