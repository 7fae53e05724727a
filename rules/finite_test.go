package rules_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// gridSpecs returns every rule of the catalogue at its defaults and with
// each numeric parameter at either end of its range (the nearest value
// inside for an open end), and threshold around each rule.
func gridSpecs() []string {
	var specs []string
	for _, e := range rules.All() {
		specs = append(specs, e.Name)
		for _, p := range e.Params {
			if p.Inner {
				continue
			}
			lo, hi := p.Min, p.Max
			if p.MinOpen {
				lo = math.Nextafter(lo, hi)
			}
			if p.MaxOpen {
				hi = math.Nextafter(hi, lo)
			}
			for _, v := range []float64{lo, hi} {
				specs = append(specs, e.Name+":"+p.Name+"="+formatFloat(v))
			}
		}
		if e.Name != "threshold" {
			specs = append(specs, "threshold:rule="+e.Name)
		}
	}
	return specs
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// gridKids are children with extreme statistics (max's perspective).
var gridKids = []core.Stats{
	{},
	{Visits: 1},
	{Visits: 1, W: 1},
	{Visits: math.MaxUint32, W: math.MaxUint32},
	{Visits: math.MaxUint32},
	huge,
	{HasPrior: true, Prior: -math.MaxFloat64},
	{HasPrior: true, Prior: math.MaxFloat64},
	{HasPrior: true, Prior: -1},
	{Visits: 3, W: 2, HasPrior: true, Prior: 1e300},
	{AMAFVisits: 1},
	{AMAFVisits: 1, AMAFW: 1},
	{AMAFVisits: math.MaxUint32, AMAFW: math.MaxUint32},
	{Visits: 5, W: 5, AMAFVisits: 7},
}

// gridVirtual are children with virtual experience, reachable only for
// rules that give it (see TestFiniteScores).
var gridVirtual = []core.Stats{
	{K1: 5e-324, K2: 5e-324},
	{K1: 5e-324},
	{K1: 1e300},
	{Visits: math.MaxUint32, W: 1, K1: 1e300, K2: 1e300},
	{Visits: 2, W: 1, K1: 10, K2: 10},
}

var gridSelves = []core.Stats{
	{},
	{Visits: 1, W: 1},
	{Visits: math.MaxUint32},
	{Visits: math.MaxUint32, W: math.MaxUint32 / 3, K1: 1e300, K2: 1e299},
}

// gridSites lists child lists: each child alone, neighbours in pairs, all
// unvisited, and the whole pool.
func gridLists(pool []core.Stats) [][]core.Stats {
	var lists [][]core.Stats
	for i := range pool {
		lists = append(lists, pool[i:i+1])
		if i+1 < len(pool) {
			lists = append(lists, pool[i:i+2])
		}
	}
	return append(lists, []core.Stats{{}, {}, {}}, pool)
}

// TestFiniteScores runs every rule of gridSpecs on every site of the grid:
// scores must be finite and Select must agree with core.ArgmaxScore;
// stochastic rules must give finite probabilities that sum to 1 and pick a
// child with a chance; every rule must return an index in range.
//
// Children with virtual experience are left out for rules built on UCT:
// core.UCT's sqrt(ln n(F)/n) overflows for a virtual count near 5e-324,
// which no search with UCT can produce (UCT gives no virtual experience).
func TestFiniteScores(t *testing.T) {
	var probs []float64
	for _, spec := range gridSpecs() {
		in, err := rules.Parse(spec)
		if err != nil {
			t.Fatalf("Parse(%q): %v", spec, err)
		}
		pool := gridKids
		if !strings.HasPrefix(in.Spec, "uct") && !strings.Contains(in.Spec, "rule=uct") {
			pool = append(append([]core.Stats(nil), gridKids...), gridVirtual...)
		}
		failures := 0
		for _, kind := range []core.Kind{core.Max, core.Min} {
			for _, self := range gridSelves {
				for _, kids := range gridLists(pool) {
					for _, tt := range []int64{0, math.MaxInt64} {
						s, err := core.NewSite(kind, self, kids, tt, core.NewRNG(3))
						if err != nil {
							t.Fatal(err)
						}
						bad := func(format string, args ...any) {
							t.Helper()
							if failures++; failures <= 5 {
								t.Errorf("%s at %v %+v %+v: "+format, append([]any{in.Spec, kind, self, kids}, args...)...)
							}
						}
						sel := in.Rule.Select(s)
						if sel < 0 || sel >= s.Len() {
							bad("Select = %d", sel)
							continue
						}
						switch r := in.Rule.(type) {
						case core.Scorer:
							for i := range s.Len() {
								if v := r.Score(s, i); math.IsNaN(v) || math.IsInf(v, 0) {
									bad("Score(%d) = %v", i, v)
								}
							}
							if a := core.ArgmaxScore(s, r); a != sel {
								bad("Select = %d, ArgmaxScore = %d", sel, a)
							}
						case core.Stochastic:
							probs = r.Probs(s, probs)
							sum := 0.0
							for i, p := range probs {
								if !(p >= 0 && p <= 1) {
									bad("Probs[%d] = %v", i, p)
								}
								sum += p
							}
							if math.Abs(sum-1) > 1e-9 || len(probs) != s.Len() {
								bad("Probs = %v, sum %v", probs, sum)
							}
							if probs[sel] == 0 {
								bad("Select = %d, whose probability is 0 in %v", sel, probs)
							}
						}
					}
				}
			}
		}
	}
}

// TestGumbelZeroPolicyFinite: a child of policy 0 (no prior among children
// with priors summing to 1) whose completed value exceeds the others' by a
// hair, at counts where σ's scale is huge, has weight 0 in the softmax,
// not 0·∞ = NaN. The limit probe met that site on a trap of the presets.
func TestGumbelZeroPolicyFinite(t *testing.T) {
	const k = 20
	kids := make([]core.Stats, k)
	for i := range k - 1 {
		kids[i] = core.Stats{Visits: 231659798528, W: 0.75 * 231659798528, HasPrior: true, Prior: 1.0 / (k - 1)}
	}
	self := core.Stats{Visits: 4398046511104, W: 0.75 * 4398046511104}
	s, err := core.NewSite(core.Max, self, kids, 4398046511104, core.NewRNG(1))
	if err != nil {
		t.Fatal(err)
	}
	r := rules.MustParse("mctx-gumbel").Rule.(core.Scorer)
	for i := range k {
		if v := r.Score(s, i); math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("Score(%d) = %v", i, v)
		}
	}
}
