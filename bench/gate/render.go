package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
)

// print writes the tables, the notes and the verdict.
func (r *report) print(w io.Writer) {
	if r.chosen != nil {
		fmt.Fprintf(w, "gate: judging %s, %s (-unit chooses others)\n", strings.Join(r.chosen, ", "), r.why)
	}
	lastTable := "\x00"
	for _, g := range r.geomeans {
		if g.table != lastTable {
			fmt.Fprint(w, g.table)
			lastTable = g.table
		}
		t := [][]string{{"", "old", "new", "", "", ""}, {"", g.unit, g.unit, "vs base", "", ""}}
		cls := benchunit.ClassOf(g.unit)
		for _, x := range r.rows {
			if x.table != g.table || x.unit != g.unit {
				continue
			}
			sc := benchunit.CommonScale([]float64{x.old.Center, x.new.Center}, cls)
			t = append(t, []string{x.name, withRange(sc, x.old), withRange(sc, x.new),
				x.cmp.FormatDelta(x.old.Center, x.new.Center), "(" + x.cmp.String() + ")", x.mark()})
		}
		if g.ok {
			sc := benchunit.CommonScale([]float64{g.old, g.new}, cls)
			t = append(t, []string{"geomean", sc.Format(g.old), sc.Format(g.new),
				fmt.Sprintf("%+.2f%%", signedChange(g)), "", "reported, not judged"})
		}
		writeTable(w, t)
		fmt.Fprintln(w)
	}
	for _, s := range r.onlyOld {
		fmt.Fprintf(w, "note: only in OLD, not judged: %s\n", s)
	}
	for _, s := range r.onlyNew {
		fmt.Fprintf(w, "note: only in NEW, not judged: %s\n", s)
	}
	for _, s := range r.warnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
	fmt.Fprintln(w, r.verdict())
}

// writeTable writes rows of cells in aligned columns: the first column
// (names) and the last (marks) to the left, the numbers to the right.
func writeTable(w io.Writer, t [][]string) {
	var width []int
	for _, row := range t {
		for i, c := range row {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, row := range t {
		var b strings.Builder
		for i, c := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			switch {
			case i == 0:
				b.WriteString(c + pad)
			case i == len(row)-1:
				b.WriteString("  " + c)
			default:
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// withRange formats a summary as benchstat does, "center ± pct", or the
// center alone when the samples give no range at the confidence level
// (a warning says so): never "± ∞".
func withRange(sc benchunit.Scaler, s benchmath.Summary) string {
	if infinite(s) {
		return sc.Format(s.Center)
	}
	return sc.Format(s.Center) + " ± " + s.PctRangeString()
}

// mark is a row's last column: the regressions the gate fails on, and the
// speed-ups beyond the threshold.
func (x row) mark() string {
	switch {
	case x.regression:
		return "REGRESSION: " + speedWords(x.slowdown)
	case x.speedup:
		return speedWords(x.slowdown)
	}
	return ""
}

// speedWords says a slowdown in percent in words: "12.0% slower" or, for a
// negative one, "14.0% faster"; the time-like size of the change either way.
func speedWords(slowdown float64) string {
	switch {
	case slowdown > 0:
		return fmt.Sprintf("%.1f%% slower", slowdown)
	case slowdown < 0:
		return fmt.Sprintf("%.1f%% faster", -slowdown)
	}
	return "no change"
}

// signedChange is the geomean's change as benchstat prints it, new/old − 1,
// whatever the unit's direction.
func signedChange(g geomean) float64 {
	return (g.new/g.old - 1) * 100
}

// verdict is the one-line summary: PASS or FAIL by the benchmarks alone,
// the speed-ups, and the geomean for information.
func (r *report) verdict() string {
	var units []string
	var bad []row
	faster := 0
	for _, x := range r.rows {
		if !slices.Contains(units, x.unit) {
			units = append(units, x.unit)
		}
		if x.regression {
			bad = append(bad, x)
		}
		if x.speedup {
			faster++
		}
	}
	var geo []string
	for _, g := range r.geomeans {
		if g.ok {
			geo = append(geo, g.unit+" "+speedWords(g.slowdown))
		}
	}
	crit := fmt.Sprintf("slower by more than %g%% at p < %g", r.o.threshold, r.o.alpha)
	what := fmt.Sprintf("%s (%s)", count(len(r.rows), "comparison"), strings.Join(units, ", "))
	var parts []string
	if len(bad) == 0 {
		parts = append(parts, fmt.Sprintf("gate: PASS: %s, none %s", what, crit))
	} else {
		worst := slices.MaxFunc(bad, func(a, b row) int { return cmpFloat(a.slowdown, b.slowdown) })
		parts = append(parts, fmt.Sprintf("gate: FAIL: %d of %s %s (worst %s, %s, %s)",
			len(bad), what, crit, worst.name, worst.unit, speedWords(worst.slowdown)))
	}
	if faster > 0 {
		parts = append(parts, fmt.Sprintf("%d faster by more than %g%% at p < %g", faster, r.o.threshold, r.o.alpha))
	}
	if len(geo) > 0 {
		parts = append(parts, "geomean "+strings.Join(geo, ", ")+" (not judged)")
	}
	return strings.Join(parts, "; ")
}

// count says n of noun in words: "1 comparison", "4 comparisons".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// cmpFloat orders floats, +Inf last.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
