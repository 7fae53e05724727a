package rules

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/mctscheck/mctscheck/internal/proc"
)

// SplitCommand splits a command line into words as a shell would split
// it without expanding anything: spaces separate words, single quotes
// keep everything, double quotes keep everything but \" and \\, and a
// backslash outside quotes escapes the next character. A line with no
// word is an error. ExecCommand and mctscheck engine's -gtp use it.
func SplitCommand(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	in := false // inside a word
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words, in = append(words, w.String()), false
				w.Reset()
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' at byte %d of %q", i, line)
			}
			w.WriteString(line[i+1 : i+1+j])
			i, in = i+1+j, true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\') {
					i++
				}
				w.WriteByte(line[i])
			}
			if i >= len(line) {
				return nil, fmt.Errorf("unterminated \" in %q", line)
			}
			in = true
		case c == '\\':
			if i+1 < len(line) {
				i++
				w.WriteByte(line[i])
			}
			in = true
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
}

// commandLine writes argv as a shell would read it back: words with
// spaces, quotes or backslashes in single quotes.
func commandLine(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\") {
			words[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(words, " ")
}

// handshakeBytes bounds the handshake's line.
const handshakeBytes = 1 << 16

var (
	errLineTooLong = errors.New("line too long")
	errHang        = errors.New("hangs")
)

// execProc is one running program.
type execProc struct {
	cmd    *exec.Cmd
	in     *os.File // the program's standard input, our end
	out    *os.File // its standard output, our end
	rd     *bufio.Reader
	errBuf *tailBuffer
	waited chan struct{} // closed when Wait has reaped it
	status error         // Wait's error, once waited is closed
}

// startExec starts the program and runs the handshake. After a failed
// handshake it returns the process too, killed and reaped.
func startExec(argv []string, o ExecOptions) (*execProc, Capabilities, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, Capabilities{}, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, Capabilities{}, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, Capabilities{}, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = o.Dir
	if o.Env != nil {
		cmd.Env = append(os.Environ(), o.Env...)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	proc.Isolate(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, Capabilities{}, fmt.Errorf("rules: exec: %w", err)
	}
	p := &execProc{cmd: cmd, in: inW, out: outR, rd: bufio.NewReaderSize(outR, 1<<16),
		errBuf: &tailBuffer{}, waited: make(chan struct{})}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := errR.Read(buf)
			p.errBuf.write(buf[:n])
			if o.Stderr != nil && n > 0 {
				o.Stderr.Write(buf[:n])
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
	}()
	caps, err := p.handshake(argv, o.StartTimeout)
	if err != nil {
		p.kill()
		return p, Capabilities{}, err // the process, reaped, for its pid
	}
	return p, caps, nil
}

// handshake offers the versions mctscheck speaks and reads the program's
// choice and capabilities. Its errors are *execError.
func (p *execProc) handshake(argv []string, timeout time.Duration) (Capabilities, error) {
	name := fmt.Sprintf("the program %q", commandLine(argv))
	deadline := time.Now().Add(timeout)
	hello := fmt.Sprintf(`{"protocol":"mctscheck-rule","versions":[%d]}`+"\n", ProtocolVersion)
	fail := func(doing string, err error) error {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return &execError{kind: "hang", msg: fmt.Sprintf("exec: %s hangs: no handshake after %v", name, timeout), tail: p.stderrTail()}
		}
		return &execError{kind: "crash", msg: fmt.Sprintf("exec: %s %s while %s", name, p.exitStatus(), doing), tail: p.stderrTail()}
	}
	if err := p.write([]byte(hello), deadline); err != nil {
		return Capabilities{}, fail("reading the handshake", err)
	}
	line, err := p.readLine(deadline, handshakeBytes)
	if err != nil {
		if errors.Is(err, errLineTooLong) {
			return Capabilities{}, faultf("protocol", "exec: %s answered the handshake with garbage: a line longer than %d bytes", name, handshakeBytes)
		}
		return Capabilities{}, fail("answering the handshake", err)
	}
	var caps Capabilities
	dec := json.NewDecoder(strings.NewReader(string(line)))
	if err := dec.Decode(&caps); err != nil {
		return Capabilities{}, faultf("protocol", "exec: %s answered the handshake with garbage: %q (%v)", name, clip(line), err)
	}
	switch {
	case caps.Version != ProtocolVersion:
		return Capabilities{}, faultf("protocol", "exec: %s speaks protocol version %d; mctscheck speaks version %d (docs/protocol.md)", name, caps.Version, ProtocolVersion)
	case caps.Framing == "":
		caps.Framing = "json"
	case caps.Framing != "json" && caps.Framing != "binary":
		return Capabilities{}, faultf("protocol", "exec: %s asked for framing %q; want \"json\" or \"binary\"", name, caps.Framing)
	}
	return caps, nil
}

// write writes all of b before the deadline.
func (p *execProc) write(b []byte, deadline time.Time) error {
	if err := p.in.SetWriteDeadline(deadline); err != nil {
		return err
	}
	_, err := p.in.Write(b)
	return err
}

// readLine reads one line (without its newline) of at most limit bytes
// before the deadline.
func (p *execProc) readLine(deadline time.Time, limit int) ([]byte, error) {
	if err := p.out.SetReadDeadline(deadline); err != nil {
		return nil, err
	}
	var line []byte
	for {
		frag, err := p.rd.ReadSlice('\n')
		if err == nil {
			if len(line)+len(frag)-1 > limit {
				return nil, errLineTooLong
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
			return nil, errLineTooLong
		}
		line = append(line, frag...)
		if len(line) > limit {
			return nil, errLineTooLong
		}
	}
}

// readFull fills b before the deadline.
func (p *execProc) readFull(b []byte, deadline time.Time) error {
	if err := p.out.SetReadDeadline(deadline); err != nil {
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

// exitStatus says how the program ended, waiting briefly for it to end:
// "exited with status 1", "was killed by signal: segmentation fault", or
// "closed its output" if it is still running.
func (p *execProc) exitStatus() string {
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

// stderrTail is the last lines the program wrote on its standard error,
// joined by " | ", or "".
func (p *execProc) stderrTail() string {
	// Give the stderr reader a moment to drain what the program wrote last.
	time.Sleep(10 * time.Millisecond)
	lines := strings.Split(strings.TrimSpace(p.errBuf.String()), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	lines = lines[max(0, len(lines)-3):]
	return strings.Join(lines, " | ")
}

// pending returns output the program wrote that no batch asked for, as
// read before the next batch is written ("" if none): the bytes the
// reader holds already, or those waiting in the pipe.
func (p *execProc) pending() string {
	if n := p.rd.Buffered(); n > 0 {
		b, _ := p.rd.Peek(min(n, 80))
		return string(b)
	}
	return string(proc.Pending(p.out))
}

// interrupt cuts a round trip in progress short: the next or current read
// or write of the program's pipes fails at once, whoever holds their other
// ends (a process the program started may keep its output open).
func (p *execProc) interrupt() {
	past := time.Unix(1, 0)
	p.out.SetReadDeadline(past)
	p.in.SetWriteDeadline(past)
	proc.KillGroup(p.cmd)
}

// kill kills the program and every process in its group, and reaps it.
func (p *execProc) kill() {
	proc.KillGroup(p.cmd)
	p.in.Close()
	<-p.waited
	p.out.Close()
}

// stop closes the program's input, gives it a moment to exit, then kills
// it (and its group) and reaps it.
func (p *execProc) stop() {
	p.in.Close()
	select {
	case <-p.waited:
	case <-time.After(500 * time.Millisecond):
	}
	p.kill()
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
