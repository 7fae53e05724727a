//go:build !unix

package goboard

import "time"

// processCPU returns 0: the CPU time is measured on Unix only.
func processCPU() time.Duration { return 0 }
