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
	roots  *rootParser   // the root listings read from stderr
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
	p := &process{cmd: cmd, stdin: in, stderr: &tail{max: 64 << 10}, roots: &rootParser{}, done: make(chan struct{})}
	cmd.Stderr = io.MultiWriter(p.stderr, p.roots)
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

// pachiTree is the first line of Pachi's dump of its search tree (its
// uct engine with debug level 4 or more, "-d 4"):
// "(UCT tree; root white; extra komi 0.000000; max depth 16)".
const pachiTree = "(UCT tree;"

// pachiChild matches a root child in Pachi's tree dump, one space deep:
// " [K6] 0.796/3943 [prior 0.500/20 amaf 0.788/11983 crit …": the move,
// its win rate for the player to move and its playouts, then its AMAF
// (RAVE) value and playouts. Pachi lists the children with more playouts
// than its dumpthres option: with dumpthres=-1 every child, the unvisited
// ones included.
var pachiChild = regexp.MustCompile(`^ \[([A-Za-z]+[0-9]*)\] ([0-9.]+)/(\d+) \[prior [0-9.]+/\d+ amaf ([0-9.]+)/(\d+)`)

// childStats is what the engine reported of one root child.
type childStats struct {
	visits         int
	winrate, prior float64 // prior -1 when not reported
	// amaf is the move's AMAF (RAVE) value for the player to move, over
	// amafPlayouts playouts; amafPlayouts is -1 when not reported.
	amaf         float64
	amafPlayouts int
}

// rootList is the last listing of root children on an engine's stderr,
// by move (upper case), empty if there is none.
type rootList map[string]childStats

// rootParser reads an engine's stderr line by line and keeps the last
// listing of root children: Leela Zero's (consecutive lines of childLine)
// or Pachi's tree dump (the lines of pachiChild after pachiTree). A new
// listing replaces the last.
type rootParser struct {
	last, cur rootList
	pachi     bool // in a Pachi tree dump
	partial   []byte
}

// Write implements io.Writer: it parses the complete lines written.
func (r *rootParser) Write(p []byte) (int, error) {
	r.partial = append(r.partial, p...)
	for {
		i := bytes.IndexByte(r.partial, '\n')
		if i < 0 {
			break
		}
		r.line(string(r.partial[:i]))
		r.partial = r.partial[i+1:]
	}
	if len(r.partial) > 1<<16 { // no line is that long; keep memory bounded
		r.partial = r.partial[:0]
	}
	return len(p), nil
}

// line parses one line.
func (r *rootParser) line(l string) {
	l = strings.TrimRight(l, "\r")
	if strings.HasPrefix(l, pachiTree) {
		r.cur, r.pachi = rootList{}, true
		r.last = r.cur
		return
	}
	if r.pachi {
		if m := pachiChild.FindStringSubmatch(l); m != nil {
			c := childStats{prior: -1}
			c.winrate, _ = strconv.ParseFloat(m[2], 64)
			c.visits, _ = strconv.Atoi(m[3])
			c.amaf, _ = strconv.ParseFloat(m[4], 64)
			c.amafPlayouts, _ = strconv.Atoi(m[5])
			r.cur[strings.ToUpper(m[1])] = c
			return
		}
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "[") {
			return // the root itself, or a deeper node
		}
		r.pachi = false
	}
	m := childLine.FindStringSubmatch(l)
	if m == nil {
		r.cur = nil
		return
	}
	if r.cur == nil {
		r.cur = rootList{} // a new listing replaces the last
		r.last = r.cur
	}
	c := childStats{prior: -1, amafPlayouts: -1}
	c.visits, _ = strconv.Atoi(m[2])
	if v, err := strconv.ParseFloat(m[3], 64); err == nil {
		c.winrate = v / 100
	}
	if v, err := strconv.ParseFloat(m[4], 64); err == nil {
		c.prior = v / 100
	}
	r.cur[strings.ToUpper(m[1])] = c
}

// list returns the last listing, the last line included even if it has
// no newline.
func (r *rootParser) list() rootList {
	if len(r.partial) > 0 {
		r.line(string(r.partial))
		r.partial = r.partial[:0]
	}
	if r.last == nil {
		return rootList{}
	}
	return r.last
}

// rootStats reads the last listing of root children from an engine's
// stderr.
func rootStats(stderr string) rootList {
	var r rootParser
	_, _ = r.Write([]byte(stderr))
	return r.list()
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

// amaf returns the AMAF (RAVE) value the listing reports for the optimal
// moves, the playout-weighted mean over those it lists with one, and the
// playouts behind it; -1, -1 when it lists none of them with one (only
// Pachi's listing has AMAF values).
func (r rootList) amaf(optimal []int) (value float64, playouts int) {
	sum, n, found := 0.0, 0, false
	for _, m := range optimal {
		c, ok := r[strings.ToUpper(Vertex(m))]
		if !ok || c.amafPlayouts < 0 {
			continue
		}
		found = true
		sum += c.amaf * float64(c.amafPlayouts)
		n += c.amafPlayouts
	}
	switch {
	case !found:
		return -1, -1
	case n == 0:
		return 0, 0
	}
	return sum / float64(n), n
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
