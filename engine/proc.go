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

// childLine matches Leela Zero's line for a root child after a search:
// " K6 ->      48 (V: 52.31%) (LCB: 49.28%) (N: 16.67%) PV: K6 R16": the
// move, its visits, its win rate and, if present, its prior.
var childLine = regexp.MustCompile(`^\s*([A-Za-z]+[0-9]*|pass|resign)\s+->\s+(\d+)\s+\(V:\s*([0-9.]+)%\)(?:.*?\(N:\s*([0-9.]+)%\))?`)

// childStats is what the engine reported of one root child.
type childStats struct {
	visits         int
	winrate, prior float64 // prior -1 when not reported
}

// rootList is the last listing of root children on an engine's stderr,
// by move (upper case), empty if there is none.
type rootList map[string]childStats

// rootStats reads the last listing of root children (consecutive lines of
// childLine) from an engine's stderr.
func rootStats(stderr string) rootList {
	out := rootList{}
	inList := false
	for _, l := range strings.Split(stderr, "\n") {
		m := childLine.FindStringSubmatch(l)
		if m == nil {
			inList = false
			continue
		}
		if !inList {
			out, inList = rootList{}, true // a new listing replaces the last
		}
		c := childStats{prior: -1}
		c.visits, _ = strconv.Atoi(m[2])
		if v, err := strconv.ParseFloat(m[3], 64); err == nil {
			c.winrate = v / 100
		}
		if v, err := strconv.ParseFloat(m[4], 64); err == nil {
			c.prior = v / 100
		}
		out[strings.ToUpper(m[1])] = c
	}
	return out
}

// winrate returns the win rate reported for move (a GTP vertex), or -1.
func (r rootList) winrate(move string) float64 {
	if c, ok := r[strings.ToUpper(move)]; ok {
		return c.winrate
	}
	return -1
}

// visits returns the root visits the listing reports in all, those of the
// optimal moves (0 for a move it leaves out), and the optimal moves' prior
// (-1 if it lists none with a prior); all -1 when there is no listing.
func (r rootList) visits(optimal []int) (total, opt int, prior float64) {
	if len(r) == 0 {
		return -1, -1, -1
	}
	prior = -1
	for _, c := range r {
		total += c.visits
	}
	for _, m := range optimal {
		c, ok := r[strings.ToUpper(Vertex(m))]
		if !ok {
			continue
		}
		opt += c.visits
		if c.prior >= 0 {
			prior = max(prior, 0) + c.prior
		}
	}
	return total, opt, prior
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
