//go:build unix

package proc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Alive reports whether process pid has not been reaped, or any process
// of the group it led is still running (on Linux, from /proc; a zombie
// that an orphaned grandchild leaves for init to reap does not count):
// what tests check after stopping a program.
func Alive(pid int) bool {
	if !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces: split after ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		fields := bytes.Fields(b[i+1:])
		if len(fields) < 3 {
			continue
		}
		if g, _ := strconv.Atoi(string(fields[2])); g == pid && string(fields[0]) != "Z" {
			return true
		}
	}
	return false
}
