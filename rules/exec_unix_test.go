//go:build unix

package rules_test

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/internal/proc"
	"github.com/mctscheck/mctscheck/internal/proc/proctest"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// alive reports whether process pid, or a process of its group, is still
// there.
func alive(pid int) bool { return proc.Alive(pid) }

// programCPU returns the CPU time, in seconds, that process pid has used
// (from /proc on Linux; 0 elsewhere), so that a benchmark can state a rate
// per CPU-second, which the machine's other jobs move less than the wall
// clock.
func programCPU(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(b[i+1:]) // from the state on: utime and stime are f[11] and f[12]
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseFloat(string(f[11]), 64)
	st, _ := strconv.ParseFloat(string(f[12]), 64)
	return (ut + st) / 100 // clock ticks: USER_HZ is 100 on Linux
}

// crashSelf ends the helper program by a signal, as a crash does.
func crashSelf() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }

// TestExecChildHoldsOutput: a program that starts a child holding its
// output and then exits has exited, at once: not a hang at the timeout.
func TestExecChildHoldsOutput(t *testing.T) {
	start := time.Now()
	rep, x := checkFault(t, "holdout", rules.ExecOptions{MaxRestarts: 1}) // the default timeout, 10 s
	if f := rep.Witness.Fault; f.Kind != props.FaultCrash || !strings.Contains(f.Message, "exited with status 0") {
		t.Errorf("fault %s: %s; want a crash: exited with status 0", f.Kind, f.Message)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the check took %v: it waited for the child, not the program", took)
	}
	checkReaped(t, x)
}

// TestExecEndsItsDescendants: a process that a rule's program starts in a
// session of its own ends with the program.
func TestExecEndsItsDescendants(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux has a /proc to find processes that left the group")
	}
	x := helperRule(t, "setsid", rules.ExecOptions{})
	rep, err := props.CheckTree(context.Background(), x, tree.MustParse(faultTree), props.Options{Seeds: 2, MinBudget: 16, MaxBudget: 256})
	if err != nil {
		t.Fatal(err)
	}
	caps, err := x.Capabilities()
	if err != nil {
		t.Fatal(err)
	}
	child := proctest.DetachedPid(t, caps.Name, "helper setsid")
	checkReaped(t, x)
	proctest.CheckEnded(t, child)
	t.Log(rep.Summary)
}
