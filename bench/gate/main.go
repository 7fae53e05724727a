// Command gate is mctscheck's benchmark regression gate: it compares two
// files of Go benchmark results the way benchstat does and says, by its exit
// status, whether NEW is slower than OLD.
//
// Usage:
//
//	go run ./bench/gate [flags] OLD NEW    # or go tool gate, or a built gate: see Exit status
//
// OLD and NEW are read as benchstat reads its inputs: a file, NAME=FILE
// (NAME stands for the file in messages), or - for standard input (one of
// the two at most), so that go test -bench . -count 10 | gate old.txt -
// judges a fresh run. Lines that do not parse are skipped, as benchstat
// skips them, with a warning on standard error. A judged sample that is
// not a finite number ≥ 0 (NaN, ±Inf, a negative time) is an error,
// exit 2: the gate compares ratios of medians, which such samples make
// meaningless.
//
// For every benchmark (by its configuration and full name) and selected unit
// present in both files, gate summarises each side by its median and compares
// the samples with a Mann-Whitney U test, as benchstat does (package
// golang.org/x/perf/benchmath, which also honours "Unit X assume=exact"
// metadata). It judges as benchstat reads: a benchmark regresses when its
// change is significant (p < -alpha) and it is slower by more than
// -threshold percent; the run fails when some benchmark regresses, and
// only then. The geomean row (the geometric mean of the per-benchmark ratios
// of medians) is reported, as benchstat reports it, but never judged: it
// has no test of its own, and an A/A comparison on a loaded machine moves it
// by several percent. Changes that are significant and faster by more than
// the threshold are marked "faster"; the verdict says how many there were.
//
// Every compared benchmark needs at least 10 samples a side (go test
// -count 10, as scripts/benchcmp.sh runs them), except in units the files
// declare exact: with fewer, one burst of load decides the U test, and the
// median's 95% range needs 6. Fewer is an error, exit 2.
//
// "Slower" depends on the unit: for units where lower is better (times such
// as sec/sim and sec/op, B/node, B/op, allocs/op) it is an increase, new/old−1;
// for units where higher is better it is a decrease, measured as old/new−1
// so that a 20% slowdown in time reads as 20% in a rate too. Higher is better
// for units a file declares so ("Unit sims/s better=higher"), for benchfmt's
// built-in rates (B/s, MB/s), and for any unit ending in "/s"; lower is better
// for every other unit.
//
// By default gate judges ns/sim (tidied to sec/sim), the time of one
// simulation, the normalised cost of the playout hot loop that every
// benchmark of package bench reports (the thread's CPU time), when some
// benchmark has it in both files. Otherwise it judges the CPU times that
// some benchmark has in both files (units such as cpu-ns/op, cpu-s/op or
// cpu-s: a numerator that names cpu and ends in a time), since other jobs
// on a shared machine stretch wall-clock time far more than CPU time, and
// a real slowdown drowns in sec/op's noise. Failing both, it judges
// sec/op, the wall-clock time every Go benchmark reports, so that it works
// on any module's benchmarks:
//
//	go run github.com/mctscheck/mctscheck/bench/gate old.txt new.txt
//
// The first line of its output says which units it chose and why. -unit
// selects others, comma-separated (sec/op, B/node, allocs/op, ...), or
// "all" for every unit in both files.
//
// Exit status: 0 when nothing regressed; 1 when something did; 2 on usage
// errors, unreadable files, a -filter that does not parse, when no benchmark
// and unit is in both files after filtering (no data is never a pass), and
// when a compared benchmark has fewer than 10 samples a side, or too few
// for its test ever to reach p < -alpha.
//
// go run does not pass these on: it exits 1 whenever the program exits
// non-zero, so under go run a usage error looks like a regression. Where
// the status matters (scripts, CI), build the gate or run it as a tool,
// both of which keep it:
//
//	go build -o gate github.com/mctscheck/mctscheck/bench/gate && ./gate old.txt new.txt
//	go tool gate old.txt new.txt   # with "tool github.com/mctscheck/mctscheck/bench/gate" in go.mod
//
// When it exits non-zero under go run, the gate says so on standard error
// (on Linux it tells go run from go tool by its parent's command line;
// elsewhere it says so for both). gate -h prints the usage and exits 0.
//
// The flags:
//
//	-threshold pct  slowdown that fails the gate, in percent (default 5)
//	-alpha α        significance level of the U test (default 0.05)
//	-filter query   benchproc filter, e.g. '.name:Search /game:synth' (default *)
//	-unit list      units to judge, comma-separated, or all (default ns/sim if shared, else CPU times, else sec/op)
//	-ignore keys    file-level configuration keys to ignore, e.g. cpu
//	-confidence c   confidence level of the ± ranges printed (default 0.95)
//
// It prints a benchstat-style table for each unit, then a one-line verdict
// that starts with "gate: PASS" or "gate: FAIL".
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if exe, err := os.Executable(); code != exitPass && err == nil && underGoRun(exe, parentArgs()) {
		fmt.Fprintf(os.Stderr, "gate: exit status %d; go run reports every non-zero status as 1: build the gate or use go tool gate to keep it\n", code)
	}
	os.Exit(code)
}

// underGoRun reports whether the gate runs under go run, which does not
// pass its exit status on. go run and go tool both start a binary from the
// build cache or a go-build directory, so the path alone cannot tell them
// apart: the command line of the parent, parent (nil where the system
// does not give it), can. A parent "go run" is go run; any other known
// parent is not; an unknown one is go run when exe lies in a go-build
// directory, as under both.
func underGoRun(exe string, parent []string) bool {
	if parent == nil {
		return strings.Contains(filepath.ToSlash(exe), "/go-build")
	}
	if len(parent) < 2 || strings.TrimSuffix(filepath.Base(parent[0]), ".exe") != "go" {
		return false
	}
	args := parent[1:]
	if len(args) >= 2 && args[0] == "-C" { // go -C dir run ...
		args = args[2:]
	} else if len(args) >= 1 && strings.HasPrefix(args[0], "-C=") {
		args = args[1:]
	}
	return len(args) > 0 && args[0] == "run"
}

// Exit statuses.
const (
	exitPass  = 0
	exitFail  = 1
	exitUsage = 2
)

// run is the command: it parses args, compares the files and returns the
// exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	usage := func() {
		fmt.Fprintf(fs.Output(), "usage: gate [flags] OLD NEW\n\n"+
			"OLD and NEW are files of Go benchmark results, as benchstat reads them:\n"+
			"FILE, NAME=FILE (NAME names it in messages) or - for standard input.\n"+
			"gate exits 1 when a benchmark of NEW is slower than in OLD by more than\n"+
			"-threshold percent with p < -alpha (the geomean is reported, not judged),\n"+
			"0 when none is, and 2 on usage errors, when no benchmark is in both files\n"+
			"or when one has fewer than 10 samples a side. Under go run every non-zero\n"+
			"status becomes 1: build the gate, or use go tool gate, to keep it.\n\n")
		fs.PrintDefaults()
	}
	fs.Usage = func() {} // printed below, once, where it belongs
	var o options
	fs.Float64Var(&o.threshold, "threshold", 5, "fail on a slowdown of more than `pct` percent")
	fs.Float64Var(&o.alpha, "alpha", 0.05, "significance level `α` of the Mann-Whitney U test")
	fs.StringVar(&o.filter, "filter", "*", "judge only benchmarks matching benchproc filter `query`")
	unit := fs.String("unit", "", "judge the comma-separated `units`, or all (default: ns/sim if both files have it, else the CPU times both have, such as cpu-ns/op, else sec/op)")
	fs.StringVar(&o.ignore, "ignore", "", "ignore variations in file-level configuration `keys`")
	fs.Float64Var(&o.confidence, "confidence", 0.95, "confidence `level` of the printed ranges")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) { // asked for: the usage on standard output, as mctscheck -h
			fs.SetOutput(stdout)
			usage()
			return exitPass
		}
		usage()
		return exitUsage
	}
	if fs.NArg() != 2 {
		fmt.Fprintf(stderr, "gate: want two files, OLD and NEW; got %d arguments\n", fs.NArg())
		usage()
		return exitUsage
	}
	o.units, o.auto = splitUnits(*unit), *unit == ""
	if err := o.check(); err != nil {
		fmt.Fprintf(stderr, "gate: %v\n", err)
		return exitUsage
	}
	warn := func(s string) { fmt.Fprintf(stderr, "gate: %s\n", s) }
	rep, err := compare([2]string{fs.Arg(0), fs.Arg(1)}, stdin, o, warn)
	if err != nil {
		fmt.Fprintf(stderr, "gate: %v\n", err)
		return exitUsage
	}
	rep.print(stdout)
	if rep.failed() {
		return exitFail
	}
	return exitPass
}

// options are the gate's settings.
type options struct {
	threshold  float64  // percent
	alpha      float64  // significance level
	filter     string   // benchproc filter
	units      []string // tidied units; nil means all
	auto       bool     // no -unit: judge sec/sim, else CPU times, else sec/op (see pickUnits)
	ignore     string   // keys to ignore
	confidence float64  // of the printed ranges
}

// selects reports whether the gate reads the tidied unit: one of -unit's,
// or without -unit one that it may judge by default (see pickUnits).
func (o options) selects(unit string) bool {
	if o.auto {
		return unit == tidy("ns/sim") || unit == tidy("sec/op") || cpuTime(unit)
	}
	return o.units == nil || slices.Contains(o.units, unit)
}

// check reports settings that make no sense.
func (o options) check() error {
	switch {
	case !(o.threshold >= 0) || o.threshold > 1e6:
		return fmt.Errorf("-threshold %v: want a percentage ≥ 0", o.threshold)
	case !(o.alpha > 0 && o.alpha < 1):
		return fmt.Errorf("-alpha %v: want 0 < α < 1", o.alpha)
	case !(o.confidence > 0 && o.confidence < 1):
		return fmt.Errorf("-confidence %v: want 0 < c < 1", o.confidence)
	case !o.auto && o.units != nil && len(o.units) == 0:
		return errors.New("-unit is empty: name units, or all")
	}
	return nil
}

// splitUnits parses -unit: nil for all, else the tidied units.
func splitUnits(s string) []string {
	if strings.TrimSpace(s) == "all" {
		return nil
	}
	units := []string{}
	for _, u := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		units = append(units, tidy(u))
	}
	return units
}
