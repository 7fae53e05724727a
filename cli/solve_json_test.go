package cli

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/tree"
)

// TestSolveJSONStream: the streamed document is, byte for byte, the one
// writeJSON makes of solveDoc, on roots of every kind, with and without
// priors, probabilities, optimal children and children at all.
func TestSolveJSONStream(t *testing.T) {
	wide := "(max" + strings.Repeat(" 0.25 1~0.5 (min 1 0)@7", 300) + ")"
	for _, s := range []string{
		"0.25",
		"(max 1)",
		"(max (min 1 0)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)~-0.2 0.5)",
		"(min 0 1 0)",
		"(chance 0.25:1 0.75:(max 0 1))",
		"(max (chance 0.5:1 0.5:0) \"x\")",
		wide,
	} {
		tr, err := tree.Parse(s)
		if err != nil {
			continue // the text is there to check the test itself below
		}
		var want, got bytes.Buffer
		if err := writeJSON(&want, solveTree(tr)); err != nil {
			t.Fatal(err)
		}
		if err := writeSolveJSON(&got, tr, tree.Solve(tr)); err != nil {
			t.Fatal(err)
		}
		if want.String() != got.String() {
			t.Errorf("%.60s: streamed document differs:\n%s\nwant\n%s", s, got.String(), want.String())
		}
	}
}

// TestSolveJSONMemory: the streamed document of a root with many children
// takes a heap that does not grow with it, where the document made whole
// (solveTree and writeJSON, as solve -json did when a root of 10^7
// children took 7 GB) grows by hundreds of bytes per child. The peaks are
// sampled at each write, with the collector made eager so that garbage
// does not blur them.
func TestSolveJSONMemory(t *testing.T) {
	n := 100000
	if small() {
		n = 20000
	}
	var b strings.Builder
	b.WriteString("(max")
	for i := range n {
		fmt.Fprintf(&b, " %d~0.5", i%2)
	}
	b.WriteString(")")
	tr := tree.MustParse(b.String())
	sol := tree.Solve(tr)
	defer debug.SetGCPercent(debug.SetGCPercent(5))

	streamed := peakHeap(t, func(w io.Writer) error { return writeSolveJSON(w, tr, sol) })
	whole := peakHeap(t, func(w io.Writer) error { return writeJSON(w, solveTree(tr)) })
	t.Logf("%d children: peak heap growth %d KB streamed, %d KB whole", n, streamed>>10, whole>>10)
	// Streamed: a few copies of the text (AppendText's growth) and a
	// constant (the buffer, the runtime's own); whole: hundreds of bytes
	// per child, ten times the streamed peak at 100,000 children.
	if text := uint64(b.Len()); streamed > 2<<20+4*text {
		t.Errorf("peak heap growth %d KB streamed: want under 2 MB + 4 times the text (%d KB)", streamed>>10, text>>10)
	}
	if !small() && whole < 5*streamed {
		t.Errorf("peak heap growth %d KB streamed, %d KB whole: want under a fifth of the whole", streamed>>10, whole>>10)
	}
}

// peakHeap runs write and returns the largest growth of the live heap it
// saw, at the start and at each of write's writes.
func peakHeap(t *testing.T, write func(io.Writer) error) uint64 {
	t.Helper()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	w := &heapWriter{base: ms.HeapAlloc}
	if err := write(w); err != nil {
		t.Fatal(err)
	}
	return w.peak
}

// heapWriter keeps nothing and records the heap's peak growth at each
// write.
type heapWriter struct{ base, peak uint64 }

func (w *heapWriter) Write(p []byte) (int, error) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > w.base {
		w.peak = max(w.peak, ms.HeapAlloc-w.base)
	}
	return len(p), nil
}
