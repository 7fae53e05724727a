package searchexec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mctscheck/mctscheck/internal/proc"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// ProtocolVersion is the version of the search protocol that Program
// speaks (docs/protocol.md).
const ProtocolVersion = 1

// Options configure a Program. The zero value means the defaults, listed
// with each field.
type Options struct {
	// Timeout and PerSim bound the wait for one checkpoint's answer:
	// Timeout plus PerSim for each simulation since the last checkpoint
	// (the first: since the request). A program that takes longer hangs:
	// it is killed, and the search faults. 0 means 10 s and 1 ms.
	Timeout, PerSim time.Duration
	// StartTimeout bounds the start and the handshake; 0 means 30 s.
	StartTimeout time.Duration
	// Dir is the program's working directory; empty means the caller's.
	Dir string
	// Env is added to the caller's environment for the program.
	Env []string
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.PerSim <= 0 {
		o.PerSim = time.Millisecond
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 30 * time.Second
	}
	return o
}

// Capabilities are what a program declares in its handshake.
type Capabilities struct {
	// Version is the protocol version the program speaks.
	Version int `json:"version"`
	// Nodes says that its answers carry every node's visits and means.
	Nodes bool `json:"nodes"`
	// Name names the program in messages; optional.
	Name string `json:"name"`
	// Chance, Rewards and Alternating say which trees the program handles
	// (props.Handles); a check sends it no other. Chance false: no chance
	// nodes (absent: true). Rewards "binary": rewards in {0, 1} only
	// (absent, or "any": any reward in [0,1]). Alternating true: the
	// players alternate, none moving twice in a row (absent: false).
	Chance      *bool  `json:"chance"`
	Rewards     string `json:"rewards"`
	Alternating bool   `json:"alternating"`
}

// Handles returns the trees the capabilities declare the program handles.
func (c Capabilities) Handles() props.Handles {
	return props.Handles{NoChance: c.Chance != nil && !*c.Chance, BinaryRewards: c.Rewards == "binary", Alternating: c.Alternating}
}

// Program is a whole search run by an external program that speaks the
// search protocol of docs/protocol.md: a props.Searcher. Each Search
// takes an idle process, or starts one, and hands it back when the search
// ends well; a process that faulted is killed. Close stops them all.
type Program struct {
	argv []string
	opts Options

	mu       sync.Mutex
	declared *Capabilities // the first process's handshake, which every other must repeat
	idle     []*process
	live     map[*process]bool // every process not yet stopped
	pids     []int
	searches int64
	closed   bool
}

// process is one running program, between searches or in one.
type process struct {
	pipe *proc.Pipe
	caps Capabilities
	last *served // the search it served last; nil before the first
}

// served is a search that a process served: what output that follows its
// answers is blamed on.
type served struct {
	tree       *props.SearchTree
	seed       uint64
	checkpoint int64 // the last
}

// New returns the search run by the program name with args (not through
// a shell). The program must be found (exec.LookPath); it starts on the
// first search.
func (o Options) New(name string, args ...string) (*Program, error) {
	if name == "" {
		return nil, errors.New("searchexec: no program")
	}
	if err := proc.Find(name); err != nil {
		return nil, fmt.Errorf("searchexec: program %q: %w", name, err)
	}
	return &Program{argv: append([]string{name}, args...), opts: o.withDefaults(), live: map[*process]bool{}}, nil
}

// Command is New with a command line, split into words as a shell would
// split it without expanding anything (rules.SplitCommand).
func Command(line string, o Options) (*Program, error) {
	argv, err := rules.SplitCommand(line)
	if err != nil {
		return nil, fmt.Errorf("searchexec: %w", err)
	}
	return o.New(argv[0], argv[1:]...)
}

// Pids returns the process ids of every process started so far.
func (p *Program) Pids() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]int(nil), p.pids...)
}

// Searches returns the searches answered so far.
func (p *Program) Searches() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.searches
}

// Capabilities starts a process if none has started and returns what it
// declared in its handshake.
func (p *Program) Capabilities() (Capabilities, error) {
	pr, err := p.get()
	if err != nil {
		return Capabilities{}, err
	}
	p.put(pr)
	return pr.caps, nil
}

// Handles implements props.RestrictedSearcher: it starts a process if none
// has started and returns the trees its handshake declares it handles.
func (p *Program) Handles() (props.Handles, error) {
	caps, err := p.Capabilities()
	return caps.Handles(), err
}

// Close stops every process: an idle one's input is closed, it gets half a
// second to exit, and its output is read to the end; one in a search is
// killed; each is reaped, with every process in its group and every
// process it started (internal/proc). A Search after Close fails. Close is
// safe to call more than once. It returns the fault of a program that
// wrote output after its last search's answers (as LateFault finds it), or
// nil.
func (p *Program) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	if f, _, _ := p.stopAll(); f != nil {
		return f
	}
	return nil
}

// LateFault implements props.LateFaulter: it stops every idle process,
// reading its output to the end, and returns the fault of the first that
// wrote anything after its last search's answers, with that search's tree
// and seed; nil if none did. A process in a search is killed. Later
// searches start processes anew.
func (p *Program) LateFault() (*props.Fault, *props.SearchTree, uint64) {
	return p.stopAll()
}

// stopAll stops every process, as Close and LateFault do.
func (p *Program) stopAll() (*props.Fault, *props.SearchTree, uint64) {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	var all []*process
	for pr := range p.live {
		all = append(all, pr)
	}
	clear(p.live)
	p.mu.Unlock()
	faults := make([]*props.Fault, len(all))
	var wg sync.WaitGroup
	for i, pr := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !isIn(idle, pr) {
				pr.pipe.Kill()
				return
			}
			if rest := pr.pipe.StopReading(80); rest != "" && pr.last != nil {
				faults[i] = p.fault(pr, props.FaultGarbage, "%s wrote output after its answer to the last checkpoint, %d (%q): write logs to standard error",
					p.name(pr.caps), pr.last.checkpoint, rest)
			}
		}()
	}
	wg.Wait()
	for i, f := range faults {
		if f != nil {
			return f, all[i].last.tree, all[i].last.seed
		}
	}
	return nil, nil, 0
}

func isIn(list []*process, pr *process) bool {
	for _, q := range list {
		if q == pr {
			return true
		}
	}
	return false
}

// name names the program in messages.
func (p *Program) name(caps Capabilities) string {
	if caps.Name != "" {
		return fmt.Sprintf("the program %q", caps.Name)
	}
	words := make([]string, len(p.argv))
	for i, a := range p.argv {
		words[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\") {
			words[i] = props.ShellQuote(a)
		}
	}
	return fmt.Sprintf("the program %q", strings.Join(words, " "))
}

// get returns an idle process, or starts one.
func (p *Program) get() (*process, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("searchexec: the program is closed")
	}
	if n := len(p.idle); n > 0 {
		pr := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return pr, nil
	}
	p.mu.Unlock()
	return p.start()
}

// put hands a process back after a search that ended well.
func (p *Program) put(pr *process) {
	p.mu.Lock()
	if p.closed || !p.live[pr] {
		p.mu.Unlock()
		pr.pipe.Stop()
		return
	}
	p.idle = append(p.idle, pr)
	p.mu.Unlock()
}

// discard kills a process that faulted or was interrupted, and reaps it.
func (p *Program) discard(pr *process) {
	p.mu.Lock()
	delete(p.live, pr)
	p.mu.Unlock()
	pr.pipe.Kill()
}

// The longest lines read from a program: its handshake, and a checkpoint's
// answer, which may hold every node's statistics.
const (
	handshakeBytes = 1 << 16
	maxLine        = 1 << 24
)

// start starts a process and runs the handshake. A failed start is a
// fault: the program crashed, hung or does not speak the protocol.
func (p *Program) start() (*process, error) {
	pipe, err := proc.Start(p.argv, p.opts.Dir, p.opts.Env, nil)
	if err != nil {
		return nil, &props.Fault{Kind: props.FaultCrash, Message: fmt.Sprintf("searchexec: %s does not start: %v", p.name(Capabilities{}), err)}
	}
	pr := &process{pipe: pipe}
	p.mu.Lock()
	p.pids = append(p.pids, pipe.Pid())
	closed := p.closed
	if !closed {
		p.live[pr] = true
	}
	p.mu.Unlock()
	if closed {
		pipe.Kill()
		return nil, errors.New("searchexec: the program is closed")
	}
	if err := p.handshake(pr); err != nil {
		p.discard(pr)
		return nil, err
	}
	return pr, nil
}

// handshake offers the versions mctscheck speaks and reads the program's
// choice and capabilities.
func (p *Program) handshake(pr *process) error {
	deadline := time.Now().Add(p.opts.StartTimeout)
	hello := fmt.Sprintf(`{"protocol":"mctscheck-search","versions":[%d]}`+"\n", ProtocolVersion)
	name := p.name(Capabilities{})
	if err := pr.pipe.Write([]byte(hello), deadline); err != nil {
		return p.ioFault(pr, name, "reading the hello", err, p.opts.StartTimeout)
	}
	line, err := pr.pipe.ReadLine(deadline, handshakeBytes)
	if err != nil {
		return p.ioFault(pr, name, "answering the hello", err, p.opts.StartTimeout)
	}
	caps, err := parseHandshake(line)
	if err != nil {
		return p.fault(pr, props.FaultProtocol, "%s answered the hello with %q: %v", name, clip(line), err)
	}
	p.mu.Lock()
	if p.declared == nil {
		p.declared = &caps
	}
	first := *p.declared
	p.mu.Unlock()
	if !caps.same(first) {
		return p.fault(pr, props.FaultProtocol, "%s answered the hello with %q, another handshake than its first process's: it must declare the same every time", name, clip(line))
	}
	pr.caps = caps
	return nil
}

// same reports whether c and d declare the same.
func (c Capabilities) same(d Capabilities) bool {
	return c.Version == d.Version && c.Nodes == d.Nodes && c.Name == d.Name && c.Handles() == d.Handles()
}

// fault returns a fault of the process, with the end of its stderr.
func (p *Program) fault(pr *process, kind props.FaultKind, format string, args ...any) *props.Fault {
	f := &props.Fault{Kind: kind, Message: "searchexec: " + fmt.Sprintf(format, args...)}
	p.addStderr(pr, f)
	return f
}

// addStderr adds the end of the process's stderr to f.
func (p *Program) addStderr(pr *process, f *props.Fault) {
	if f.Stderr = pr.pipe.StderrTail(); f.Stderr != "" {
		f.Message += fmt.Sprintf(" (its stderr ends: %q)", f.Stderr)
	}
}

// ioFault describes a failed read or write: a timeout is a hang, a long
// line garbage, anything else an exit (with the exit status).
func (p *Program) ioFault(pr *process, name, doing string, err error, after time.Duration) *props.Fault {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return p.fault(pr, props.FaultHang, "%s hangs: no answer after %v (%s)", name, after.Round(time.Millisecond), doing)
	case errors.Is(err, proc.ErrLineTooLong):
		return p.fault(pr, props.FaultGarbage, "%s answered garbage: a line longer than %d bytes", name, maxLine)
	}
	return p.fault(pr, props.FaultCrash, "%s %s while %s", name, pr.pipe.ExitStatus(), doing)
}

// Search implements props.Searcher: it sends the request to an idle
// process (or a new one) and hands each checkpoint's answer to report.
func (p *Program) Search(ctx context.Context, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	pr, err := p.get()
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, pr.pipe.Kill)
	err = p.search(pr, t, seed, checkpoints, report)
	if !stop() { // the context ended: the process is killed
		p.discard(pr)
		if e := ctx.Err(); e != nil {
			return e
		}
		return err
	}
	if err != nil {
		p.discard(pr)
		return err
	}
	p.mu.Lock()
	p.searches++
	p.mu.Unlock()
	p.put(pr)
	return nil
}

// search runs one search on pr: the request, then an answer per
// checkpoint within its timeout.
func (p *Program) search(pr *process, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
	name := p.name(pr.caps)
	req := appendRequest(nil, t.Text, seed, checkpoints)
	last := int64(0)
	for i, c := range checkpoints {
		wait := p.opts.Timeout + time.Duration(c-last)*p.opts.PerSim
		deadline := time.Now().Add(wait)
		last = c
		if i == 0 {
			if stray := pr.pipe.Pending(); stray != "" {
				after := ""
				if pr.last != nil {
					after = fmt.Sprintf(", after its answers to the search of %s with seed %d", pr.last.tree.Text, pr.last.seed)
				}
				return p.fault(pr, props.FaultGarbage, "%s wrote output no request asked for (%q)%s: write logs to standard error", name, stray, after)
			}
			if err := pr.pipe.Write(req, deadline); err != nil {
				return p.ioFault(pr, name, "reading the request", err, wait)
			}
		}
		line, err := pr.pipe.ReadLine(deadline, maxLine)
		if err != nil {
			return p.ioFault(pr, name, fmt.Sprintf("searching to checkpoint %d", c), err, wait)
		}
		cp, err := parseCheckpoint(line, pr.caps.Nodes)
		if err != nil {
			return p.fault(pr, props.FaultGarbage, "%s answered garbage at checkpoint %d: %q (%v)", name, c, clip(line), err)
		}
		if err := report(cp); err != nil {
			var f *props.Fault
			if errors.As(err, &f) {
				f.Message = "searchexec: " + name + ": " + f.Message
				p.addStderr(pr, f)
			}
			return err
		}
	}
	if rest := pr.pipe.Pending(); rest != "" { // what came with its last answer; what comes later, LateFault reads
		return p.fault(pr, props.FaultGarbage, "%s wrote more than its answers: %q follows its answer to the last checkpoint, %d: write logs to standard error", name, rest, last)
	}
	pr.last = &served{tree: t, seed: seed, checkpoint: last}
	return nil
}

// clip shortens garbage for a message.
func clip(b []byte) string {
	const most = 120
	if len(b) > most {
		return string(b[:most]) + "…"
	}
	return string(b)
}
