package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
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
	errLineTooLong = proc.ErrLineTooLong
	errHang        = errors.New("hangs")
)

// execProc is one running program: a proc.Pipe, with the names the rule's
// code calls it by.
type execProc struct {
	*proc.Pipe
	cmd *exec.Cmd
}

// startExec starts the program and runs the handshake. After a failed
// handshake it returns the process too, killed and reaped.
func startExec(argv []string, o ExecOptions) (*execProc, Capabilities, error) {
	pp, err := proc.Start(argv, o.Dir, o.Env, o.Stderr)
	if err != nil {
		return nil, Capabilities{}, fmt.Errorf("rules: exec: %w", err)
	}
	p := &execProc{Pipe: pp, cmd: pp.Cmd}
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

func (p *execProc) write(b []byte, deadline time.Time) error { return p.Write(b, deadline) }
func (p *execProc) readLine(deadline time.Time, limit int) ([]byte, error) {
	return p.ReadLine(deadline, limit)
}
func (p *execProc) readFull(b []byte, deadline time.Time) error { return p.ReadFull(b, deadline) }
func (p *execProc) exitStatus() string                          { return p.ExitStatus() }
func (p *execProc) stderrTail() string                          { return p.StderrTail() }
func (p *execProc) pending() string                             { return p.Pending() }
func (p *execProc) interrupt()                                  { p.Interrupt() }
func (p *execProc) kill()                                       { p.Kill() }
func (p *execProc) stop()                                       { p.Stop() }
