package proc

import (
	"os/exec"
	"syscall"
)

// Isolate makes cmd start in a process group of its own, so that the
// terminal's Ctrl-C reaches mctscheck only (which then stops the program
// itself) and KillGroup reaches whatever the program started; marks it
// (ProgramEnv), so that KillGroup also finds what leaves the group; and
// asks the kernel to kill it if mctscheck dies first.
func Isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	tag(cmd)
}
