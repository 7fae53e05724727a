//go:build !unix

package searchexec_test

import "os"

// crashSelf ends the helper program as abruptly as the platform allows.
func crashSelf() { os.Exit(137) }
