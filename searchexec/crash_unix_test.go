//go:build unix

package searchexec_test

import (
	"os"
	"syscall"
)

// crashSelf ends the helper program by a signal, as a crash does.
func crashSelf() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }
