//go:build !linux

package cputime

import "time"

// Thread returns false: the thread's CPU clock is read on Linux only.
func Thread() (time.Duration, bool) { return 0, false }
