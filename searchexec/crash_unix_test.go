//go:build unix

package searchexec_test

import (
	"os"
	"runtime"
	"syscall"
	"testing"

	"github.com/mctscheck/mctscheck/internal/proc/proctest"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/searchexec"
	"github.com/mctscheck/mctscheck/tree"
)

// crashSelf ends the helper program by a signal, as a crash does.
func crashSelf() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }

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
	child := proctest.DetachedPid(t, caps.Name, "helper setsid")
	if _, err := props.RunSearchTree(bg, p, tree.MustParse("(max 0 1)"), props.Options{Seeds: 2, MaxBudget: 1024}); err != nil {
		t.Fatal(err)
	}
	checkReaped(t, p)
	proctest.CheckEnded(t, child)
}
