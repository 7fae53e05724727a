package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
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
	// The rules not done say so in every figure: "—" for what was not
	// measured, "so far" for what was, "unfinished" on the charts, never
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
	if !regexp.MustCompile(`\nsmoothed .*\(not started\) +— +yes +— +— +interrupted\n`).MatchString(out.String()) {
		t.Errorf("the rule not started has figures, not \"—\":\n%s", out.String())
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

// stoppedDoc is what a partial check's report.json says of its stop.
type stoppedDoc struct {
	Verdict, Agreement, Summary, Stopped string
	Trees                                int
	TreesPlanned                         int `json:"trees_planned"`
}

// TestCheckStopped: a check of a rule or of a whole search that Ctrl-C
// (the tool's context, as the signal ends it) or -deadline stops writes
// the report of what finished, marked so, with the verdict interrupted,
// and exits 130 for Ctrl-C, 0 at a deadline with nothing found.
func TestCheckStopped(t *testing.T) {
	rule := []string{"check", "-rule", "uct", "-trees", "100000", "-seeds", "2", "-budget", "1024"}
	search := []string{"check", "-search", "exec:python3 ../examples/mcts.py", "-trees", "100000", "-seeds", "2", "-budget", "1024", "-jobs", "1"}
	for _, c := range []struct {
		name   string
		args   []string
		ctrlC  time.Duration // when Ctrl-C comes; 0: never
		code   int
		stderr string
		md     string
	}{
		{"rule ctrl-c", rule, time.Second, exitInterrupted, "mctscheck: check: interrupted: ", "PARTIAL (interrupted)"},
		{"rule deadline", append(rule, "-deadline", "1s"), 0, exitOK, "mctscheck: check: stopped at the deadline (-deadline 1s): ", "PARTIAL (stopped at the deadline)"},
		{"search ctrl-c", search, 1500 * time.Millisecond, exitInterrupted, "mctscheck: check: interrupted: ", "**PARTIAL**: the check was interrupted before its end"},
		{"search deadline", append(search, "-deadline", "1.5s"), 0, exitOK, "mctscheck: check: stopped at the deadline (-deadline 1.5s): ", "**PARTIAL**: the check stopped at its deadline before its end"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if strings.HasPrefix(c.name, "search") {
				needPython(t)
			}
			t.Parallel()
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.ctrlC > 0 {
				time.AfterFunc(c.ctrlC, cancel)
			}
			tool := mctscheckTool
			tool.ctx = ctx
			var out, stderr bytes.Buffer
			code := tool.Run(append(c.args, "-out", dir), nil, &out, &stderr)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out.String(), stderr.String())
			}
			trees := 100000 + len(gen.Traps())
			if strings.HasPrefix(c.name, "search") {
				trees += len(gen.SearchTraps()) // a search's check searches the families of whole searches too
			}
			planned := fmt.Sprintf("of %d trees", trees)
			said := regexp.MustCompile(regexp.QuoteMeta(c.stderr) + `\d+ ` + planned + regexp.QuoteMeta(" checked, no witness so far; partial report in "+dir+"\n"))
			if !said.MatchString(stderr.String()) {
				t.Errorf("stderr does not match %s:\n%s", said, stderr.String())
			}
			var doc stoppedDoc
			if err := json.Unmarshal([]byte(readReport(t, dir, "report.json")), &doc); err != nil {
				t.Fatal(err)
			}
			why := "interrupted"
			if c.ctrlC == 0 {
				why = "deadline"
			}
			if doc.Verdict != "interrupted" || doc.Agreement != "interrupted" || doc.Stopped != why || doc.TreesPlanned != trees ||
				!strings.Contains(doc.Summary, fmt.Sprintf("after %d %s", doc.Trees, planned)) || !strings.Contains(doc.Summary, "no verdict") {
				t.Errorf("report.json: %+v", doc)
			}
			if md := readReport(t, dir, "report.md"); !strings.Contains(md, c.md) {
				t.Errorf("report.md does not say %q:\n%s", c.md, md)
			}
			if !strings.Contains(out.String(), "verdict    "+doc.Summary) {
				t.Errorf("the text does not give the summary %q:\n%s", doc.Summary, out.String())
			}
		})
	}
}

// TestRunDeadline: run -deadline stops the checks at the deadline, and
// writes and prints what finished, marked so: no rule here has a verdict
// by then, and the exit code is 0, nothing having been found.
func TestRunDeadline(t *testing.T) {
	dir := t.TempDir()
	r := mctscheck(t, "", "-rules", "uct,smoothed", "-trees", "100000", "-budget", "1024", "-deadline", "1s", "-out", dir)
	if r.code != exitOK || !strings.Contains(r.stderr, "mctscheck: run: stopped at the deadline (-deadline 1s): 0 of 2 rules checked, 0 contradicted; partial report in "+dir) {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "PARTIAL (stopped at the deadline): 0 of 2 rules checked.") || !strings.Contains(r.stdout, "stopped at deadline (") {
		t.Errorf("the table does not say the run stopped at the deadline:\n%s", r.stdout)
	}
	var doc struct {
		Partial     bool
		Stopped     string
		Interrupted int
		Rules       []stoppedDoc
	}
	if err := json.Unmarshal([]byte(readReport(t, dir, "report.json")), &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.Partial || doc.Stopped != "deadline" || doc.Interrupted != 2 || len(doc.Rules) != 2 {
		t.Fatalf("report.json: %+v", doc)
	}
	for _, rule := range doc.Rules {
		if rule.Verdict != "interrupted" || rule.Stopped != "deadline" {
			t.Errorf("report.json: rule %+v", rule)
		}
	}
}

// TestDeadlineExitCode: a check stopped at its deadline exits with the
// code of what it found by then, after a line that says so.
func TestDeadlineExitCode(t *testing.T) {
	e := &env{deadline: 9 * time.Minute}
	for _, c := range []struct {
		found error
		code  int
	}{{nil, exitOK}, {errFinding, exitFinding}, {errFault, exitFault}} {
		var stderr bytes.Buffer
		err := e.stopped(props.StoppedDeadline, "3 of 51 trees checked", c.found)
		if got := mctscheckTool.exitCode(context.Background(), "check", err, &stderr); got != c.code ||
			stderr.String() != "mctscheck: check: stopped at the deadline (-deadline 9m0s): 3 of 51 trees checked\n" {
			t.Errorf("found %v: exit %d, want %d; stderr %q", c.found, got, c.code, stderr.String())
		}
	}
	var stderr bytes.Buffer
	err := e.stopped(props.StoppedInterrupted, "3 of 51 trees checked", errFinding)
	if got := mctscheckTool.exitCode(context.Background(), "check", err, &stderr); got != exitInterrupted ||
		stderr.String() != "mctscheck: check: interrupted: 3 of 51 trees checked\n" {
		t.Errorf("Ctrl-C: exit %d, stderr %q", got, stderr.String())
	}
}

// TestCheckGameStopped: check -game stopped at its deadline prints the
// positions that finished with the verdict interrupted, and exits 0,
// nothing having been found.
func TestCheckGameStopped(t *testing.T) {
	t.Parallel()
	r := mctscheck(t, "", "check", "-rule", "uct", "-game", "connect4", "-positions", "../games/connect4/testdata/Test_L3_R1", "-deadline", "1s", "-json")
	said := regexp.MustCompile(`mctscheck: check: stopped at the deadline \(-deadline 1s\): \d+ of 1000 positions checked\n`)
	if r.code != exitOK || !said.MatchString(r.stderr) {
		t.Fatalf("exit %d, want 0 and a line that matches %s\n%s", r.code, said, r.stderr)
	}
	var doc struct {
		Verdict, Agreement, Summary, Stopped string
		Positions                            []struct{ Verdict string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Verdict != "interrupted" || doc.Agreement != "interrupted" || doc.Stopped != "deadline" || len(doc.Positions) >= 1000 ||
		!strings.HasPrefix(doc.Summary, fmt.Sprintf("the check stopped at its deadline after %d of 1000 positions checked, no verdict", len(doc.Positions))) {
		t.Errorf("%+v", doc)
	}
}
