package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
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
// chromium) shows report.html for greedy-fpu and uct, and for a whole
// search (examples/mcts.py with a bug), at 600, 900 and 1400 px: the
// screenshot is not blank and has the drawing's colours (the decided
// child's red, the optimal moves' green); the page's DOM holds the witness
// tree's SVG with the decided child and the witness's curve; and, measured
// in the page, nothing runs off it (the table fits), the overview is drawn
// in SVG with text no smaller than 10 px, and each node of the witness
// tree has its name written beside it. The reports and the screenshots
// are kept with go test -artifacts.
func TestReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts a browser (a few seconds)")
	}
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH (Debian: apt-get install chromium)")
	}
	for _, c := range []struct {
		name     string
		args     []string
		code     int
		chosen   string // the decided child's node in the DOM
		nodes    int    // the witness tree's
		overview bool   // the page has the overview of its rules
	}{
		{"rule", append([]string{"-rules", "greedy-fpu,uct"}, quick...), exitOK, `<g class="node kind-terminal chosen" data-path="0.1">`, 5, true},
		{"search", []string{"check", "-search", "exec:python3 ../examples/mcts.py --bug fpu-never", "-budget", "1024", "-trees", "2", "-jobs", "1"},
			exitFinding, `<g class="node kind-terminal chosen" data-path="0.0">`, 3, false},
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
			page, err := os.ReadFile(filepath.Join(dir, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			measured := filepath.Join(dir, "measured.html")
			if err := os.WriteFile(measured, bytes.Replace(page, []byte("</body>"), []byte(measureScript+"</body>"), 1), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, width := range []int{600, 900, 1400} {
				t.Run(fmt.Sprintf("width=%d", width), func(t *testing.T) {
					m := showInBrowser(t, bin, measured, filepath.Join(dir, fmt.Sprintf("screenshot-%d.png", width)), width, c.chosen)
					switch {
					case m.Width != width:
						t.Errorf("the window is %d px wide, want %d", m.Width, width)
					case m.Overflow > 0 || m.Table > 0:
						t.Errorf("the page runs %d px off its width, the table %d px off its box", m.Overflow, m.Table)
					}
					if c.overview && (m.Overview.N == 0 || m.Overview.Min < 10) {
						t.Errorf("the overview has %d texts in SVG, the smallest %.1f px: want some, and 10 px at least", m.Overview.N, m.Overview.Min)
					}
					if m.Charts.N == 0 || m.Charts.Min < 10 {
						t.Errorf("the charts have %d texts, the smallest %.1f px", m.Charts.N, m.Charts.Min)
					}
					if m.IDs.N != c.nodes || m.IDs.Min < 10 {
						t.Errorf("the witness tree's drawing names %d nodes (want its %d), in %.1f px", m.IDs.N, c.nodes, m.IDs.Min)
					}
				})
			}
		})
	}
}

// shotHeight is the height of the browser's window: the page down to the
// witness's drawing at 600 px.
const shotHeight = 4000

// showInBrowser has Chromium show the page, measured by measureScript, in
// a window width px wide, checks its DOM and its screenshot (kept as
// shot), and returns the page's measures.
func showInBrowser(t *testing.T, bin, page, shot string, width int, chosen string) pageMetrics {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append(chromiumFlags, "--user-data-dir="+t.TempDir(), fmt.Sprintf("--window-size=%d,%d", width, shotHeight),
		"--screenshot="+shot, "--dump-dom", "file://"+page)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.WaitDelay = 10 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	dom := string(out)
	for _, s := range []string{`<svg xmlns="http://www.w3.org/2000/svg" class="tree"`, chosen, `<polyline class="witness"`} {
		if !strings.Contains(dom, s) {
			t.Errorf("the page's DOM has no %s", s)
		}
	}
	var m pageMetrics
	if _, js, ok := strings.Cut(dom, `<pre id="metrics">`); !ok {
		t.Fatalf("the page did not measure itself:\n%s", dom)
	} else if js, _, _ = strings.Cut(js, "</pre>"); json.Unmarshal([]byte(html.UnescapeString(js)), &m) != nil {
		t.Fatalf("the page's measures: %s", js)
	}
	t.Logf("measured: %+v", m)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, stderr.String())
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != shotHeight {
		t.Errorf("screenshot %v, want the window's %d×%d", b, width, shotHeight)
	}
	inked, red, green := census(img)
	t.Logf("screenshot %s: %.1f%% of the pixels inked, %d red, %d green", shot, 100*inked, red, green)
	// A blank page inks nothing; a short page (a search's report) in the
	// widest window inks a little of its tall screenshot.
	if inked < 0.005 {
		t.Errorf("the screenshot is blank: %.2f%% of its pixels are not white", 100*inked)
	}
	if red < 50 || green < 50 {
		t.Errorf("the screenshot has %d pixels of the decided child's red and %d of the optimal moves' green: the tree is not drawn", red, green)
	}
	return m
}

// pageMetrics is what measureScript finds in the page: the window's
// width, how far the page and the table's box run off their widths, and
// the texts (how many, the smallest size on screen in px) of the
// overview, of the rules' charts and of the node names in tree drawings.
type pageMetrics struct {
	Width, Overflow, Table int
	Overview, Charts, IDs  struct {
		N   int
		Min float64
	}
}

// measureScript, added to a copy of the report, measures the page as
// laid out and writes pageMetrics as JSON in a pre#metrics.
const measureScript = `<script>
(function () {
  var m = {width: window.innerWidth, overflow: document.documentElement.scrollWidth - window.innerWidth, table: 0};
  var box = document.querySelector('.table');
  if (box) m.table = box.scrollWidth - box.clientWidth;
  function texts(sel) {
    var r = {n: 0, min: 0};
    document.querySelectorAll(sel).forEach(function (t) {
      var px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
      r.min = r.n === 0 ? px : Math.min(r.min, px);
      r.n++;
    });
    return r;
  }
  m.overview = texts('.overview svg text');
  m.charts = texts('figure.convergence svg text');
  m.ids = texts('svg.tree text.path');
  var pre = document.createElement('pre');
  pre.id = 'metrics';
  pre.textContent = JSON.stringify(m);
  document.body.appendChild(pre);
})();
</script>
`

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
