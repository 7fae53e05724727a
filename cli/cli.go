package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/mctscheck/mctscheck/rules"
)

// Exit codes (see the package doc).
const (
	exitOK          = 0   // no prediction contradicted
	exitFinding     = 1   // a finding: a prediction contradicted, a broken rule
	exitUsage       = 2   // bad flags, rule specs, trees or files
	exitInternal    = 3   // an error of the tool itself, or of the machine
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
}

// command is one subcommand of the tool.
type command struct {
	name    string
	summary string
	run     func(e *env, args []string) error
}

// commands lists the subcommands in the order of the help text.
func commands() []command {
	return []command{
		{"run", "check every rule of the catalogue and write a report (the default)", cmdRun},
		{"rules", "list the catalogue: parameters, defaults, predictions", cmdRules},
		{"check", "check one rule for consistency", cmdCheck},
		{"engines", "check the presets of real engines' selection rules (run -engines)", cmdEngines},
		{"search", "run one search on a tree and show the root's statistics", cmdSearch},
		{"solve", "solve a tree exactly: the value of each root child, the optimal set", cmdSolve},
		{"match", "play rule A against rule B on Go or Connect Four: A's win rate with its interval", cmdMatch},
		{"gtp", "play Go as a GTP engine on stdin and stdout", cmdGTP},
		{"engine", "check a real Go engine over GTP against exactly solved positions", cmdEngine},
	}
}

// errFinding ends a command with exit code 1; the command has printed the
// finding already.
var errFinding = errors.New("finding")

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
// exit code.
func (t Tool) Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, en := range t.Rules {
		if err := rules.Register(en); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", t.name(), err)
			return exitInternal
		}
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
	if name == "help" {
		return help(e, rest)
	}
	for _, c := range commands() {
		if c.name != name {
			continue
		}
		err := c.run(e, rest)
		switch {
		case err == nil:
			return exitOK
		case errors.Is(err, errHelp):
			return exitOK
		case errors.Is(err, errFinding):
			return exitFinding
		case errors.As(err, new(*interruption)):
			fmt.Fprintf(stderr, "%s: %s: %v\n", t.name(), name, err)
			return exitInterrupted
		case errors.Is(err, context.Canceled) && ctx.Err() != nil:
			fmt.Fprintf(stderr, "%s: %s: interrupted; nothing written\n", t.name(), name)
			return exitInterrupted
		}
		fmt.Fprintf(stderr, "%s: %s: %v\n", t.name(), name, oneLine(err.Error()))
		if _, ok := errors.AsType[*usageError](err); ok {
			return exitUsage
		}
		return exitInternal
	}
	fmt.Fprintf(stderr, "%s: unknown command %q (commands: %s; see %s -h)\n", t.name(), name, commandNames(), t.name())
	return exitUsage
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func commandNames() string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return strings.Join(append(names, "help"), ", ")
}

const mainUsage = `mctscheck checks whether a Monte-Carlo tree search selection rule is
consistent: whether, with enough simulations, its root decision converges to a
minimax-optimal move (Berthier, Doghmen and Teytaud, 2010).

Usage:

  mctscheck [run] [flags]                     check every rule of the catalogue (the default)
  mctscheck rules [NAME...]                   list the catalogue
  mctscheck check -rule SPEC [flags]          check one rule
  mctscheck search -rule SPEC -tree TREE      run one search
  mctscheck solve -tree TREE                  solve a tree exactly
  mctscheck match -a SPEC -b SPEC [flags]     play rule A against rule B
  mctscheck gtp -rule SPEC [-budget N]        play Go over GTP
  mctscheck help [COMMAND]                    this text, or a command's

Commands:

%s
Every command but gtp takes -json (one JSON document on stdout); all take -h.
A TREE is a tree in the text format, as in '(max (min 1 0) 0.5)', or @FILE
to read it from a file (@- reads standard input). A SPEC is a rule name from
'mctscheck rules' with optional parameters, as in uct:c=0.7.

Exit codes: 0 when every verdict is as expected, 1 when a finding is reported,
2 on usage or input errors.

Run 'mctscheck COMMAND -h' for a command's flags and examples.
`

// help prints the main usage or a command's.
func help(e *env, args []string) int {
	if len(args) == 0 {
		var b strings.Builder
		for _, c := range commands() {
			fmt.Fprintf(&b, "  %-8s %s\n", c.name, c.summary)
		}
		fmt.Fprintf(e.stdout, mainUsage, b.String())
		return exitOK
	}
	return e.tool.Run([]string{args[0], "-h"}, e.stdin, e.stdout, e.stderr)
}
