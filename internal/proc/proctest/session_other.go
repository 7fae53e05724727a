//go:build !unix

package proctest

import "errors"

// startInSession cannot start a session here.
func startInSession(name string, args ...string) (int, error) {
	return 0, errors.New("no sessions here")
}

func kill(pid int) {}
