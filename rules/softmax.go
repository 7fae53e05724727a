package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// The softmax of Boltzmann and BoltzmannDecay: child i's term is
// exp((V̂(i) − m)/τ), m the largest value, exactly 1 for a child whose value
// is the largest, and a child is drawn with probability term/Σ terms by one
// Float64 u: the first child whose cumulative term exceeds u·Σ terms, or,
// should rounding carry u·Σ up to the sum, the last child with a positive
// term.
//
// The exponentials are the costly part, so Select first draws from bounds
// on the terms: a cheap exponential (expApprox) widened by expSlack on
// each side brackets every term math.Exp gives, and as the sums, the
// product with u and the cumulative sums are rounded monotonically, the
// bounds bracket each quantity the draw compares. When the bracket decides
// a comparison, the exact terms decide it the same way; only when it does
// not (u within a few thousandths of a boundary) are the exact terms
// computed. The choice, and the one Float64 drawn, are those of the exact
// terms.

// maxKept is the most children whose terms Select keeps on the stack (at
// most 32, the bits of a uint32); past it, Select computes each exact term
// twice rather than allocate.
const maxKept = 32

// expSlack is the relative half-width of the bracket around expApprox,
// 1.95e-3: expApprox errs by less than 1.36e-3, relative, and e^x at
// x = d·inv, inv within a few ulps of 1/τ, for d/τ by less than 1e-12
// (|x| ≤ 700).
var expSlack = 0x1p-9

// value is V̂(i), or fpu for an unvisited child.
func value(s *core.Site, i int, fpu float64) float64 {
	if n := s.N(i); n > 0 {
		return s.W(i) / n
	}
	return fpu
}

// expTerm is exp(d/τ) for a value d below the largest: exactly 1 at d = 0.
func expTerm(d, tau float64) float64 {
	if d == 0 {
		return 1
	}
	return math.Exp(d / tau)
}

// softmaxValues fills vals with the children's values and returns the
// largest.
func softmaxValues(s *core.Site, fpu float64, vals []float64) (m float64) {
	s.Means(fpu, vals)
	return largest(vals)
}

// softmaxTerms fills terms, one slot per child, with the exact terms and
// returns their sum.
func softmaxTerms(s *core.Site, tau, fpu float64, terms []float64) (sum float64) {
	m := softmaxValues(s, fpu, terms)
	for i, v := range terms {
		terms[i] = expTerm(v-m, tau)
		sum += terms[i]
	}
	return sum
}

// softmaxSelect draws a child at temperature tau; inv is 1/tau, or within
// a few ulps of it, for the cheap terms only.
func softmaxSelect(s *core.Site, tau, inv, fpu float64) int {
	k := s.Len()
	if k > maxKept {
		return softmaxSelectWide(s, tau, fpu)
	}
	if k == 1 {
		s.Rand().Float64() // the draw the only child's term of 1 decides
		return 0
	}
	// terms holds the values, then the cheap terms (exact ones where the
	// bit of exact is set), then, if the bounds leave the draw undecided,
	// the values again and the exact terms.
	var buf [maxKept]float64
	terms := buf[:k]
	s.Means(fpu, terms) // softmaxValues, written out: the call would not inline
	m := largest(terms)
	var exact uint32
	var sumLo, sumHi float64
	for i, v := range terms {
		d := v - m
		if x := d * inv; d != 0 && x >= -700 {
			a := expApprox(x)
			terms[i] = a
			lo, hi := bracket(a, false)
			sumLo += lo
			sumHi += hi
		} else {
			t := expTerm(d, tau)
			terms[i] = t
			exact |= 1 << i
			sumLo += t
			sumHi += t
		}
	}
	u := s.Rand().Float64()
	uLo, uHi := u*sumLo, u*sumHi
	var accLo, accHi float64
	for i, a := range terms {
		lo, hi := bracket(a, exact>>i&1 != 0)
		accLo += lo
		accHi += hi
		if uHi < accLo {
			return i // u·Σ < the cumulative sum, whatever the exact terms
		}
		if uLo < accHi {
			break // undecided
		}
	}
	sum := softmaxTerms(s, tau, fpu, terms)
	return drawTerm(u*sum, k, func(i int) float64 { return terms[i] })
}

// largest returns the largest of vals, NaN if one is NaN, -Inf if vals is
// empty. It may return -0 where max would give +0; v - m is then the same
// for every value v but ±0, where it is ±0 instead of ∓0, which a term
// counts alike (e^0 = 1).
func largest(vals []float64) float64 {
	m, nan := math.Inf(-1), false
	for _, v := range vals {
		if v > m {
			m = v
		} else if v != v {
			nan = true
		}
	}
	if nan {
		return math.NaN()
	}
	return m
}

// bracket returns the bounds on a term whose cheap value is a: a itself
// when it is exact.
func bracket(a float64, exact bool) (lo, hi float64) {
	if exact {
		return a, a
	}
	return a * (1 - expSlack), a * (1 + expSlack)
}

// softmaxSelectWide is softmaxSelect past maxKept children, from the exact
// terms, each computed twice.
func softmaxSelectWide(s *core.Site, tau, fpu float64) int {
	m := math.Inf(-1)
	for i := range s.Len() {
		m = max(m, value(s, i, fpu))
	}
	term := func(i int) float64 { return expTerm(value(s, i, fpu)-m, tau) }
	sum := 0.0
	for i := range s.Len() {
		sum += term(i)
	}
	return drawTerm(s.Rand().Float64()*sum, s.Len(), term)
}

// drawTerm returns the first of the k children whose cumulative term
// exceeds x, or the last child with a positive term.
func drawTerm(x float64, k int, term func(i int) float64) int {
	acc, last := 0.0, 0
	for i := range k {
		w := term(i)
		acc += w
		if x < acc {
			return i
		}
		if w > 0 {
			last = i
		}
	}
	return last // x rounded up to the sum: the last child with a chance
}

func softmaxProbs(s *core.Site, tau, fpu float64, dst []float64) []float64 {
	dst = append(dst[:0], make([]float64, s.Len())...)
	sum := softmaxTerms(s, tau, fpu, dst)
	for i := range dst {
		dst[i] /= sum
	}
	return dst
}

// exp2Table[j] is 2^(j/256).
var exp2Table = func() (t [256]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / 256)
	}
	return t
}()

// expApprox returns e^x within 1.36e-3, relative, for x in [−700, 0]:
// 2^(n/256) with n the integer nearest x·256/ln 2, a table entry times a
// power of two. It errs from e^x by the factor e^g, |g| ≤ ln 2/512, the
// part of x it drops: e^(ln 2/512) − 1 < 1.36e-3. Cheap and coarse is what
// the draw wants: the bracket it gives decides all but a few draws in a
// thousand, and those fall back to math.Exp.
func expApprox(x float64) float64 {
	n := -int64(0.5 - x*(256/math.Ln2))                    // x ≤ 0: the integer nearest x·256/ln 2
	scale := math.Float64frombits(uint64(1023+n>>8) << 52) // 2^⌊n/256⌋, normal for x ≥ −700
	return exp2Table[n&255] * scale
}
