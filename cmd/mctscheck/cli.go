package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// Exit codes (see the package doc).
const (
	exitOK      = 0 // every verdict as expected
	exitFinding = 1 // a finding: a witness, or a verdict against the papers
	exitUsage   = 2 // bad flags, rule specs, trees or files; other errors
)

// env is what a command reads and writes.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
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
		{"search", "run one search on a tree and show the root's statistics", cmdSearch},
		{"solve", "solve a tree exactly: the value of each root child, the optimal set", cmdSolve},
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

// run runs the command line args and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}

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
		}
		fmt.Fprintf(stderr, "mctscheck: %s: %v\n", name, oneLine(err.Error()))
		return exitUsage
	}
	fmt.Fprintf(stderr, "mctscheck: unknown command %q (commands: %s; see mctscheck -h)\n", name, commandNames())
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
  mctscheck help [COMMAND]                    this text, or a command's

Commands:

%s
Every command takes -json (one JSON document on stdout) and -h.
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
	return run([]string{args[0], "-h"}, e.stdin, e.stdout, e.stderr)
}

// flagSet is a command's flags with the usage text -h prints before them.
type flagSet struct {
	*flag.FlagSet
	usage string
	args  bool // the command takes arguments after its flags
}

// newFlagSet returns a flag set whose errors the caller reports.
func newFlagSet(name, usage string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, usage: usage}
}

// parse parses args, prints the usage on -h, and turns flag errors and
// stray arguments into one-line usage errors.
func (fs *flagSet) parse(e *env, args []string) error {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.printUsage(e.stdout)
		return errHelp
	}
	if err != nil {
		return usagef("%v (see mctscheck %s -h)", err, fs.Name())
	}
	if fs.NArg() > 0 && !fs.args {
		return usagef("unexpected argument %q (flags come first; see mctscheck %s -h)", fs.Arg(0), fs.Name())
	}
	return nil
}

// printUsage prints the command's usage text and its flags.
func (fs *flagSet) printUsage(w io.Writer) {
	fmt.Fprint(w, fs.usage)
	fmt.Fprintf(w, "\nFlags:\n\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// isSet reports whether the flag was given on the command line.
func (fs *flagSet) isSet(name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// writeJSON writes v as one indented JSON document.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// parseRule parses a -rule flag.
func parseRule(spec string) (*rules.Instance, error) {
	if spec == "" {
		return nil, usagef("-rule: missing; give a rule spec such as uct or uct:c=0.7 (see mctscheck rules)")
	}
	in, err := rules.Parse(spec)
	if err != nil {
		return nil, usagef("-rule: %v", err)
	}
	return in, nil
}

// engineFlags defines -growth and -backup, the engine options that check
// and search share.
func engineFlags(fs *flagSet) (*growthFlag, *backupFlag) {
	var backup backupFlag
	growth := growthFlagOn(fs)
	fs.Var(&backup, "backup", "the backup, `average|minimax` (default: the rule's own, minimax for the -minimax rules)")
	return growth, &backup
}

// growthFlagOn defines -growth.
func growthFlagOn(fs *flagSet) *growthFlag {
	var growth growthFlag
	fs.Var(&growth, "growth", "the growth mode, `paper|practical`: paper stores every node of every path (Algorithm 1), practical rolls out below the stored tree (default paper)")
	return &growth
}

// growthFlag is -growth paper|practical.
type growthFlag struct{ g core.Growth }

func (f *growthFlag) String() string { return f.g.String() }
func (f *growthFlag) Set(s string) error {
	switch s {
	case "paper":
		f.g = core.GrowPaper
	case "practical":
		f.g = core.GrowPractical
	default:
		return errors.New("want paper or practical")
	}
	return nil
}

// backupFlag is -backup average|minimax; unset means the rule's own.
type backupFlag struct {
	b   core.Backup
	set bool
}

func (f *backupFlag) String() string {
	if !f.set {
		return ""
	}
	return f.b.String()
}
func (f *backupFlag) Set(s string) error {
	switch s {
	case "average":
		f.b = core.BackupAverage
	case "minimax":
		f.b = core.BackupMinimax
	default:
		return errors.New("want average or minimax")
	}
	f.set = true
	return nil
}

// of returns the backup to use with the rule instance.
func (f *backupFlag) of(in *rules.Instance) core.Backup {
	if f.set {
		return f.b
	}
	return in.Backup
}

// decisionFlag is -decision most-visited|highest-mean|secure.
type decisionFlag struct{ d core.Decision }

func (f *decisionFlag) String() string { return f.d.String() }
func (f *decisionFlag) Set(s string) error {
	for _, d := range []core.Decision{core.MostVisited, core.HighestMean, core.Secure} {
		if s == d.String() {
			f.d = d
			return nil
		}
	}
	return errors.New("want most-visited, highest-mean or secure")
}

// binaryOnly reports whether the papers' prediction for in is about binary
// deterministic games only, the class props.Options.BinaryOnly selects.
func binaryOnly(p rules.Prediction) bool { return p.BinaryOnly() }

// checkBudget validates a -budget for the checker: 64 times a power of two,
// with at least the criterion's window of doublings above 64.
func checkBudget(b int) error {
	const min = 64
	if b < min*16 || b > 1<<26 || b%min != 0 || (b/min)&(b/min-1) != 0 {
		return usagef("-budget %d: want 64 × a power of two from 1024 to %d (the checkpoints double from 64)", b, 1<<26)
	}
	return nil
}
