//go:build !unix

package rules_test

// alive cannot tell here; the reaping tests run on unix.
func alive(pid int) bool { return false }

// programCPU cannot tell here.
func programCPU(pid int) float64 { return 0 }
