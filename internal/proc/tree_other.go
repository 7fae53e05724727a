//go:build unix && !linux

package proc

// killTagged does nothing here: without /proc, KillGroup reaches the
// program's process group only.
func killTagged(pid int, tag string) {}
