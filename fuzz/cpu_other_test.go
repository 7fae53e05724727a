//go:build !linux

package fuzz

import "time"

// threadCPU cannot tell here: it returns 0, and the benchmark reports no
// CPU time.
func threadCPU() time.Duration { return 0 }
