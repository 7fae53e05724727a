package engine

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mctscheck/mctscheck/gtp"
	"github.com/mctscheck/mctscheck/internal/proc"
)

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// process is one running engine.
type process struct {
	cmd    *exec.Cmd
	client *gtp.Client
	stdin  io.Closer
	stderr *tail
	done   chan struct{} // closed when the process has been waited for
	err    error         // its exit error, once done
}

// start starts the engine.
func start(args []string) (*process, error) {
	cmd := exec.Command(args[0], args[1:]...)
	proc.Isolate(cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, stdin: in, stderr: &tail{max: 64 << 10}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	p.client = gtp.NewClient(out, in)
	return p, nil
}

// errTimeout is a command that got no reply in time.
var errTimeout = errors.New("no reply in time")

// send sends a command and waits for its reply until the deadline or the
// end of ctx; on a timeout or a cancellation the engine is killed.
func (p *process) send(ctx context.Context, command string, deadline time.Time) (string, error) {
	type reply struct {
		text string
		err  error
	}
	ch := make(chan reply, 1)
	go func() {
		t, err := p.client.Send(command)
		ch <- reply{t, err}
	}()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case r := <-ch:
		return r.text, r.err
	case <-timer.C:
		p.kill()
		return "", errTimeout
	case <-ctx.Done():
		p.kill()
		return "", ctx.Err()
	}
}

// kill kills the engine and its process group and waits for it.
func (p *process) kill() {
	proc.KillGroup(p.cmd)
	_ = p.stdin.Close()
	<-p.done
}

// close asks the engine to quit, waits a moment, kills it if it is still
// running, and reaps it.
func (p *process) close() {
	select {
	case <-p.done:
		return
	default:
	}
	go func() { _, _ = p.client.Send("quit") }()
	select {
	case <-p.done:
	case <-time.After(500 * time.Millisecond):
	}
	p.kill()
}

// exited describes how the engine ended, once it has.
func (p *process) exited() string {
	select {
	case <-p.done:
	case <-time.After(200 * time.Millisecond):
		return "still running"
	}
	if p.err == nil {
		return "exited with status 0"
	}
	return p.err.Error()
}

// winrateLine matches Leela Zero's line for a root child after a search:
// " K6 ->      48 (V: 52.31%) (LCB: ...".
var winrateLine = regexp.MustCompile(`^\s*([A-Za-z]+[0-9]*|pass|resign)\s+->\s+(\d+)\s+\(V:\s*([0-9.]+)%\)`)

// winrate returns the win rate that Leela Zero's stderr reports for move
// (a GTP vertex), the last such line, or -1 if there is none.
func winrate(stderr, move string) float64 {
	w := -1.0
	for _, l := range strings.Split(stderr, "\n") {
		m := winrateLine.FindStringSubmatch(l)
		if m == nil || !strings.EqualFold(m[1], move) {
			continue
		}
		if v, err := strconv.ParseFloat(m[3], 64); err == nil {
			w = v / 100
		}
	}
	return w
}

// writeNetwork writes the position's network into dir (once) and returns
// its path.
func writeNetwork(dir string, p *Position) (string, error) {
	path := filepath.Join(dir, "net-"+safeName(p.Name)+".txt")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	var buf bytes.Buffer
	white := p.ValueBias
	if p.ByColor {
		white = p.WhiteValueBias
	}
	if err := WriteLeelaZeroNetwork(&buf, p.PolicyBias[:], p.ValueBias, white); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, buf.Bytes(), 0o644)
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}
