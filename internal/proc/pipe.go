package proc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// ErrLineTooLong is ReadLine's error for a line longer than its limit.
var ErrLineTooLong = errors.New("line too long")

// ErrExited is Write's error once the program has exited: a process it
// started may hold its input open, and would take the request.
var ErrExited = errors.New("the program has exited")

// Pipe is a program that speaks a protocol over its standard input and
// output, started in a process group of its own (Isolate), its standard
// error kept for messages (StderrTail). Reads and writes take deadlines, so
// that a program that hangs costs a timeout, never the caller's life. They
// watch the program itself too, not only its pipes: once it has exited, a
// read returns what it wrote, then io.EOF, and a write ErrExited, at once,
// even while a process it started holds the pipes open.
type Pipe struct {
	Cmd    *exec.Cmd
	in     *os.File // the program's standard input, our end
	out    *os.File // its standard output, our end
	rd     *bufio.Reader
	errBuf *tailBuffer
	waited chan struct{} // closed when Wait has reaped it
	status error         // Wait's error, once waited is closed
	stray  [80]byte      // Pending's buffer
}

// Start starts argv[0] with the arguments argv[1:] (not through a shell),
// in dir (empty: the caller's) with env added to the caller's environment;
// everything the program writes on its standard error goes to stderr too,
// if it is not nil.
func Start(argv []string, dir string, env []string, stderr io.Writer) (*Pipe, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	Isolate(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	p := &Pipe{Cmd: cmd, in: inW, out: outR, errBuf: &tailBuffer{}, waited: make(chan struct{})}
	p.rd = bufio.NewReaderSize(exitReader{p}, 1<<16)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := errR.Read(buf)
			p.errBuf.write(buf[:n])
			if stderr != nil && n > 0 {
				stderr.Write(buf[:n])
			}
			if err != nil {
				errR.Close()
				return
			}
		}
	}()
	go func() {
		p.status = cmd.Wait()
		close(p.waited)
		p.wake()
	}()
	return p, nil
}

// exited reports whether the program has exited (and been reaped).
func (p *Pipe) exited() bool {
	select {
	case <-p.waited:
		return true
	default:
		return false
	}
}

// wake cuts short a read or write that waits on a program that has
// exited: the pipes' deadlines pass at once. Each read and write sets its
// own deadline, then calls wake again if the program has exited, so that
// a deadline set after the exit cannot outlast it.
func (p *Pipe) wake() {
	past := time.Unix(1, 0)
	p.out.SetReadDeadline(past)
	p.in.SetWriteDeadline(past)
}

// exitReader reads the program's output; once the program has exited, a
// read that would wait takes what the pipe holds without waiting, and
// then ends (io.EOF), whoever else holds the pipe's other end.
type exitReader struct{ p *Pipe }

func (r exitReader) Read(b []byte) (int, error) {
	n, err := r.p.out.Read(b)
	if errors.Is(err, os.ErrDeadlineExceeded) && r.p.exited() {
		if rest := Pending(r.p.out, b); len(rest) > 0 {
			return len(rest), nil
		}
		return 0, io.EOF
	}
	return n, err
}

// Pid is the program's process id.
func (p *Pipe) Pid() int { return p.Cmd.Process.Pid }

// Write writes all of b before the deadline.
func (p *Pipe) Write(b []byte, deadline time.Time) error {
	if err := p.in.SetWriteDeadline(deadline); err != nil {
		return err
	}
	if p.exited() {
		return ErrExited
	}
	_, err := p.in.Write(b)
	if errors.Is(err, os.ErrDeadlineExceeded) && p.exited() {
		return ErrExited
	}
	return err
}

// setReadDeadline sets the deadline of the reads that follow, passed
// already if the program has exited.
func (p *Pipe) setReadDeadline(deadline time.Time) error {
	if err := p.out.SetReadDeadline(deadline); err != nil {
		return err
	}
	if p.exited() {
		p.wake()
	}
	return nil
}

// ReadLine reads one line (without its newline) before the deadline; a
// line longer than limit bytes is ErrLineTooLong, found once limit bytes
// (and at most a buffer more) have been read, not at the line's end.
func (p *Pipe) ReadLine(deadline time.Time, limit int) ([]byte, error) {
	if err := p.setReadDeadline(deadline); err != nil {
		return nil, err
	}
	var line []byte
	for {
		frag, err := p.rd.ReadSlice('\n')
		if err == nil {
			if len(line)+len(frag)-1 > limit {
				return nil, ErrLineTooLong
			}
			if line == nil {
				return frag[:len(frag)-1], nil
			}
			return append(line, frag[:len(frag)-1]...), nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
		if len(line)+len(frag) > limit {
			return nil, ErrLineTooLong
		}
		line = append(line, frag...)
	}
}

// Unread returns up to 80 bytes the program wrote that the reads so far
// have not taken, as read already ("" if none): after a whole answer,
// output that no request asked for.
func (p *Pipe) Unread() string {
	n := p.rd.Buffered()
	if n == 0 {
		return ""
	}
	b, _ := p.rd.Peek(min(n, 80))
	return string(b)
}

// Pending returns output the program wrote that no request asked for, as
// read before the next request is written ("" if none): the bytes read
// already, or those waiting in the pipe, read without waiting.
func (p *Pipe) Pending() string {
	if s := p.Unread(); s != "" {
		return s
	}
	return string(Pending(p.out, p.stray[:]))
}

// Interrupt cuts a read or write in progress short: it fails at once,
// whoever holds the pipes' other ends (a process the program started may
// keep its output open), and the program's process group is killed.
func (p *Pipe) Interrupt() {
	past := time.Unix(1, 0)
	p.out.SetReadDeadline(past)
	p.in.SetWriteDeadline(past)
	KillGroup(p.Cmd)
}

// ReadFull fills b before the deadline.
func (p *Pipe) ReadFull(b []byte, deadline time.Time) error {
	if err := p.setReadDeadline(deadline); err != nil {
		return err
	}
	for len(b) > 0 {
		n, err := p.rd.Read(b)
		b = b[n:]
		if err != nil && len(b) > 0 {
			return err
		}
	}
	return nil
}

// ExitStatus says how the program ended, waiting briefly for it to end:
// "exited with status 1", "ended: signal: killed", or "closed its output"
// if it is still running.
func (p *Pipe) ExitStatus() string {
	select {
	case <-p.waited:
	case <-time.After(time.Second):
		return "closed its output"
	}
	if p.status == nil {
		return "exited with status 0"
	}
	var ee *exec.ExitError
	if errors.As(p.status, &ee) {
		if ee.Exited() {
			return fmt.Sprintf("exited with status %d", ee.ExitCode())
		}
		return "ended: " + ee.String()
	}
	return "ended: " + p.status.Error()
}

// StderrTail is the last three lines the program wrote on its standard
// error, joined by " | ", or "".
func (p *Pipe) StderrTail() string {
	// Give the stderr reader a moment to drain what the program wrote last.
	time.Sleep(10 * time.Millisecond)
	lines := strings.Split(strings.TrimSpace(p.errBuf.String()), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	lines = lines[max(0, len(lines)-3):]
	return strings.Join(lines, " | ")
}

// Kill kills the program and every process in its group, and reaps it.
func (p *Pipe) Kill() {
	KillGroup(p.Cmd)
	p.in.Close()
	<-p.waited
	p.out.Close()
}

// Stop closes the program's input, gives it half a second to exit, then
// kills it (and its group) and reaps it.
func (p *Pipe) Stop() {
	p.in.Close()
	select {
	case <-p.waited:
	case <-time.After(stopGrace):
	}
	p.Kill()
}

// stopGrace is how long Stop and StopReading wait for the program to exit
// once its input is closed.
const stopGrace = 500 * time.Millisecond

// StopReading stops the program as Stop does, reading its output to the
// end meanwhile, and returns up to limit bytes of what it wrote that no
// read had taken ("" if nothing): output after its last answer, which a
// program that serves requests until its input closes must not write.
func (p *Pipe) StopReading(limit int) string {
	p.in.Close()
	rest := make([]byte, 0, min(limit, 4096))
	if err := p.setReadDeadline(time.Now().Add(stopGrace)); err == nil {
		buf := make([]byte, 4096)
		for len(rest) < limit {
			n, err := p.rd.Read(buf)
			rest = append(rest, buf[:min(n, limit-len(rest))]...)
			if err != nil {
				break
			}
		}
	}
	p.Kill()
	return string(rest)
}

// tailBuffer keeps the last bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 4096

func (t *tailBuffer) write(b []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
