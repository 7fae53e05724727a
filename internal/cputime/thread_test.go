package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestThreadCounts: the thread's CPU clock moves with work done on it,
// and not while it sleeps.
func TestThreadCounts(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok := Thread()
	if !ok {
		t.Skip("no thread CPU clock here")
	}
	x := uint64(1)
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		x = x*6364136223846793005 + 1
	}
	c1, _ := Thread()
	time.Sleep(50 * time.Millisecond)
	c2, _ := Thread()
	if c1 <= c0 || c2-c1 > 20*time.Millisecond || x == 0 {
		t.Errorf("CPU %v over 50 ms of work, %v over 50 ms of sleep", c1-c0, c2-c1)
	}
}
