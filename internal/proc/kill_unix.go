//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// KillGroup kills the started program cmd, its process group, and (on
// Linux) every process that carries its tag (ProgramEnv) or descends from
// it: the descendants that left the group, in a session of their own or
// orphaned.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if t := tagOf(cmd); t != "" {
		killTagged(cmd.Process.Pid, t) // first, while every parent is there to lead to its children
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
