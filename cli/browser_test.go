package cli

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chromiumFlags run headless Chromium as a test may, as root too: no
// sandbox, no GPU, no network of its own, a fresh profile.
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"}

// TestReportInBrowser: a real browser (headless Chromium, Debian's
// chromium) shows report.html for greedy-fpu, and for a whole search
// (examples/mcts.py with a bug): the screenshot is not blank and has the
// drawing's colours (the decided child's red, the optimal moves' green),
// and the page's DOM holds the witness tree's SVG with the decided child
// and the witness's curve. The reports and the screenshots are kept with
// go test -artifacts.
func TestReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts a browser (a few seconds)")
	}
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH (Debian: apt-get install chromium)")
	}
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		chosen string // the decided child's node in the DOM
	}{
		{"rule", append([]string{"-rules", "greedy-fpu"}, quick...), exitOK, `<g class="node kind-terminal chosen" data-path="0.1">`},
		{"search", []string{"check", "-search", "exec:python3 ../examples/mcts.py --bug fpu-never", "-budget", "1024", "-trees", "2", "-jobs", "1"},
			exitFinding, `<g class="node kind-terminal chosen" data-path="0.0">`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "search" {
				if _, err := exec.LookPath("python3"); err != nil {
					t.Skip("python3 is absent: the search is not run (CI has it)")
				}
			}
			dir := t.ArtifactDir()
			if r := mctscheck(t, "", append(c.args, "-out", dir)...); r.code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, c.code, r.stdout, r.stderr)
			}
			showInBrowser(t, bin, dir, c.chosen)
		})
	}
}

// showInBrowser has Chromium show dir's report.html, and checks its DOM
// and its screenshot.
func showInBrowser(t *testing.T, bin, dir, chosen string) {
	t.Helper()
	shot := filepath.Join(dir, "screenshot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append(chromiumFlags, "--user-data-dir="+t.TempDir(), "--window-size=1100,1700",
		"--screenshot="+shot, "--dump-dom", "file://"+filepath.Join(dir, "report.html"))
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.WaitDelay = 10 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	for _, s := range []string{`<svg xmlns="http://www.w3.org/2000/svg" class="tree"`, chosen, `<polyline class="witness"`} {
		if !strings.Contains(string(dom), s) {
			t.Errorf("the page's DOM has no %s", s)
		}
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, stderr.String())
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1100 || b.Dy() != 1700 {
		t.Errorf("screenshot %v, want the window's 1100×1700", b)
	}
	inked, red, green := census(img)
	t.Logf("screenshot %s: %.1f%% of the pixels inked, %d red, %d green", shot, 100*inked, red, green)
	if inked < 0.02 {
		t.Errorf("the screenshot is blank: %.2f%% of its pixels are not white", 100*inked)
	}
	if red < 50 || green < 50 {
		t.Errorf("the screenshot has %d pixels of the decided child's red and %d of the optimal moves' green: the tree is not drawn", red, green)
	}
}

// census returns the share of pixels that are not white, and counts those
// of the drawing's red (#d62728) and green (#2ca02c).
func census(img image.Image) (inked float64, red, green int) {
	near := func(c color.Color, r0, g0, b0 uint32) bool {
		r, g, b, _ := c.RGBA()
		d := func(x, y uint32) bool { return x>>8 <= y+24 && y <= x>>8+24 }
		return d(r, r0) && d(g, g0) && d(b, b0)
	}
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.At(x, y)
			if !near(c, 255, 255, 255) {
				n++
			}
			if near(c, 0xd6, 0x27, 0x28) {
				red++
			}
			if near(c, 0x2c, 0xa0, 0x2c) {
				green++
			}
		}
	}
	return float64(n) / float64(b.Dx()*b.Dy()), red, green
}
