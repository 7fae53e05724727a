//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// KillGroup kills the started program cmd and its process group.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
