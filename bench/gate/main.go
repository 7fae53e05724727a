// Command gate is mctscheck's benchmark regression gate: it compares two
// files of Go benchmark results the way benchstat does and says, by its exit
// status, whether NEW is slower than OLD.
//
// Usage:
//
//	go run ./bench/gate [flags] OLD NEW
//
// For every benchmark (by its configuration and full name) and selected unit
// present in both files, gate summarises each side by its median and compares
// the samples with a Mann-Whitney U test, as benchstat does (package
// golang.org/x/perf/benchmath, which also honours "Unit X assume=exact"
// metadata). A benchmark regresses when it is slower by more than -threshold
// percent with p < -alpha. The run also regresses when the geometric mean of
// the per-benchmark ratios of medians (benchstat's geomean row) is slower by
// more than -threshold percent with p < -alpha, so that many small
// slowdowns, each too noisy to be significant alone, still fail it. The
// geomean's p comes from its replicates: replicate i of a file is the
// geomean over the benchmarks of their i-th samples (in the output of
// scripts/benchcmp.sh, round i), and a one-sided permutation test of the
// difference of the two sides' median replicates gives p. On a 2-core
// machine shared with other jobs, bursts of load slowed whole rounds of one
// side by half: without a test the geomean of an A/A comparison moved by
// 5%, and benchstat's U test on the replicates missed a 20% slowdown that
// the median test catches.
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
// benchmark of package bench reports, when some benchmark has it in both
// files; otherwise it judges sec/op, the time every Go benchmark reports,
// so that it works on any module's benchmarks:
//
//	go run github.com/mctscheck/mctscheck/bench/gate old.txt new.txt
//
// The first line of its output says which unit it chose and why. -unit
// selects others, comma-separated (sec/op, B/node, allocs/op, ...), or
// "all" for every unit in both files.
//
// Exit status: 0 when nothing regressed; 1 when something did; 2 on usage
// errors, unreadable files, a -filter that does not parse, when no benchmark
// and unit is in both files after filtering (no data is never a pass), and
// when a compared benchmark has too few samples for the test ever to reach
// p < -alpha (with the default alpha the U test needs 4 samples a side; use
// -count 10).
//
// The flags:
//
//	-threshold pct  slowdown that fails the gate, in percent (default 5)
//	-alpha α        significance level of the U test (default 0.05)
//	-filter query   benchproc filter, e.g. '.name:Search /game:synth' (default *)
//	-unit list      units to judge, comma-separated, or all (default ns/sim if shared, else sec/op)
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
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitPass  = 0
	exitFail  = 1
	exitUsage = 2
)

// run is the command: it parses args, compares the files and returns the
// exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: gate [flags] OLD NEW\n\n"+
			"gate exits 1 when NEW is slower than OLD by more than -threshold percent\n"+
			"with p < -alpha in any selected benchmark or in the geomean, 0 when not,\n"+
			"and 2 on usage errors or when no benchmark is in both files.\n\n")
		fs.PrintDefaults()
	}
	var o options
	fs.Float64Var(&o.threshold, "threshold", 5, "fail on a slowdown of more than `pct` percent")
	fs.Float64Var(&o.alpha, "alpha", 0.05, "significance level `α` of the Mann-Whitney U test")
	fs.StringVar(&o.filter, "filter", "*", "judge only benchmarks matching benchproc filter `query`")
	unit := fs.String("unit", "", "judge the comma-separated `units`, or all (default: ns/sim if both files have it, else sec/op)")
	fs.StringVar(&o.ignore, "ignore", "", "ignore variations in file-level configuration `keys`")
	fs.Float64Var(&o.confidence, "confidence", 0.95, "confidence `level` of the printed ranges")
	if err := fs.Parse(args); err != nil {
		return exitUsage // also for -h: the gate never passes without comparing
	}
	if fs.NArg() != 2 {
		fmt.Fprintf(stderr, "gate: want two files, OLD and NEW; got %d arguments\n", fs.NArg())
		fs.Usage()
		return exitUsage
	}
	o.units, o.auto = splitUnits(*unit), *unit == ""
	if o.auto {
		o.units = []string{tidy("ns/sim"), tidy("sec/op")}
	}
	if err := o.check(); err != nil {
		fmt.Fprintf(stderr, "gate: %v\n", err)
		return exitUsage
	}
	rep, err := compare(fs.Arg(0), fs.Arg(1), o)
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
	auto       bool     // no -unit: judge sec/sim if both files have it, else sec/op
	ignore     string   // keys to ignore
	confidence float64  // of the printed ranges
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
	case o.units != nil && len(o.units) == 0:
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
