//go:build unix

package engine

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// running reports whether process pid exists and has not ended.
func running(pid int) bool { return syscall.Kill(pid, 0) == nil && !zombie(pid) }

// zombie reports whether process pid has ended but not been reaped.
func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(data))
	return len(f) > 2 && f[2] == "Z"
}
