//go:build !unix

package proc

import "os/exec"

// Isolate does nothing here: process groups are left to the platform.
func Isolate(*exec.Cmd) {}

// KillGroup kills the started program cmd.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
