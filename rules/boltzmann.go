package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// Boltzmann is Boltzmann (softmax) exploration with a constant temperature
// τ (slides, "Softmax"): it draws child i with probability
//
//	P(i) = exp(V̂(i)/τ) / Σ_j exp(V̂(j)/τ)
//
// where V̂ = w/n, and FPU for an unvisited child. It computes
// exp((V̂(i) − max_j V̂(j))/τ), which is the same distribution and stays
// finite for any τ > 0: the best child's term is 1, the others underflow
// to 0 at tiny τ. It draws one Float64 from s.Rand().
//
// With average backups it is inconsistent (the catalogue's boltzmann): the
// probabilities converge to positive constants, so it is not greedy in the
// limit; nor is it frugal. With minimax backups (boltzmann-minimax) it is
// consistent (slides). Tau ≤ 0, as in the zero value, means τ = 0.1, the
// catalogue's default; the zero value's FPU is 0 (the catalogue's is 1).
type Boltzmann struct {
	Tau float64
	FPU float64
}

func (b Boltzmann) tau() float64 {
	if b.Tau > 0 {
		return b.Tau
	}
	return 0.1
}

// Select implements core.Rule.
func (b Boltzmann) Select(s *core.Site) int { return softmaxSelect(s, b.tau(), b.FPU) }

// Probs implements core.Stochastic.
func (b Boltzmann) Probs(s *core.Site, dst []float64) []float64 {
	return softmaxProbs(s, b.tau(), b.FPU, dst)
}

// BoltzmannDecay is Boltzmann exploration whose temperature decays with the
// number n(F) of simulations through the node (slides, "decaying τ"):
//
//	τ = C / ln(n(F) + 2)
//
// and otherwise as Boltzmann. Since every V̂ and the FPU lie in [0,1], each
// child's probability is at least e^(−1/τ)/k = (n(F)+2)^(−1/C)/k; for C ≥ 1
// the sum of these over the node's visits diverges (for C = 1 it is the
// harmonic Σ 1/(k(n+2))), so every child is visited infinitely often
// (Eq. 5), and τ → 0 makes the rule greedy in the limit: a child worse by
// δ gets probability about (n+2)^(−δ/C), a vanishing share (Eq. 4). It is
// consistent for C ≥ 1 but not frugal. For C < 1 the floor is summable
// and a good move that lost early can starve behind a child whose mean
// stays above C. τ is kept above the smallest positive float64, so tiny C
// cannot divide by zero. C ≤ 0, as in the zero value, means C = 1, the
// catalogue's default; the zero value's FPU is 0 (the catalogue's is 1).
type BoltzmannDecay struct {
	C   float64
	FPU float64
}

func (b BoltzmannDecay) tau(s *core.Site) float64 {
	c := b.C
	if !(c > 0) {
		c = 1
	}
	return max(c/core.LogCount(s.ParentN()+2), math.SmallestNonzeroFloat64)
}

// Select implements core.Rule.
func (b BoltzmannDecay) Select(s *core.Site) int { return softmaxSelect(s, b.tau(s), b.FPU) }

// Probs implements core.Stochastic.
func (b BoltzmannDecay) Probs(s *core.Site, dst []float64) []float64 {
	return softmaxProbs(s, b.tau(s), b.FPU, dst)
}

// value is V̂(i), or fpu for an unvisited child.
func value(s *core.Site, i int, fpu float64) float64 {
	if n := s.N(i); n > 0 {
		return s.W(i) / n
	}
	return fpu
}

// softmaxTerm is child i's term exp((V̂(i) − m)/τ): exactly 1 for a child
// whose value is the largest, without calling math.Exp.
func softmaxTerm(s *core.Site, i int, tau, fpu, m float64) float64 {
	return expTerm(value(s, i, fpu)-m, tau)
}

// expTerm is exp(d/τ) for a value d below the largest: exactly 1 at d = 0.
func expTerm(d, tau float64) float64 {
	if d == 0 {
		return 1
	}
	return math.Exp(d / tau)
}

// softmaxMax returns the largest value and the sum of the children's
// terms, without keeping them (softmaxSelect past 32 children).
func softmaxMax(s *core.Site, tau, fpu float64) (m, sum float64) {
	m = math.Inf(-1)
	for i := range s.Len() {
		m = max(m, value(s, i, fpu))
	}
	for i := range s.Len() {
		sum += softmaxTerm(s, i, tau, fpu, m)
	}
	return m, sum
}

// softmaxTerms fills terms, one slot per child, with the children's terms
// (softmaxTerm's float64s), reading each child's value once, and returns
// their sum.
func softmaxTerms(s *core.Site, tau, fpu float64, terms []float64) (sum float64) {
	m := math.Inf(-1)
	for i := range terms {
		v := value(s, i, fpu)
		terms[i] = v
		m = max(m, v)
	}
	for i, v := range terms {
		terms[i] = expTerm(v-m, tau)
		sum += terms[i]
	}
	return sum
}

func softmaxSelect(s *core.Site, tau, fpu float64) int {
	// Up to 32 children the terms are kept, so that each exponential is
	// computed once: it was a sixth of the checker's default run. Past
	// that each term is computed twice rather than allocate.
	var buf [32]float64
	var terms []float64
	var m, sum float64
	if k := s.Len(); k <= len(buf) {
		terms = buf[:k]
		sum = softmaxTerms(s, tau, fpu, terms)
	} else {
		m, sum = softmaxMax(s, tau, fpu)
	}
	u := s.Rand().Float64() * sum
	acc, last := 0.0, 0
	for i := range s.Len() {
		var w float64
		if terms != nil {
			w = terms[i]
		} else {
			w = softmaxTerm(s, i, tau, fpu, m)
		}
		acc += w
		if u < acc {
			return i
		}
		if w > 0 {
			last = i
		}
	}
	return last // u rounded up to sum: the last child with a chance
}

func softmaxProbs(s *core.Site, tau, fpu float64, dst []float64) []float64 {
	dst = append(dst[:0], make([]float64, s.Len())...)
	sum := softmaxTerms(s, tau, fpu, dst)
	for i := range dst {
		dst[i] /= sum
	}
	return dst
}
