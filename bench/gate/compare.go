package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
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

// row is the comparison of one benchmark and unit.
type row struct {
	name       string
	unit       string
	table      string // file-level configuration, for the table header
	old, new   benchmath.Summary
	cmp        benchmath.Comparison
	rawOld     []float64 // samples in file order: replicate i is the i-th run
	rawNew     []float64
	higher     bool    // higher is better in this unit
	slowdown   float64 // percent; > 0 is slower
	regression bool
}

// geomean is the summary row of one table.
type geomean struct {
	table, unit string
	old, new    float64 // geomeans of the medians
	slowdown    float64 // percent, from the geomean of the ratios
	ok          bool    // false when a median is ≤ 0: no geomean
	p           float64 // one-sided p of the replicates' permutation test
	n1, n2      int     // replicates on each side
	tested      bool    // p is set
	regression  bool
}

// report is the outcome of a comparison.
type report struct {
	o        options
	rows     []row
	geomeans []geomean
	onlyOld  []string
	onlyNew  []string
	warnings []string
}

// failed reports whether anything regressed.
func (r *report) failed() bool {
	for _, x := range r.rows {
		if x.regression {
			return true
		}
	}
	for _, g := range r.geomeans {
		if g.regression {
			return true
		}
	}
	return false
}

// compare reads both files and compares every benchmark and selected unit
// they share. It returns an error for bad input and for no shared data.
func compare(oldPath, newPath string, o options) (*report, error) {
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

	r := &report{o: o}
	thresholds := benchmath.DefaultThresholds
	thresholds.CompareAlpha = o.alpha
	for _, c := range order {
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
		if p := minP(assume, len(c.old), len(c.new), &thresholds); p >= o.alpha {
			return nil, fmt.Errorf("%s (%s): %d old and %d new samples, too few for p < %v (the best possible p is %.3g); run more, e.g. -count 10",
				name, c.unit, len(c.old), len(c.new), o.alpha, p)
		}
		oldS := benchmath.NewSample(slices.Clone(c.old), &thresholds) // NewSample sorts
		newS := benchmath.NewSample(slices.Clone(c.new), &thresholds)
		x := row{
			rawOld: c.old,
			rawNew: c.new,
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
		x.regression = x.cmp.P < o.alpha && x.slowdown > o.threshold
		r.rows = append(r.rows, x)
	}
	if len(r.rows) == 0 {
		return nil, noData(o, seenUnits, r)
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
// per-benchmark ratios for the change.
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
			g.p, g.n1, g.n2, g.tested = replicateTest(rows)
			g.regression = g.slowdown > r.o.threshold && g.tested && g.p < r.o.alpha
		}
		r.geomeans = append(r.geomeans, g)
	}
}

// replicateTest tests whether the geomean got slower. Replicate i of a
// file is the geomean over the benchmarks of their i-th samples: in the
// output of scripts/benchcmp.sh, round i. The test is a one-sided
// permutation test of the difference of the two sides' median replicates
// (in logs, inverted for units where higher is better): its p is the share
// of the ways of splitting the pooled replicates into two groups of the
// same sizes whose medians differ at least as much. Medians make it robust
// to bursts of load from other jobs, which on a shared machine slow whole
// rounds of one side by half; benchstat's U test on the geomean's own
// replicates lost a 20% slowdown to three such rounds. It reports false
// when a side has fewer than two replicates or a value ≤ 0.
func replicateTest(rows []row) (p float64, n1, n2 int, ok bool) {
	side := func(raw func(row) []float64) ([]float64, bool) {
		m := math.MaxInt
		for _, x := range rows {
			m = min(m, len(raw(x)))
		}
		g := make([]float64, m)
		for i := range g {
			for _, x := range rows {
				v := raw(x)[i]
				if v <= 0 {
					return nil, false
				}
				l := math.Log(v)
				if x.higher {
					l = -l
				}
				g[i] += l / float64(len(rows))
			}
		}
		return g, m >= 2
	}
	o, ok1 := side(func(x row) []float64 { return x.rawOld })
	nw, ok2 := side(func(x row) []float64 { return x.rawNew })
	if !ok1 || !ok2 {
		return 1, 0, 0, false
	}
	return permutationMedianGreater(o, nw), len(o), len(nw), true
}

// permutationMedianGreater is the one-sided p-value of a permutation test
// that b's median exceeds a's: exact over every split of the pooled values
// when there are at most a million, else from a million splits drawn with
// a fixed seed.
func permutationMedianGreater(a, b []float64) float64 {
	observed := median(b) - median(a)
	pool := slices.Concat(a, b)
	n, k := len(pool), len(a)
	ga, gb := make([]float64, k), make([]float64, n-k)
	const budget = 1_000_000
	// count tests one split, given by which pooled values go to a.
	hits, total := 0, 0
	count := func(inA func(i int) bool) {
		ga, gb = ga[:0], gb[:0]
		for i, v := range pool {
			if inA(i) {
				ga = append(ga, v)
			} else {
				gb = append(gb, v)
			}
		}
		// Allow for rounding: the observed split itself must count.
		if median(gb)-median(ga) >= observed-1e-12 {
			hits++
		}
		total++
	}
	if binomial(n, k) <= budget {
		idx := make([]int, k) // the current combination, increasing
		for i := range idx {
			idx[i] = i
		}
		in := make([]bool, n)
		for {
			clear(in)
			for _, i := range idx {
				in[i] = true
			}
			count(func(i int) bool { return in[i] })
			j := k - 1
			for j >= 0 && idx[j] == n-k+j {
				j--
			}
			if j < 0 {
				break
			}
			idx[j]++
			for l := j + 1; l < k; l++ {
				idx[l] = idx[l-1] + 1
			}
		}
	} else {
		rng := rand.New(rand.NewPCG(1, 2))
		perm := make([]int, n)
		in := make([]bool, n)
		for range budget {
			for i := range perm {
				perm[i] = i
			}
			rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			clear(in)
			for _, i := range perm[:k] {
				in[i] = true
			}
			count(func(i int) bool { return in[i] })
		}
	}
	return float64(hits) / float64(total)
}

// median is the median of v, which it does not change.
func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// binomial is n choose k, saturating above 1e18.
func binomial(n, k int) float64 {
	r := 1.0
	for i := range k {
		r = r * float64(n-i) / float64(i+1)
		if r > 1e18 {
			return r
		}
	}
	return r
}

// print writes the tables, the notes and the verdict.
func (r *report) print(w io.Writer) {
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
