package props

import (
	"fmt"
	"math"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// A finite run can show a rule starving a child (Eq. 5) or keeping a worse
// child busy (Eq. 4) so far; whether it does so for ever is a property of the
// rule at counts no run reaches. The limit probe asks the rule itself: it
// builds synthetic sites (core.NewSiteAt) from the statistics of node F at
// the end of the run and lets the counts grow by factors of 4 up to 2^62
// simulations of F, the other children's means frozen and their counts
// growing in their observed proportions, the candidate child's statistics
// frozen (Eq. 5) or its count free (Eq. 4), priors, AMAF statistics, virtual
// experience and depth as observed. The package doc explains how each kind
// of rule is judged.

// limitResult is the projection of one candidate mechanism.
type limitResult struct {
	persists bool   // the mechanism holds in the limit: the tree is a witness
	text     string // the evidence, one clause
}

// ruleKind is how the probe reads a rule's choices.
type ruleKind int

const (
	deterministic ruleKind = iota // Select does not draw
	exact                         // core.Stochastic with probabilities
	sampled                       // draws, probabilities estimated from Select
)

// Probe constants. They are the probe's resolution, not thresholds of the
// criterion: the trend tests below are scale-free.
const (
	maxLog2Count     = 62   // largest log2 of F's simulations a probe builds
	detectDraws      = 256  // Select calls per scale, with different generators, that tell a deterministic rule
	sampleDraws      = 4096 // Select calls per scale for a sampled rule
	minHits          = 8    // draws of the child a sampled scale needs to enter the fit
	summableMargin   = 0.05 // exponent above 1 that makes exact probabilities summable
	sampledMargin    = 0.25 // the same for sampled ones, which are noisier
	bisectSteps      = 48   // handicap resolution 2^-48
	shareFlat        = 1e-4 // Eq. 4: a share falling slower than n^-shareFlat at the end is flat
	sampledShareFlat = 0.05 // the same for sampled shares, which are noisier
)

// base is node F's statistics at the end of a run.
type base struct {
	kind  core.Kind
	depth int
	t     int64
	self  core.Stats
	kids  []core.Stats
	mean  []float64 // chooser-side means of the children (0 if unvisited)
	pmean float64   // chooser-side mean of F
}

// observe reads node p of tr from the search s (the explicit tree's child
// indices are the search's).
func observe(s *core.Search, tr *tree.Tree, p int32, needs core.Needs, minimax bool) (*base, error) {
	path := tr.Path(p)
	stats := func(path []int32, edge int32) (core.Stats, error) {
		info, ok := s.Lookup(path)
		if !ok {
			return core.Stats{}, fmt.Errorf("props: node %s is not in the search tree", tree.FormatPath(path))
		}
		st := core.Stats{Visits: uint64(info.Visits), W: info.W, K1: info.K1, K2: info.K2,
			AMAFVisits: uint64(info.AMAFVisits), AMAFW: info.AMAFW,
			Squares: info.Squares, HasSquares: info.HasSquares}
		if minimax && info.Visits > 0 {
			st.W = min(max(info.Value, 0), 1) * float64(info.Visits)
		}
		if needs.Priors && edge > 0 {
			st.Prior, st.HasPrior = tr.Prior(edge)
		}
		return st, nil
	}
	b := &base{kind: tr.Kind(p), depth: len(path), t: s.Sims()}
	var err error
	if b.self, err = stats(path, 0); err != nil {
		return nil, err
	}
	b.pmean = b.chooser(b.self)
	for k := range tr.NumChildren(p) {
		st, err := stats(append(path[:len(path):len(path)], int32(k)), tr.Child(p, k))
		if err != nil {
			return nil, err
		}
		b.kids = append(b.kids, st)
		b.mean = append(b.mean, b.chooser(st))
	}
	return b, nil
}

// chooser returns st's real mean from F's chooser's side, 0 if unvisited.
func (b *base) chooser(st core.Stats) float64 {
	if st.Visits == 0 {
		return 0
	}
	m := st.W / float64(st.Visits)
	if b.kind == core.Min {
		m = 1 - m
	}
	return m
}

// withMean returns st with count n and chooser-side mean m. Squares, when
// kept, follow with the rewards' own variance, capped by the largest a mean
// m allows on [0,1], so that they stay within [W²/n, W].
func (b *base) withMean(st core.Stats, n uint64, m float64) core.Stats {
	m = min(max(m, 0), 1)
	if b.kind == core.Min {
		m = 1 - m
	}
	variance := 0.0
	if st.HasSquares && st.Visits > 0 {
		n0 := float64(st.Visits)
		variance = max(st.Squares/n0-(st.W/n0)*(st.W/n0), 0)
	}
	st.Visits, st.W = n, m*float64(n)
	if st.HasSquares {
		st.Squares = float64(n) * (min(variance, m*(1-m)) + m*m)
	}
	return st
}

// scaled returns the site at scale g: every child grows its count g-fold
// with its mean lowered by handicap (chooser's side), but the frozen ones,
// which keep their statistics, and child free, which takes count freeN
// (when free ≥ 0) at its own mean. F's count is its own plus what its
// children gained, its mean frozen.
func (b *base) scaled(g, handicap float64, frozen []bool, free int, freeN float64) (*core.Site, error) {
	kids := make([]core.Stats, len(b.kids))
	total := float64(b.self.Visits)
	for j, st := range b.kids {
		n := float64(st.Visits)
		switch {
		case j == free:
			n = math.Round(freeN)
			kids[j] = b.withMean(st, uint64(n), b.mean[j])
		case j < len(frozen) && frozen[j]:
			kids[j] = st
		default:
			n = math.Round(n * g)
			kids[j] = b.withMean(st, uint64(n), b.mean[j]-handicap)
		}
		total += n - float64(st.Visits)
	}
	total = max(total, 0)
	self := b.withMean(b.self, uint64(total), b.pmean)
	t := b.t + int64(total) - int64(b.self.Visits)
	return core.NewSiteAt(b.kind, b.depth, self, kids, max(t, 0), core.NewRNG(0x5eed))
}

// scales returns the factors g = 4^k, k ≥ 0, that keep F's count within
// 2^maxLog2Count, and with down, also the factors 2^-k below 1 that keep it
// at least 16, where a decaying exploration is still frequent enough to
// measure by sampling.
func (b *base) scales(down bool) []float64 {
	n := max(float64(b.self.Visits), 1)
	var out []float64
	if down {
		for g := 1.0 / 2; n*g >= 16; g /= 2 {
			out = append([]float64{g}, out...)
		}
	}
	for g := 1.0; n*g <= math.Exp2(maxLog2Count); g *= 4 {
		out = append(out, g)
	}
	return out
}

// prober asks one rule about one node.
type prober struct {
	rule core.Rule
	b    *base
	kind ruleKind
	buf  []float64
}

// newProber classifies the rule: exact if it gives probabilities at the
// run's end, sampled if detectDraws draws with different generators differ
// at the run's end or at a smaller scale, deterministic otherwise.
func newProber(rule core.Rule, b *base) (*prober, error) {
	pr := &prober{rule: rule, b: b, kind: deterministic}
	s, err := b.scaled(1, 0, nil, -1, 0)
	if err != nil {
		return nil, err
	}
	if st, ok := rule.(core.Stochastic); ok && st.Probs(s, nil) != nil {
		pr.kind = exact
		return pr, nil
	}
	// A rule whose exploration decays may look deterministic at the run's
	// counts: look at the smaller scales too.
	for _, g := range b.scales(true) {
		if g > 1 {
			break
		}
		first := -1
		for d := range detectDraws {
			s, err := b.scaled(g, 0, nil, -1, 0)
			if err != nil {
				return nil, err
			}
			*s.Rand() = *core.NewRNG(uint64(d) + 1)
			i, err := pr.pick(s)
			if err != nil {
				return pr, nil // judged as deterministic; the probe reports the error
			}
			if first < 0 {
				first = i
			} else if i != first {
				pr.kind = sampled
				return pr, nil
			}
		}
	}
	return pr, nil
}

// pick returns the rule's (first) choice at s, or an error if it panics.
func (pr *prober) pick(s *core.Site) (i int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the rule panicked: %v", r)
		}
	}()
	i = pr.rule.Select(s)
	if i < 0 || i >= s.Len() {
		return 0, fmt.Errorf("the rule chose child %d of %d", i, s.Len())
	}
	return i, nil
}

// prob returns the probability that the rule picks a child in set at s:
// exact, estimated from sampleDraws draws, or 0/1 for a deterministic rule.
func (pr *prober) prob(s *core.Site, set []bool) (float64, error) {
	switch pr.kind {
	case exact:
		pr.buf = pr.rule.(core.Stochastic).Probs(s, pr.buf)
		if pr.buf == nil {
			return 0, fmt.Errorf("the rule stopped giving probabilities")
		}
		p := 0.0
		for j, in := range set {
			if in {
				p += pr.buf[j]
			}
		}
		return p, nil
	case sampled:
		hits := 0
		for d := range sampleDraws {
			*s.Rand() = *core.NewRNG(uint64(d) + 1)
			j, err := pr.pick(s)
			if err != nil {
				return 0, err
			}
			if set[j] {
				hits++
			}
		}
		return float64(hits) / sampleDraws, nil
	}
	j, err := pr.pick(s)
	if set[j] {
		return 1, err
	}
	return 0, err
}

// only returns the set {i} of k children.
func only(k, i int) []bool {
	set := make([]bool, k)
	set[i] = true
	return set
}

// names lists the children in set, "child 1" or "children 1, 3".
func names(set []bool) string {
	var ks []string
	for k, in := range set {
		if in {
			ks = append(ks, fmt.Sprint(k))
		}
	}
	if len(ks) == 1 {
		return "child " + ks[0]
	}
	return "children " + strings.Join(ks, ", ")
}

// starvation projects Eq. 5: child i of F is starved, with the others in
// frozen (i among them) that got no simulation in the window either. Their
// statistics stay frozen while the rest grow; the question is whether the
// rule ever picks one of them again. (A rule that returns to another
// starved child changes the statistics the projection assumes, so that is
// a return too: the conservative answer.)
func (pr *prober) starvation(i int, frozen []bool) (limitResult, error) {
	if len(frozen) != len(pr.b.kids) || !frozen[i] {
		frozen = only(len(pr.b.kids), i)
	}
	if pr.kind != deterministic {
		res, decided, err := pr.starvationStochastic(frozen)
		if err != nil || decided {
			return res, err
		}
	}
	return pr.starvationDeterministic(frozen)
}

// starvationStochastic judges how many visits the starved children can
// expect per doubling of F. If their probability falls like n^-α with α > 1
// they are summable: with positive probability none is simulated again.
// Otherwise they are simulated for ever. decided is false when every
// probability is 0, which leaves the judgement to the deterministic trend.
func (pr *prober) starvationStochastic(frozen []bool) (res limitResult, decided bool, err error) {
	var xs, ys []float64 // log2 of F's count, log2 of the probability
	lastP, lastN := 0.0, 0.0
	who := names(frozen)
	for _, g := range pr.b.scales(pr.kind == sampled) {
		s, err := pr.b.scaled(g, 0, frozen, -1, 0)
		if err != nil {
			return res, false, err
		}
		p, err := pr.prob(s, frozen)
		if err != nil {
			return limitResult{text: fmt.Sprintf("not judged: %v at %s simulations of the node", err, pow2(s.ParentN()))}, true, nil
		}
		if p > 0 && (pr.kind == exact || p*sampleDraws >= minHits) {
			xs, ys = append(xs, math.Log2(s.ParentN())), append(ys, math.Log2(p))
			lastP, lastN = p, s.ParentN()
		}
	}
	switch {
	case len(xs) == 0:
		return res, false, nil
	case len(xs) < 3:
		return limitResult{text: fmt.Sprintf("not judged: %s drawn at too few scales (resolution 1/%d)", who, sampleDraws)}, true, nil
	}
	k, margin := len(xs), summableMargin
	if pr.kind == sampled {
		margin = sampledMargin
	} else {
		xs, ys = xs[max(k-4, 0):], ys[max(k-4, 0):] // exact: the tail decides
	}
	alpha := -slope(xs, ys)
	perDoubling := lastP * lastN
	if alpha <= 1+margin {
		return limitResult{text: fmt.Sprintf("%s keep being simulated: their probability falls like n^-%.2f, about %.3g simulations per doubling of the node at %s",
			who, alpha, perDoubling, pow2(lastN))}, true, nil
	}
	return limitResult{persists: true, text: fmt.Sprintf("the probability of %s falls like n^-%.2f, so their expected simulations per doubling (%.3g at %s) are summable: they stay starved with positive probability",
		who, alpha, perDoubling, pow2(lastN))}, true, nil
}

// starvationDeterministic follows the handicap: the least amount by which
// every growing child's mean must fall for the rule to pick a frozen one.
// If it reaches 0, the rule returns (a horizon). If it stays constant, or
// shrinks toward a positive floor, the starvation is permanent. If it keeps
// shrinking, its trend is extrapolated to where it crosses 0.
func (pr *prober) starvationDeterministic(frozen []bool) (limitResult, error) {
	var xs, hs []float64
	for _, g := range pr.b.scales(false) {
		s, err := pr.b.scaled(g, 0, frozen, -1, 0)
		if err != nil {
			return limitResult{}, err
		}
		h, j, err := pr.handicap(g, frozen)
		if err != nil {
			return limitResult{text: fmt.Sprintf("not judged: %v at %s simulations of the node", err, pow2(s.ParentN()))}, nil
		}
		if h == 0 {
			return limitResult{text: fmt.Sprintf("picks child %d again after about %s simulations of the node", j, pow2(s.ParentN()))}, nil
		}
		xs, hs = append(xs, math.Log2(s.ParentN())), append(hs, h)
	}
	return judgeTrend(names(frozen), xs, hs), nil
}

// judgeTrend reads the handicaps hs of the starved children who at log2
// counts xs (equally spaced).
func judgeTrend(who string, xs, hs []float64) limitResult {
	k := len(hs)
	last := hs[k-1]
	if math.IsInf(last, 1) {
		return limitResult{persists: true, text: fmt.Sprintf("the rule never picks %s, whatever the other children's means, up to %s simulations of the node", who, pow2(math.Exp2(xs[k-1])))}
	}
	if k < 3 {
		return limitResult{text: fmt.Sprintf("not judged: too few scales (%d) below 2^%d", k, maxLog2Count)}
	}
	d1, d2 := hs[k-3]-hs[k-2], hs[k-2]-hs[k-1] // the last two decrements
	tol := 1e-9 * max(last, 1e-3)
	if d2 <= tol {
		return limitResult{persists: true, text: fmt.Sprintf("the score deficit of %s stays at %.3g from %s to %s simulations of the node: never simulated again",
			who, last, pow2(math.Exp2(xs[0])), pow2(math.Exp2(xs[k-1])))}
	}
	// Model the decrements as A·x^q. With q ≥ −1 their sum diverges and the
	// deficit crosses 0; with q < −1 it converges to a floor.
	x1, x2 := xs[k-2], xs[k-1]
	q := -1.0
	if d1 > tol {
		q = math.Log(d2/d1) / math.Log(x2/x1)
	}
	step := x2 - x1
	a := d2 / math.Pow(x2, q) / step // decrease per unit of x
	if q < -1 {
		rest := a * math.Pow(x2, q+1) / (-q - 1)
		if rest < last {
			return limitResult{persists: true, text: fmt.Sprintf("the score deficit of %s shrinks toward %.3g > 0 (%.3g at %s simulations of the node): never simulated again",
				who, last-rest, last, pow2(math.Exp2(x2)))}
		}
	}
	// Where ∫ a·x^q dx from x2 reaches last.
	var cross float64
	if q == -1 {
		cross = x2 * math.Exp(last/a)
	} else {
		v := math.Pow(x2, q+1) + last*(q+1)/a
		if v <= 0 {
			return limitResult{persists: true, text: fmt.Sprintf("the score deficit of %s shrinks toward a positive floor (%.3g at %s simulations)", who, last, pow2(math.Exp2(x2)))}
		}
		cross = math.Pow(v, 1/(q+1))
	}
	return limitResult{text: fmt.Sprintf("the score deficit of %s shrinks (%.3g at %s simulations of the node); extrapolated, the rule picks one again after about %s",
		who, last, pow2(math.Exp2(x2)), pow2Log(cross))}
}

// handicap returns the least δ in [0,1] such that the rule picks a frozen
// child at scale g when every growing child's mean is lowered by δ, with the
// child it picks: 0 if it picks one unhandicapped, +Inf if not even δ = 1
// makes it.
func (pr *prober) handicap(g float64, frozen []bool) (float64, int, error) {
	picks := func(d float64) (bool, int, error) {
		s, err := pr.b.scaled(g, d, frozen, -1, 0)
		if err != nil {
			return false, 0, err
		}
		j, err := pr.pick(s)
		return err == nil && frozen[j], j, err
	}
	if ok, j, err := picks(0); ok || err != nil {
		return 0, j, err
	}
	if ok, _, err := picks(1); !ok || err != nil {
		return math.Inf(1), -1, err
	}
	lo, hi := 0.0, 1.0
	for range bisectSteps {
		mid := (lo + hi) / 2
		ok, _, err := picks(mid)
		if err != nil {
			return 0, -1, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, -1, nil
}

// share projects Eq. 4: does worse child w keep a share of F's simulations?
// For a rule with probabilities, its share is its probability with every
// count grown g-fold; for a deterministic one, its balance share: the
// largest count, over F's, at which the rule still picks it.
func (pr *prober) share(w int) (limitResult, error) {
	res, first, err := pr.shareTrend(w)
	if err == nil && first == 0 && pr.kind == exact {
		// A point mass elsewhere at the run's end (Algorithm 2 above its
		// threshold around a Scorer): judge the deterministic balance.
		det := *pr
		det.kind = deterministic
		res, _, err = det.shareTrend(w)
	}
	return res, err
}

// shareTrend is share, with the share at the run's end.
func (pr *prober) shareTrend(w int) (limitResult, float64, error) {
	var xs, ys []float64 // log2 of F's count, log2 of the share
	var first, last, firstN, lastN float64
	for k, g := range pr.b.scales(false) {
		s, err := pr.b.scaled(g, 0, nil, -1, 0)
		if err != nil {
			return limitResult{}, 0, err
		}
		n := s.ParentN()
		var sh float64
		if pr.kind == deterministic {
			var c float64
			c, err = pr.balance(g, w, n)
			sh = c / n
		} else {
			sh, err = pr.prob(s, only(len(pr.b.kids), w))
		}
		if err != nil {
			return limitResult{text: fmt.Sprintf("not judged: %v", err)}, 0, nil
		}
		if k == 0 {
			first, firstN = sh, n
		}
		last, lastN = sh, n
		if sh > 0 {
			xs, ys = append(xs, math.Log2(n)), append(ys, math.Log2(sh))
		}
	}
	if first == 0 || pr.kind == sampled && first*sampleDraws < 4*minHits {
		return limitResult{text: fmt.Sprintf("child %d's share is too small to judge at the run's end (%.3g)", w, first)}, first, nil
	}
	vanishes := func(alpha float64) limitResult {
		return limitResult{text: fmt.Sprintf("child %d's share falls like n^-%.3g, from %.3g at %s to %.3g at %s simulations of the node: it vanishes",
			w, alpha, first, pow2(firstN), last, pow2(lastN))}
	}
	if last == 0 || len(xs) < len(pr.b.scales(false)) {
		return vanishes(math.Inf(1)), first, nil
	}
	// A share that falls like a power of n, however small, vanishes; one
	// that stays, or whose fall slows toward a floor, does not.
	k := len(xs)
	head, tail := -slope(xs[:min(4, k)], ys[:min(4, k)]), -slope(xs[max(k-4, 0):], ys[max(k-4, 0):])
	floor := shareFlat
	if pr.kind == sampled {
		floor = sampledShareFlat
	}
	if tail > floor && tail >= head/4 {
		return vanishes(tail), first, nil
	}
	return limitResult{persists: true, text: fmt.Sprintf("child %d keeps a share of %.3g of the node's simulations at %s (%.3g at %s): it does not vanish",
		w, last, pow2(lastN), first, pow2(firstN))}, first, nil
}

// balance returns the largest count of child w, at most n, at which the rule
// still picks it at scale g (0 if it does not pick it with one simulation).
func (pr *prober) balance(g float64, w int, n float64) (float64, error) {
	picks := func(c float64) (bool, error) {
		s, err := pr.b.scaled(g, 0, nil, w, c)
		if err != nil {
			return false, err
		}
		j, err := pr.pick(s)
		return j == w, err
	}
	if ok, err := picks(1); !ok || err != nil {
		return 0, err
	}
	if ok, err := picks(n); ok || err != nil {
		return n, err
	}
	lo, hi := 0.0, math.Log2(n) // log2 counts: lo picks, hi does not
	for range bisectSteps {
		mid := (lo + hi) / 2
		ok, err := picks(math.Exp2(mid))
		if err != nil {
			return 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp2(lo), nil
}

// slope is the least-squares slope of ys against xs.
func slope(xs, ys []float64) float64 {
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(len(xs))
	my /= float64(len(xs))
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return 0
	}
	return sxy / sxx
}

// pow2 formats a count as a power of two, "2^36".
func pow2(n float64) string { return pow2Log(math.Log2(max(n, 1))) }

// pow2Log formats 2^x, however large x is.
func pow2Log(x float64) string {
	switch {
	case math.IsInf(x, 1) || x > 1e15:
		return "2^(more than 10^15)"
	case x >= 1e6:
		return fmt.Sprintf("2^%.3g", x)
	}
	return fmt.Sprintf("2^%.0f", math.Round(x))
}
