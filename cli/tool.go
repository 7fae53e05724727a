package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// Tool is the mctscheck command line with rules of one's own: every
// command, the JSON documents, the report and the replay lines work for
// them as for the catalogue's rules.
type Tool struct {
	// Name is the command's name in replay lines, error messages and the
	// report, e.g. "mycheck"; default: the base name of os.Args[0].
	Name string
	// Source, if set, says how to run the command from source, e.g.
	// "go run ./cmd/mycheck"; the report says to use it in place of Name.
	Source string
	// Rules are the user's rules. They are registered (rules.Register), so
	// their specs parse like the catalogue's; run checks them by default,
	// rules lists them first.
	Rules []*rules.Entry

	ctx context.Context // the context Ctrl-C cancels; tests set it
}

// Main runs the command line args with the user's rules on the standard
// streams and returns the exit code. A user's checker is
//
//	func main() { os.Exit(cli.Main(os.Args[1:], myRules...)) }
func Main(args []string, own ...*rules.Entry) int {
	return Tool{Rules: own}.Run(args, os.Stdin, os.Stdout, os.Stderr)
}

// mctscheckTool is this repository's own command: the catalogue, no rules of
// its own.
var mctscheckTool = Tool{Name: "mctscheck", Source: "go run ./cmd/mctscheck"}

// Mctscheck runs this repository's command, cmd/mctscheck.
func Mctscheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return mctscheckTool.Run(args, stdin, stdout, stderr)
}

// name is the command's name in replay lines.
func (t *Tool) name() string {
	if t.Name != "" {
		return t.Name
	}
	return filepath.Base(os.Args[0])
}

// entries are the rules the tool lists: the user's, then the catalogue.
func (t *Tool) entries() []*rules.Entry {
	return append(t.own(), rules.All()...)
}

// own returns the user's rules as the registry has them, ready for Parse.
func (t *Tool) own() []*rules.Entry {
	var out []*rules.Entry
	for _, en := range t.Rules {
		if r, ok := rules.Lookup(en.Name); ok {
			out = append(out, r)
		}
	}
	return out
}

// command rewrites a command line printed by the checker, which names
// mctscheck, to name this tool.
func (t *Tool) command(line string) string {
	if rest, ok := strings.CutPrefix(line, "mctscheck "); ok {
		return t.name() + " " + rest
	}
	return line
}

// replayNote is the parenthesis after "Replay" in report.md.
func (t *Tool) replayNote() string {
	if t.Source == "" {
		return ""
	}
	return " (from a clone, `" + t.Source + "` in place of `" + t.name() + "`)"
}

// addReplay adds to a report's witness the command line of this tool that
// replays it, formatted from the witness's props.Replay.
func (t *Tool) addReplay(rep *props.Report) {
	if w := rep.Witness; w != nil {
		t.addLine(&w.Replay, w.Run)
	}
}

// addGameReplay is addReplay for a position's report, whose witness may
// hold an exported tree's witness too.
func (t *Tool) addGameReplay(rep *props.GameReport) {
	if w := rep.Witness; w != nil {
		t.addLine(&w.Replay, w.Run)
		if w.Explicit != nil {
			t.addLine(&w.Explicit.Replay, w.Explicit.Run)
		}
	}
}

// addLine appends r's command line to lines, if r names a rule.
func (t *Tool) addLine(lines *[]string, r props.Replay) {
	if line := t.replayLine(r); line != "" {
		*lines = append(*lines, line)
	}
}

// replayLine formats r as this tool's check command: the flags that
// search the same tree or position with the same seed and options.
func (t *Tool) replayLine(r props.Replay) string {
	if r.Rule == "" {
		return ""
	}
	q := props.ShellQuote
	var b strings.Builder
	fmt.Fprintf(&b, "%s check -rule %s", t.name(), q(r.Rule))
	if r.Game != "" {
		fmt.Fprintf(&b, " -game %s -moves %s -seed %d -seeds %d -budget %d", q(r.Game), q(r.Moves), r.Seed, r.Seeds, r.Budget)
		if r.KeepOrder {
			b.WriteString(" -keep-order")
		} else {
			fmt.Fprintf(&b, " -order %d", r.Order)
		}
		fmt.Fprintf(&b, " -growth %s -backup %s", r.Growth, r.Backup)
		return b.String()
	}
	fmt.Fprintf(&b, " -tree %s -seed %d -seeds %d -budget %d", q(r.Tree), r.Seed, r.Seeds, r.Budget)
	if r.KeepOrder {
		b.WriteString(" -keep-order")
	}
	if r.Growth != "paper" {
		fmt.Fprintf(&b, " -growth %s", r.Growth)
	}
	if r.Backup != "average" {
		fmt.Fprintf(&b, " -backup %s", r.Backup)
	}
	if r.Workers >= 2 {
		fmt.Fprintf(&b, " -tree-workers %d -virtual-loss %g -virtual-value %g", r.Workers, r.VirtualLoss, r.VirtualValue)
	}
	return b.String()
}
