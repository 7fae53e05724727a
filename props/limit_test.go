package props

import (
	"math"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// The limit probe on hand-made nodes: a max node whose child 0 (value 1 in
// the game) lost its only simulation and whose child 1 has mean m.

// starvedBase is the node after a run of n simulations: child 0 at (1, 0),
// child 1 at (n−1, m·(n−1)).
func starvedBase(n uint64, m float64) *base {
	b := &base{kind: core.Max, t: int64(n), self: core.Stats{Visits: n, W: m * float64(n-1)}}
	b.kids = []core.Stats{{Visits: 1, W: 0}, {Visits: n - 1, W: m * float64(n-1)}}
	b.mean = []float64{0, m}
	b.pmean = b.chooser(b.self)
	return b
}

// greedyRule, ucbNoLogRule: scorers; decayEps: ε-greedy with ε = c/n^p and
// exact probabilities; floorEps: ε = 0.1 + 1/n.
type greedyRule struct{}

func (greedyRule) Select(s *core.Site) int { return core.ArgmaxScore(s, greedyRule{}) }
func (greedyRule) Score(s *core.Site, i int) float64 {
	if m, ok := s.Mean(i); ok {
		return m
	}
	return 1
}

type ucbNoLogRule struct{ c float64 }

func (u ucbNoLogRule) Select(s *core.Site) int { return core.ArgmaxScore(s, u) }
func (u ucbNoLogRule) Score(s *core.Site, i int) float64 {
	m, _ := s.Mean(i)
	return m + u.c/math.Sqrt(max(s.N(i), 1))
}

type epsRule struct{ eps func(n float64) float64 }

func (e epsRule) Select(s *core.Site) int {
	if s.Rand().Float64() < e.eps(s.ParentN()) {
		return s.Rand().IntN(s.Len())
	}
	return greedyRule{}.Select(s)
}
func (e epsRule) Probs(s *core.Site, dst []float64) []float64 {
	eps := min(e.eps(s.ParentN()), 1)
	dst = dst[:0]
	for range s.Len() {
		dst = append(dst, eps/float64(s.Len()))
	}
	dst[greedyRule{}.Select(s)] += 1 - eps
	return dst
}

func TestStarvationInTheLimit(t *testing.T) {
	b := starvedBase(1<<14, 0.5)
	for _, c := range []struct {
		name     string
		rule     core.Rule
		persists bool
		want     string
	}{
		{"greedy", greedyRule{}, true, "stays at 0.5"},
		{"uct c=0.1 returns by 2^38", core.UCT{C: 0.1}, false, "again after about 2^38"},
		{"uct c=0.05 returns past the probe, at e^100 = 2^144", core.UCT{C: 0.05}, false, "extrapolated, the rule picks one again after about 2^144"},
		{"uct c=0.01, extrapolated", core.UCT{C: 0.01}, false, "extrapolated"},
		{"bonus without log: a floor", ucbNoLogRule{0.3}, true, "never simulated again"},
		{"eps 1/n: visited for ever", epsRule{func(n float64) float64 { return 1 / (n + 1) }}, false, "keep being simulated"},
		{"eps 1/n^2: summable", epsRule{func(n float64) float64 { return 1 / ((n + 1) * (n + 1)) }}, true, "summable"},
		{"eps constant", epsRule{func(float64) float64 { return 0.2 }}, false, "keep being simulated"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr, err := newProber(c.rule, b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := pr.starvation(0, []bool{true, false})
			if err != nil {
				t.Fatal(err)
			}
			if got.persists != c.persists || !strings.Contains(got.text, c.want) {
				t.Errorf("persists %v: %s; want %v and %q", got.persists, got.text, c.persists, c.want)
			}
		})
	}
}

// TestShareInTheLimit: Eq. 4 on a min node's view: child 0 clearly worse
// (mean 0.25 against 1) keeps a share or not.
func TestShareInTheLimit(t *testing.T) {
	b := &base{kind: core.Max, t: 1 << 14, self: core.Stats{Visits: 1 << 14, W: 0.9 * (1 << 14)}}
	b.kids = []core.Stats{{Visits: 1 << 11, W: 0.25 * (1 << 11)}, {Visits: 1<<14 - 1<<11, W: 1<<14 - 1<<11}}
	b.mean = []float64{0.25, 1}
	b.pmean = b.chooser(b.self)
	for _, c := range []struct {
		name     string
		rule     core.Rule
		persists bool
	}{
		{"constant eps keeps its share", epsRule{func(float64) float64 { return 0.2 }}, true},
		{"eps = 0.1 + 1/n tends to a floor", epsRule{func(n float64) float64 { return 0.1 + 1/n }}, true},
		{"eps = n^-0.05 vanishes, slowly", epsRule{func(n float64) float64 { return math.Pow(n, -0.05) }}, false},
		{"uct's balance share vanishes", core.UCT{C: 1}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr, err := newProber(c.rule, b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := pr.share(0)
			if err != nil {
				t.Fatal(err)
			}
			if got.persists != c.persists {
				t.Errorf("persists %v: %s; want %v", got.persists, got.text, c.persists)
			}
		})
	}
}

// TestWithMeanSquares: a scaled node keeps its rewards' variance in its sum
// of squares, capped so that NewSite accepts it, and a node without squares
// gets none.
func TestWithMeanSquares(t *testing.T) {
	b := &base{kind: core.Max}
	// 100 rewards of 0.5 and 100 of 0.7: mean 0.6, variance 0.01.
	st := core.Stats{Visits: 200, W: 120, Squares: 100*0.25 + 100*0.49, HasSquares: true}
	got := b.withMean(st, 800, 0.6)
	if want := 800 * (0.01 + 0.36); math.Abs(got.Squares-want) > 1e-9*want {
		t.Errorf("squares at the same mean: %v, want %v", got.Squares, want)
	}
	got = b.withMean(st, 800, 0.995) // the variance must shrink to fit [0,1]
	if v := got.Squares/800 - 0.995*0.995; v > 0.995*0.005+1e-12 {
		t.Errorf("variance %v at mean 0.995, above the bound %v", v, 0.995*0.005)
	}
	kid := b.withMean(st, 400, 0.3)
	if _, err := core.NewSiteAt(core.Max, 0, got, []core.Stats{kid, got}, 1200, core.NewRNG(1)); err != nil {
		t.Errorf("NewSiteAt refuses the scaled squares: %v", err)
	}
	if plain := b.withMean(core.Stats{Visits: 10, W: 5}, 40, 0.5); plain.HasSquares || plain.Squares != 0 {
		t.Errorf("a node without squares got %+v", plain)
	}
}
