//go:build !unix

package rules_test

import "os"

// alive cannot tell here; the reaping tests run on unix.
func alive(pid int) bool { return false }

// programCPU cannot tell here.
func programCPU(pid int) float64 { return 0 }

// crashSelf ends the helper program as abruptly as the platform allows.
func crashSelf() { os.Exit(137) }
