//go:build !unix

package rules_test

import "time"

var start = time.Now()

// cpuTime falls back to wall time where getrusage is missing.
func cpuTime() time.Duration { return time.Since(start) }
