package rules

import (
	"os/exec"
	"syscall"
)

// isolate starts the program in a process group of its own, so that the
// terminal's Ctrl-C reaches mctscheck only (which then stops the program
// itself) and killGroup reaches whatever the program started, and asks the
// kernel to kill it if mctscheck dies first.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the program's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
