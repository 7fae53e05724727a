//go:build !linux

package bench_test

import (
	"errors"
	"time"
)

// start anchors threadCPU's clock.
var start = time.Now()

// threadCPU falls back to wall time where the thread's CPU clock is not
// wired up: ns/sim then equals wall-ns/sim.
func threadCPU() time.Duration { return time.Since(start) }

// processCPU falls back to wall time too.
func processCPU() time.Duration { return time.Since(start) }

// peakRSS is measured on Linux only.
func peakRSS() (int64, error) { return 0, errors.New("peak resident set: measured on Linux only") }

// childrenCPU is measured on Linux only.
func childrenCPU() time.Duration { return 0 }

// limitMemory limits memory on Linux only.
func limitMemory(uint64) error { return nil }
