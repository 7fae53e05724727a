//go:build unix

package proc

import (
	"os"
	"syscall"
)

// Pending reads, without waiting, what f (the read end of a pipe) holds
// already into buf: up to len(buf) bytes, or nil when nothing is waiting. The protocols'
// drivers call it before they write a request, to catch output that no
// request asked for, which would be taken for the next answer.
func Pending(f *os.File, buf []byte) []byte {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	n := 0
	rc.Read(func(fd uintptr) bool {
		n, err = syscall.Read(int(fd), buf)
		return true // never wait: EAGAIN means nothing is there
	})
	if err != nil || n <= 0 {
		return nil
	}
	return buf[:n]
}
