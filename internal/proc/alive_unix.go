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
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		if st, ok := readStat(d); ok && st.pgrp == pid && !st.dead() {
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
	st, ok := readStat("/proc/" + strconv.Itoa(pid))
	return ok && !st.dead() // unreadable: gone since
}

// stat is what /proc/PID/stat says of a process.
type stat struct {
	state      string
	ppid, pgrp int
}

// dead reports whether the process has ended: a zombie, or dying.
func (s stat) dead() bool { return s.state == "Z" || s.state == "X" }

// readStat reads the stat file of the /proc directory d.
func readStat(d string) (stat, bool) {
	b, err := os.ReadFile(d + "/stat")
	if err != nil {
		return stat{}, false
	}
	// pid (comm) state ppid pgrp …; comm may hold spaces: split after ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return stat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 3 {
		return stat{}, false
	}
	ppid, _ := strconv.Atoi(string(f[1]))
	pgrp, _ := strconv.Atoi(string(f[2]))
	return stat{state: string(f[0]), ppid: ppid, pgrp: pgrp}, true
}
