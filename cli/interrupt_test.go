package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// cancelOn is a stderr that cancels a context once it sees a text: the
// test's Ctrl-C, at a known point of the run.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	text   string
	cancel context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if strings.Contains(c.buf.String(), c.text) {
		c.cancel()
	}
	return len(p), nil
}

// TestInterruptedRun: Ctrl-C after the first of three rules gives a
// partial table, JSON and report, marked so, and exit code 130.
func TestInterruptedRun(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &cancelOn{text: "[1/3]", cancel: cancel}
	tool := mctscheckTool
	tool.ctx = ctx
	var out bytes.Buffer
	// greedy-fpu stops at its first witness; the other two would take
	// minutes at this scale.
	code := tool.Run([]string{"-workers", "1", "-rule", "greedy-fpu", "-rule", "uct", "-rule", "smoothed",
		"-trees", "2000", "-budget", "4096", "-out", dir}, nil, &out, stderr)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitInterrupted, out.String(), stderr.buf.String())
	}
	if want := "mctscheck: run: interrupted: 1 of 3 rules checked, 0 contradicted; partial report in " + dir; !strings.Contains(stderr.buf.String(), want) {
		t.Errorf("no %q in stderr:\n%s", want, stderr.buf.String())
	}
	// uct may have started or not when the interruption came; smoothed,
	// after it, has not.
	for _, want := range []string{"greedy-fpu", "5 nodes, Eq. 5", "\nuct ", "\nsmoothed    consistent (bdg)  interrupted (not started)",
		"PARTIAL (interrupted): 1 of 3 rules checked.", "interrupted for 2"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in the table:\n%s", want, out.String())
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PARTIAL (interrupted)", "- observed: interrupted ", "- observed: interrupted before it started"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("no %q in report.md:\n%s", want, md)
		}
	}
	// The rules not done say so in every figure: "unfinished", never
	// "0% (0%)", 0 simulations/s or an empty chart.
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{out.String(), string(md), string(page)} {
		if strings.Contains(doc, "0% (0%)") || strings.Contains(doc, " 0 simulations/s") {
			t.Errorf("a rule not done has a frugality of 0%% or a speed of 0:\n%s", doc)
		}
	}
	if n := len(regexp.MustCompile(`unfinished +unfinished`).FindAllString(out.String(), -1)); n != 2 {
		t.Errorf("%d rows with an unfinished frugality and speed, want 2:\n%s", n, out.String())
	}
	for _, want := range []string{`<text class="unfinished"`, `>unfinished: interrupted before it started</text>`, `<p class="unfinished">Unfinished: interrupted`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("no %q in report.html", want)
		}
	}
	var doc struct {
		Partial     bool
		Interrupted int
		Reproduced  int
		Rules       []struct{ Verdict, Agreement, Summary string }
	}
	js, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err == nil {
		err = json.Unmarshal(js, &doc)
	}
	if err != nil || !doc.Partial || doc.Interrupted != 2 || doc.Reproduced != 1 || len(doc.Rules) != 3 ||
		doc.Rules[1].Verdict != "interrupted" || doc.Rules[2].Agreement != "interrupted" ||
		doc.Rules[2].Summary != "interrupted before it started" {
		t.Errorf("report.json: %v, %+v", err, doc)
	}
}
