package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestGoToolIsNotGoRun runs the gate (this test binary, built in a
// go-build directory) as the child of a process whose command line is
// "go tool gate", then "go run ./bench/gate": the note that go run turns
// every non-zero status into 1 is for go run alone.
func TestGoToolIsNotGoRun(t *testing.T) {
	for _, tt := range []struct {
		parent []string
		note   bool
	}{
		{[]string{"go", "tool", "gate"}, false},
		{[]string{"go", "-C", "/tmp", "tool", "gate"}, false},
		{[]string{"go", "run", "./bench/gate"}, true},
		{[]string{"/usr/local/go/bin/go", "run", "github.com/mctscheck/mctscheck/bench/gate"}, true},
	} {
		var stderr bytes.Buffer
		cmd := exec.Command(os.Args[0])
		cmd.Args = tt.parent
		cmd.Env = append(os.Environ(), roleEnv+"=go", gateArgsEnv+"=-bogus")
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitUsage {
			t.Errorf("%s: %v, want exit status %d\n%s", strings.Join(tt.parent, " "), err, exitUsage, &stderr)
		}
		if got := strings.Contains(stderr.String(), "go run reports every non-zero status as 1"); got != tt.note {
			t.Errorf("%s: the go run note printed %v, want %v:\n%s", strings.Join(tt.parent, " "), got, tt.note, &stderr)
		}
	}
}
