package plot_test

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/mctscheck/mctscheck/cli/plot"
	"github.com/mctscheck/mctscheck/engine"
)

// TestEngineShares: the engine figure has one line per class, named in
// the legend with its trials; a class with no trial without fault, and a
// budget where a class has none, draw nothing and do not fail.
func TestEngineShares(t *testing.T) {
	dir := t.TempDir()
	budgets := []int{16, 64, 256, 1024}
	shares := []engine.ClassShare{
		{Class: "normal-prior", Budgets: budgets, Played: []int{4, 4, 4, 0}, Optimal: []int{0, 1, 4, 0}},
		{Class: "tiny-prior", Budgets: budgets, Played: []int{4, 4, 4, 4}, Optimal: []int{0, 0, 0, 0}},
		{Class: "all faulted", Budgets: budgets, Played: []int{0, 0, 0, 0}, Optimal: []int{0, 0, 0, 0}},
	}
	files, err := plot.EngineShares(dir, shares)
	if err != nil || len(files) != 2 || files[0] != "share.png" || files[1] != "share.svg" {
		t.Fatalf("files %v, error %v", files, err)
	}
	f, err := os.Open(filepath.Join(dir, "share.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() != 640 || img.Bounds().Dy() != 400 {
		t.Errorf("share.png: %v, %v", err, img.Bounds())
	}
	svg, err := os.ReadFile(filepath.Join(dir, "share.svg"))
	if err != nil || !bytes.Contains(svg, []byte("normal-prior (12 trials)")) || !bytes.Contains(svg, []byte("tiny-prior (16 trials)")) ||
		bytes.Contains(svg, []byte("all faulted")) {
		t.Errorf("share.svg: %v, the legend does not name each class with trials once", err)
	}
	if _, err := plot.EngineShares(dir, nil); err != nil {
		t.Errorf("no class: %v", err)
	}
}
