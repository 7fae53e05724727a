package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
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
	chosen   string // the unit picked when -unit was not given
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
	s, err := read(oldPath, newPath, o)
	if err != nil {
		return nil, err
	}
	units, unitField := s.units, s.unitField

	r := &report{o: o}
	if o.auto {
		r.chosen = s.pickUnit()
		r.o.units = []string{r.chosen}
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
