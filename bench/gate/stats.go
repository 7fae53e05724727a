package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// row is the comparison of one benchmark and unit.
type row struct {
	name       string
	unit       string
	table      string // file-level configuration, for the table header
	old, new   benchmath.Summary
	cmp        benchmath.Comparison
	higher     bool    // higher is better in this unit
	slowdown   float64 // percent; > 0 is slower, < 0 faster
	regression bool    // significant and slower by more than the threshold
	speedup    bool    // significant and faster by more than the threshold
	noRange    bool    // a side has no range at the -confidence level
}

// geomean is the summary row of one table.
type geomean struct {
	table, unit string
	old, new    float64 // geomeans of the medians
	slowdown    float64 // percent, from the geomean of the ratios; < 0 is faster
	ok          bool    // false when a median is ≤ 0: no geomean
}

// report is the outcome of a comparison.
type report struct {
	o        options
	rows     []row
	geomeans []geomean
	onlyOld  []string
	onlyNew  []string
	warnings []string
	chosen   []string // the units picked when -unit was not given
	why      string   // why they were picked
}

// failed reports whether anything regressed.
func (r *report) failed() bool {
	for _, x := range r.rows {
		if x.regression {
			return true
		}
	}
	return false
}

// compare reads both inputs (OLD and NEW, as read takes them) and compares
// every benchmark and selected unit they share. It returns an error for
// bad input and for no shared data.
func compare(args [2]string, stdin io.Reader, o options, warn func(string)) (*report, error) {
	s, err := read(args, stdin, o, warn)
	if err != nil {
		return nil, err
	}
	units, unitField := s.units, s.unitField

	r := &report{o: o}
	if o.auto {
		r.chosen, r.why = s.pickUnits()
		r.o.units = r.chosen
	}
	thresholds := benchmath.DefaultThresholds
	thresholds.CompareAlpha = o.alpha
	for _, c := range s.cells {
		name := c.key.row.StringValues()
		switch {
		case len(c.new) == 0:
			r.onlyOld = append(r.onlyOld, name+" ("+c.unit+")")
			continue
		case len(c.old) == 0:
			r.onlyNew = append(r.onlyNew, name+" ("+c.unit+")")
			continue
		}
		assume := units.GetAssumption(c.unit)
		if assume != benchmath.AssumeExact && min(len(c.old), len(c.new)) < minSamples {
			return nil, fmt.Errorf("%s (%s): %d old and %d new samples; the gate needs at least %d a side, as scripts/benchcmp.sh runs them (go test -count %d)",
				name, c.unit, len(c.old), len(c.new), minSamples, minSamples)
		}
		if p := minP(assume, len(c.old), len(c.new), &thresholds); p >= o.alpha {
			return nil, fmt.Errorf("%s (%s): %d old and %d new samples, too few for p < %v (the best possible p is %.3g); run more, e.g. -count 10",
				name, c.unit, len(c.old), len(c.new), o.alpha, p)
		}
		oldS := benchmath.NewSample(slices.Clone(c.old), &thresholds) // NewSample sorts
		newS := benchmath.NewSample(slices.Clone(c.new), &thresholds)
		x := row{
			name:   name,
			unit:   c.unit,
			table:  configText(c.key.table, unitField),
			old:    assume.Summary(oldS, o.confidence),
			new:    assume.Summary(newS, o.confidence),
			cmp:    assume.Compare(oldS, newS),
			higher: higherIsBetter(units, c.unit),
		}
		for _, w := range slices.Concat(oldS.Warnings, newS.Warnings, x.cmp.Warnings) {
			if w.Error() == "all samples are equal" {
				continue // usual for B/node and allocs, and harmless
			}
			r.warnings = append(r.warnings, fmt.Sprintf("%s (%s): %v", name, c.unit, w))
		}
		x.slowdown = slowdown(x.old.Center, x.new.Center, x.higher)
		significant := x.cmp.P < o.alpha
		x.regression = significant && x.slowdown > o.threshold
		x.speedup = significant && -x.slowdown > o.threshold
		if x.noRange = infinite(x.old) || infinite(x.new); x.noRange {
			r.warnings = append(r.warnings, fmt.Sprintf("%s (%s): %d and %d samples give no %g%% range of the median (-confidence); the test is unaffected",
				name, c.unit, len(c.old), len(c.new), 100*o.confidence))
		}
		r.rows = append(r.rows, x)
	}
	if len(r.rows) == 0 {
		return nil, noData(r.o, s.seenUnits, r)
	}
	r.summarise()
	return r, nil
}

// noData explains why nothing was compared.
func noData(o options, seenUnits map[string]bool, r *report) error {
	var b strings.Builder
	b.WriteString("no benchmark and unit is in both files")
	if o.filter != "*" {
		fmt.Fprintf(&b, " after -filter %q", o.filter)
	}
	if o.units != nil {
		fmt.Fprintf(&b, " with -unit %s", strings.Join(o.units, ","))
	}
	if len(seenUnits) > 0 {
		var us []string
		for u := range seenUnits {
			us = append(us, u)
		}
		slices.Sort(us)
		fmt.Fprintf(&b, " (units in the files: %s)", strings.Join(us, ", "))
	}
	if len(r.onlyOld)+len(r.onlyNew) > 0 {
		fmt.Fprintf(&b, "; %d only in OLD, %d only in NEW (different configurations? see -ignore)", len(r.onlyOld), len(r.onlyNew))
	}
	return errors.New(b.String())
}

// minSamples is the fewest samples a side the gate judges (except in units
// the files declare exact): benchstat's U test can reach p < 0.05 with 4,
// but with fewer than 10 one burst of load on a shared machine decides it,
// and the 95% range of a median needs 6.
const minSamples = 10

// infinite reports whether a summary has no finite range: too few samples
// for its confidence level.
func infinite(s benchmath.Summary) bool {
	return math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0)
}

// minP is the smallest p-value the assumption's test can give samples of
// sizes n1 and n2: that of two samples that do not overlap at all.
func minP(a benchmath.Assumption, n1, n2 int, t *benchmath.Thresholds) float64 {
	x, y := make([]float64, n1), make([]float64, n2)
	for i := range x {
		x[i] = float64(i)
	}
	for i := range y {
		y[i] = float64(n1 + i)
	}
	return a.Compare(benchmath.NewSample(x, t), benchmath.NewSample(y, t)).P
}

// higherIsBetter says whether a higher value of unit is an improvement: as the
// file's metadata or benchfmt's defaults say, else for rates (units ending
// in "/s"); every other unit is a cost.
func higherIsBetter(m benchfmt.UnitMetadataMap, unit string) bool {
	switch m.GetBetter(unit) {
	case 1:
		return true
	case -1:
		return false
	}
	return strings.HasSuffix(unit, "/s")
}

// slowdown is how much slower new is than old, in percent: the increase of
// a cost, or the decrease of a rate expressed as old/new − 1.
func slowdown(old, new float64, higher bool) float64 {
	if higher {
		old, new = new, old
	}
	switch {
	case old == new:
		return 0
	case old == 0:
		return math.Inf(1)
	}
	return (new/old - 1) * 100
}

// summarise adds the geomean row of every table, as benchstat computes it:
// the geomean of the medians of each side, and the geomean of the
// per-benchmark ratios for the change. The geomean is reported, never
// judged: a run regresses only through a benchmark (see package doc).
func (r *report) summarise() {
	type tk struct{ table, unit string }
	var keys []tk
	groups := map[tk][]row{}
	for _, x := range r.rows {
		k := tk{x.table, x.unit}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], x)
	}
	for _, k := range keys {
		rows := groups[k]
		g := geomean{table: k.table, unit: k.unit, ok: true}
		logOld, logNew, logRatio := 0.0, 0.0, 0.0
		for _, x := range rows {
			if x.old.Center <= 0 || x.new.Center <= 0 {
				g.ok = false
				break
			}
			logOld += math.Log(x.old.Center)
			logNew += math.Log(x.new.Center)
			ratio := x.new.Center / x.old.Center
			if x.higher {
				ratio = 1 / ratio
			}
			logRatio += math.Log(ratio)
		}
		if g.ok {
			n := float64(len(rows))
			g.old, g.new = math.Exp(logOld/n), math.Exp(logNew/n)
			g.slowdown = (math.Exp(logRatio/n) - 1) * 100
		}
		r.geomeans = append(r.geomeans, g)
	}
}
