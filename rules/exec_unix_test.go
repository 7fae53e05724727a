//go:build unix

package rules_test

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"github.com/mctscheck/mctscheck/internal/proc"
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
