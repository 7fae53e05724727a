package rules

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mctscheck/mctscheck/core"
)

// ProtocolVersion is the version of the external rule protocol that Exec
// speaks (docs/protocol.md).
const ProtocolVersion = 1

// MaxHangs is how many times a program that hung (ExecOptions.Timeout) is
// started again: each hang costs a whole timeout, so that a program that
// hangs on every site would otherwise hold a check for hours.
const MaxHangs = 3

// ExecOptions configure an external rule. The zero value means the
// defaults, listed with each field.
type ExecOptions struct {
	// Timeout bounds one round trip: writing a batch of sites and reading
	// the program's answers. A program that takes longer is killed, and its
	// sites get a fault ("hangs"). 0 means 10 s.
	Timeout time.Duration
	// StartTimeout bounds the start and the handshake; 0 means 30 s.
	StartTimeout time.Duration
	// MaxRestarts bounds how often a program that failed is started again.
	// After a fault the program is killed and started afresh for the next
	// batch, so that every fault is found with the site that caused it;
	// after MaxRestarts restarts, or MaxHangs hangs, every site faults at
	// once, saying so. 0 means 100; a negative value never restarts.
	MaxRestarts int
	// Concurrency is how many searches should call Select at once for the
	// program to receive full batches (Concurrency reports it to the
	// checker, which runs that many searches side by side: props.Options.Jobs).
	// 0 means 64.
	Concurrency int
	// Dir is the program's working directory; empty means the caller's.
	Dir string
	// Env is added to the caller's environment for the program.
	Env []string
}

func (o ExecOptions) withDefaults() ExecOptions {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 30 * time.Second
	}
	switch {
	case o.MaxRestarts == 0:
		o.MaxRestarts = 100
	case o.MaxRestarts < 0:
		o.MaxRestarts = 0
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 64
	}
	return o
}

// Capabilities are what a program declares in its handshake: the
// framing it reads and writes, the optional statistics its sites must
// carry, and what it can do besides choosing a child.
type Capabilities struct {
	// Version is the protocol version the program speaks.
	Version int `json:"version"`
	// Framing is "json" (JSON lines) or "binary" (docs/protocol.md).
	Framing string `json:"framing"`
	// Seed asks for a seed in every site, for the program's random draws.
	// A program that draws nothing leaves it false, and the search's
	// generator is then used exactly as by a Go rule that draws nothing.
	Seed bool `json:"seed"`
	// Probs says the program answers "probs" sites with the probability of
	// each child (core.Stochastic).
	Probs bool `json:"probs"`
	// Priors and AMAF ask for the children's priors and AMAF statistics
	// (core.Needs).
	Priors bool `json:"priors"`
	AMAF   bool `json:"amaf"`
	// Name names the program in messages; optional.
	Name string `json:"name"`
}

// ExecRule is a selection rule computed by an external program that speaks
// the protocol of docs/protocol.md over its standard input and output.
// Select calls that arrive at once from several goroutines travel to the
// program in one batch per round trip. The program is started on first use
// and restarted after a fault; Close stops it. Every fault of the program
// (it crashes, exits, hangs, answers garbage or a child out of range) makes
// the Select that met it panic with an *ExecFault, which a search reports
// as a core.RuleError and the checker as a fault of the rule, with the site
// that caused it.
type ExecRule struct {
	argv []string
	opts ExecOptions

	startOnce sync.Once
	begun     atomic.Bool // the first start has begun
	caps      Capabilities
	startErr  error // the first start's error, if it failed

	mu     sync.Mutex
	queue  []*execCall
	wake   chan struct{}
	closed bool
	done   chan struct{} // closed when the pump has stopped

	// The pump's state: only the pump goroutine touches it, but for proc
	// and pids, which the first start sets too, under mu.
	proc     *execProc
	restarts int
	hangs    int
	lastErr  string
	pids     []int  // every process started, for tests
	out      []byte // the batch being written
	in       []byte // binary answers being read
	batches  int64  // guarded by mu
	sites    int64  // guarded by mu
}

// ExecFault is the panic value of a Select whose site the program did not
// answer well: Msg says what happened, Site is the site as sent, in the
// protocol's JSON form, so that the program can be run on it again.
type ExecFault struct {
	Msg  string
	Site string
}

func (f *ExecFault) Error() string {
	return f.Msg + "; the site sent (JSON form): " + f.Site
}

// Exec returns the external rule run by the program name with args (not
// through a shell), with the default ExecOptions. The program must be
// found (exec.LookPath); it starts on first use.
func Exec(name string, args ...string) (*ExecRule, error) {
	return ExecOptions{}.New(name, args...)
}

// New is Exec with these options.
func (o ExecOptions) New(name string, args ...string) (*ExecRule, error) {
	if name == "" {
		return nil, errors.New("rules: exec: no program")
	}
	if _, err := exec.LookPath(name); err != nil {
		var ee *exec.Error
		if errors.As(err, &ee) {
			err = ee.Err
		}
		return nil, fmt.Errorf("rules: exec: program %q: %w", name, err)
	}
	x := &ExecRule{argv: append([]string{name}, args...), opts: o.withDefaults(),
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	return x, nil
}

// ExecCommand is Exec with a command line, split into words as a shell
// would split it without expanding anything: spaces separate words,
// single quotes keep everything, double quotes keep everything but \" and
// \\, and a backslash outside quotes escapes the next character.
func ExecCommand(line string, o ExecOptions) (*ExecRule, error) {
	argv, err := splitCommand(line)
	if err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		return nil, errors.New("rules: exec: empty command")
	}
	return o.New(argv[0], argv[1:]...)
}

// splitCommand splits a command line into words (see ExecCommand).
func splitCommand(line string) ([]string, error) {
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
				return nil, fmt.Errorf("rules: exec: unterminated ' at byte %d of %q", i, line)
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
				return nil, fmt.Errorf("rules: exec: unterminated \" in %q", line)
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
	return words, nil
}

// Command returns the program and its arguments.
func (x *ExecRule) Command() []string { return append([]string(nil), x.argv...) }

// Capabilities returns what the program declared in its handshake,
// starting it if it has not started, and the error of its first start.
func (x *ExecRule) Capabilities() (Capabilities, error) {
	x.start()
	return x.caps, x.startErr
}

// Concurrency is the number of searches that should call Select at once
// for full batches (ExecOptions.Concurrency).
func (x *ExecRule) Concurrency() int { return x.opts.Concurrency }

// Stats returns the round trips made so far and the sites they carried.
func (x *ExecRule) Stats() (batches, sites int64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.batches, x.sites
}

// start runs the first start and handshake, once; the pump restarts the
// program after a fault.
func (x *ExecRule) start() {
	x.startOnce.Do(func() {
		x.begun.Store(true)
		go x.pump()
		p, caps, err := startExec(x.argv, x.opts)
		if p != nil {
			x.mu.Lock()
			x.pids = append(x.pids, p.cmd.Process.Pid)
			x.mu.Unlock()
		}
		if err != nil {
			x.startErr = err
			return
		}
		x.caps = caps
		x.mu.Lock()
		if x.closed {
			x.mu.Unlock()
			p.kill()
			return
		}
		x.proc = p
		x.mu.Unlock()
	})
}

// Needs implements core.Needer: what the program asked for.
func (x *ExecRule) Needs() core.Needs {
	x.start()
	return core.Needs{Priors: x.caps.Priors, AMAF: x.caps.AMAF}
}

// Select implements core.Rule: it sends s to the program, in a batch with
// the sites of the other goroutines' calls, and returns its answer. It
// panics with an *ExecFault if the program does not answer well.
func (x *ExecRule) Select(s *core.Site) int {
	c := x.call(s, opSelect)
	defer execCalls.Put(c)
	if c.fault != "" {
		panic(&ExecFault{Msg: c.fault, Site: string(appendSiteJSON(nil, s, c, x.caps))})
	}
	return c.choice
}

// Probs implements core.Stochastic for a program that declares "probs":
// the probability of each child, as the program gives it. It returns nil
// when the program gives none, or gives probabilities that are not finite,
// non-negative and summing to 1 within 1e-9 per child.
func (x *ExecRule) Probs(s *core.Site, dst []float64) []float64 {
	x.start()
	if !x.caps.Probs {
		return nil
	}
	c := x.call(s, opProbs)
	defer execCalls.Put(c)
	if c.fault != "" || len(c.probs) != s.Len() {
		return nil
	}
	sum := 0.0
	for _, p := range c.probs {
		if !(p >= 0 && p <= 1) {
			return nil
		}
		sum += p
	}
	if math.Abs(sum-1) > 1e-9*float64(len(c.probs)) {
		return nil
	}
	return append(dst[:0], c.probs...)
}

// Close stops the program: it closes the program's standard input, waits
// briefly for it to exit, then kills it (and any process it started) and
// reaps it. Select after Close faults. Close is safe to call more than once.
func (x *ExecRule) Close() error {
	x.mu.Lock()
	x.closed = true
	x.mu.Unlock()
	if !x.begun.Load() {
		return nil // never started; a start that races with Close stops at once
	}
	select {
	case x.wake <- struct{}{}:
	default:
	}
	<-x.done
	return nil
}

// Operations of a site.
const (
	opSelect = 0
	opProbs  = 1
)

// execCall is one Select or Probs waiting for its answer.
type execCall struct {
	op     int
	k      int
	seed   uint64
	enc    []byte // the site, encoded in the program's framing
	choice int
	probs  []float64
	fault  string
	done   chan struct{}
}

var execCalls = sync.Pool{New: func() any { return &execCall{done: make(chan struct{}, 1)} }}

// prepare returns a call for s, encoded in the program's framing, with a
// seed drawn from s.Rand() for a select site of a program that asked for
// seeds.
func (x *ExecRule) prepare(s *core.Site, op int) *execCall {
	c := execCalls.Get().(*execCall)
	c.op, c.k, c.choice, c.fault, c.probs = op, s.Len(), -1, "", c.probs[:0]
	c.seed = 0
	if x.caps.Seed && op == opSelect { // probabilities do not depend on a draw
		c.seed = s.Rand().Uint64()
	}
	if x.caps.Framing == "binary" {
		c.enc = appendSiteBinary(c.enc[:0], s, c, x.caps)
	} else {
		c.enc = appendSiteJSON(c.enc[:0], s, c, x.caps)
	}
	return c
}

// call encodes s, queues it for the next batch and waits for its answer.
func (x *ExecRule) call(s *core.Site, op int) *execCall {
	x.start()
	c := x.prepare(s, op)
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		c.fault = "exec: the rule is closed"
		return c
	}
	x.queue = append(x.queue, c)
	first := len(x.queue) == 1
	x.mu.Unlock()
	if first {
		select {
		case x.wake <- struct{}{}:
		default:
		}
	}
	<-c.done
	return c
}

// pump sends the queued calls to the program, one batch per round trip,
// until Close.
func (x *ExecRule) pump() {
	defer close(x.done)
	var spare []*execCall
	for {
		x.mu.Lock()
		var batch []*execCall
		if len(x.queue) > 0 { // swap the queue with the spare buffer
			batch, x.queue, spare = x.queue, spare[:0], nil
		}
		closed := x.closed
		x.mu.Unlock()
		if len(batch) > 0 {
			x.serve(batch)
			x.mu.Lock()
			x.batches++
			x.sites += int64(len(batch))
			x.mu.Unlock()
			for _, c := range batch {
				c.done <- struct{}{}
			}
			if len(batch) > 1 {
				// Let the callers just answered run on to their next
				// Select before the next batch leaves: fuller batches,
				// fewer round trips.
				runtime.Gosched()
			}
			clear(batch)
			spare = batch
			continue
		}
		if closed {
			break
		}
		<-x.wake
	}
	// Closed: answer any call that raced with Close, and stop the program.
	x.mu.Lock()
	for _, c := range x.queue {
		c.fault = "exec: the rule is closed"
		c.done <- struct{}{}
	}
	x.queue = nil
	x.mu.Unlock()
	if x.begun.Load() {
		x.start() // a start in progress ends before the process is stopped
	}
	x.mu.Lock()
	p := x.proc
	x.proc = nil
	x.mu.Unlock()
	if p != nil {
		p.stop()
	}
}

// serve answers one batch: a round trip, and after a failure of the whole
// round trip each site alone on a restarted program, so that the fault
// lands on the sites that cause it.
func (x *ExecRule) serve(batch []*execCall) {
	err := x.roundTrip(batch)
	if err == nil {
		return
	}
	if len(batch) == 1 {
		batch[0].fault = err.Error()
		return
	}
	for _, c := range batch {
		if err := x.roundTrip([]*execCall{c}); err != nil {
			c.fault = err.Error()
		}
	}
}

// roundTrip sends a batch and reads its answers, restarting the program
// first if it is not running. An error is a fault of the whole round trip,
// after which the program has been killed; a fault of one answer is set on
// its call.
func (x *ExecRule) roundTrip(batch []*execCall) error {
	if x.startErr != nil {
		return x.startErr
	}
	x.mu.Lock()
	p := x.proc
	x.mu.Unlock()
	if p == nil {
		if x.restarts >= x.opts.MaxRestarts || x.hangs > MaxHangs {
			return fmt.Errorf("exec: %s failed %d times and is not started again; the last time: %s", x.name(), x.restarts+1, x.lastErr)
		}
		x.restarts++
		np, caps, err := startExec(x.argv, x.opts)
		if np != nil {
			x.mu.Lock()
			x.pids = append(x.pids, np.cmd.Process.Pid)
			x.mu.Unlock()
		}
		if err == nil && caps != x.caps {
			np.kill()
			err = fmt.Errorf("exec: %s declared other capabilities when started again: %+v, first %+v", x.name(), caps, x.caps)
		}
		if err != nil {
			x.lastErr = err.Error()
			return err
		}
		x.mu.Lock()
		x.proc = np
		x.mu.Unlock()
		p = np
	}
	err := x.exchange(p, batch)
	if err != nil {
		if errors.Is(err, errHang) {
			x.hangs++
		}
		p.kill()
		x.mu.Lock()
		x.proc = nil
		x.mu.Unlock()
		x.lastErr = err.Error()
	}
	return err
}

func (x *ExecRule) name() string {
	if x.caps.Name != "" {
		return fmt.Sprintf("the program %q", x.caps.Name)
	}
	return fmt.Sprintf("the program %q", commandLine(x.argv))
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

// exchange writes the batch and reads the answers within the timeout.
func (x *ExecRule) exchange(p *execProc, batch []*execCall) error {
	deadline := time.Now().Add(x.opts.Timeout)
	out := x.out[:0]
	if x.caps.Framing == "binary" {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(batch)))
		size := 0
		for _, c := range batch {
			size += len(c.enc)
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(size))
		for _, c := range batch {
			out = append(out, c.enc...)
		}
	} else {
		out = append(out, '[')
		for i, c := range batch {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, c.enc...)
		}
		out = append(out, ']', '\n')
	}
	x.out = out
	if err := p.write(out, deadline); err != nil {
		return x.ioFault(p, "reading its batch", err)
	}
	if x.caps.Framing == "binary" {
		return x.readBinary(p, batch, deadline)
	}
	return x.readJSON(p, batch, deadline)
}

// ioFault describes a failed read or write: a timeout is a hang, an end of
// file an exit (with the exit status and the last line of its stderr).
func (x *ExecRule) ioFault(p *execProc, doing string, err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("exec: %s %w: no answer after %v (%s)", x.name(), errHang, x.opts.Timeout, doing)
	}
	return fmt.Errorf("exec: %s %s while %s%s", x.name(), p.exitStatus(), doing, p.stderrTail())
}

// readJSON reads a JSON line of answers: an array with one element per
// site, an integer for a select site, an array of numbers for a probs site.
func (x *ExecRule) readJSON(p *execProc, batch []*execCall, deadline time.Time) error {
	line, err := p.readLine(deadline)
	if err != nil {
		if errors.Is(err, errLineTooLong) {
			return fmt.Errorf("exec: %s answered garbage: a line longer than %d bytes", x.name(), maxLine)
		}
		return x.ioFault(p, "answering", err)
	}
	var answers []json.RawMessage
	if err := json.Unmarshal(line, &answers); err != nil {
		return fmt.Errorf("exec: %s answered garbage: %q is not a JSON array (%v)", x.name(), clip(line), err)
	}
	if len(answers) != len(batch) {
		return fmt.Errorf("exec: %s answered garbage: %d answers to a batch of %d sites: %q", x.name(), len(answers), len(batch), clip(line))
	}
	for i, c := range batch {
		a := answers[i]
		if c.op == opProbs {
			if err := json.Unmarshal(a, &c.probs); err != nil || len(c.probs) != c.k {
				c.fault = fmt.Sprintf("exec: %s answered %s to a probs site with %d children, want %d probabilities", x.name(), clip(a), c.k, c.k)
			}
			continue
		}
		v, err := strconv.ParseInt(string(a), 10, 64)
		if err != nil {
			c.fault = fmt.Sprintf("exec: %s answered garbage: %s is not a child index", x.name(), clip(a))
			continue
		}
		x.setChoice(c, v)
	}
	return nil
}

// readBinary reads binary answers: the count of sites, then an int32 per
// select site and float64 probabilities per probs site.
func (x *ExecRule) readBinary(p *execProc, batch []*execCall, deadline time.Time) error {
	le := binary.LittleEndian
	size := 4
	for _, c := range batch {
		if c.op == opProbs {
			size += 8 * c.k
		} else {
			size += 4
		}
	}
	if cap(x.in) < size {
		x.in = make([]byte, size)
	}
	in := x.in[:size]
	if err := p.readFull(in[:4], deadline); err != nil {
		return x.ioFault(p, "answering", err)
	}
	if n := le.Uint32(in); n != uint32(len(batch)) {
		return fmt.Errorf("exec: %s answered garbage: a count of %d answers (bytes % x) to a batch of %d sites", x.name(), n, in[:4], len(batch))
	}
	if err := p.readFull(in[4:], deadline); err != nil {
		return x.ioFault(p, "answering", err)
	}
	in = in[4:]
	for _, c := range batch {
		if c.op == opProbs {
			c.probs = c.probs[:0]
			for range c.k {
				c.probs = append(c.probs, math.Float64frombits(le.Uint64(in)))
				in = in[8:]
			}
			continue
		}
		x.setChoice(c, int64(int32(le.Uint32(in))))
		in = in[4:]
	}
	return nil
}

// setChoice records an answer to a select site, or its fault.
func (x *ExecRule) setChoice(c *execCall, v int64) {
	if v < 0 || v >= int64(c.k) {
		c.fault = fmt.Sprintf("exec: %s chose child %d of a site with %d children", x.name(), v, c.k)
		return
	}
	c.choice = int(v)
}

// clip shortens garbage for a message.
func clip(b []byte) string {
	const most = 80
	if len(b) > most {
		return string(b[:most]) + "…"
	}
	return string(b)
}

// appendSiteJSON appends the JSON form of a site (docs/protocol.md).
func appendSiteJSON(b []byte, s *core.Site, c *execCall, caps Capabilities) []byte {
	k := s.Len()
	b = append(b, `{"op":"`...)
	if c.op == opProbs {
		b = append(b, "probs"...)
	} else {
		b = append(b, "select"...)
	}
	b = append(b, `","kind":"`...)
	if s.Kind() == core.Min {
		b = append(b, "min"...)
	} else {
		b = append(b, "max"...)
	}
	b = append(b, `","depth":`...)
	b = strconv.AppendInt(b, int64(s.Depth()), 10)
	b = append(b, `,"t":`...)
	b = strconv.AppendInt(b, s.T(), 10)
	if caps.Seed {
		b = append(b, `,"seed":`...)
		b = strconv.AppendUint(b, c.seed, 10)
	}
	pn := s.ParentN()
	pm, _ := s.ParentMean()
	b = append(b, `,"parent_n":`...)
	b = appendNum(b, pn)
	b = append(b, `,"parent_w":`...)
	b = appendNum(b, pm*pn)
	b = append(b, `,"parent_v":`...)
	b = strconv.AppendInt(b, s.ParentVisits(), 10)
	b = append(b, `,"ln":`...)
	b = appendNum(b, core.LogParent(s))
	b = append(b, `,"n":[`...)
	for i := range k {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNum(b, s.N(i))
	}
	b = append(b, `],"w":[`...)
	for i := range k {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNum(b, s.W(i))
	}
	b = append(b, `],"v":[`...)
	for i := range k {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, s.Visits(i), 10)
	}
	b = append(b, ']')
	if caps.Priors {
		b = append(b, `,"prior":[`...)
		for i := range k {
			if i > 0 {
				b = append(b, ',')
			}
			if h, ok := s.Prior(i); ok {
				b = appendNum(b, h)
			} else {
				b = append(b, "null"...)
			}
		}
		b = append(b, ']')
	}
	if caps.AMAF {
		b = append(b, `,"amaf_n":[`...)
		for i := range k {
			if i > 0 {
				b = append(b, ',')
			}
			n, _ := s.AMAF(i)
			b = appendNum(b, n)
		}
		b = append(b, `],"amaf_w":[`...)
		for i := range k {
			if i > 0 {
				b = append(b, ',')
			}
			_, w := s.AMAF(i)
			b = appendNum(b, w)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendNum appends a number as JSON: the shortest decimal that parses
// back to the same float64, null for a non-finite one.
func appendNum(b []byte, v float64) []byte {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return append(b, "null"...) // JSON has no such numbers; counts never are
	}
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// The binary form of a site's fixed part, in bytes (docs/protocol.md).
const binarySiteHead = 64

// appendSiteBinary appends the binary form of a site (docs/protocol.md):
// a 64-byte head, then the children's arrays.
func appendSiteBinary(b []byte, s *core.Site, c *execCall, caps Capabilities) []byte {
	le := binary.LittleEndian
	k := s.Len()
	b = le.AppendUint32(b, uint32(k))
	b = le.AppendUint32(b, uint32(s.Depth()))
	kind := byte(0)
	if s.Kind() == core.Min {
		kind = 1
	}
	b = append(b, byte(c.op), kind, 0, 0, 0, 0, 0, 0)
	b = le.AppendUint64(b, uint64(s.T()))
	b = le.AppendUint64(b, c.seed)
	pn := s.ParentN()
	pm, _ := s.ParentMean()
	b = le.AppendUint64(b, math.Float64bits(pn))
	b = le.AppendUint64(b, math.Float64bits(pm*pn))
	b = le.AppendUint64(b, math.Float64bits(float64(s.ParentVisits())))
	b = le.AppendUint64(b, math.Float64bits(core.LogParent(s)))
	for i := range k {
		b = le.AppendUint64(b, math.Float64bits(s.N(i)))
	}
	for i := range k {
		b = le.AppendUint64(b, math.Float64bits(s.W(i)))
	}
	for i := range k {
		b = le.AppendUint64(b, math.Float64bits(float64(s.Visits(i))))
	}
	if caps.Priors {
		for i := range k {
			h, ok := s.Prior(i)
			if !ok {
				h = math.NaN()
			}
			b = le.AppendUint64(b, math.Float64bits(h))
		}
	}
	if caps.AMAF {
		for i := range k {
			n, _ := s.AMAF(i)
			b = le.AppendUint64(b, math.Float64bits(n))
		}
		for i := range k {
			_, w := s.AMAF(i)
			b = le.AppendUint64(b, math.Float64bits(w))
		}
	}
	return b
}

// The longest JSON line read from a program.
const maxLine = 1 << 24

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
	isolate(cmd)
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
// choice and capabilities.
func (p *execProc) handshake(argv []string, timeout time.Duration) (Capabilities, error) {
	name := fmt.Sprintf("the program %q", commandLine(argv))
	deadline := time.Now().Add(timeout)
	hello := fmt.Sprintf(`{"protocol":"mctscheck-rule","versions":[%d]}`+"\n", ProtocolVersion)
	fail := func(doing string, err error) error {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("exec: %s hangs: no handshake after %v", name, timeout)
		}
		return fmt.Errorf("exec: %s %s while %s%s", name, p.exitStatus(), doing, p.stderrTail())
	}
	if err := p.write([]byte(hello), deadline); err != nil {
		return Capabilities{}, fail("reading the handshake", err)
	}
	line, err := p.readLine(deadline)
	if err != nil {
		if errors.Is(err, errLineTooLong) {
			return Capabilities{}, fmt.Errorf("exec: %s answered the handshake with garbage: a line longer than %d bytes", name, maxLine)
		}
		return Capabilities{}, fail("answering the handshake", err)
	}
	var caps Capabilities
	dec := json.NewDecoder(strings.NewReader(string(line)))
	if err := dec.Decode(&caps); err != nil {
		return Capabilities{}, fmt.Errorf("exec: %s answered the handshake with garbage: %q (%v)", name, clip(line), err)
	}
	switch {
	case caps.Version != ProtocolVersion:
		return Capabilities{}, fmt.Errorf("exec: %s speaks protocol version %d; mctscheck speaks version %d (docs/protocol.md)", name, caps.Version, ProtocolVersion)
	case caps.Framing == "":
		caps.Framing = "json"
	case caps.Framing != "json" && caps.Framing != "binary":
		return Capabilities{}, fmt.Errorf("exec: %s asked for framing %q; want \"json\" or \"binary\"", name, caps.Framing)
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

// readLine reads one line (without its newline) before the deadline.
func (p *execProc) readLine(deadline time.Time) ([]byte, error) {
	if err := p.out.SetReadDeadline(deadline); err != nil {
		return nil, err
	}
	var line []byte
	for {
		frag, err := p.rd.ReadSlice('\n')
		if err == nil {
			if line == nil {
				return frag[:len(frag)-1], nil
			}
			return append(line, frag[:len(frag)-1]...), nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
		line = append(line, frag...)
		if len(line) > maxLine {
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
// as ` (its stderr ends: "…")`, or "".
func (p *execProc) stderrTail() string {
	// Give the stderr reader a moment to drain what the program wrote last.
	time.Sleep(10 * time.Millisecond)
	lines := strings.Split(strings.TrimSpace(p.errBuf.String()), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	lines = lines[max(0, len(lines)-3):]
	return fmt.Sprintf(" (its stderr ends: %q)", strings.Join(lines, " | "))
}

// kill kills the program and every process in its group, and reaps it.
func (p *execProc) kill() {
	killGroup(p.cmd)
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

// execEntry is the catalogue entry of external rules: not listed among the
// rules (All, Lookup), but what Parse gives an "exec:" spec.
func execEntry() *Entry {
	return &Entry{
		Name:    "exec",
		Summary: "an external program that chooses children over the protocol of docs/protocol.md",
		Predicted: Prediction{Consistent: true,
			Source: "the claim of the program's author",
			Why:    "an external rule has no prediction from the papers: consistency is the claim checked, and a witness against it is a finding"},
	}
}

// parseExec makes the instance of an "exec:" spec: the rest of the spec is
// the command line (ExecCommand), run with the default ExecOptions.
func parseExec(line string) (*Instance, error) {
	line = strings.TrimSpace(line)
	x, err := ExecCommand(line, ExecOptions{})
	if err != nil {
		return nil, err
	}
	return &Instance{Entry: execEntry(), Spec: "exec:" + line, Args: map[string]float64{}, Rule: x,
		Predicted: execEntry().Predicted}, nil
}

// Close releases what the instance holds: it stops the program of an
// external rule (ExecRule.Close), and does nothing for other rules.
func (in *Instance) Close() error {
	for ; in != nil; in = in.Inner {
		if x, ok := in.Rule.(*ExecRule); ok {
			return x.Close()
		}
	}
	return nil
}

// SelectAll sends the sites in one batch, as if as many goroutines had
// called Select at once, and sets out[i] to the choice at sites[i], or -1
// where the program faulted; it returns the first fault (an error, not a
// panic). It is the batch form of Select for callers that hold many sites
// at once, such as a driver that runs searches in lockstep; out must be
// as long as sites.
func (x *ExecRule) SelectAll(sites []*core.Site, out []int) error {
	x.start()
	calls := make([]*execCall, len(sites))
	for i, s := range sites {
		calls[i] = x.prepare(s, opSelect)
	}
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		return errors.New("exec: the rule is closed")
	}
	x.queue = append(x.queue, calls...)
	x.mu.Unlock()
	select {
	case x.wake <- struct{}{}:
	default:
	}
	var err error
	for i, c := range calls {
		<-c.done
		out[i] = c.choice
		if c.fault != "" && err == nil {
			err = errors.New(c.fault)
		}
		execCalls.Put(c)
	}
	return err
}
