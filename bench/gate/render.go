package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/perf/benchunit"
)

// print writes the tables, the notes and the verdict.
func (r *report) print(w io.Writer) {
	switch r.chosen {
	case "":
	case tidy("ns/sim"):
		fmt.Fprintf(w, "gate: judging %s, the time per simulation (-unit chooses others)\n", r.chosen)
	default:
		fmt.Fprintf(w, "gate: judging %s, no benchmark has ns/sim in both files (-unit chooses others)\n", r.chosen)
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
			mark := ""
			if x.regression {
				mark = fmt.Sprintf("SLOWER %.1f%%", x.slowdown)
			}
			t = append(t, []string{x.name,
				sc.Format(x.old.Center) + " ± " + x.old.PctRangeString(),
				sc.Format(x.new.Center) + " ± " + x.new.PctRangeString(),
				x.cmp.FormatDelta(x.old.Center, x.new.Center), "(" + x.cmp.String() + ")", mark})
		}
		if g.ok {
			sc := benchunit.CommonScale([]float64{g.old, g.new}, cls)
			mark := ""
			if g.regression {
				mark = fmt.Sprintf("SLOWER %.1f%%", g.slowdown)
			}
			test := ""
			if g.tested {
				test = fmt.Sprintf("(p=%.3f n=%d+%d perm)", g.p, g.n1, g.n2)
			}
			t = append(t, []string{"geomean", sc.Format(g.old), sc.Format(g.new),
				fmt.Sprintf("%+.2f%%", signedChange(g)), test, mark})
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

// signedChange is the geomean's change as benchstat prints it, new/old − 1,
// whatever the unit's direction.
func signedChange(g geomean) float64 {
	return (g.new/g.old - 1) * 100
}

// verdict is the one-line summary.
func (r *report) verdict() string {
	var units []string
	var bad []row
	for _, x := range r.rows {
		if !slices.Contains(units, x.unit) {
			units = append(units, x.unit)
		}
		if x.regression {
			bad = append(bad, x)
		}
	}
	var badGeo []string
	geo := make([]string, 0, len(r.geomeans))
	for _, g := range r.geomeans {
		if !g.ok {
			continue
		}
		s := fmt.Sprintf("%s %+.1f%%", g.unit, g.slowdown)
		geo = append(geo, s)
		if g.regression {
			badGeo = append(badGeo, s)
		}
	}
	crit := fmt.Sprintf("slower by more than %g%% at p < %g", r.o.threshold, r.o.alpha)
	what := fmt.Sprintf("%d comparisons (%s)", len(r.rows), strings.Join(units, ", "))
	geoText := "geomean slowdown " + strings.Join(geo, ", ")
	if len(bad) == 0 && len(badGeo) == 0 {
		return fmt.Sprintf("gate: PASS: %s, none %s; %s (limit %g%%)", what, crit, geoText, r.o.threshold)
	}
	var parts []string
	if len(bad) > 0 {
		worst := slices.MaxFunc(bad, func(a, b row) int { return cmpFloat(a.slowdown, b.slowdown) })
		parts = append(parts, fmt.Sprintf("%d of %s %s (worst %s %+.1f%% %s)",
			len(bad), what, crit, worst.name, worst.slowdown, worst.unit))
	}
	if len(badGeo) > 0 {
		parts = append(parts, fmt.Sprintf("geomean slower by more than %g%% at p < %g: %s", r.o.threshold, r.o.alpha, strings.Join(badGeo, ", ")))
	} else {
		parts = append(parts, geoText)
	}
	return "gate: FAIL: " + strings.Join(parts, "; ")
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
