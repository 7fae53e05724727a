package rules_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// The rules' Select and Probs are written for speed (terms kept, tables
// for logarithms, values read once). The references here are the
// formulas of their doc comments written the plain way; the tests check
// that the fast code gives the same float64s and the same choices, at the
// same generator state, on many random sites: a change of speed must not
// change a single decision of a search.

// randomSites returns n random sites, seeded: 1 to 8 children (sometimes
// 33 to 40, past the rules' stack buffers), unvisited ones, ties (rewards
// in quarters), huge counts, both kinds, AMAF data and priors.
func randomSites(t testing.TB, n int) []*core.Site {
	rnd := rand.New(rand.NewPCG(14, 3))
	fracs := []float64{0, 0.25, 0.5, 0.75, 1}
	sites := make([]*core.Site, 0, n)
	for range n {
		k := 1 + rnd.IntN(8)
		if rnd.IntN(20) == 0 {
			k = 33 + rnd.IntN(8)
		}
		kids := make([]core.Stats, k)
		var total uint64
		for i := range kids {
			var v uint64
			switch rnd.IntN(4) {
			case 0: // unvisited
			case 1, 2:
				v = 1 + rnd.Uint64N(12)
			default:
				v = 1 + rnd.Uint64N(1<<20)
			}
			f := fracs[rnd.IntN(len(fracs))]
			if rnd.IntN(3) == 0 {
				f = rnd.Float64()
			}
			kids[i] = core.Stats{Visits: v, W: math.Round(f*float64(v)*4) / 4,
				AMAFVisits: v + rnd.Uint64N(5), AMAFW: float64(rnd.Uint64N(v + 1)),
				Prior: rnd.Float64()*2 - 0.5, HasPrior: rnd.IntN(4) != 0}
			total += v
		}
		self := core.Stats{Visits: total + rnd.Uint64N(3)}
		self.W = math.Round(rnd.Float64()*float64(self.Visits)*4) / 4
		kind := core.Max
		if rnd.IntN(2) == 0 {
			kind = core.Min
		}
		s, err := core.NewSite(kind, self, kids, 0, core.NewRNG(1))
		if err != nil {
			t.Fatal(err)
		}
		sites = append(sites, s)
	}
	return sites
}

// refValue is V̂(i) = W/N, or fpu for an unvisited child.
func refValue(s *core.Site, i int, fpu float64) float64 {
	if n := s.N(i); n > 0 {
		return s.W(i) / n
	}
	return fpu
}

// refSoftmax returns the terms exp((V̂(i) − max V̂)/τ), 1 for the largest
// value, and their sum.
func refSoftmax(s *core.Site, tau, fpu float64) (terms []float64, sum float64) {
	m := math.Inf(-1)
	for i := range s.Len() {
		m = max(m, refValue(s, i, fpu))
	}
	for i := range s.Len() {
		t := 1.0
		if d := refValue(s, i, fpu) - m; d != 0 {
			t = math.Exp(d / tau)
		}
		terms = append(terms, t)
		sum += t
	}
	return terms, sum
}

// refSoftmaxSelect draws u·Σ terms and returns the child whose cumulative
// term first exceeds it, or the last child with a positive term.
func refSoftmaxSelect(s *core.Site, tau, fpu float64, r *core.RNG) int {
	terms, sum := refSoftmax(s, tau, fpu)
	u := r.Float64() * sum
	acc, last := 0.0, 0
	for i, w := range terms {
		acc += w
		if u < acc {
			return i
		}
		if w > 0 {
			last = i
		}
	}
	return last
}

// refSoftmaxProbs is terms/sum.
func refSoftmaxProbs(s *core.Site, tau, fpu float64) []float64 {
	terms, sum := refSoftmax(s, tau, fpu)
	for i := range terms {
		terms[i] /= sum
	}
	return terms
}

// refDecayTau is C / ln(n(F) + 2), at least the smallest positive float64.
func refDecayTau(s *core.Site, c float64) float64 {
	return max(c/math.Log(s.ParentN()+2), math.SmallestNonzeroFloat64)
}

// refGreedy is the first unvisited child, else the first with the
// highest W/N: the argmax of the greedy score with FPU +∞.
func refGreedy(s *core.Site) int {
	return core.Argmax(s.Len(), func(i int) float64 {
		if n := s.N(i); n > 0 {
			return s.W(i) / n
		}
		return rules.Unvisited
	})
}

// refEpsSelect draws u and, if u < ε, a uniform child; else the greedy
// child. It draws nothing when ε ≤ 0.
func refEpsSelect(s *core.Site, eps float64, r *core.RNG) int {
	if eps > 0 && r.Float64() < eps {
		return r.IntN(s.Len())
	}
	return refGreedy(s)
}

// refEpsProbs is ε/k for every child plus 1 − ε for the greedy one, ε
// clamped to [0,1].
func refEpsProbs(s *core.Site, eps float64) []float64 {
	eps = min(max(eps, 0), 1)
	p := make([]float64, s.Len())
	for i := range p {
		p[i] = eps / float64(len(p))
	}
	p[refGreedy(s)] += 1 - eps
	return p
}

// refDecayEps is min(1, C/sqrt(n(F)+1)).
func refDecayEps(s *core.Site, c float64) float64 {
	return min(1, c/math.Sqrt(s.ParentN()+1))
}

// stochRef is a stochastic rule and its reference.
type stochRef struct {
	rule  core.Stochastic
	selec func(s *core.Site, r *core.RNG) int
	probs func(s *core.Site) []float64
}

func stochRefs() []stochRef {
	var refs []stochRef
	for _, tau := range []float64{0.1, 1, 1e-3, 1e-300, 5e-324} {
		for _, fpu := range []float64{0, 1, 0.5} {
			refs = append(refs, stochRef{
				rule:  rules.Boltzmann{Tau: tau, FPU: fpu},
				selec: func(s *core.Site, r *core.RNG) int { return refSoftmaxSelect(s, tau, fpu, r) },
				probs: func(s *core.Site) []float64 { return refSoftmaxProbs(s, tau, fpu) },
			})
		}
	}
	for _, c := range []float64{1, 0.5, 3, 1e-300} {
		for _, fpu := range []float64{0, 1} {
			refs = append(refs, stochRef{
				rule: rules.BoltzmannDecay{C: c, FPU: fpu},
				selec: func(s *core.Site, r *core.RNG) int {
					return refSoftmaxSelect(s, refDecayTau(s, c), fpu, r)
				},
				probs: func(s *core.Site) []float64 { return refSoftmaxProbs(s, refDecayTau(s, c), fpu) },
			})
		}
	}
	for _, eps := range []float64{0, 0.2, 1, -1, 2} {
		refs = append(refs, stochRef{
			rule:  rules.EpsGreedy{Eps: eps},
			selec: func(s *core.Site, r *core.RNG) int { return refEpsSelect(s, eps, r) },
			probs: func(s *core.Site) []float64 { return refEpsProbs(s, eps) },
		})
	}
	for _, c := range []float64{1, 0.5, 3, 40, 1e-300, 1e300} {
		refs = append(refs, stochRef{
			rule:  rules.EpsGreedyDecay{C: c},
			selec: func(s *core.Site, r *core.RNG) int { return refEpsSelect(s, refDecayEps(s, c), r) },
			probs: func(s *core.Site) []float64 { return refEpsProbs(s, refDecayEps(s, c)) },
		})
	}
	return refs
}

func TestStochasticMatchesReference(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	sites := randomSites(t, n)
	t.Run("bracket 0.5", func(t *testing.T) {
		// Boltzmann's draws from bounds on its terms, widened so that most
		// are undecided and the exact fallback is taken.
		defer rules.SetExpSlack(0.5)()
		checkStochRefs(t, sites)
	})
	checkStochRefs(t, sites)
}

func checkStochRefs(t *testing.T, sites []*core.Site) {
	for _, ref := range stochRefs() {
		t.Run(fmt.Sprintf("%#v", ref.rule), func(t *testing.T) {
			for j, s := range sites {
				seed := uint64(j)
				s.Rand().Seed(seed)
				r := core.NewRNG(seed)
				got, want := ref.rule.Select(s), ref.selec(s, r)
				if got != want {
					t.Fatalf("site %d: Select = %d, reference %d", j, got, want)
				}
				if a, b := s.Rand().Uint64(), r.Uint64(); a != b {
					t.Fatalf("site %d: Select left the generator at %#x, reference at %#x", j, a, b)
				}
				gotP, wantP := ref.rule.Probs(s, nil), ref.probs(s)
				for i := range wantP {
					if math.Float64bits(gotP[i]) != math.Float64bits(wantP[i]) {
						t.Fatalf("site %d: Probs[%d] = %v, reference %v", j, i, gotP[i], wantP[i])
					}
				}
			}
		})
	}
}
