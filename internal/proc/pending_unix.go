//go:build unix

package proc

import (
	"os"
	"syscall"
)

// Pending reads, without waiting, what f (the read end of a pipe) holds
// already into buf: up to len(buf) bytes, or nil when nothing is waiting.
// The protocols' drivers call it before they write a request, to catch
// output that no request asked for, which would be taken for the next
// answer. It reads whatever f's read deadline (passed or not).
func Pending(f *os.File, buf []byte) []byte {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	n := 0
	cerr := rc.Control(func(fd uintptr) { // Control, not Read: Read fails at once past the deadline
		n, err = syscall.Read(int(fd), buf) // never waits: f is non-blocking, EAGAIN means nothing is there
	})
	if cerr != nil || err != nil || n <= 0 {
		return nil
	}
	return buf[:n]
}
