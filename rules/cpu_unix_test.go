//go:build unix

package rules_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time of the whole process, every thread: run the
// benchmarks with -cpu 1 so that it is the benchmark's and the GC's alone.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic("getrusage: " + err.Error())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
