//go:build !unix

package rules_test

import (
	"errors"
	"os"
)

// alive cannot tell here; the reaping tests run on unix.
func alive(pid int) bool { return false }

// programCPU cannot tell here.
func programCPU(pid int) float64 { return 0 }

// crashSelf ends the helper program as abruptly as the platform allows.
func crashSelf() { os.Exit(137) }

// startInSession cannot start a session here.
func startInSession(name string, args ...string) (int, error) {
	return 0, errors.New("no sessions here")
}
