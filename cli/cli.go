package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/mctscheck/mctscheck/internal/suggest"
	"github.com/mctscheck/mctscheck/rules"
)

// Exit codes (see the package doc).
const (
	exitOK          = 0   // no prediction contradicted
	exitFinding     = 1   // a finding: a prediction contradicted, a broken rule
	exitUsage       = 2   // bad flags, rule specs, trees or files
	exitInternal    = 3   // an error of the tool itself, or of the machine
	exitFault       = 4   // a fault of the rule or program checked: not a finding
	exitInterrupted = 130 // Ctrl-C, as a shell reports SIGINT
)

// env is what a command reads and writes.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// tool is the command being run, with the user's rules.
	tool *Tool
	// deadline is the -deadline ctx ends at, from the start; 0 for none.
	deadline time.Duration
}

// command is one subcommand of the tool.
type command struct {
	name    string
	summary string
	run     func(e *env, args []string) error
	// interactive commands answer each line of input at once, so their
	// output is not buffered.
	interactive bool
}

// commands lists the subcommands in the order of the help text.
func commands() []command {
	return []command{
		{name: "run", summary: "check every rule of the catalogue and write a report (the default)", run: cmdRun},
		{name: "rules", summary: "list the catalogue: parameters, defaults, predictions", run: cmdRules},
		{name: "check", summary: "check one rule, or a whole search in any language (-search), for consistency", run: cmdCheck},
		{name: "presets", summary: "check the presets of real engines' selection rules (run -presets)", run: cmdPresets},
		{name: "search", summary: "run one search on a tree and show the root's statistics", run: cmdSearch},
		{name: "solve", summary: "solve a tree exactly: the value of each root child, the optimal set", run: cmdSolve},
		{name: "match", summary: "play rule A against rule B on Go or Connect Four: A's win rate with its interval", run: cmdMatch},
		{name: "gtp", summary: "play Go as a GTP engine on stdin and stdout", run: cmdGTP, interactive: true},
		{name: "engine", summary: "check a real Go engine over GTP against exactly solved positions", run: cmdEngine},
		{name: "merge", summary: "join the reports of the shards of a check or run (-shard K/N) into its report", run: cmdMerge},
		{name: "version", summary: "print the module's version and the commit it was built from", run: cmdVersion},
	}
}

// renamedCommands maps the former names of commands to their names, so
// that a former name gets an error that names the new one: not an alias,
// which would keep two names for one thing.
var renamedCommands = map[string]string{"engines": "presets"}

// errFinding ends a command with exit code 1; the command has printed the
// finding already.
var errFinding = errors.New("finding")

// errFault ends a command with exit code 4: the rule, program or engine
// checked broke its contract; the command has printed the fault already.
var errFault = errors.New("fault")

// errHelp ends a command with exit code 0 after its usage was printed.
var errHelp = errors.New("help")

// usageError is a bad flag, argument, rule spec or tree: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a usageError.
func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// Run runs the command line args with the tool's rules and returns the
// exit code. Nil streams are taken as os/exec takes them: a nil stdin
// reads nothing, a nil stdout or stderr discards what is written.
func (t Tool) Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	for _, en := range t.Rules {
		if err := rules.Register(en); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", t.name(), err)
			return exitInternal
		}
	}
	if _, err := progressEvery(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", t.name(), err)
		return exitUsage
	}
	base := t.ctx
	if base == nil {
		base = context.Background()
	}
	ctx, stop := signal.NotifyContext(base, os.Interrupt)
	defer stop()
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, tool: &t}

	name, rest := "run", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, rest = args[0], args[1:]
	}
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		name, rest = "help", nil
	}
	var c *command
	for _, cmd := range commands() {
		if cmd.name == name {
			c = &cmd
		}
	}
	if c == nil && renamedCommands[name] != "" {
		fmt.Fprintf(stderr, "%s: unknown command %q: it is now %s (see %s -h)\n", t.name(), name, renamedCommands[name], t.name())
		return exitUsage
	}
	if c == nil && name != "help" {
		fmt.Fprintf(stderr, "%s: unknown command %q%s (commands: %s; see %s -h)\n", t.name(), name,
			suggest.DidYouMean(name, commandList()), commandNames(), t.name())
		return exitUsage
	}

	// The output is buffered (but for interactive commands), and its first
	// write error is the exit code.
	out := &stickyWriter{w: stdout}
	e.stdout = out
	var buf *bufio.Writer
	if c == nil || !c.interactive {
		buf = bufio.NewWriterSize(out, 64<<10)
		e.stdout = buf
	}
	code, err := exitOK, error(nil)
	if c == nil {
		code = help(e, rest)
	} else {
		err = c.run(e, rest)
	}
	if buf != nil {
		buf.Flush() // before the message on stderr, which follows the output
	}
	if c != nil {
		code = t.exitCode(ctx, name, err, stderr)
	}
	if out.err != nil {
		fmt.Fprintf(stderr, "%s: %s: writing the output: %v\n", t.name(), name, out.err)
		return exitInternal
	}
	return code
}

// exitCode is the exit code of command name that returned err, whose
// message it prints on stderr.
func (t *Tool) exitCode(ctx context.Context, name string, err error, stderr io.Writer) int {
	if stop, ok := errors.AsType[*deadlineStop](err); ok {
		fmt.Fprintf(stderr, "%s: %s: %v\n", t.name(), name, err)
		return t.exitCode(ctx, name, stop.found, stderr)
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errHelp):
		return exitOK
	case errors.Is(err, errFinding):
		return exitFinding
	case errors.Is(err, errFault):
		return exitFault
	case errors.As(err, new(*interruption)):
		fmt.Fprintf(stderr, "%s: %s: %v\n", t.name(), name, err)
		return exitInterrupted
	case errors.As(err, new(*faultError)):
		fmt.Fprintf(stderr, "%s: %s: %v\n", t.name(), name, err)
		return exitFault
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		fmt.Fprintf(stderr, "%s: %s: interrupted; nothing written\n", t.name(), name)
		return exitInterrupted
	}
	fmt.Fprintf(stderr, "%s: %s: %v\n", t.name(), name, oneLine(t.speak(err.Error())))
	if _, ok := errors.AsType[*usageError](err); ok {
		return exitUsage
	}
	return exitInternal
}

// stickyWriter is the command's standard output: it keeps the first write
// error, so that output lost to a full disk or a closed file is an exit
// code (3) rather than a silent success.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	s.err = err
	return n, err
}

// plural writes n things, e.g. "1 seed", "4 seeds".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func commandNames() string { return strings.Join(commandList(), ", ") }

// commandList lists the commands' names, help last.
func commandList() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return append(names, "help")
}

// mainIntro is the first paragraph of the main usage: what mctscheck is,
// or, for a command with rules of its own, what that command is.
const mainIntro = `mctscheck checks whether a Monte-Carlo tree search selection rule is
consistent: whether, with enough simulations, its root decision converges to a
minimax-optimal move (Berthier, Doghmen and Teytaud, 2010).
`

const ownIntro = `%s checks whether your Monte-Carlo tree search selection rules are
consistent: whether, with enough simulations, the root decision converges to a
minimax-optimal move, and compares each verdict with your rule's Predicted.
It is built with package cli of the module github.com/mctscheck/mctscheck,
whose catalogue of rules it can check too ('%s run -rules "*"').
`

const mainUsage = `
Usage:

  mctscheck [run] [flags]                     check every rule of the catalogue (the default)
  mctscheck rules [NAME...]                   list the catalogue
  mctscheck check -rule SPEC [flags]          check one rule
  mctscheck check -search exec:CMD [flags]    check a whole search, a program in any language
  mctscheck presets [flags]                   check the presets of real engines' rules
  mctscheck search -rule SPEC -tree TREE      run one search
  mctscheck solve -tree TREE                  solve a tree exactly
  mctscheck match -a SPEC -b SPEC [flags]     play rule A against rule B
  mctscheck gtp -rule SPEC [-budget N]        play Go over GTP
  mctscheck engine -gtp CMD -positions FILE   check a real Go engine over GTP
  mctscheck merge REPORT.json...              join the shards of a check or run
  mctscheck version                           the module's version and commit
  mctscheck help [COMMAND]                    this text, or a command's

Commands:

%s
Every command but gtp takes -json (one JSON document on stdout); all take -h.
A TREE is a tree in the text format, as in '(max (min 1 0) 0.5)', or @FILE
to read it from a file (@- reads standard input). A SPEC is a rule name from
'mctscheck rules' with optional parameters, as in uct:c=0.7.

Exit codes:

  0    success: for run and check, no prediction contradicted
  1    a finding: for run and check, a prediction contradicted (a witness
       for a rule predicted consistent, or every tree converged for one
       predicted inconsistent); for check -search, a search stuck
  2    bad input: a flag, rule spec, tree, position or file
  3    an error of the tool or of the machine, such as a full disk
  4    a fault: a rule (or the program behind an exec: rule or search)
       broke its contract: it panicked, answered NaN or a child out
       of range, crashed, hung, wrote stray output, or declared
       probabilities or scores its own choices contradict. A fault is not
       a finding about consistency: fix the rule or its wiring, then check
       again
  130  interrupted by Ctrl-C

Run 'mctscheck COMMAND -h' for a command's flags and examples.
`

// help prints the main usage or a command's.
func help(e *env, args []string) int {
	if len(args) == 0 {
		var b strings.Builder
		for _, c := range commands() {
			fmt.Fprintf(&b, "  %-8s %s\n", c.name, c.summary)
		}
		intro := mainIntro
		if len(e.tool.Rules) > 0 {
			intro = fmt.Sprintf(ownIntro, e.tool.name(), e.tool.name())
		}
		io.WriteString(e.stdout, intro+e.tool.speak(fmt.Sprintf(mainUsage, b.String())))
		return exitOK
	}
	return e.tool.Run([]string{args[0], "-h"}, e.stdin, e.stdout, e.stderr)
}
