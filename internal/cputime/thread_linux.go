package cputime

import (
	"syscall"
	"time"
)

// Thread returns the CPU time that the calling OS thread has used, from
// getrusage(RUSAGE_THREAD), and true. The caller locks its goroutine to the
// thread (runtime.LockOSThread).
func Thread() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
