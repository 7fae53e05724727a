// Package proctest holds what the tests of the programs that mctscheck
// drives (rules and searches over exec) share: the misbehaviours of their
// helper programs, and the check that nothing is left behind.
package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/internal/proc"
)

// Detached starts sleep in a session of its own (setsid), as a daemon
// leaves its program's process group, and returns name with the sleep's
// pid after it, for a helper program to declare as its name (DetachedPid
// reads it back).
func Detached(name string) (string, error) {
	pid, err := startInSession("sleep", "3600")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %d", name, pid), nil
}

// DetachedPid reads the pid that Detached put in name after prefix.
func DetachedPid(t testing.TB, name, prefix string) int {
	t.Helper()
	var pid int
	if _, err := fmt.Sscanf(name, prefix+" %d", &pid); err != nil || pid <= 0 {
		t.Fatalf("the helper's name %q gives no pid after %q", name, prefix)
	}
	return pid
}

// HoldOutput starts sleep with the caller's standard output, which it
// holds after the caller exits.
func HoldOutput() error {
	child := exec.Command("sleep", "3600")
	child.Stdout = os.Stdout
	return child.Start()
}

// CheckEnded fails t if process pid is still running two seconds from now
// (proc.Running), and then kills it.
func CheckEnded(t testing.TB, pid int) {
	t.Helper()
	for start := time.Now(); proc.Running(pid); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 2*time.Second {
			kill(pid)
			t.Fatalf("process %d, which the program started in a session of its own, is still running after the program was stopped", pid)
		}
	}
}
