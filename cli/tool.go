package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mctscheck/mctscheck/engine"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// Tool is the mctscheck command line with rules of one's own: every
// command, the JSON documents, the report and the replay lines work for
// them as for the catalogue's rules.
type Tool struct {
	// Name is the command's name in error messages, help texts and the
	// report, e.g. "mycheck"; default: the base name of os.Args[0]. The
	// command lines it prints to be pasted (replay lines) name the
	// command as it was run instead: by its name when the shell finds it
	// on PATH, else by the path it was run by, such as ./mycheck.
	Name string
	// Source, if set, says how to run the command from source, e.g.
	// "go run ./cmd/mycheck"; the report says to use it in place of Name.
	Source string
	// Rules are the user's rules. They are registered (rules.Register), so
	// their specs parse like the catalogue's; run checks them by default,
	// rules lists them first.
	Rules []*rules.Entry
	// Plot, if set, draws the convergence figure into run's report
	// directory; package cli/plot's Convergence draws it with gonum. Without
	// it the report has no convergence.png, and the command links no
	// plotting; report.html, drawn with the standard library, has each
	// witness tree and each rule's convergence chart either way.
	Plot Plotter
	// PlotEngine, if set, draws the engine command's figure into its
	// report directory; package cli/plot's EngineShares draws it.
	PlotEngine EnginePlotter

	ctx  context.Context // the context Ctrl-C cancels; tests set it
	arg0 string          // the command as run; os.Args[0] unless a test sets it
}

// Main runs the command line args with the user's rules on the standard
// streams and returns the exit code. A user's checker is
//
//	func main() { os.Exit(cli.Main(os.Args[1:], myRules...)) }
//
// Its report has report.html, with each witness tree drawn, but no
// convergence.png, and it links no plotting library; Tool{Rules: myRules,
// Plot: plot.Convergence}.Run(...) adds the figure (package cli/plot).
func Main(args []string, own ...*rules.Entry) int {
	return Tool{Rules: own}.Run(args, os.Stdin, os.Stdout, os.Stderr)
}

// Plotter draws the convergence curves of a run's rules into the report
// directory dir and returns the names of the files it wrote there.
type Plotter func(dir string, curves []Convergence) (files []string, err error)

// EnginePlotter draws the share of optimal moves against the budget, one
// line per class of positions, into the engine command's report directory
// dir, and returns the names of the files it wrote there (the first one an
// image report.md can show).
type EnginePlotter func(dir string, shares []engine.ClassShare) (files []string, err error)

// Convergence is one rule's convergence curve in a run, as a Plotter draws
// it.
type Convergence struct {
	Rule                string // the rule's name, or its spec
	PredictedConsistent bool
	Agreement           Agreement // of the verdict with the prediction
	// Curve is the share of wrong root decisions and of simulations of
	// optimal children per budget, over the searches of every tree the
	// rule was checked on; empty for a check interrupted before its first
	// tree.
	Curve []props.CurvePoint
	// Witness is the witness search's curve on the witness tree
	// (props.WitnessSearch): its root decision at each budget, wrong (1)
	// or optimal (0), where Curve's average over every tree may fall near
	// 0; empty for a rule without a witness.
	Witness   []props.CurvePoint
	MaxBudget int64
}

// mctscheckTool is this repository's own command: the catalogue, no rules of
// its own.
var mctscheckTool = Tool{Name: "mctscheck", Source: "go run ./cmd/mctscheck"}

// MctscheckTool returns this repository's command, cmd/mctscheck, without
// its plots: cmd/mctscheck sets Plot.
func MctscheckTool() Tool { return mctscheckTool }

// name is the command's name in replay lines.
func (t *Tool) name() string {
	if t.Name != "" {
		return t.Name
	}
	return filepath.Base(os.Args[0])
}

// invocation is the command's first word in the command lines it prints
// to be pasted: how to run it again from where the user stands. That is
// the command as run when the shell found it on PATH (a bare name, or a
// path to the same file as PATH's), else the path it was run by
// (./mycheck); under go run or go test, whose binaries are gone when they
// end, it is the name (report.md says to use Source in its place).
func (t *Tool) invocation() string {
	arg0 := t.arg0
	if arg0 == "" {
		arg0 = os.Args[0]
	}
	if underGoBuild(arg0) {
		return t.name()
	}
	if !strings.ContainsRune(arg0, '/') && !strings.ContainsRune(arg0, filepath.Separator) {
		return props.ShellWord(arg0)
	}
	base := filepath.Base(arg0)
	if onPath, err := exec.LookPath(base); err == nil && sameFile(onPath, arg0) {
		return props.ShellWord(base)
	}
	return props.ShellWord(arg0)
}

// underGoBuild reports whether path is a binary that go run or go test
// built in one of the go command's temporary directories.
func underGoBuild(path string) bool {
	return strings.Contains(filepath.ToSlash(path), "/go-build")
}

// sameFile reports whether paths a and b name the same file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
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
// mctscheck, to run this tool.
func (t *Tool) command(line string) string {
	if rest, ok := strings.CutPrefix(line, "mctscheck "); ok {
		return t.invocation() + " " + rest
	}
	return line
}

// speak adapts a text written for mctscheck, a usage text or a message, to
// this tool: its name in place of mctscheck's where mctscheck is the
// command (not in paths such as ./cmd/mctscheck or in mctscheck-report),
// and, in a command with rules of its own, the rules' own predictions in
// place of the papers'.
func (t *Tool) speak(s string) string {
	name := t.name()
	if name != "mctscheck" {
		s = replaceCommandName(s, name)
	}
	if len(t.Rules) > 0 {
		s = ownPredictions.Replace(s)
	}
	return s
}

// ownPredictions rewords the texts for a command with rules of its own,
// which checks those rules by default and whose expectations are the
// Predicted of each rule's entry.
var ownPredictions = strings.NewReplacer(
	"check every rule of the catalogue and write a report (the default)", "check your rules and write a report (the default)",
	"check every rule of the catalogue (the default)", "check your rules (the default; -rules '*' adds the catalogue)",
	"Run checks every rule of the catalogue (or", "Run checks your rules (or",
	"the papers' prediction", "the rule's prediction (its entry's Predicted)",
	"what the papers predict", "what each rule's entry predicts (Predicted)",
	"the papers predict", "each rule's entry predicts",
)

// replaceCommandName replaces the word mctscheck by name where a command
// line or a sentence names the command: between spaces, quotes, backquotes
// or parentheses, or at either end of s.
func replaceCommandName(s, name string) string {
	const word = "mctscheck"
	isEdge := func(c byte) bool {
		return c == ' ' || c == '\n' || c == '\t' || c == '\'' || c == '`' || c == '(' || c == ')' || c == ';' || c == ','
	}
	var b strings.Builder
	for {
		i := strings.Index(s, word)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := i + len(word)
		if (i == 0 || isEdge(s[i-1])) && (j == len(s) || isEdge(s[j]) || s[j] == ':' && j+1 < len(s) && s[j+1] == ' ') {
			b.WriteString(s[:i])
			b.WriteString(name)
		} else {
			b.WriteString(s[:j])
		}
		s = s[j:]
	}
}

// expectation names what a run's verdicts are compared with: the papers'
// predictions for the catalogue, the user's for their own rules.
func (t *Tool) expectation(insts []*rules.Instance) string {
	own, papers := 0, 0
	for _, in := range insts {
		if t.isOwn(in.Entry.Name) {
			own++
		} else {
			papers++
		}
	}
	switch {
	case own > 0 && papers == 0:
		return "your prediction"
	case own > 0:
		return "the prediction (yours or the papers')"
	}
	return "the papers' prediction"
}

// isOwn reports whether name is one of the user's rules.
func (t *Tool) isOwn(name string) bool {
	for _, en := range t.Rules {
		if en.Name == name {
			return true
		}
	}
	return false
}

// replayNote is the parenthesis after "Replay" in report.md.
func (t *Tool) replayNote() string {
	if t.Source == "" {
		return ""
	}
	return " (from a clone, `" + t.Source + "` in place of `" + t.invocation() + "`)"
}

// addReplay adds to a report's witness the command line of this tool that
// replays it, formatted from the witness's props.Replay, and to a game
// position's exported tree witness its own.
func (t *Tool) addReplay(rep *props.Report) {
	w := rep.Witness
	if w == nil {
		return
	}
	t.addLine(&w.Replay, w.Run)
	if p := w.PositionWitness; p != nil && p.Explicit != nil {
		t.addLine(&p.Explicit.Replay, p.Explicit.Run)
	}
}

// addLine appends r's command line to lines, if r names a rule: in place
// of a whole search's Go call (props.Replay.GoCall), which a command's
// user has no use for.
func (t *Tool) addLine(lines *[]string, r props.Replay) {
	if line := t.replayLine(r); line != "" {
		if r.Test == "" && r.Search {
			*lines = slices.DeleteFunc(*lines, func(l string) bool { return l == r.GoCall() })
		}
		*lines = append(*lines, line)
	}
}

// replayLine formats r as this tool's check command: the flags that
// search the same tree or position with the same seed and options.
func (t *Tool) replayLine(r props.Replay) string {
	return r.CheckLine(t.invocation())
}
