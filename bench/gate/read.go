package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"
	"golang.org/x/perf/benchunit"
)

// tidy returns the unit as benchfmt stores it: ns/sim becomes sec/sim.
func tidy(unit string) string {
	_, u := benchunit.Tidy(1, unit)
	return u
}

// cellKey identifies one benchmark and unit: the table (file-level
// configuration and unit) and the row (full benchmark name).
type cellKey struct {
	table, row benchproc.Key
}

// cell holds the samples of one benchmark and unit from each file.
type cell struct {
	key      cellKey
	unit     string
	old, new []float64
}

// samples is what read gathered from both files.
type samples struct {
	cells     []*cell                  // in the order the files first name them
	units     benchfmt.UnitMetadataMap // the files' unit metadata
	seenUnits map[string]bool          // every unit in the files, selected or not
	unitField *benchproc.Field         // the unit in a cell's table key
}

// input is one of the gate's two arguments, as benchstat reads them:
// FILE, - for standard input, or NAME=FILE (NAME=- too), whose NAME stands
// for the file in messages.
type input struct {
	side string // "OLD" or "NEW"
	name string // NAME, else the path, else "standard input"
	path string // "-" for standard input
}

// parseInput reads the argument of side as an input.
func parseInput(side, arg string) input {
	in := input{side: side, name: arg, path: arg}
	if label, path, ok := strings.Cut(arg, "="); ok {
		in.name, in.path = label, path
	}
	if in.name == "-" {
		in.name = "standard input"
	}
	return in
}

// open opens the input, stdin for "-".
func (in input) open(stdin io.Reader) (io.ReadCloser, error) {
	if in.path == "-" {
		return io.NopCloser(stdin), nil
	}
	return os.Open(in.path)
}

// maxSyntaxWarnings bounds the lines that do not parse that the gate
// lists; it counts the rest.
const maxSyntaxWarnings = 10

// read reads both inputs and gathers the samples of every benchmark and
// selected unit, by table and row. Lines that do not parse are skipped, as
// benchstat skips them, and passed to warn. It returns an error for bad
// input: a file that cannot be read, both inputs on standard input, and a
// sample of a selected unit that is not a finite number ≥ 0.
func read(args [2]string, stdin io.Reader, o options, warn func(string)) (*samples, error) {
	ins := [2]input{parseInput("OLD", args[0]), parseInput("NEW", args[1])}
	if ins[0].path == "-" && ins[1].path == "-" {
		return nil, errors.New("OLD and NEW are both standard input (-): at most one can be")
	}
	filter, err := benchproc.NewFilter(o.filter)
	if err != nil {
		return nil, fmt.Errorf("-filter: %v", err)
	}
	var parser benchproc.ProjectionParser
	tableBy, unitField, err := parser.ParseWithUnit(".config", filter)
	if err != nil {
		return nil, err
	}
	rowBy, err := parser.Parse(".fullname", filter)
	if err != nil {
		return nil, err
	}
	// Project .file away from .config, as benchstat's -col .file does, so
	// that the two files' results meet in the same tables.
	if _, err := parser.Parse(".file", filter); err != nil {
		return nil, err
	}
	if o.ignore != "" {
		if _, err := parser.Parse(o.ignore, filter); err != nil {
			return nil, fmt.Errorf("-ignore: %v", err)
		}
	}

	cells := map[cellKey]*cell{}
	var order []*cell
	units := benchfmt.UnitMetadataMap{}
	seenUnits := map[string]bool{}
	syntaxErrors := 0
	var reader benchfmt.Reader
	for side, in := range ins {
		f, err := in.open(stdin)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		reader.Reset(f, in.name, ".file", in.side)
		for reader.Scan() {
			var res *benchfmt.Result
			switch rec := reader.Result().(type) {
			case *benchfmt.SyntaxError:
				if syntaxErrors++; syntaxErrors <= maxSyntaxWarnings {
					warn(fmt.Sprintf("%v (line skipped)", rec))
				}
				continue
			case *benchfmt.Result:
				res = rec
			default:
				continue
			}
			if ok, _ := filter.Apply(res); !ok {
				continue
			}
			retidy(res.Values)
			tables := tableBy.ProjectValues(res)
			rowKey := rowBy.Project(res)
			for i, v := range res.Values {
				unit := tables[i].Get(unitField)
				seenUnits[unit] = true
				if !o.selects(unit) {
					continue
				}
				if err := checkSample(res, v, in); err != nil {
					return nil, err
				}
				k := cellKey{tables[i], rowKey}
				c := cells[k]
				if c == nil {
					c = &cell{key: k, unit: unit}
					cells[k] = c
					order = append(order, c)
				}
				if side == 0 {
					c.old = append(c.old, v.Value)
				} else {
					c.new = append(c.new, v.Value)
				}
			}
		}
		if err := reader.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", in.name, err)
		}
		for k, v := range reader.Units() {
			units[k] = v
		}
	}
	if syntaxErrors > maxSyntaxWarnings {
		warn(fmt.Sprintf("%d more lines that do not parse skipped", syntaxErrors-maxSyntaxWarnings))
	}
	return &samples{cells: order, units: units, seenUnits: seenUnits, unitField: unitField}, nil
}

// retidy tidies the values that benchfmt left in their original unit:
// benchfmt tidies a value only when tidying changes it, so 0 ns/op and
// +Inf ns/op stay in ns/op, apart from the other samples in sec/op.
func retidy(vs []benchfmt.Value) {
	for i, v := range vs {
		if v.OrigUnit != "" {
			continue
		}
		if tv, tu := benchunit.Tidy(v.Value, v.Unit); tu != v.Unit {
			vs[i] = benchfmt.Value{Value: tv, Unit: tu, OrigValue: v.Value, OrigUnit: v.Unit}
		}
	}
}

// checkSample refuses a sample that is not a finite number ≥ 0: the gate
// compares medians by their ratio, which means nothing for a negative
// time, and benchstat's U test never ends on NaN.
func checkSample(res *benchfmt.Result, v benchfmt.Value, in input) error {
	x, unit := v.Value, v.Unit
	if v.OrigUnit != "" {
		x, unit = v.OrigValue, v.OrigUnit
	}
	var why string
	switch {
	case math.IsNaN(x):
		why = "is not a number"
	case math.IsInf(x, 0):
		why = "is infinite"
	case x < 0:
		why = "is negative"
	default:
		return nil
	}
	file, line := res.Pos()
	return fmt.Errorf("%s:%d (%s): Benchmark%s: the sample %v %s %s; the gate compares finite measurements ≥ 0 (times, sizes, counts, rates)",
		file, line, in.side, res.Name, x, unit, why)
}

// configText is a table's file-level configuration, one "key: value" line
// each, as benchstat prints it above a table.
func configText(k benchproc.Key, unitField *benchproc.Field) string {
	var b strings.Builder
	for _, f := range k.Projection().FlattenedFields() {
		if f == unitField {
			continue
		}
		if v := k.Get(f); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", f.Name, v)
		}
	}
	return b.String()
}

// pickUnits keeps the cells of the units the gate judges by default, and
// says why: sec/sim (ns/sim, package bench's unit, the thread's CPU time per
// simulation) if some benchmark has it in both files; else every CPU time
// (cpu-ns/op and the like) that some benchmark has in both files, since
// other jobs on a shared machine stretch wall-clock time far more than CPU
// time; else sec/op, the wall-clock time every Go benchmark reports.
func (s *samples) pickUnits() (units []string, why string) {
	shared := func(keep func(unit string) bool) []string {
		var us []string
		for _, c := range s.cells {
			if keep(c.unit) && len(c.old) > 0 && len(c.new) > 0 && !slices.Contains(us, c.unit) {
				us = append(us, c.unit)
			}
		}
		return us
	}
	simTime := tidy("ns/sim")
	switch cpu := shared(cpuTime); {
	case len(shared(func(u string) bool { return u == simTime })) > 0:
		units, why = []string{simTime}, "the time per simulation"
	case len(cpu) > 0:
		units, why = cpu, "the CPU time both files report, which the machine's load stretches far less than wall-clock sec/op"
	default:
		units, why = []string{tidy("sec/op")}, "no benchmark has ns/sim or a CPU time (such as cpu-ns/op) in both files"
	}
	s.cells = slices.DeleteFunc(s.cells, func(c *cell) bool { return !slices.Contains(units, c.unit) })
	return units, why
}

// cpuTime reports whether a tidied unit is a CPU time: its numerator names
// cpu and ends in a time, as in cpu-sec/op (from cpu-ns/op), cpu-s/op or
// cpu-s.
func cpuTime(unit string) bool {
	num, _, _ := strings.Cut(unit, "/")
	parts := strings.Split(num, "-")
	last := parts[len(parts)-1]
	return slices.Contains(parts[:len(parts)-1], "cpu") && slices.Contains([]string{"sec", "s", "ms", "us", "µs"}, last)
}
