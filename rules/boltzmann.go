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
	checkNumber(b.FPU, "Boltzmann.FPU")
	return orDefault(b.Tau, 0.1, "Boltzmann.Tau")
}

// Select implements core.Rule.
func (b Boltzmann) Select(s *core.Site) int {
	tau := b.tau()
	return softmaxSelect(s, tau, 1/tau, b.FPU)
}

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

// tau returns τ and inv = ln(n(F)+2)/C, which is 1/τ within a few ulps
// (+Inf where τ is kept above 0) without the second division: Select's
// cheap terms, bracketed, need no more, and they wait for it.
func (b BoltzmannDecay) tau(s *core.Site) (tau, inv float64) {
	checkNumber(b.FPU, "BoltzmannDecay.FPU")
	c := orDefault(b.C, 1, "BoltzmannDecay.C")
	l := core.LogCount(s.ParentN() + 2)
	return max(c/l, math.SmallestNonzeroFloat64), l / c
}

// Select implements core.Rule.
func (b BoltzmannDecay) Select(s *core.Site) int {
	tau, inv := b.tau(s)
	return softmaxSelect(s, tau, inv, b.FPU)
}

// Probs implements core.Stochastic.
func (b BoltzmannDecay) Probs(s *core.Site, dst []float64) []float64 {
	tau, _ := b.tau(s)
	return softmaxProbs(s, tau, b.FPU, dst)
}
