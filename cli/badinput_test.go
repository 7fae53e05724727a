package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/internal/version"
	"github.com/mctscheck/mctscheck/rules"
)

// zeros is an endless stream of zero bytes, as /dev/zero on stdin.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// fullWriter fails every write, as a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestBadInputs is the table of inputs that once crashed the tool, hung it
// or were silently accepted: each is now an exit code with a one-line
// message, in a bounded time.
func TestBadInputs(t *testing.T) {
	_, noDevices := os.Stat("/dev/zero")
	tests := []struct {
		name    string
		args    []string
		stdin   io.Reader
		stdout  io.Writer
		code    int
		want    string
		devices bool // needs /dev/zero, /dev/urandom and /dev/full
	}{
		{"tree from an endless file", []string{"solve", "-tree", "@/dev/urandom"}, nil, nil, 2,
			"-tree: /dev/urandom: more than the 64 MiB a tree may take", true},
		{"tree from zeros", []string{"check", "-rule", "uct", "-tree", "@/dev/zero"}, nil, nil, 2,
			"-tree: /dev/zero: more than the 64 MiB", true},
		{"tree from endless stdin", []string{"solve", "-tree", "@-"}, zeros{}, nil, 2,
			"-tree: stdin: more than the 64 MiB", false},
		{"huge move, search", []string{"search", "-rule", "rave", "-tree", "(max 0@5 1@2147483647)"}, nil, nil, 2,
			"move 2147483647, want an integer in [0, 1048575]", false},
		{"huge move, check", []string{"check", "-rule", "rave", "-tree", "(max 0@1073741822 1)"}, nil, nil, 2,
			"move 1073741822, want an integer in [0, 1048575]", false},
		{"too many trees", []string{"check", "-rule", "uct", "-trees", "1000000000"}, nil, nil, 2,
			"-trees 1000000000: want 1 to 100000", false},
		{"too many trees, run", []string{"run", "-trees", "100001", "-out", ""}, nil, nil, 2,
			"-trees 100001: want 1 to 100000", false},
		{"virtual loss, serial", []string{"check", "-rule", "uct", "-virtual-loss", "2"}, nil, nil, 2,
			"-virtual-loss, -virtual-value: only with -tree-workers", false},
		{"virtual value, one worker", []string{"check", "-rule", "uct", "-tree-workers", "1", "-virtual-value", "0.5"}, nil, nil, 2,
			"only with -tree-workers K ≥ 2", false},
		{"binary, chance tree", []string{"check", "-rule", "uct", "-binary", "-tree", "(max (chance 0.5:1 0.5:0) 1)"}, nil, nil, 2,
			"-binary: the -tree has a chance node", false},
		{"binary, half reward", []string{"check", "-rule", "uct", "-binary", "-tree", "(max 1 0.5)"}, nil, nil, 2,
			"-binary: the -tree has a chance node or a reward other than 0 and 1", false},
		{"text to a full disk", []string{"rules"}, nil, fullWriter{}, 3,
			"rules: writing the output: no space left on device", false},
		{"solve to a full disk", []string{"solve", "-tree", "(max 1 0)"}, nil, fullWriter{}, 3,
			"solve: writing the output", false},
		{"help to a full disk", []string{"check", "-h"}, nil, fullWriter{}, 3, "check: writing the output", false},
		{"JSON to a full disk", []string{"version", "-json"}, nil, fullWriter{}, 3, "version: writing the output", false},
		{"-rules naming no rule", []string{"run", "-rules", ",", "-out", ""}, nil, nil, 2,
			`-rules "," names no rule`, false},
		{"-rules of blanks", []string{"-rules", " , ", "-out", ""}, nil, nil, 2, "names no rule", false},
		{"a second -rule", []string{"check", "-rule", "uct", "-rule", "greedy-fpu"}, nil, nil, 2,
			`check: -rule given twice ("uct", then "greedy-fpu"): give it once; mctscheck run -rule A -rule B checks several rules`, false},
		{"a second -search", []string{"check", "-search", "exec:python3 a.py", "-search", "exec:python3 b.py"}, nil, nil, 2,
			`check: -search given twice ("exec:python3 a.py", then "exec:python3 b.py"): give it once`, false},
		{"a second -tree", []string{"search", "-rule", "uct", "-tree", "(max 1 0)", "-tree", "(max 0 1)"}, nil, nil, 2,
			"-tree given twice", false},
		{"a second -a", []string{"match", "-a", "uct", "-a", "rave", "-b", "uct"}, nil, nil, 2, "-a given twice", false},
		{"gtp -size 0", []string{"gtp", "-rule", "uct", "-size", "0"}, nil, nil, 2, "-size 0: want 5 to 19", false},
		{"gtp -size 20", []string{"gtp", "-rule", "uct", "-size", "20"}, nil, nil, 2, "-size 20: want 5 to 19", false},
		{"profile to a full disk", []string{"check", "-rule", "uct", "-tree", "(max 1 0)", "-budget", "1024", "-cpuprofile", "/dev/full"}, nil, nil, 3,
			"check: -cpuprofile /dev/full: write /dev/full: no space left on device", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.devices && noDevices != nil {
				t.Skip("no /dev/zero here")
			}
			stdin, stdout := tt.stdin, tt.stdout
			if stdin == nil {
				stdin = strings.NewReader("")
			}
			var out bytes.Buffer
			if stdout == nil {
				stdout = &out
			}
			var errb bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- mctscheckTool.Run(tt.args, stdin, stdout, &errb) }()
			var code int
			select {
			case code = <-done:
			case <-time.After(time.Minute):
				t.Fatalf("mctscheck %s: still running after a minute", strings.Join(tt.args, " "))
			}
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, errb.String())
			}
			if !strings.Contains(errb.String(), tt.want) {
				t.Errorf("stderr %q, want it to contain %q", errb.String(), tt.want)
			}
			if strings.Count(errb.String(), "\n") != 1 {
				t.Errorf("stderr %q, want one line", errb.String())
			}
		})
	}
}

// TestVersion: version prints the module's semantic version, the module
// and the Go release, in text and JSON; a command of one's own names
// itself, then the mctscheck version it is built on.
func TestVersion(t *testing.T) {
	r := mctscheck(t, "", "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "mctscheck "+version.Module+"\nmodule   github.com/mctscheck/mctscheck ") || !strings.Contains(r.stdout, "\ngo       go1.") {
		t.Errorf("version: exit %d, stdout:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mctscheck(t, "", "version", "-json")
	if js := normalize(t, r.stdout); r.code != 0 || !strings.Contains(js, `"version": "`+version.Module+`"`) || !strings.Contains(js, `"path": "github.com/mctscheck/mctscheck"`) {
		t.Errorf("version -json: exit %d, stdout:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// countingWriter counts the writes it gets.
type countingWriter struct{ writes, bytes int }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	c.bytes += len(p)
	return len(p), nil
}

// TestOutputBuffered: a command's text output reaches stdout in large
// writes, not one per cell: solve on a tree of 10^4 leaves.
func TestOutputBuffered(t *testing.T) {
	var w countingWriter
	wide := "(max" + strings.Repeat(" 0", 10_000) + ")"
	if code := mctscheckTool.Run([]string{"solve", "-tree", wide}, strings.NewReader(""), &w, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if w.writes > 1+w.bytes/(32<<10) {
		t.Errorf("%d writes for %d bytes, want them buffered", w.writes, w.bytes)
	}
}

// TestNilStreams: Tool.Run takes nil streams as os/exec does: no input,
// output discarded; it does not panic.
func TestNilStreams(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"solve", "-tree", "@-"}, {"check", "-rule", "bogus"}, {"gtp", "-rule", "uct"}, {"-h"}} {
		code := mctscheckTool.Run(args, nil, nil, nil)
		want := exitOK
		if args[0] == "solve" || args[0] == "check" {
			want = exitUsage // no tree on the empty input; an unknown rule
		}
		if code != want {
			t.Errorf("mctscheck %s with nil streams: exit %d, want %d", strings.Join(args, " "), code, want)
		}
	}
}

// TestGTPInterruptedWhileIdle: Ctrl-C ends gtp while it waits for a
// command, with exit code 130.
func TestGTPInterruptedWhileIdle(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tool := mctscheckTool
	tool.ctx = ctx
	inR, inW := io.Pipe()
	defer inW.Close()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- tool.Run([]string{"gtp", "-rule", "uct"}, inR, &out, &errb) }()
	time.Sleep(50 * time.Millisecond) // let it reach its first read
	cancel()
	select {
	case code := <-done:
		if code != exitInterrupted || !strings.Contains(errb.String(), "mctscheck: gtp: interrupted") {
			t.Errorf("exit %d, stderr %q; want %d and the interruption named", code, errb.String(), exitInterrupted)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("gtp still waits for input 10 s after Ctrl-C")
	}
}

// TestOwnRuleNewPanics: a user's rule whose New panics is an error naming
// the rule (exit 2) in run and in check, not a crash.
func TestOwnRuleNewPanics(t *testing.T) {
	bad := *myGreedy
	bad.Name = "panicky"
	bad.New = func(map[string]float64) core.Rule { panic("not today") }
	tool := Tool{Name: "mycheck", Rules: []*rules.Entry{&bad}}
	for _, args := range [][]string{{"-trees", "1", "-out", ""}, {"check", "-rule", "panicky"}} {
		var errb bytes.Buffer
		code := tool.Run(args, nil, io.Discard, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), "panicky: its New panicked: not today") {
			t.Errorf("mycheck %s: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
		}
	}
}
