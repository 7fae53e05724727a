//go:build unix && !linux

package proc

import (
	"os/exec"
	"syscall"
)

// Isolate makes cmd start in a process group of its own, so that the
// terminal's Ctrl-C reaches mctscheck only and KillGroup reaches whatever
// the program started (only Linux has a parent-death signal, and a /proc
// in which KillGroup finds the processes that left the group), and marks
// it (ProgramEnv).
func Isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	tag(cmd)
}
