package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// flagSet is a command's flags with the usage text -h prints before them.
type flagSet struct {
	*flag.FlagSet
	usage string
	args  bool // the command takes arguments after its flags
	// formerly maps former names of flags to their names.
	formerly map[string]string
	// repeatable names the subject flags that take several values here.
	repeatable map[string]bool
	// twice is the error of a subject flag given a second time.
	twice error
}

// subjectFlags name what a command works on: the rule, the search, the
// tree, the game, the engine. Given twice, the second would silently replace the
// first, so it is an error, unless the command takes several
// (repeatable).
var subjectFlags = []string{"rule", "search", "a", "b", "tree", "game", "moves", "positions", "gtp"}

// onceValue is a subject flag's value: a second Set is an error.
type onceValue struct {
	flag.Value
	fs    *flagSet
	name  string
	first *string // the first value given; nil before
}

// String is the value's, "" for the zero onceValue that flag's
// PrintDefaults makes to tell a default from none.
func (v *onceValue) String() string {
	if v.Value == nil {
		return ""
	}
	return v.Value.String()
}

func (v *onceValue) Set(s string) error {
	if v.first != nil {
		v.fs.twice = fmt.Errorf("-%s given twice (%q, then %q): give it once", v.name, *v.first, s)
		return v.fs.twice
	}
	v.first = &s
	return v.Value.Set(s)
}

// once makes the subject flags that the command defines, and that are not
// repeatable, refuse a second value.
func (fs *flagSet) once() {
	for _, name := range subjectFlags {
		if f := fs.Lookup(name); f != nil && !fs.repeatable[name] {
			if _, ok := f.Value.(*onceValue); !ok {
				f.Value = &onceValue{Value: f.Value, fs: fs, name: name}
			}
		}
	}
}

// repeat records that the subject flag name takes several values here.
func (fs *flagSet) repeat(name string) {
	if fs.repeatable == nil {
		fs.repeatable = map[string]bool{}
	}
	fs.repeatable[name] = true
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
	fs.once()
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.printUsage(e.stdout, e.tool)
		return errHelp
	}
	if err != nil && fs.twice != nil {
		hint := ""
		if strings.Contains(fs.twice.Error(), "-rule given twice") {
			hint = fmt.Sprintf("; %s run -rule A -rule B checks several rules", e.tool.name())
		}
		return usagef("%v%s (see %s %s -h)", fs.twice, hint, e.tool.name(), fs.Name())
	}
	if err != nil {
		for old, now := range fs.formerly {
			if err.Error() == "flag provided but not defined: -"+old {
				return usagef("unknown flag -%s: it is now -%s (see %s %s -h)", old, now, e.tool.name(), fs.Name())
			}
		}
		return usagef("%v (see %s %s -h)", err, e.tool.name(), fs.Name())
	}
	if fs.NArg() > 0 && !fs.args {
		return usagef("unexpected argument %q (flags come first; see %s %s -h)", fs.Arg(0), e.tool.name(), fs.Name())
	}
	return nil
}

// renamed records that flag old is now called now, so that the old name
// gets an error that names the new one rather than an alias.
func (fs *flagSet) renamed(old, now string) {
	if fs.formerly == nil {
		fs.formerly = map[string]string{}
	}
	fs.formerly[old] = now
}

// printUsage prints the command's usage text and its flags, in the words
// of tool t.
func (fs *flagSet) printUsage(w io.Writer, t *Tool) {
	var b strings.Builder
	b.WriteString(fs.usage)
	b.WriteString("\nFlags:\n\n")
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	io.WriteString(w, t.speak(b.String()))
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
	return setNamed(&f.g, s, "want paper or practical", core.GrowPaper, core.GrowPractical)
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
	if err := setNamed(&f.b, s, "want average or minimax", core.BackupAverage, core.BackupMinimax); err != nil {
		return err
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
	return setNamed(&f.d, s, "want most-visited, highest-mean or secure", core.MostVisited, core.HighestMean, core.Secure)
}

// setNamed sets *v to the one of values whose name is s, or returns the
// error want.
func setNamed[T fmt.Stringer](v *T, s, want string, values ...T) error {
	for _, x := range values {
		if x.String() == s {
			*v = x
			return nil
		}
	}
	return errors.New(want)
}

// checkBudget validates a -budget for the checker: 64 times a power of two,
// with at least the criterion's window of doublings above 64.
func checkBudget(b int) error {
	const min = 64
	if b < min*16 || b > 1<<26 || b%min != 0 || (b/min)&(b/min-1) != 0 {
		return usagef("-budget %d: want 64 × a power of two from 1024 to %d (the checkpoints double from 64)", b, 1<<26)
	}
	return nil
}

// maxTrees bounds -trees: a thousand times the default, whose trees the
// checker draws up front in well under a second and holds in tens of MB,
// so that neither a typo's memory nor its wait before Ctrl-C is heard is
// unbounded.
const maxTrees = 100_000

// checkScale validates the checker's -trees and -seeds.
func checkScale(trees, seeds int) error {
	switch {
	case trees < 1 || trees > maxTrees:
		return usagef("-trees %d: want 1 to %d", trees, maxTrees)
	case seeds < 1 || seeds > 1024:
		return usagef("-seeds %d: want 1 to 1024", seeds)
	}
	return nil
}

// addScaleFlags defines the flags of a check's scale, with run's, check's
// and check -search's one text: -trees (treesHelp, which says what the
// trees are per), -seeds, -seed and -budget.
func addScaleFlags(fs *flagSet, treesHelp string) (trees, seeds *int, seed *uint64, budget *int) {
	trees = fs.Int("trees", defaultTrees, treesHelp)
	seeds = fs.Int("seeds", defaultSeeds, "`N` searches (seeds) per tree")
	seed = fs.Uint64("seed", 1, "the first `seed`, and the seed of the random trees")
	budget = fs.Int("budget", defaultBudget, "the last budget, `N` simulations (64 × a power of two, ≥ 1024)")
	return trees, seeds, seed, budget
}

// addTreeFlag defines -tree, check's and check -search's one tree.
func addTreeFlag(fs *flagSet) *string {
	return fs.String("tree", "", "check this one `TREE` only: text in the tree format, or @FILE (@- for stdin)")
}

// addDeadlineFlag defines -deadline, check's and run's limit on their
// time.
func addDeadlineFlag(fs *flagSet) *time.Duration {
	return fs.Duration("deadline", 0, "stop `DURATION` (such as 9m) after the start, writing the report of what finished, marked partial: "+
		"exit 1 for a finding made by then, 4 for a fault, 0 otherwise (0: no deadline)")
}
