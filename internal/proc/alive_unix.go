//go:build unix

package proc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
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

// Running reports whether process pid is running: there, and (on Linux,
// from /proc) not a zombie waiting for its new parent to reap it, as a
// process killed after its parent exited may be for a while. Tests check
// with it that a program's descendants ended.
func Running(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return false
	}
	if runtime.GOOS != "linux" {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false // gone since
	}
	i := bytes.LastIndexByte(b, ')')
	f := bytes.Fields(b[i+1:])
	return len(f) == 0 || string(f[0]) != "Z" && string(f[0]) != "X"
}
