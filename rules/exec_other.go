//go:build !linux

package rules

import "os/exec"

// isolate does nothing here: only Linux has a parent-death signal, and
// process groups are left to the platform.
func isolate(cmd *exec.Cmd) {}

// killGroup kills the program.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
