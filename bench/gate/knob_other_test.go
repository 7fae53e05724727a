//go:build !linux

package main

import "time"

// start anchors threadCPU's clock.
var start = time.Now()

// threadCPU falls back to wall time where the thread's CPU clock is not
// wired up: cpu-ns/op then equals ns/op.
func threadCPU() time.Duration { return time.Since(start) }
