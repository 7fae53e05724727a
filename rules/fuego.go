package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// Fuego is the selection rule of Fuego's SgUctSearch, SgUctSearch::SelectChild,
// GetBound and GetValueEstimateRave in svn2github/fuego@0bf51c65aa80d87ac2f34920ac55792166951e9d
// smartgame/SgUctSearch.cpp; the generic defaults are SgUctSearch's
// constructor (bias term constant 0.7, RAVE off, RAVE weights 0.9 and
// 20000, first-play urgency 10000, RAVE switched off in one selection of
// every 20), the Go defaults GoUctGlobalSearch::SetDefaultParameters in
// gouct/GoUctGlobalSearch.h for boards under 15×15 (bias 0, RAVE on,
// weights 1.0 and 5000, first-play urgency 1). Values are in [0,1]:
//
//	score(i) = v(i) + B·sqrt(ln N(F) / (n(i) + 1))
//	v(i) = β·V'(i) + (1 − β)·V̂(i),  β = r/(n·(1/W0 + r/Wf) + r)   (RAVE on, n, r > 0)
//	v(i) = V̂(i) (no RAVE data), V'(i) (unvisited with RAVE data), FPU (neither)
//
// with r and V' the child's AMAF count and mean (Site.AMAF) and N(F) the
// node's count; at N(F) = 0 it takes the first child. A child wins only if
// it beats the best so far by more than 1e-7, so near-ties go to the lowest
// index. With RAVE on, SelectChild ignores RAVE in one call out of every
// RandomizeRave ("helps in rare cases where rave ignores the best move"):
// a counter over the thread's selections, modelled as probability
// 1/RandomizeRave per selection (a counter would alias with the trees'
// path lengths), which makes the rule stochastic; Probs gives the mixture.
//
// Not modelled: prior knowledge (Go patterns initialising values and RAVE
// counts), the additive predictor, proven wins and losses, weighted RAVE
// updates (later moves count less), virtual loss, and the bias term
// frequency and depth options (off by default). The Go knowledge is
// specific to Go, and the checker judges the rule that remains; the 1e-7
// tie tolerance is kept.
type Fuego struct {
	Bias          float64 // B, the bias term constant
	Rave          bool
	W0, Wf        float64 // raveWeightInitial and raveWeightFinal
	FPU           float64
	RandomizeRave float64 // 0: never ignore RAVE
}

const fuegoEps = 1e-7

// value is GetValueEstimateRave (rave) or GetValueEstimate without RAVE.
func (r Fuego) value(s *core.Site, i int, rave bool) float64 {
	n := s.N(i)
	var an, aw float64
	if rave {
		an, aw = s.AMAF(i)
	}
	switch {
	case n > 0 && an > 0:
		beta := an / (n*(1/r.W0+an/r.Wf) + an)
		return beta*(aw/an) + (1-beta)*(s.W(i)/n)
	case n > 0:
		return s.W(i) / n
	case an > 0:
		return aw / an
	}
	return r.FPU
}

// pick is SelectChild with or without RAVE.
func (r Fuego) pick(s *core.Site, rave bool) int {
	nf := s.ParentN()
	if nf == 0 {
		return 0
	}
	var logN float64
	if nf >= 1 {
		logN = core.LogCount(nf) // math.Log(nf), from a table when nf is whole
	} else {
		logN = math.Log(nf) // a fractional virtual count
	}
	best, bound := 0, 0.0
	for i := range s.Len() {
		b := r.value(s, i, rave)
		if r.Bias != 0 {
			b += r.Bias * math.Sqrt(logN/(s.N(i)+1)) // not core.UCTScore: n + 1, on the blended value
		}
		if i == 0 || b > bound+fuegoEps {
			best, bound = i, b
		}
	}
	return best
}

// randomized reports whether the rule ever ignores RAVE.
func (r Fuego) randomized() bool { return r.Rave && r.RandomizeRave > 0 }

// offRate is the probability of a selection without RAVE.
func (r Fuego) offRate() float64 { return min(1/r.RandomizeRave, 1) }

// Select implements core.Rule.
func (r Fuego) Select(s *core.Site) int {
	if r.randomized() && s.Rand().Float64() < r.offRate() {
		return r.pick(s, false)
	}
	return r.pick(s, r.Rave)
}

// Probs implements core.Stochastic: a point mass on the RAVE choice, mixed
// with weight 1/RandomizeRave with one on the choice without RAVE.
func (r Fuego) Probs(s *core.Site, dst []float64) []float64 {
	dst = dst[:0]
	for range s.Len() {
		dst = append(dst, 0)
	}
	if !r.randomized() {
		dst[r.pick(s, r.Rave)] = 1
		return dst
	}
	q := r.offRate()
	dst[r.pick(s, true)] += 1 - q
	dst[r.pick(s, false)] += q
	return dst
}

// Needs implements core.Needer: AMAF statistics when RAVE is on.
func (r Fuego) Needs() core.Needs { return core.Needs{AMAF: r.Rave} }
