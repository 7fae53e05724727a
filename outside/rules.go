package outside

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// Rule is one rule from outside the catalogue with the theory's account of
// it.
type Rule struct {
	// Name is a short name for tables, "family:parameters".
	Name string
	// Rule is the rule itself: Select only (and Needs where it reads
	// optional statistics).
	Rule core.Rule
	// Consistent is what the theory says of the limit.
	Consistent bool
	// BinaryOnly restricts the claim to binary deterministic trees.
	BinaryOnly bool
	// Why is the argument, in one or two sentences.
	Why string
	// Tree, if not empty, is a tree in the text format on which the rule's
	// behaviour is known by hand, and Verdict what the checker must say
	// of it there: "inconsistent" (the mechanism is structural: it holds
	// identically at every scale, or exploration is summable), "stuck"
	// (the decision stays wrong through any budget that can be run, but
	// the rule returns in the limit) or "no-counterexample".
	Tree    string
	Verdict string
}

// Rules returns the rules, in a fixed order.
func Rules() []Rule {
	return []Rule{
		{Name: "round-robin-greedy:k=4", Rule: RoundRobinGreedy{K: 4}, Consistent: false,
			Why: "every k-th visit of a node cycles through its children, the others are greedy: on " +
				"(max (min 1 0) 0.0625) the optimal child gets exactly 1/8 of the root's simulations for ever",
			Tree: "(max (min 1 0) 0.0625)", Verdict: "inconsistent"},
		{Name: "uct-on-even-counts:c=0.7", Rule: UCTOnEvenCounts{C: 0.7}, Consistent: true,
			Why: "UCT when the parent's count is even, greedy when it is odd: the UCT half still " +
				"simulates every child for ever, the greedy half only speeds up the best one"},
		{Name: "periodic-explore:k=3", Rule: PeriodicExplore{K: 3}, Consistent: false,
			Why: "a uniform random child on every k-th visit, greedy otherwise: a constant exploration " +
				"rate biases the min node's mean upwards, so (min 1 0.25) looks better than 0.3 for ever",
			Tree: "(max (min 1 0.25) 0.3)", Verdict: "inconsistent"},
		{Name: "uct-lnln:c=0.15", Rule: UCTLnLn{C: 0.15}, Consistent: true,
			Why: "bonus C·sqrt(ln ln(N+e)/n) still grows without bound, so a starved child returns, " +
				"but with C = 0.15 and a deficit of 0.75 only when ln ln N reaches 25",
			Tree: "(max (max 0 1) 0.75)", Verdict: "stuck"},
		{Name: "uct-lnln:c=1", Rule: UCTLnLn{C: 1}, Consistent: true,
			Why: "the same bonus with C = 1: it returns to a starved child within a few thousand simulations"},
		{Name: "bonus-over-n:c=0.3", Rule: BonusOverN{C: 0.3}, Consistent: false,
			Why: "V̂ + C/(n+1): a starved child's bonus is frozen while the others' vanish, so a good " +
				"move that lost its first simulation is never tried again",
			Tree: "(max (max 0 1) 0.75)", Verdict: "inconsistent"},
		{Name: "uct-vanishing:c=0.5", Rule: UCTVanishing{C: 0.5}, Consistent: false,
			Why:  "bonus C/sqrt(n·ln(N+e)) shrinks as the parent grows, so a starved child's deficit grows",
			Tree: "(max (max 0 1) 0.75)", Verdict: "inconsistent"},
		{Name: "sqrtlog-over-n:c=0.3", Rule: SqrtLogOverN{C: 0.3}, Consistent: true,
			Why: "bonus C·sqrt(ln N)/n: unbounded for a starved child, and a worse child's count grows " +
				"only like sqrt(ln N)"},
		{Name: "boltzmann-decay-select-only", Rule: BoltzmannDecaySelectOnly{}, Consistent: true,
			Why: "the catalogue's boltzmann-decay (τ = 1/ln(N+2), FPU 1) without Probs: a worse child's " +
				"probability falls like (N+2)^−δ, slowly for a small gap δ, but it vanishes"},
		{Name: "boltzmann-select-only:tau=0.5", Rule: BoltzmannSelectOnly{Tau: 0.5}, Consistent: false,
			Why: "constant τ: every child keeps a constant probability, which biases the min node's " +
				"mean upwards, so (min 1 0.25) looks better than 0.3 for ever",
			Tree: "(max (min 1 0.25) 0.3)", Verdict: "inconsistent"},
		{Name: "eps-sqrt", Rule: EpsSqrt{}, Consistent: true,
			Why: "ε = 1/sqrt(N+1): Σε diverges, so every child is tried for ever, and ε → 0"},
		{Name: "eps-geometric:r=0.5", Rule: EpsGeometric{R: 0.5}, Consistent: false,
			Why: "ε = r^N: summable, so after finitely many explorations the rule is greedy, which a " +
				"good move's first loss traps",
			Tree: "(max (max 0 1) 0.75)", Verdict: "inconsistent"},
		{Name: "thompson-beta", Rule: ThompsonBeta{}, Consistent: true,
			Why: "Thompson sampling from Beta(w+1, n−w+1): no posterior collapses to a point while its " +
				"count is finite, so every child is sampled for ever, and the worse ones ever less often"},
		{Name: "uct-integer-division-bug:c=1", Rule: UCTIntDivBug{C: 1}, Consistent: true,
			Why: "C·sqrt(⌊ln N⌋/n) in integers: zero whenever n > ln N, yet still unbounded for a " +
				"starved child, so it returns (a bug that happens to stay consistent)"},
		{Name: "uct-sign-bug:c=0.5", Rule: UCTSignBug{C: 0.5}, Consistent: false,
			Why:  "−V̂ + C·sqrt(ln N/n), the perspective negated: the worse child takes almost every simulation",
			Tree: "(max 0 1)", Verdict: "inconsistent"},
		{Name: "uct-then-greedy:warm=4", Rule: UCTThenGreedy{C: 0.7, Warm: 4}, Consistent: false,
			Why: "UCT for a node's first few simulations, greedy after: in the limit it is greedy, which " +
				"a good move's first loss traps",
			Tree: "(max (max 0 1) 0.75)", Verdict: "inconsistent"},
		{Name: "uct-capped-count:c=0.15", Rule: UCTCappedCount{C: 0.15, Cap: 1 << 16}, Consistent: false,
			Why: "UCT whose parent count saturates at 2^16 (a 16-bit counter): the bonus stops growing, " +
				"so a child starved with a deficit above C·sqrt(ln 2^16/n) never returns",
			Tree: "(max (max 0 1) 0.75)", Verdict: "inconsistent"},
	}
}

// mean is child i's mean with first-play urgency fpu when it has none.
func mean(s *core.Site, i int, fpu float64) float64 {
	if m, ok := s.Mean(i); ok {
		return m
	}
	return fpu
}

// greedy returns the child with the highest mean, unvisited children
// first (FPU +Inf), the lowest index among ties.
func greedy(s *core.Site) int {
	best, top := 0, math.Inf(-1)
	for i := range s.Len() {
		if v := mean(s, i, math.Inf(1)); v > top {
			best, top = i, v
		}
	}
	return best
}

// argmax returns the child with the highest score(i), the lowest index
// among ties.
func argmax(s *core.Site, score func(i int) float64) int {
	best, top := 0, math.Inf(-1)
	for i := range s.Len() {
		if v := score(i); v > top {
			best, top = i, v
		}
	}
	return best
}

// withBonus is the argmax of V̂ + bonus(n), unvisited children first.
func withBonus(s *core.Site, bonus func(n float64) float64) int {
	return argmax(s, func(i int) float64 {
		n := s.N(i)
		if n == 0 {
			return math.Inf(1)
		}
		return s.W(i)/n + bonus(n)
	})
}

// RoundRobinGreedy cycles through the children on every K-th visit of a
// node, by the node's own count, and is greedy on the others.
type RoundRobinGreedy struct{ K int64 }

func (r RoundRobinGreedy) Select(s *core.Site) int {
	if t := s.ParentVisits(); t%r.K == 0 {
		return int(t / r.K % int64(s.Len()))
	}
	return greedy(s)
}

// UCTOnEvenCounts is UCT when the node's count is even and greedy when it
// is odd.
type UCTOnEvenCounts struct{ C float64 }

func (u UCTOnEvenCounts) Select(s *core.Site) int {
	if s.ParentVisits()%2 == 1 {
		return greedy(s)
	}
	logN := math.Log(max(s.ParentN(), 1))
	return withBonus(s, func(n float64) float64 { return u.C * math.Sqrt(logN/n) })
}

// PeriodicExplore picks a uniformly random child on every K-th visit of a
// node and is greedy otherwise.
type PeriodicExplore struct{ K int64 }

func (p PeriodicExplore) Select(s *core.Site) int {
	if s.ParentVisits()%p.K == 0 {
		return s.Rand().IntN(s.Len())
	}
	return greedy(s)
}

// UCTLnLn is V̂ + C·sqrt(ln ln(N+e)/n).
type UCTLnLn struct{ C float64 }

func (u UCTLnLn) Select(s *core.Site) int {
	ll := math.Log(math.Log(s.ParentN() + math.E))
	return withBonus(s, func(n float64) float64 { return u.C * math.Sqrt(ll/n) })
}

// BonusOverN is V̂ + C/(n+1).
type BonusOverN struct{ C float64 }

func (b BonusOverN) Select(s *core.Site) int {
	return withBonus(s, func(n float64) float64 { return b.C / (n + 1) })
}

// UCTVanishing is V̂ + C/sqrt(n·ln(N+e)).
type UCTVanishing struct{ C float64 }

func (u UCTVanishing) Select(s *core.Site) int {
	l := math.Log(s.ParentN() + math.E)
	return withBonus(s, func(n float64) float64 { return u.C / math.Sqrt(n*l) })
}

// SqrtLogOverN is V̂ + C·sqrt(ln N)/n.
type SqrtLogOverN struct{ C float64 }

func (u SqrtLogOverN) Select(s *core.Site) int {
	r := math.Sqrt(math.Log(max(s.ParentN(), 1)))
	return withBonus(s, func(n float64) float64 { return u.C * r / n })
}

// softmax draws child i with probability ∝ exp(V̂(i)/τ), FPU 1.
func softmax(s *core.Site, tau float64) int {
	top := math.Inf(-1)
	for i := range s.Len() {
		top = max(top, mean(s, i, 1))
	}
	sum := 0.0
	for i := range s.Len() {
		sum += math.Exp((mean(s, i, 1) - top) / tau)
	}
	u := s.Rand().Float64() * sum
	for i := range s.Len() {
		u -= math.Exp((mean(s, i, 1) - top) / tau)
		if u < 0 {
			return i
		}
	}
	return s.Len() - 1
}

// BoltzmannDecaySelectOnly is Boltzmann exploration with τ = 1/ln(N+2)
// and FPU 1, declaring nothing.
type BoltzmannDecaySelectOnly struct{}

func (BoltzmannDecaySelectOnly) Select(s *core.Site) int {
	return softmax(s, 1/math.Log(s.ParentN()+2))
}

// BoltzmannSelectOnly is Boltzmann exploration with a constant τ and FPU
// 1, declaring nothing.
type BoltzmannSelectOnly struct{ Tau float64 }

func (b BoltzmannSelectOnly) Select(s *core.Site) int { return softmax(s, b.Tau) }

// EpsSqrt is ε-greedy with ε = 1/sqrt(N+1).
type EpsSqrt struct{}

func (EpsSqrt) Select(s *core.Site) int {
	if r := s.Rand(); r.Float64() < 1/math.Sqrt(s.ParentN()+1) {
		return r.IntN(s.Len())
	}
	return greedy(s)
}

// EpsGeometric is ε-greedy with ε = R^N.
type EpsGeometric struct{ R float64 }

func (e EpsGeometric) Select(s *core.Site) int {
	if r := s.Rand(); r.Float64() < math.Pow(e.R, s.ParentN()) {
		return r.IntN(s.Len())
	}
	return greedy(s)
}

// ThompsonBeta draws a value for each child from Beta(w+1, n−w+1) and
// picks the largest.
type ThompsonBeta struct{}

func (ThompsonBeta) Select(s *core.Site) int {
	r := s.Rand()
	return argmax(s, func(i int) float64 {
		n, w := s.N(i), s.W(i)
		return beta(r, w+1, n-w+1)
	})
}

// beta draws from Beta(a, b), a, b ≥ 1, as X/(X+Y) with X ~ Gamma(a) and
// Y ~ Gamma(b).
func beta(r *core.RNG, a, b float64) float64 {
	x, y := gamma(r, a), gamma(r, b)
	return x / (x + y)
}

// gamma draws from Gamma(a, 1), a ≥ 1, by Marsaglia and Tsang's method
// (ACM TOMS 26(3), 2000).
func gamma(r *core.RNG, a float64) float64 {
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := normal(r)
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u > 0 && math.Log(u) < x*x/2+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}

// normal draws a standard normal variate by the Box–Muller transform.
func normal(r *core.RNG) float64 {
	u := 1 - r.Float64() // in (0, 1]
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*r.Float64())
}

// UCTIntDivBug is UCT whose ln N / n is computed in integers, as
// ⌊ln N⌋ div n.
type UCTIntDivBug struct{ C float64 }

func (u UCTIntDivBug) Select(s *core.Site) int {
	l := int64(math.Log(max(s.ParentN(), 1)))
	return withBonus(s, func(n float64) float64 { return u.C * math.Sqrt(float64(l/int64(n))) })
}

// UCTSignBug is −V̂ + C·sqrt(ln N/n): the perspective negated.
type UCTSignBug struct{ C float64 }

func (u UCTSignBug) Select(s *core.Site) int {
	logN := math.Log(max(s.ParentN(), 1))
	return argmax(s, func(i int) float64 {
		n := s.N(i)
		if n == 0 {
			return math.Inf(1)
		}
		return -s.W(i)/n + u.C*math.Sqrt(logN/n)
	})
}

// UCTThenGreedy is UCT for a node's first Warm simulations and greedy
// after.
type UCTThenGreedy struct {
	C    float64
	Warm int64
}

func (u UCTThenGreedy) Select(s *core.Site) int {
	if s.ParentVisits() >= u.Warm {
		return greedy(s)
	}
	logN := math.Log(max(s.ParentN(), 1))
	return withBonus(s, func(n float64) float64 { return u.C * math.Sqrt(logN/n) })
}

// UCTCappedCount is UCT whose parent count saturates at Cap, as a
// fixed-width counter would.
type UCTCappedCount struct {
	C   float64
	Cap float64
}

func (u UCTCappedCount) Select(s *core.Site) int {
	logN := math.Log(min(max(s.ParentN(), 1), u.Cap))
	return withBonus(s, func(n float64) float64 { return u.C * math.Sqrt(logN/n) })
}
