//go:build unix

package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSIGINTPartialReport builds the command and sends SIGINT to a check
// of a rule and to one of a whole search, as Ctrl-C does: each writes the
// report of what finished, marked interrupted, and exits 130.
func TestSIGINTPartialReport(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the command")
	}
	bin := filepath.Join(t.TempDir(), "mctscheck")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/mctscheck").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"rule", []string{"check", "-rule", "uct", "-trees", "100000", "-budget", "1024"}},
		{"search", []string{"check", "-search", "exec:python3 ../examples/mcts.py", "-trees", "100000", "-budget", "1024"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "search" {
				needPython(t)
			}
			dir := t.TempDir()
			cmd := exec.Command(bin, append(c.args, "-out", dir)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(1500 * time.Millisecond)
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
				t.Fatalf("%v, want exit %d\n%s%s", err, exitInterrupted, stdout.String(), stderr.String())
			}
			if !strings.Contains(stderr.String(), "mctscheck: check: interrupted: ") || !strings.Contains(stderr.String(), "; partial report in "+dir) {
				t.Errorf("stderr:\n%s", stderr.String())
			}
			var doc stoppedDoc
			if err := json.Unmarshal([]byte(readReport(t, dir, "report.json")), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Verdict != "interrupted" || doc.Stopped != "interrupted" || doc.TreesPlanned == 0 {
				t.Errorf("report.json: %+v", doc)
			}
			for _, f := range []string{"report.md", "report.html"} {
				if page := readReport(t, dir, f); !strings.Contains(page, "PARTIAL") {
					t.Errorf("%s is not marked partial:\n%s", f, page)
				}
			}
		})
	}
}
