//go:build unix

package searchexec_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/internal/proc"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/searchexec"
	"github.com/mctscheck/mctscheck/tree"
)

// crashSelf ends the helper program by a signal, as a crash does.
func crashSelf() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }

// startInSession starts the command in a session of its own, its output
// discarded, and returns its pid.
func startInSession(name string, args ...string) (int, error) {
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	return cmd.Process.Pid, nil
}

// TestProgramEndsItsDescendants: a process that a program starts in a
// session of its own ends with the program.
func TestProgramEndsItsDescendants(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux has a /proc to find processes that left the group")
	}
	p := helperProgram(t, "setsid", searchexec.Options{})
	caps, err := p.Capabilities()
	if err != nil {
		t.Fatal(err)
	}
	var child int
	if _, err := fmt.Sscanf(caps.Name, "helper setsid %d", &child); err != nil || child <= 0 {
		t.Fatalf("the helper's name %q gives no child's pid", caps.Name)
	}
	if _, err := props.RunSearchTree(bg, p, tree.MustParse("(max 0 1)"), props.Options{Seeds: 2, MaxBudget: 1024}); err != nil {
		t.Fatal(err)
	}
	checkReaped(t, p)
	for start := time.Now(); proc.Running(child); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 2*time.Second {
			syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("the program's child %d, in a session of its own, is still running after Close", child)
		}
	}
}
