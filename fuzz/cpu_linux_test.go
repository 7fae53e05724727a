package fuzz

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used, from
// getrusage(RUSAGE_THREAD). The caller locks its goroutine to the thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		panic("getrusage(RUSAGE_THREAD): " + err.Error())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
