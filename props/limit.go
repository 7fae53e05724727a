package props

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// A finite run can show a rule starving a child (Eq. 5) or keeping a worse
// child busy (Eq. 4) so far; whether it does so through the horizon, and
// for ever, is a property of the rule at counts no run reaches. The limit
// probe asks the rule itself. From the statistics of node F at the end of
// the run it builds synthetic sites (core.NewSiteAt) at scales from the
// run's end up to the horizon (Options.Horizon simulations of F), the other
// children's counts grown in their observed proportions with their means
// frozen, the candidate's statistics frozen (Eq. 5), priors, AMAF
// statistics, virtual experience and depth as observed. At each scale the
// rule then makes a window of real selections, the counts updated as a
// search would update them (the parent's count too), each chosen child
// rewarded with its frozen mean; choices and shares are read from that
// window. The package doc explains how each kind of rule is judged.

// limitResult is the projection of one candidate mechanism.
type limitResult struct {
	// persists: the evidence about the limit is structural (the mechanism
	// identical at every probed scale, or exploration that decays
	// geometrically): the tree is a witness of inconsistency.
	persists bool
	// stuck: the mechanism holds through the horizon, but its limit is not
	// shown: the decision stays wrong in practice.
	stuck bool
	text  string // the evidence, one clause
}

// ruleKind is how the probe reads a rule's choices.
type ruleKind int

const (
	deterministic ruleKind = iota // Select does not draw
	exact                         // core.Stochastic with probabilities
	sampled                       // draws, probabilities estimated from Select
)

// Probe constants: the probe's resolution and the error rate of its
// statistical tests, not thresholds of the criterion.
const (
	// DefaultHorizon is the horizon H of a check when Options.Horizon is 0:
	// 2^62 simulations of the node a mechanism is found at.
	DefaultHorizon = uint64(1) << 62
	// exactLog2: counts up to 2^53 are exact in float64, so a window's
	// selections change the parent's count one by one only up to there;
	// the tests for an identical mechanism read those scales.
	exactLog2      = 53
	detectDraws    = 256  // Select calls per scale, with different generators, that tell a deterministic rule
	returnWindow   = 256  // selections per scale in which a starved child may be picked again
	handicapWindow = 8    // selections per step of the deficit's bisection
	shareWindow    = 256  // selections per scale that read a deterministic rule's share
	sampleWindow   = 4096 // selections per scale that read a sampled rule's share
	// independentWindow: selections per scale that read the share of a
	// sampled rule that does not replay its draws, whose scales are
	// independent samples.
	independentWindow = 16384
	probsWindow       = 64 // selections over which a declared rule's probabilities are averaged
	// claimsWindow: selections of the one window, drawn apart from the
	// others, in which an exact rule's declared probabilities are tested
	// against its own choices (declared.go); claimsSeed seeds it.
	claimsWindow   = 1024
	claimsSeed     = 2
	maxDraws       = 1 << 16
	minHits        = 32 // draws of a starved child after which a sampled scale stops drawing
	fitHits        = 8  // draws of it a sampled scale needs to enter the trend
	summableMargin = 0.05
	// zTest is the one-sided normal quantile of the statistical tests: an
	// error rate below 3e-7 each.
	zTest = 5.0
	// geometricRatio: a deficit whose decrements shrink at least this fast
	// from one scale to the next (16-fold counts) is summable.
	geometricRatio = 0.75
	bisectSteps    = 40 // deficit resolution 2^-40
	deficitTol     = 1e-9
)

// base is node F's statistics at the end of a run.
type base struct {
	kind    core.Kind
	depth   int
	node    string // F's path, "0.1"
	t       int64
	self    core.Stats
	kids    []core.Stats
	mean    []float64 // chooser-side means of the children (0 if unvisited)
	pmean   float64   // chooser-side mean of F
	horizon float64   // the largest count of F a probe builds
	kept    float64   // Criterion.ShareKept: a share kept through the horizon
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
	b := &base{kind: tr.Kind(p), depth: len(path), node: tree.FormatPath(path), t: s.Sims(),
		horizon: float64(DefaultHorizon), kept: DefaultCriterion.ShareKept}
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

// at returns F's statistics at scale g: every child grows its count
// g-fold with its mean lowered by handicap (chooser's side), but the
// frozen ones, which keep their statistics. F's count is its own plus what
// its children gained, its mean as observed.
func (b *base) at(g, handicap float64, frozen []bool) (self core.Stats, kids []core.Stats, t int64) {
	kids = make([]core.Stats, len(b.kids))
	total := float64(b.self.Visits)
	for j, st := range b.kids {
		n := float64(st.Visits)
		if j < len(frozen) && frozen[j] {
			kids[j] = st
			continue
		}
		n = math.Round(n * g)
		kids[j] = b.withMean(st, uint64(n), b.mean[j]-handicap)
		total += n - float64(st.Visits)
	}
	total = max(total, 0)
	self = b.withMean(b.self, uint64(total), b.pmean)
	t = max(b.t+int64(total)-int64(b.self.Visits), 0)
	return self, kids, t
}

// horizonOr is the horizon, DefaultHorizon if unset.
func (b *base) horizonOr() float64 {
	if b.horizon == 0 {
		return float64(DefaultHorizon)
	}
	return b.horizon
}

// site returns the site at scale g, with the generator rng.
func (b *base) site(g, handicap float64, frozen []bool, rng *core.RNG) (*core.Site, error) {
	self, kids, t := b.at(g, handicap, frozen)
	return core.NewSiteAt(b.kind, b.depth, self, kids, t, rng)
}

// minProbeCount is the smallest count of F at which a sampled rule's
// exploration is measured: a decay that is geometric in the count shows
// there before it falls out of every sample.
const minProbeCount = 2

// scaleStep is the factor between two probed scales.
const scaleStep = 16.0

// scales returns the factors g = 16^k, k ≥ 0, that keep F's count within
// the horizon, and the horizon itself last; with down, also the factors
// 2^-k below 1 that keep it at least 16, where a decaying exploration is
// still frequent enough to measure by sampling.
func (b *base) scales(down bool) []float64 {
	n := max(float64(b.self.Visits), 1)
	var out []float64
	if down {
		for g := 1.0 / 2; n*g >= minProbeCount; g /= 2 {
			out = append([]float64{g}, out...)
		}
	}
	h := b.horizonOr()
	out = append(out, 1)
	for g := scaleStep; n*g <= h; g *= scaleStep {
		out = append(out, g)
	}
	if last := out[len(out)-1]; n*last < h {
		out = append(out, h/n)
	}
	return out
}

// prober asks one rule about one node.
type prober struct {
	rule core.Rule
	b    *base
	kind ruleKind
	// draws: the rule used its generator when the probe classified it,
	// though its choices did not differ.
	draws bool
	// replayable: a sampled rule's choices are the same for the same site
	// and generator, so that windows at every scale share their draws.
	replayable bool
	buf        []float64
	ctx        context.Context // if set, a probe stops soon after it is done
	// declared records, for an exact rule, each child's declared
	// probability against the rule's own choices in the claims window
	// (testClaims), run once, at the first scale read.
	declared claims
	claimed  bool // the claims window ran
}

// lie returns a *Fault if the rule's choices in the probe's windows
// contradict the probabilities it declared at the same sites, nil
// otherwise.
func (pr *prober) lie() *Fault {
	i := pr.declared.contradicted()
	if i < 0 {
		return nil
	}
	return pr.fault(FaultLie, pr.declared.describe(i, fmt.Sprintf("child %d of node %s was", i, pr.b.node)), nil)
}

// cancelled reports whether the probe's context is done.
func (pr *prober) cancelled() bool { return pr.ctx != nil && pr.ctx.Err() != nil }

// newProber classifies the rule: exact if it gives probabilities at the
// run's end, sampled if detectDraws draws with different generators differ
// at the run's end or at a smaller scale, deterministic otherwise, noting
// whether a rule read as deterministic drew from its generator all the
// same (its exploration may be too rare to show).
func newProber(rule core.Rule, b *base) (*prober, error) {
	pr := &prober{rule: rule, b: b, kind: deterministic}
	if _, ok := rule.(core.Stochastic); ok {
		s, err := b.site(1, 0, nil, core.NewRNG(1))
		if err != nil {
			return nil, err
		}
		p, err := pr.probs(s)
		if err != nil {
			return nil, err
		}
		if p != nil {
			pr.kind = exact
			return pr, nil
		}
	}
	// A rule whose exploration decays may look deterministic at the run's
	// counts: look at the smaller scales too.
	for _, g := range b.scales(true) {
		if g > 1 {
			break
		}
		first := -1
		for d := range detectDraws {
			s, err := b.site(g, 0, nil, core.NewRNG(uint64(d)+1))
			if err != nil {
				return nil, err
			}
			before := *s.Rand()
			i, err := pr.pick(s)
			if err != nil {
				return nil, err
			}
			pr.draws = pr.draws || *s.Rand() != before
			if first < 0 {
				first = i
			} else if i != first {
				pr.kind = sampled
				return pr, pr.replays(g)
			}
		}
	}
	return pr, nil
}

// replays sets whether a sampled rule replays its draws: whether, at
// scale g, detectDraws pairs of identical sites with identical generators
// get identical choices. A rule that draws from a generator of its own
// (math/rand's global one, say) does not, and its windows at different
// scales are independent samples rather than common draws.
func (pr *prober) replays(g float64) error {
	pr.replayable = true
	for d := range detectDraws {
		var got [2]int
		for k := range got {
			s, err := pr.b.site(g, 0, nil, core.NewRNG(uint64(d)+1))
			if err != nil {
				return err
			}
			if got[k], err = pr.pick(s); err != nil {
				return err
			}
		}
		if got[0] != got[1] {
			pr.replayable = false
			return nil
		}
	}
	return nil
}

// pick returns the rule's choice at s, or a *Fault if it panics or
// chooses no child of s: a fault in the probe is a fault of the rule, as
// in the search.
func (pr *prober) pick(s *core.Site) (i int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = pr.faultAt(s, r)
		}
	}()
	i = pr.rule.Select(s)
	if i < 0 || i >= s.Len() {
		return 0, pr.fault(FaultRange, fmt.Sprintf("the rule chose child %d of %d", i, s.Len()), s)
	}
	return i, nil
}

// fault is a *Fault of kind in the probe at site s (nil: none in
// particular): at F's node, in no simulation of the run (Sim −1).
func (pr *prober) fault(kind FaultKind, msg string, s *core.Site) *Fault {
	f := &Fault{Kind: kind, Message: msg, Node: pr.b.node, Sim: -1}
	if s != nil {
		f.Inputs = siteInputs(s)
	}
	return f
}

// faultAt is the *Fault of a panic r in the probe, at site s.
func (pr *prober) faultAt(s *core.Site, r any) *Fault {
	f := pr.fault(FaultPanic, fmt.Sprintf("panic: %v", r), s)
	switch v := r.(type) {
	case *Fault:
		v.Node, v.Inputs, v.Sim = pr.b.node, siteInputs(s), -1
		return v
	case Kinded:
		f.Kind, f.Message, f.Stderr = FaultKind(v.FaultKind()), fmt.Sprint(v), v.Stderr()
	}
	return f
}

// probs returns the rule's probabilities at s (nil if it cannot tell), or
// a *Fault if they are no distribution over s's children.
func (pr *prober) probs(s *core.Site) (p []float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = pr.faultAt(s, r)
		}
	}()
	if pr.buf == nil {
		pr.buf = make([]float64, 0, s.Len())
	}
	p = pr.rule.(core.Stochastic).Probs(s, pr.buf[:0])
	if p == nil {
		return nil, nil
	}
	pr.buf = p
	if err := core.ProbsError(p, s.Len()); err != nil {
		return nil, pr.fault(FaultRange, "Probs: "+err.Error(), s)
	}
	return p, nil
}

// window lets the rule make n selections from the site at scale g, as a
// search would: after each, the chosen child and F gain a simulation whose
// reward is the child's mean at that scale (its frozen mean, less the
// handicap for a growing child), and t grows by one. The generator is
// seeded with seed, so that every scale sees the same draws (common random
// numbers). visit sees every site and choice; returning false ends the
// window.
func (pr *prober) window(g, handicap float64, frozen []bool, n int, seed uint64, visit func(s *core.Site, j int) (bool, error)) error {
	b := pr.b
	self, kids, t := b.at(g, handicap, frozen)
	reward := make([]float64, len(kids)) // max's perspective
	for j, st := range kids {
		if st.Visits > 0 {
			reward[j] = st.W / float64(st.Visits)
		} else if b.kind == core.Min {
			reward[j] = 1 // a chooser-side mean of 0
		}
	}
	rng := core.NewRNG(seed)
	for k := range n {
		if k%256 == 0 && pr.cancelled() {
			return pr.ctx.Err()
		}
		s, err := core.NewSiteAt(b.kind, b.depth, self, kids, t, rng)
		if err != nil {
			return err
		}
		j, err := pr.pick(s)
		if err != nil {
			return err
		}
		if more, err := visit(s, j); !more || err != nil {
			return err
		}
		r := reward[j]
		kids[j].Visits++
		kids[j].W = min(kids[j].W+r, float64(kids[j].Visits))
		self.Visits++
		self.W = min(self.W+r, float64(self.Visits))
		if self.HasSquares {
			kids[j].Squares = min(kids[j].Squares+r*r, kids[j].W)
			self.Squares = min(self.Squares+r*r, self.W)
		}
		t++
	}
	return nil
}

// count is one scale's reading: the count of F, and hits out of draws.
type count struct {
	n           float64 // F's count at the start of the window
	hits, draws float64 // selections (or summed probabilities) in the set, and selections
}

func (c count) share() float64 { return c.hits / c.draws }

// read makes a window at scale g and counts the selections of a child in
// set: for an exact rule, its probabilities summed over probsWindow
// selections; for a sampled one, sampleWindow selections; for a
// deterministic one, n selections.
func (pr *prober) read(g float64, frozen, set []bool, n int) (count, error) {
	c := count{}
	switch pr.kind {
	case exact:
		n = probsWindow
		if !pr.claimed {
			pr.claimed = true
			if err := pr.testClaims(g, frozen); err != nil {
				return c, err
			}
		}
	case sampled:
		n = sampleWindow
		if !pr.replayable {
			n = independentWindow
		}
	}
	err := pr.window(g, 0, frozen, n, 1, func(s *core.Site, j int) (bool, error) {
		if c.draws == 0 {
			c.n = s.ParentN()
		}
		c.draws++
		if pr.kind == exact {
			p, err := pr.probs(s)
			if err != nil || p == nil {
				return false, cmpErr(err, "the rule stopped giving probabilities")
			}
			if p[j] == 0 {
				return false, pr.fault(FaultLie, impossibleChoice(j), s)
			}
			for k, in := range set {
				if in {
					c.hits += p[k]
				}
			}
		} else if set[j] {
			c.hits++
		}
		return true, nil
	})
	return c, err
}

// testClaims records, in a window of claimsWindow selections at scale g,
// each child's declared probability against the rule's choice. The
// window draws from its own seed: the read windows share their draws at
// every scale (common random numbers), so their choices, counted
// together, would repeat one sample and be no independent evidence.
func (pr *prober) testClaims(g float64, frozen []bool) error {
	return pr.window(g, 0, frozen, claimsWindow, claimsSeed, func(s *core.Site, j int) (bool, error) {
		p, err := pr.probs(s)
		if err != nil || p == nil {
			return false, cmpErr(err, "the rule stopped giving probabilities")
		}
		if p[j] == 0 {
			return false, pr.fault(FaultLie, impossibleChoice(j), s)
		}
		for k, pk := range p {
			pr.declared.add(k, pk, k == j)
		}
		return true, nil
	})
}

// cmpErr returns err, or an error saying msg if err is nil.
func cmpErr(err error, msg string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("%s", msg)
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

// notJudged is the result of a probe the rule made impossible, or err
// itself if it is a fault of the rule.
func notJudged(err error, n float64) (limitResult, error) {
	if f, ok := err.(*Fault); ok {
		return limitResult{}, f
	}
	return limitResult{text: fmt.Sprintf("not judged: %v at %s simulations of the node", err, pow2(n))}, nil
}

// starvation projects Eq. 5: child i of F is starved, with the others in
// frozen (i among them) that got no simulation in the window either. Their
// statistics stay frozen while the rest grow; the question is whether the
// rule picks one of them again, before the horizon and in the limit. (A
// rule that returns to another starved child changes the statistics the
// projection assumes, so that is a return too: the conservative answer.)
func (pr *prober) starvation(i int, frozen []bool) (limitResult, error) {
	if len(frozen) != len(pr.b.kids) || !frozen[i] {
		frozen = only(len(pr.b.kids), i)
	}
	var res limitResult
	decided := false
	var err error
	switch pr.kind {
	case exact:
		res, decided, err = pr.starvationExact(frozen)
	case sampled:
		res, decided, err = pr.starvationSampled(frozen)
	}
	if err != nil || decided {
		return res, err
	}
	res, err = pr.starvationDeterministic(frozen)
	if (pr.kind == sampled || pr.draws) && res.persists {
		// A rule that draws, never drawing the child in the windows: its
		// probability may be tiny and constant, which no sample resolves.
		res = limitResult{stuck: true, text: fmt.Sprintf("stuck through %s simulations of node %s: %s drawn at no scale and too rarely below the run's end to judge its trend (a rule that draws, and whose exploration vanishes before the run's end, cannot be shown inconsistent from samples); with common draws at every scale, %s",
			pow2(pr.b.horizonOr()), pr.b.node, names(frozen), res.text)}
	}
	return res, err
}

// starvationExact reads the starved children's probability p at every
// scale. If p·n, their expected simulations per doubling of F, falls
// geometrically (p like n^-α with α ≥ 1 + summableMargin at every one of
// the last scales), the simulations they can expect are summable: with
// positive probability none is simulated again (inconsistent). Otherwise
// the expected simulations from the run's end to the horizon decide: at
// least one is a return, fewer is stuck. decided is false when p is 0 at
// every scale, which leaves the judgement to the deterministic reading.
func (pr *prober) starvationExact(frozen []bool) (res limitResult, decided bool, err error) {
	var cs []count
	for _, g := range pr.b.scales(false) {
		c, err := pr.read(g, frozen, frozen, 0)
		if err != nil {
			res, err := notJudged(err, c.n)
			return res, true, err
		}
		cs = append(cs, c)
	}
	who := names(frozen)
	// Their expected simulations from the run's end to the horizon, by the
	// trapezoid rule between scales.
	expected, returnAt := 0.0, math.NaN()
	for k := 1; k < len(cs); k++ {
		a, z := cs[k-1], cs[k]
		expected += (a.share() + z.share()) / 2 * (z.n - a.n)
		if expected >= 1 && math.IsNaN(returnAt) {
			returnAt = z.n
		}
	}
	k := len(cs)
	last := cs[k-1]
	if last.hits == 0 {
		return res, false, nil // 0 at the tail: the deterministic reading judges
	}
	alpha := math.Inf(1) // the smallest local exponent over the last scales
	for j := max(k-5, 0); j+1 < k; j++ {
		a, z := cs[j], cs[j+1]
		if a.hits == 0 || z.n <= a.n {
			continue
		}
		alpha = min(alpha, -math.Log(z.share()/a.share())/math.Log(z.n/a.n))
	}
	switch {
	case alpha >= 1+summableMargin && !math.IsInf(alpha, 1):
		return limitResult{persists: true, text: fmt.Sprintf("the probability of %s falls like n^-%.3g or faster at every scale from %s to %s, so the expected simulations per doubling of the node fall geometrically (%.3g at %s): summable, starved for ever with positive probability",
			who, alpha, pow2(cs[max(k-5, 0)].n), pow2(last.n), last.share()*last.n, pow2(last.n))}, true, nil
	case !math.IsNaN(returnAt):
		return limitResult{text: fmt.Sprintf("simulations of %s go on: about %.3g expected by %s, the first by about %s simulations of the node",
			who, expected, pow2(last.n), pow2(returnAt))}, true, nil
	}
	return limitResult{stuck: true, text: fmt.Sprintf("stuck through %s simulations of node %s: %s, %.3g simulations expected in all from the run's end, with probability %.3g at %s; a return is not excluded",
		pow2(last.n), pr.b.node, who, expected, last.share(), pow2(last.n))}, true, nil
}

// starvationSampled reads a rule that draws. First, windows of
// sampleWindow selections at every scale from the run's end to the
// horizon: a draw of a starved child is a return. Then the trend of their
// probability, estimated from up to maxDraws draws at each scale from 16
// simulations of F on: a weighted least-squares fit of log p against
// log n, whose exponent α has a standard error from the Poisson counts.
// α − zTest·SE > 1 + summableMargin means their expected simulations per
// doubling fall geometrically: inconsistent, at the tests' error rate. An
// estimate of at least one simulation by the horizon from the fitted trend
// is a return (labelled an estimate); too few points leave the judgement
// to the deterministic reading, in which the draws are common to every
// scale.
func (pr *prober) starvationSampled(frozen []bool) (res limitResult, decided bool, err error) {
	who := names(frozen)
	for _, g := range pr.b.scales(false) {
		var at float64
		drawn := -1
		err := pr.window(g, 0, frozen, sampleWindow, 1, func(s *core.Site, j int) (bool, error) {
			if frozen[j] {
				at, drawn = s.ParentN(), j
				return false, nil
			}
			return true, nil
		})
		if err != nil {
			res, err := notJudged(err, 0)
			return res, true, err
		}
		if drawn >= 0 {
			return limitResult{text: fmt.Sprintf("draws child %d again at about %s simulations of the node", drawn, pow2(at))}, true, nil
		}
	}
	var xs, ys, ws []float64 // log2 n, log2 p, weights (hits)
	var lastN, lastP float64
	for _, g := range pr.b.scales(true) {
		if g > 1 {
			break
		}
		hits, draws := 0.0, 0.0
		var n float64
		for d := 0; d < maxDraws && hits < minHits; d++ {
			if d%256 == 0 && pr.cancelled() {
				return res, true, pr.ctx.Err()
			}
			s, err := pr.b.site(g, 0, frozen, core.NewRNG(uint64(d)+1))
			if err != nil {
				return res, true, err
			}
			n = s.ParentN()
			j, err := pr.pick(s)
			if err != nil {
				res, err := notJudged(err, n)
				return res, true, err
			}
			draws++
			if frozen[j] {
				hits++
			}
		}
		if hits >= fitHits {
			xs, ys, ws = append(xs, math.Log2(n)), append(ys, math.Log2(hits/draws)), append(ws, hits)
			lastN, lastP = n, hits/draws
		}
	}
	if len(xs) < 2 {
		return res, false, nil
	}
	alpha, se := weightedSlope(xs, ys, ws)
	alpha = -alpha
	if alpha-zTest*se > 1+summableMargin {
		return limitResult{persists: true, text: fmt.Sprintf("the probability of %s falls like n^-%.3g (± %.2g, %d scales from %s to %s; the decline is faster than n^-%.2f at error rate 3e-7), so the expected simulations per doubling of the node fall geometrically: summable, starved for ever with positive probability",
			who, alpha, se, len(xs), pow2(math.Exp2(xs[0])), pow2(lastN), 1+summableMargin)}, true, nil
	}
	// The fitted trend, p = lastP·(n/lastN)^-α, integrated to the horizon:
	// an estimate.
	expected := integratePower(lastP, lastN, alpha, pr.b.horizonOr())
	if expected >= 1 {
		return limitResult{text: fmt.Sprintf("draws of %s go on: the probability falls like n^-%.3g (± %.2g), about %.3g simulations expected by %s (an estimate from the trend)",
			who, alpha, se, expected, pow2(pr.b.horizonOr()))}, true, nil
	}
	return limitResult{stuck: true, text: fmt.Sprintf("stuck through %s simulations of node %s: %s drawn in none of %d selections at any scale; the probability falls like n^-%.3g (± %.2g), not resolved as summable; a return is not excluded",
		pow2(pr.b.horizonOr()), pr.b.node, who, sampleWindow, alpha, se)}, true, nil
}

// integratePower returns ∫ p0·(n/n0)^-α dn from n0 to h.
func integratePower(p0, n0, alpha, h float64) float64 {
	if h <= n0 {
		return 0
	}
	if math.Abs(alpha-1) < 1e-9 {
		return p0 * n0 * math.Log(h/n0)
	}
	return p0 * n0 / (1 - alpha) * (math.Pow(h/n0, 1-alpha) - 1)
}

// starvationDeterministic follows the deficit at every scale from the
// run's end to the horizon. A window of returnWindow selections that picks
// a frozen child is a return, measured. Otherwise the deficit h, the least
// amount by which every growing child's mean must fall for the rule to pick
// a frozen child within handicapWindow selections, is compared across the
// scales: constant (or growing) at every scale, or shrinking by decrements
// that fall geometrically with a positive floor, is structural evidence
// (inconsistent); a deficit that still shrinks at the horizon is stuck,
// with an estimated return labelled as such.
func (pr *prober) starvationDeterministic(frozen []bool) (limitResult, error) {
	who := names(frozen)
	var xs, hs []float64
	for _, g := range pr.b.scales(false) {
		var at float64
		back := -1
		err := pr.window(g, 0, frozen, returnWindow, 1, func(s *core.Site, j int) (bool, error) {
			if at == 0 {
				at = s.ParentN()
			}
			if frozen[j] {
				back = j
				return false, nil
			}
			return true, nil
		})
		if err != nil {
			return notJudged(err, at)
		}
		if back >= 0 {
			return limitResult{text: fmt.Sprintf("picks child %d again after about %s simulations of the node", back, pow2(at))}, nil
		}
		var h float64
		if sc, ok := pr.rule.(core.Scorer); ok {
			h, err = pr.scoreDeficit(sc, g, frozen)
		} else {
			h, err = pr.handicap(g, frozen)
		}
		if err != nil {
			return notJudged(err, at)
		}
		xs, hs = append(xs, math.Log2(at)), append(hs, h)
	}
	unvisited := true
	for j, in := range frozen {
		if in && pr.b.kids[j].Visits > 0 {
			unvisited = false
		}
	}
	return judgeDeficit(pr.b.node, who, unvisited, xs, hs), nil
}

// judgeDeficit reads the deficits hs of the starved children who at log2
// counts xs of node; unvisited says none of them has a simulation.
func judgeDeficit(node, who string, unvisited bool, xs, hs []float64) limitResult {
	k := len(hs)
	last, from, to := hs[k-1], pow2(math.Exp2(xs[0])), pow2(math.Exp2(xs[k-1]))
	if math.IsInf(last, 1) {
		switch {
		case !allInf(hs):
			// Beyond the probe's range at the horizon but not before: the
			// deficit grows, it does not shrink.
			return limitResult{persists: true, text: fmt.Sprintf("the score deficit of %s grows beyond the probe's range (every other mean at 0) by %s simulations of the node: never simulated again", who, to)}
		case unvisited:
			// Nothing the rule reads of them changes with the scale but
			// F's count; lowering every other mean to 0 does not bring
			// it back: the same choice at every scale.
			return limitResult{persists: true, text: fmt.Sprintf("the rule picks %s, never simulated, at no scale from %s to %s simulations of the node, whatever the other children's means: never simulated again", who, from, to)}
		}
		// Simulated children whose deficit is beyond what lowering the
		// other means can measure: its trend, and the limit, are not shown.
		return limitResult{stuck: true, text: fmt.Sprintf("stuck through %s simulations of node %s: the rule picks %s at no scale from %s on, whatever the other children's means; its deficit is beyond the probe's range, so a return is not excluded", to, node, who, from)}
	}
	if k := firstFinite(hs); k > 0 {
		// Out of the probe's range at first, then measured: judge from
		// there on.
		xs, hs = xs[k:], hs[k:]
		from = pow2(math.Exp2(xs[0]))
		k = len(hs)
		if k < 3 {
			return limitResult{stuck: true, text: fmt.Sprintf("stuck through %s simulations of node %s: the score deficit of %s comes into the probe's range only at %s (%.3g); a return is not excluded", to, node, who, from, last)}
		}
	}
	k = len(hs)
	// settled is the first scale from which the deficit shrinks by no more
	// than the bisection's resolution.
	settled := k - 1
	for settled > 0 && hs[settled] >= hs[settled-1]-deficitTol*max(hs[settled-1], 1e-3) {
		settled--
	}
	switch {
	case settled == 0 && last == 0:
		return limitResult{persists: true, text: fmt.Sprintf("at every scale from %s to %s simulations of the node, the best score of %s equals the best of the other children's, and a tie goes to the lower index: never simulated again", from, to, who)}
	case settled == 0:
		return limitResult{persists: true, text: fmt.Sprintf("the score deficit of %s stays at %.3g at every scale from %s to %s simulations of the node: never simulated again", who, last, from, to)}
	case settled <= k-3:
		if _, ok := geometricFloor(hs); ok {
			return limitResult{persists: true, text: fmt.Sprintf("the score deficit of %s shrinks by decrements that fall geometrically until %s simulations of the node, then stays at %.3g at every scale to %s: never simulated again",
				who, pow2(math.Exp2(xs[settled])), last, to)}
		}
	}
	if floor, ok := geometricFloor(hs); ok {
		return limitResult{persists: true, text: fmt.Sprintf("the score deficit of %s shrinks by decrements that fall geometrically (by %.2g or faster per scale over the last %d), toward %.3g > 0 (%.3g at %s simulations of the node): never simulated again",
			who, geometricRatio, min(k-1, 4), floor, last, to)}
	}
	text := fmt.Sprintf("stuck through %s simulations of node %s; the score deficit of %s still shrinks (%.3g at %s); a return is not excluded", to, node, who, last, to)
	if est := returnEstimate(xs, hs); est != "" {
		text += " (" + est + ")"
	}
	return limitResult{stuck: true, text: text}
}

// allInf reports whether every deficit is +Inf.
func allInf(hs []float64) bool {
	for _, h := range hs {
		if !math.IsInf(h, 1) {
			return false
		}
	}
	return true
}

// firstFinite is the index of the first finite deficit.
func firstFinite(hs []float64) int {
	for k, h := range hs {
		if !math.IsInf(h, 1) {
			return k
		}
	}
	return len(hs)
}

// geometricFloor reports whether the last decrements of hs (up to four)
// each shrink by geometricRatio or faster (or stay within the bisection's
// resolution), and the floor that bounds the deficit from below then: the
// last value less the geometric tail.
func geometricFloor(hs []float64) (float64, bool) {
	k := len(hs)
	if k < 4 {
		return 0, false
	}
	var d []float64
	for j := max(k-5, 0); j+1 < k; j++ {
		d = append(d, hs[j]-hs[j+1])
	}
	tol := deficitTol * max(hs[k-1], 1e-3)
	for j := 1; j < len(d); j++ {
		if !(d[j] <= tol || d[j-1] > 0 && d[j] >= 0 && d[j] <= geometricRatio*d[j-1]) {
			return 0, false
		}
	}
	floor := hs[k-1] - max(d[len(d)-1], 0)*geometricRatio/(1-geometricRatio)
	return floor, floor > 0
}

// returnEstimate extrapolates a shrinking deficit to where it crosses 0,
// with its last two decrements modelled as A·x^q in x = log2 n: an
// estimate, never evidence.
func returnEstimate(xs, hs []float64) string {
	k := len(hs)
	if k < 3 || math.IsInf(hs[k-1], 1) {
		return ""
	}
	last := hs[k-1]
	d1, d2 := hs[k-3]-hs[k-2], hs[k-2]-hs[k-1]
	if d2 <= 0 {
		return ""
	}
	x1, x2 := xs[k-2], xs[k-1]
	q := -1.0
	if d1 > 0 {
		q = math.Log(d2/d1) / math.Log(x2/x1)
	}
	a := d2 / math.Pow(x2, q) / (x2 - x1)
	var cross float64
	switch {
	case q == -1:
		cross = x2 * math.Exp(last/a)
	case q < -1 && a*math.Pow(x2, q+1)/(-q-1) < last:
		return "estimate: a return is not in the fitted trend"
	default:
		v := math.Pow(x2, q+1) + last*(q+1)/a
		if v <= 0 {
			return "estimate: a return is not in the fitted trend"
		}
		cross = math.Pow(v, 1/(q+1))
	}
	return "estimate: a return at about " + pow2Log(cross)
}

// scoreDeficit is, for a rule that declares its scores (core.Scorer, whose
// Select is their argmax), the deficit in the rule's own units at scale
// g: the best growing child's score less the best frozen child's. The
// declaration is checked first: Select at the same site must pick a child
// with the best score, or the scores are a lie (a *Fault).
func (pr *prober) scoreDeficit(sc core.Scorer, g float64, frozen []bool) (d float64, err error) {
	s, err := pr.b.site(g, 0, frozen, core.NewRNG(1))
	if err != nil {
		return 0, err
	}
	defer func() {
		if r := recover(); r != nil {
			err = pr.faultAt(s, r)
		}
	}()
	scores := make([]float64, len(frozen))
	grow, starve := math.Inf(-1), math.Inf(-1)
	for j, in := range frozen {
		v := sc.Score(s, j)
		if math.IsNaN(v) {
			return 0, pr.fault(FaultNaN, fmt.Sprintf("score %v for child %d", v, j), s)
		}
		scores[j] = v
		if in {
			starve = max(starve, v)
		} else {
			grow = max(grow, v)
		}
	}
	again, err := pr.b.site(g, 0, frozen, core.NewRNG(1))
	if err != nil {
		return 0, err
	}
	i, err := pr.pick(again)
	if err != nil {
		return 0, err
	}
	if msg := scoreLie(scores, i); msg != "" {
		return 0, pr.fault(FaultLie, msg, s)
	}
	d = grow - starve
	if math.IsNaN(d) { // +Inf on both sides: no deficit the probe can read
		return 0, fmt.Errorf("the rule scores children on both sides +Inf")
	}
	return d, nil
}

// handicap returns the least δ in [0,1] such that the rule picks a frozen
// child within handicapWindow selections at scale g when every growing
// child's mean is lowered by δ: +Inf if not even δ = 1 makes it.
func (pr *prober) handicap(g float64, frozen []bool) (float64, error) {
	picks := func(d float64) (bool, error) {
		found := false
		err := pr.window(g, d, frozen, handicapWindow, 1, func(_ *core.Site, j int) (bool, error) {
			found = frozen[j]
			return !found, nil
		})
		return found, err
	}
	if ok, err := picks(1); !ok || err != nil {
		return math.Inf(1), err
	}
	lo, hi := 0.0, 1.0
	for range bisectSteps {
		mid := (lo + hi) / 2
		ok, err := picks(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}

// share projects Eq. 4: does worse child w keep a share of F's
// selections? At every scale a window reads it: the averaged probability
// of a rule that declares them (or, when that is 0 at the run's end, its
// choices, as Algorithm 2 above its threshold makes them), the draws of a
// sampled rule, the choices of a deterministic one. A share that is the
// same, and positive, at every scale of the upper half of the exactly
// counted range is structural: inconsistent. One that still keeps
// Criterion.ShareKept of its size at the horizon, or whose decline a
// sampled reading does not resolve, is stuck. Any other vanishes.
func (pr *prober) share(w int) (limitResult, error) {
	k := len(pr.b.kids)
	set := only(k, w)
	if pr.kind == exact {
		c, err := pr.read(1, nil, set, 0)
		if err != nil {
			return notJudged(err, c.n)
		}
		if c.hits == 0 {
			det := *pr
			det.kind = deterministic
			return det.share(w)
		}
	}
	var cs []count
	for _, g := range pr.b.scales(false) {
		c, err := pr.read(g, nil, set, shareWindow)
		if err != nil {
			return notJudged(err, c.n)
		}
		cs = append(cs, c)
	}
	if pr.kind == sampled && !pr.replayable {
		if lr, ok := boundedShare(w, cs); ok {
			return lr, nil
		}
	}
	first, last := cs[0], cs[len(cs)-1]
	reading := map[ruleKind]string{exact: "its probability averaged over %d selections", sampled: "its draws in %d selections", deterministic: "its choices in %d selections"}[pr.kind]
	reading = fmt.Sprintf(reading, int(first.draws))
	if first.hits == 0 {
		return limitResult{text: fmt.Sprintf("child %d is not chosen in a window of %d selections at the run's end: its share vanishes", w, int(first.draws))}, nil
	}
	// The upper half of the exactly counted scales.
	lo, hi := math.Log2(first.n), min(math.Log2(last.n), exactLog2)
	var upper []count
	for _, c := range cs {
		if x := math.Log2(c.n); x >= (lo+hi)/2 && x <= exactLog2 {
			upper = append(upper, c)
		}
	}
	constant := len(upper) >= 3
	for _, c := range upper {
		tol := 0.0
		if pr.kind == exact {
			tol = 1e-9 * upper[0].hits
		}
		if math.Abs(c.hits-upper[0].hits) > tol || c.hits == 0 || c.draws != upper[0].draws {
			constant = false
		}
	}
	if constant {
		u0, u1 := upper[0], upper[len(upper)-1]
		return limitResult{persists: true, text: fmt.Sprintf("child %d keeps a share of %.4g of the node's selections (%s) at every scale from %s to %s simulations of the node: it does not vanish",
			w, u0.share(), reading, pow2(u0.n), pow2(u1.n))}, nil
	}
	resolved := true // the decline from the run's end to the horizon
	if pr.kind == sampled {
		resolved = first.hits-last.hits > zTest*math.Sqrt(first.hits+last.hits)
	}
	kept := pr.b.kept
	if kept == 0 {
		kept = DefaultCriterion.ShareKept
	}
	if last.share() >= kept*first.share() || !resolved && last.hits >= fitHits {
		return limitResult{stuck: true, text: fmt.Sprintf("stuck through %s simulations of node %s: child %d still keeps a share of %.3g of the node's selections there (%.3g at %s; %s), and its limit is not shown",
			pow2(last.n), pr.b.node, w, last.share(), first.share(), pow2(first.n), reading)}, nil
	}
	return limitResult{text: fmt.Sprintf("child %d's share falls from %.3g at %s to %.3g at %s simulations of the node (%s): it vanishes",
		w, first.share(), pow2(first.n), last.share(), pow2(last.n), reading)}, nil
}

// weightedSlope is the weighted least-squares slope of ys against xs,
// with its standard error for points of variance 1/(ws·ln²2) (log2 of a
// Poisson count of ws).
func weightedSlope(xs, ys, ws []float64) (slope, se float64) {
	iv := make([]float64, len(ws))
	for i, w := range ws {
		iv[i] = w * math.Ln2 * math.Ln2
	}
	return fitSlope(xs, ys, iv)
}

// fitSlope is the least-squares slope of ys against xs for points of
// variances 1/iv (inverse variances as weights), with its standard error.
func fitSlope(xs, ys, iv []float64) (slope, se float64) {
	var sw, mx, my float64
	for i := range xs {
		sw += iv[i]
		mx += iv[i] * xs[i]
		my += iv[i] * ys[i]
	}
	mx /= sw
	my /= sw
	var sxy, sxx float64
	for i := range xs {
		sxy += iv[i] * (xs[i] - mx) * (ys[i] - my)
		sxx += iv[i] * (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return 0, math.Inf(1)
	}
	return sxy / sxx, 1 / math.Sqrt(sxx)
}

// boundedShare judges the share of worse child w of a sampled rule that
// does not replay its draws from independent samples cs, one a scale from
// the run's end to the horizon: if at every scale the share's lower z = 5
// bound is positive, and the shares show no decline at z = 5 (a weighted
// fit of share against log2 n), the share stays above a positive bound at
// every probed scale: the same evidence as an identical share at every
// scale, and the tree is a witness. ok is false otherwise.
func boundedShare(w int, cs []count) (limitResult, bool) {
	if len(cs) < 3 {
		return limitResult{}, false
	}
	low := math.Inf(1)
	xs, ys, iv := make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs))
	for k, c := range cs {
		p := c.share()
		v := max(p*(1-p), 1/c.draws) / c.draws
		low = min(low, p-zTest*math.Sqrt(v))
		xs[k], ys[k], iv[k] = math.Log2(c.n), p, 1/v
	}
	slope, se := fitSlope(xs, ys, iv)
	if !(low > 0) || slope+zTest*se < 0 {
		return limitResult{}, false
	}
	first, last := cs[0], cs[len(cs)-1]
	return limitResult{persists: true, text: fmt.Sprintf("child %d keeps a share of at least %.3g of the node's selections at every scale from %s to %s simulations of the node (%d independent samples of %d selections, the rule not replaying its draws; a lower bound at z = 5 per scale, family error rate %.0e), with no decline resolved (slope %.2g ± %.2g per doubling): it does not vanish",
		w, low, pow2(first.n), pow2(last.n), len(cs), int(first.draws), float64(len(cs))*2.9e-7, slope, se)}, true
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
