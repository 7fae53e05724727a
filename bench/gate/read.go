package main

import (
	"fmt"
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

// read reads both files and gathers the samples of every benchmark and
// selected unit, by table and row. It returns an error for bad input.
func read(oldPath, newPath string, o options) (*samples, error) {
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
	for side, path := range []string{oldPath, newPath} {
		files := benchfmt.Files{Paths: []string{path}}
		for files.Scan() {
			res, ok := files.Result().(*benchfmt.Result)
			if !ok {
				continue // syntax errors in benchmark output are skipped, as benchstat does
			}
			if ok, _ := filter.Apply(res); !ok {
				continue
			}
			tables := tableBy.ProjectValues(res)
			rowKey := rowBy.Project(res)
			for i, v := range res.Values {
				unit := tables[i].Get(unitField)
				seenUnits[unit] = true
				if o.units != nil && !slices.Contains(o.units, unit) {
					continue
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
		if err := files.Err(); err != nil {
			return nil, err
		}
		for k, v := range files.Units() {
			units[k] = v
		}
	}
	return &samples{cells: order, units: units, seenUnits: seenUnits, unitField: unitField}, nil
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

// pickUnit keeps the cells of the unit the gate judges by default: sec/sim
// (ns/sim, package bench's unit) if some benchmark has it in both files,
// else sec/op.
func (s *samples) pickUnit() string {
	unit := tidy("sec/op")
	for _, c := range s.cells {
		if c.unit == tidy("ns/sim") && len(c.old) > 0 && len(c.new) > 0 {
			unit = c.unit
			break
		}
	}
	s.cells = slices.DeleteFunc(s.cells, func(c *cell) bool { return c.unit != unit })
	return unit
}
