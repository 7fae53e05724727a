//go:build !unix

package proc

// Alive cannot tell here: it reports false.
func Alive(pid int) bool { return false }

// Running cannot tell here: it reports false.
func Running(pid int) bool { return false }
