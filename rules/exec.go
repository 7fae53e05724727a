package rules

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/internal/proc"
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
	// Stderr, if set, receives everything the program writes on its
	// standard error, as it writes it (mctscheck check's -rule-stderr);
	// otherwise only the end of it is kept, for the messages of faults.
	Stderr io.Writer
}

// check says what is wrong with o's fields, or returns nil.
func (o ExecOptions) check() error {
	switch {
	case o.Timeout < 0:
		return fmt.Errorf("rules: exec: Timeout %v, want a positive duration (0: the default)", o.Timeout)
	case o.StartTimeout < 0:
		return fmt.Errorf("rules: exec: StartTimeout %v, want a positive duration (0: the default)", o.StartTimeout)
	}
	return nil
}

func (o ExecOptions) withDefaults() ExecOptions {
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	if o.StartTimeout == 0 {
		o.StartTimeout = 30 * time.Second
	}
	switch {
	case o.MaxRestarts == 0:
		o.MaxRestarts = 100 // each restart is a fault the check reports; the budget serves the replays of a witness
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
	// SeedString asks for the JSON framing's seeds as decimal strings, for
	// a language whose JSON parser reads numbers as doubles (JavaScript),
	// which cannot hold every 64-bit seed.
	SeedString bool `json:"seed_string"`
	// Probs says the program answers "probs" sites with the probability of
	// each child (core.Stochastic).
	Probs bool `json:"probs"`
	// Priors and AMAF ask for the children's priors and AMAF statistics
	// (core.Needs).
	Priors bool `json:"priors"`
	AMAF   bool `json:"amaf"`
	// Squares asks for each child's and the node's sum of squared rewards
	// and sample variance (core.Needs.Squares, Site.Squares and
	// Site.Variance), as UCB1-Tuned and UCB-V read them.
	Squares bool `json:"squares"`
	// Name names the program in messages; optional.
	Name string `json:"name"`
}

// ExecRule is a selection rule computed by an external program that speaks
// the protocol of docs/protocol.md over its standard input and output.
// Select calls that arrive at once from several goroutines travel to the
// program in one batch per round trip. The program is started on first use
// and restarted after a fault; Close stops it. Every fault of the program
// (it crashes, exits, hangs, answers garbage, writes stray output, answers
// a child out of range or probabilities that are no distribution) makes
// every Select whose site was in flight panic with an *ExecFault, which a
// search reports as a core.RuleError and the checker as a fault of the rule
// (props.Faulted), and is counted (FaultCount), so that a check learns of
// every restart.
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
	lastK    string // the kind of the last failure
	pids     []int  // every process started, for tests
	out      []byte // the batch being written
	in       []byte // binary answers being read
	batches  int64  // guarded by mu
	sites    int64  // guarded by mu
	faults   int64  // guarded by mu: failed round trips, and bad answers
	last     error  // guarded by mu: the last of them
}

// ExecFault is the panic value of a Select whose site the program did not
// answer well: Kind classes the fault as props.FaultKind does ("crash",
// "hang", "garbage", "protocol", "range", "lie"), Msg says what happened,
// Tail is the end of the program's standard error, and Site is the site as
// sent, in the protocol's JSON form, so that the program can be run on it
// again. A fault of a whole round trip (a crash, a hang, garbage) lands on
// every site in flight; its Msg says how many there were.
type ExecFault struct {
	Kind string
	Msg  string
	Tail string
	Site string
}

func (f *ExecFault) Error() string {
	msg := f.Msg
	if f.Tail != "" {
		msg += fmt.Sprintf(" (its stderr ends: %q)", f.Tail)
	}
	return msg + "; the site sent (JSON form): " + f.Site
}

// FaultKind implements props.Kinded.
func (f *ExecFault) FaultKind() string { return f.Kind }

// Stderr implements props.Kinded: the end of the program's stderr.
func (f *ExecFault) Stderr() string { return f.Tail }

// execError is what went wrong with a round trip or one answer: a
// props.FaultKind's string, the message, and the end of the program's
// stderr.
type execError struct {
	kind, msg, tail string
	// refused: the program was not started again after its failures, so
	// this is no new failure of it.
	refused bool
}

func (e *execError) Error() string {
	if e.tail != "" {
		return fmt.Sprintf("%s (its stderr ends: %q)", e.msg, e.tail)
	}
	return e.msg
}

// FaultKind implements props.Kinded, for FaultCount's last error.
func (e *execError) FaultKind() string { return e.kind }

// Stderr implements props.Kinded.
func (e *execError) Stderr() string { return e.tail }

// faultf returns an execError of kind.
func faultf(kind, format string, args ...any) *execError {
	return &execError{kind: kind, msg: fmt.Sprintf(format, args...)}
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
	if err := o.check(); err != nil {
		return nil, err
	}
	if err := proc.Find(name); err != nil {
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
	argv, err := SplitCommand(line)
	if err != nil {
		return nil, fmt.Errorf("rules: exec: %w", err)
	}
	return o.New(argv[0], argv[1:]...)
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
	return core.Needs{Priors: x.caps.Priors, AMAF: x.caps.AMAF, Squares: x.caps.Squares}
}

// Select implements core.Rule: it sends s to the program, in a batch with
// the sites of the other goroutines' calls, and returns its answer. It
// panics with an *ExecFault if the program does not answer well.
func (x *ExecRule) Select(s *core.Site) int {
	c := x.call(s, opSelect)
	defer execCalls.Put(c)
	if c.fault != nil {
		panic(x.faultAt(s, c))
	}
	return c.choice
}

// faultAt is the *ExecFault of call c at site s.
func (x *ExecRule) faultAt(s *core.Site, c *execCall) *ExecFault {
	return &ExecFault{Kind: c.fault.kind, Msg: c.fault.msg, Tail: c.fault.tail, Site: string(appendSiteJSON(nil, s, c, x.caps))}
}

// Probs implements core.Stochastic for a program that declares "probs":
// the probability of each child, as the program gives it; nil for a
// program that does not declare "probs". It panics with an *ExecFault
// (Kind "range") when the answer is no distribution over the children
// (core.ProbsError), as Select does on a fault of the program: a program
// that declares probabilities must give them.
func (x *ExecRule) Probs(s *core.Site, dst []float64) []float64 {
	x.start()
	if !x.caps.Probs {
		return nil
	}
	c := x.call(s, opProbs)
	defer execCalls.Put(c)
	if c.fault == nil {
		if err := core.ProbsError(c.probs, s.Len()); err != nil {
			c.fault = faultf("range", "exec: %s answered a probs site with no distribution: %s", x.name(), err)
			x.count(c.fault)
		}
	}
	if c.fault != nil {
		panic(x.faultAt(s, c))
	}
	return append(dst[:0], c.probs...)
}

// FaultCount implements props.FaultCounter: the program's failures so far
// (round trips that failed, answers that were no answer) and the last one.
func (x *ExecRule) FaultCount() (int64, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.faults, x.last
}

// count records a fault.
func (x *ExecRule) count(e *execError) {
	x.mu.Lock()
	x.faults++
	x.last = e
	x.mu.Unlock()
}

// Close stops the program: it closes the program's standard input, waits
// briefly for it to exit, then kills it (and any process it started) and
// reaps it. A round trip in progress is cut short at once (its sites
// fault, saying that the rule is closed), even if a process the program
// started still holds its output. Select after Close faults. Close is safe
// to call more than once, and from any goroutine.
func (x *ExecRule) Close() error {
	x.mu.Lock()
	x.closed = true
	p := x.proc
	x.mu.Unlock()
	if !x.begun.Load() {
		return nil // never started; a start that races with Close stops at once
	}
	if p != nil {
		p.interrupt()
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
	fault  *execError
	done   chan struct{}
}

var execCalls = sync.Pool{New: func() any { return &execCall{done: make(chan struct{}, 1)} }}

// closedFault is the fault of a call made after Close.
var closedFault = &execError{kind: "crash", msg: "exec: the rule is closed"}

// prepare returns a call for s, encoded in the program's framing, with a
// seed drawn from s.Rand() for a select site of a program that asked for
// seeds.
func (x *ExecRule) prepare(s *core.Site, op int) *execCall {
	c := execCalls.Get().(*execCall)
	c.op, c.k, c.choice, c.fault, c.probs = op, s.Len(), -1, nil, c.probs[:0]
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
		c.fault = closedFault
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
			x.serve(batch, closed)
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
		c.fault = closedFault
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

// serve answers one batch in one round trip. A failure of the round trip
// (a crash, a hang, garbage, stray output) is a fault of every site in
// flight, counted once: no site is answered by a program that failed.
// After Close, the batch faults without a round trip.
func (x *ExecRule) serve(batch []*execCall, closed bool) {
	if closed {
		for _, c := range batch {
			c.fault = closedFault
		}
		return
	}
	err := x.roundTrip(batch)
	if err == nil {
		for _, c := range batch {
			if c.fault != nil {
				x.count(c.fault)
			}
		}
		return
	}
	x.mu.Lock()
	closed = x.closed
	x.mu.Unlock()
	if closed {
		err = closedFault // cut short by Close: not the program's fault
	} else if !err.refused {
		x.count(err)
	}
	for _, c := range batch {
		c.fault = err
	}
}

// roundTrip sends a batch and reads its answers, restarting the program
// first if it is not running. An error is a fault of the whole round trip,
// after which the program has been killed; a fault of one answer is set on
// its call.
func (x *ExecRule) roundTrip(batch []*execCall) *execError {
	if x.startErr != nil {
		return asExecError(x.startErr)
	}
	x.mu.Lock()
	p := x.proc
	x.mu.Unlock()
	if p == nil {
		if x.restarts >= x.opts.MaxRestarts || x.hangs > MaxHangs {
			e := faultf(x.lastKind(), "exec: %s failed %d times and is not started again; the last time: %s", x.name(), x.restarts+1, x.lastErr)
			e.refused = true
			return e
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
			err = faultf("protocol", "exec: %s declared other capabilities when started again: %+v, first %+v", x.name(), caps, x.caps)
		}
		if err != nil {
			x.lastErr = err.Error()
			return asExecError(err)
		}
		x.mu.Lock()
		if x.closed {
			x.mu.Unlock()
			np.kill()
			return closedFault
		}
		x.proc = np
		x.mu.Unlock()
		p = np
	}
	err := x.exchange(p, batch)
	if err != nil {
		if len(batch) > 1 { // a failure of the handshake, above, is no batch's
			err.msg += fmt.Sprintf(", while answering a batch of %d sites", len(batch))
		}
		if err.kind == "hang" {
			x.hangs++
		}
		p.kill()
		x.mu.Lock()
		x.proc = nil
		x.mu.Unlock()
		x.lastErr, x.lastK = err.Error(), err.kind
	}
	return err
}

// lastKind is the kind of the last failure, "crash" if none is known.
func (x *ExecRule) lastKind() string {
	if x.lastK == "" {
		return "crash"
	}
	return x.lastK
}

// asExecError returns err as an *execError: a start's errors are.
func asExecError(err error) *execError {
	if e, ok := err.(*execError); ok {
		return e
	}
	return &execError{kind: "crash", msg: err.Error()}
}

func (x *ExecRule) name() string {
	if x.caps.Name != "" {
		return fmt.Sprintf("the program %q", x.caps.Name)
	}
	return fmt.Sprintf("the program %q", commandLine(x.argv))
}

// exchange writes the batch and reads the answers within the timeout. It
// refuses to write while the program has output that no batch asked for
// (stray output, which would shift every later answer by one).
func (x *ExecRule) exchange(p *execProc, batch []*execCall) *execError {
	deadline := time.Now().Add(x.opts.Timeout)
	if stray := p.pending(); stray != "" {
		return faultf("garbage", "exec: %s wrote output no batch asked for (%q): write logs to standard error", x.name(), stray)
	}
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
	var err *execError
	if x.caps.Framing == "binary" {
		err = x.readBinary(p, batch, deadline)
	} else {
		err = x.readJSON(p, batch, deadline)
	}
	if extra := p.Unread(); err == nil && extra != "" {
		err = faultf("garbage", "exec: %s wrote more than its answers (%q follows them): write logs to standard error", x.name(), extra)
	}
	return err
}

// ioFault describes a failed read or write: a timeout is a hang, an end of
// file an exit (with the exit status and the last lines of its stderr).
func (x *ExecRule) ioFault(p *execProc, doing string, err error) *execError {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		e := faultf("hang", "exec: %s %v: no answer after %v (%s)", x.name(), errHang, x.opts.Timeout, doing)
		e.tail = p.stderrTail()
		return e
	}
	e := faultf("crash", "exec: %s %s while %s", x.name(), p.exitStatus(), doing)
	e.tail = p.stderrTail()
	return e
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
		return errors.New(closedFault.msg)
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
		if c.fault != nil && err == nil {
			err = c.fault
		}
		execCalls.Put(c)
	}
	return err
}
