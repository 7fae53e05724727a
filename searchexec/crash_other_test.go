//go:build !unix

package searchexec_test

import (
	"errors"
	"os"
)

// crashSelf ends the helper program as abruptly as the platform allows.
func crashSelf() { os.Exit(137) }

// startInSession cannot start a session here.
func startInSession(name string, args ...string) (int, error) {
	return 0, errors.New("no sessions here")
}
