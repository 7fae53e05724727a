package cli

// This file is what check writes besides its text: the report directory
// (-out) and the witness as Graphviz DOT (-dot), both as run's report and
// solve -dot draw them.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/internal/picture"
	"github.com/mctscheck/mctscheck/props"
)

// writeCheckReport writes check's report directory: report.md,
// report.html and report.json (the -json document) as run writes them for
// one rule, and the plots of the tool's plotter. command is the check's
// command line, and expectation what its verdict is compared with.
func writeCheckReport(e *env, dir, command, expectation string, d *checkDoc) ([]string, error) {
	doc := &runDoc{Command: command, Options: d.Options, Rules: []ruleResult{d.ruleResult},
		replayNote: e.tool.replayNote(), title: e.tool.name(), expectation: expectation}
	switch d.Agreement {
	case Reproduced:
		doc.Reproduced = 1
	case NotRefuted:
		doc.NotRefuted = 1
	case Contradicted:
		doc.Contradicted = 1
	case Interrupted:
		doc.Interrupted = 1
	}
	if d.Stopped != "" {
		doc.Partial, doc.Stopped = true, d.Stopped
	}
	if d.Tree != "" {
		doc.checkedOn = "the given tree"
	} else {
		doc.countTraps(nil)
	}
	return writeReport(dir, doc, d, e.tool.Plot)
}

// checkCommand is the check command line as given, its subject flag
// (rule, search) first, without the flags that only choose what is
// written (-out, -json, -dot, the profiles) or how many searches run at
// once (-jobs).
func checkCommand(fs *flagSet, subject string) string {
	parts := []string{"mctscheck " + fs.Name(), "-" + subject + " " + shellWord(fs.Lookup(subject).Value.String())}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case subject, "out", "json", "dot", "cpuprofile", "jobs":
			return
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			parts = append(parts, "-"+f.Name+"="+f.Value.String())
			return
		}
		parts = append(parts, "-"+f.Name+" "+shellWord(f.Value.String()))
	})
	return strings.Join(parts, " ")
}

// plainWord matches the words a shell reads as they are.
var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./:=,@+-]+$`)

// shellWord quotes s for a shell if it must be.
func shellWord(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return props.ShellQuote(s)
}

// countTraps counts the trap families a run checks each rule on: extra
// and gen.Traps, and those of binary deterministic games.
func (doc *runDoc) countTraps(extra []gen.Trap) {
	for _, t := range append(extra[:len(extra):len(extra)], gen.Traps()...) {
		doc.traps++
		if t.Binary {
			doc.binaryTraps++
		}
	}
}

// outputFlags are what check prints and writes, and when it stops: -json,
// -dot, -out and -deadline.
type outputFlags struct {
	asJSON, asDOT *bool
	out           *string
	deadline      *time.Duration
}

// addOutputFlags defines -json, -dot, -out and -deadline.
func addOutputFlags(fs *flagSet) *outputFlags {
	return &outputFlags{
		asJSON:   fs.Bool("json", false, "print one JSON document instead of text"),
		asDOT:    fs.Bool("dot", false, "print the witness tree as Graphviz DOT instead of text (dot -Tsvg draws it)"),
		out:      fs.String("out", "", "write a report `DIR`ectory as run does: report.md, report.html (the witness drawn), report.json"),
		deadline: addDeadlineFlag(fs),
	}
}

// start validates the flags, makes -out's directory, so that a bad one
// fails before the check rather than after it, and returns e with the
// deadline's context and the function that releases it.
func (f *outputFlags) start(e *env) (*env, context.CancelFunc, error) {
	if *f.asJSON && *f.asDOT {
		return nil, nil, usagef("-json, -dot: give one of them")
	}
	if *f.out != "" {
		if err := writableDir(*f.out); err != nil {
			return nil, nil, usagef("-out %s: %v", *f.out, err)
		}
	}
	return e.withDeadline(*f.deadline)
}

// writeWitnessDOT writes a report's witness tree as Graphviz DOT to w, or
// says on stderr that there is none to draw.
func writeWitnessDOT(e *env, w io.Writer, rep *props.Report) error {
	wit := rep.Witness
	if wit == nil || wit.Tree == nil {
		fmt.Fprintf(e.stderr, "%s: no witness tree to draw (%s)\n", e.tool.name(), rep.Verdict)
		return nil
	}
	title := fmt.Sprintf("%s: %s witness (%s), seed %d", wit.Rule, wit.Verdict, wit.Condition, wit.Seeds[0])
	return picture.Of(wit.Tree, wit.Search, wit.Findings).WriteDOT(w, "witness", title)
}

// reportLine is the line that names the report directory's files.
func reportLine(dir string, files []string) string {
	return fmt.Sprintf("Report: %s (%s)\n", path.Join(dir, "report.md"), strings.Join(files, ", "))
}
