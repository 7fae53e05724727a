//go:build unix && !linux

package proc

import (
	"os/exec"
	"syscall"
)

// Isolate makes cmd start in a process group of its own, so that the
// terminal's Ctrl-C reaches mctscheck only and KillGroup reaches whatever
// the program started (only Linux has a parent-death signal).
func Isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
