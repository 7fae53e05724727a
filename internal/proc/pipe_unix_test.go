//go:build unix

package proc

import (
	"errors"
	"io"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// shell starts the shell script script as a Pipe.
func shell(t *testing.T, script string) *Pipe {
	t.Helper()
	p, err := Start([]string{"sh", "-c", script}, "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p
}

// gone reports whether process pid has ended (a zombie has), waiting up
// to a second.
func gone(pid int) bool {
	for range 100 {
		if !Running(pid) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// TestExitWithChildHoldingOutput: a program that starts a child holding
// its output, then exits, has exited: a read ends at once with what it
// wrote and io.EOF, a write with ErrExited, not at the deadline.
func TestExitWithChildHoldingOutput(t *testing.T) {
	p := shell(t, "sleep 3600 & echo $!; echo last; exit 0")
	deadline := time.Now().Add(30 * time.Second)
	line, err := p.ReadLine(deadline, 100)
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(string(line))
	start := time.Now()
	if line, err := p.ReadLine(deadline, 100); err != nil || string(line) != "last" {
		t.Fatalf("ReadLine = %q, %v; want the program's last line", line, err)
	}
	if _, err := p.ReadLine(deadline, 100); err != io.EOF {
		t.Errorf("ReadLine after the exit: %v, want io.EOF", err)
	}
	if err := p.Write([]byte("more\n"), deadline); !errors.Is(err, ErrExited) {
		t.Errorf("Write after the exit: %v, want ErrExited", err)
	}
	if s := p.ExitStatus(); s != "exited with status 0" {
		t.Errorf("ExitStatus = %q", s)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the reads took %v: they waited for the child, not the program", d)
	}
	p.Kill()
	if !gone(child) {
		t.Errorf("the child %d that held the output is still running after Kill", child)
	}
}

// TestKillEndsEveryDescendant: Kill ends the processes a program started
// in sessions of their own (setsid), and those it left behind when it
// exited, besides its process group.
func TestKillEndsEveryDescendant(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux has a /proc to find processes that left the group")
	}
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		t.Skip("no setsid command")
	}
	for _, script := range []string{
		setsid + " sleep 3600 & echo $!; cat",                                                         // a session of its own, the program alive
		setsid + " sh -c 'sleep 3600 & echo $!; exec sleep 3600' & wait",                              // a grandchild in another session
		"(" + setsid + " sleep 3600 & echo $!) ; echo done; cat",                                      // orphaned: its parent exited
		"sh -c 'env -u MCTSCHECK_PROGRAM " + setsid + " sleep 3600 & echo $!; exec sleep 3600' & cat", // without the tag, in another session
	} {
		p := shell(t, script)
		line, err := p.ReadLine(time.Now().Add(30*time.Second), 100)
		if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(line)))
		if pid <= 0 || syscall.Kill(pid, 0) != nil {
			t.Fatalf("%s: no process %q to end", script, line)
		}
		start := time.Now()
		p.Kill()
		t.Logf("%s: Kill took %v", script, time.Since(start))
		if !gone(pid) {
			t.Errorf("%s: process %d is still running after Kill", script, pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
