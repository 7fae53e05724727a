//go:build unix

package proctest

import (
	"os/exec"
	"syscall"
)

// startInSession starts the command in a session of its own, its output
// discarded, and returns its pid.
func startInSession(name string, args ...string) (int, error) {
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	return cmd.Process.Pid, nil
}

func kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
