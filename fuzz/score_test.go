package fuzz

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// FuzzScore calls a rule (see pickRule: core.UCT, core.Threshold, local
// rules and the whole catalogue with fuzzed parameters) at a site built with
// core.NewSite from fuzzed statistics, extremes included: visit counts up to
// 2^32−1, W anywhere in [0, visits] (its ends included), priors of any sign
// and size down to subnormals, AMAF statistics, t up to 2^32−1, max or min
// nodes with 1 to 8 children. Virtual experience is what the rule's own
// core.VirtualExperience gives for the child's prior, as in a search, and
// priors and AMAF statistics are there only if the rule asks for them.
//
// It fails, printing every input, when a rule panics, Select returns an
// index out of range, a core.Scorer returns a non-finite score or a Select that
// disagrees with core.ArgmaxScore (as the catalogue promises), or a
// core.Stochastic gives probabilities that are not a distribution or
// selects a child of probability 0.
func FuzzScore(f *testing.F) {
	f.Fuzz(func(t *testing.T, ruleCode []byte, onMin bool, sim uint32, stats []byte) {
		fr, err := pickRule(&reader{ruleCode})
		if err != nil {
			t.Fatalf("rule %s from the catalogue's own ranges: %v", fr.name, err)
		}
		kind := core.Max
		if onMin {
			kind = core.Min
		}
		needs := core.NeedsOf(fr.rule)
		r := &reader{stats}
		self := readStats(r, needs, kind)
		kids := make([]core.Stats, 1+int(r.next())%8)
		for i := range kids {
			kids[i] = readStats(r, needs, kind)
		}
		in := siteInputs{rule: fr.name, kind: kind, self: self, kids: kids, t: int64(sim)}
		for i, k := range append([]core.Stats{self}, kids...) {
			if !(k.K1 >= 0 && k.K2 >= 0 && k.K2 <= k.K1 && !math.IsInf(k.K1, 0)) {
				t.Fatalf("%s\nvirtual experience K1 = %v, K2 = %v (stats %d), want 0 ≤ K2 ≤ K1 < ∞", in, k.K1, k.K2, i)
			}
		}
		site, err := core.NewSite(kind, self, kids, int64(sim), core.NewRNG(uint64(sim)))
		if err != nil {
			t.Skip(err)
		}
		if msg := checkSite(fr, site); msg != "" {
			t.Fatalf("%s\n%s", in, msg)
		}
	})
}

// checkSite calls fr's rule at site and says what is wrong, or "".
func checkSite(fr fuzzRule, site *core.Site) string {
	var sel int
	if p := catch(func() { sel = fr.rule.Select(site) }); p != nil {
		return fmt.Sprintf("Select panicked: %v", p)
	}
	if sel < 0 || sel >= site.Len() {
		return fmt.Sprintf("Select = %d, want an index in [0, %d)", sel, site.Len())
	}
	switch r := fr.rule.(type) {
	case core.Scorer:
		var scores []float64
		for i := range site.Len() {
			var v float64
			if p := catch(func() { v = r.Score(site, i) }); p != nil {
				return fmt.Sprintf("Score(%d) panicked: %v", i, p)
			}
			scores = append(scores, v)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Sprintf("Score(%d) = %v", i, v)
			}
		}
		if want := core.ArgmaxScore(site, r); sel != want {
			return fmt.Sprintf("Select = %d, ArgmaxScore = %d; scores %v", sel, want, scores)
		}
	case core.Stochastic:
		var probs []float64
		if p := catch(func() { probs = r.Probs(site, nil) }); p != nil {
			return fmt.Sprintf("Probs panicked: %v", p)
		}
		sum := 0.0
		for _, p := range probs {
			if !(p >= 0 && p <= 1) {
				return fmt.Sprintf("Probs = %v", probs)
			}
			sum += p
		}
		if len(probs) != site.Len() || math.Abs(sum-1) > 1e-9 {
			return fmt.Sprintf("Probs = %v, sum %v, want %d probabilities summing to 1", probs, sum, site.Len())
		}
		if probs[sel] == 0 {
			return fmt.Sprintf("Select = %d, a child of probability 0 in %v", sel, probs)
		}
	}
	return ""
}

// catch runs fn and returns what it panicked with, or nil.
func catch(fn func()) (p any) {
	defer func() { p = recover() }()
	fn()
	return nil
}

// readStats decodes one node's statistics: a count, a share of it won, a
// prior, an AMAF count and a share of that won, always all five, so that an
// input means the same for every rule. The prior and AMAF statistics are
// kept only if the rule asks for them, and the virtual experience is what
// the rule gives for the prior, as in a search. In max's perspective, as
// core.NewSite takes them: at a min node the virtual reward is stored as
// K1 − K2, as the engine stores it.
func readStats(r *reader, needs core.Needs, kind core.Kind) core.Stats {
	var s core.Stats
	s.Visits = readCount(r)
	s.W = readShare(r, s.Visits)
	prior, hasPrior := readPrior(r)
	amafN := readCount(r)
	amafW := readShare(r, amafN)
	if needs.Priors {
		s.Prior, s.HasPrior = prior, hasPrior
	}
	if v := needs.Virtual; v != nil {
		s.K1, s.K2 = v.Virtual(prior, hasPrior)
		if kind == core.Min {
			s.K2 = s.K1 - s.K2
		}
	}
	if needs.AMAF {
		s.AMAFVisits, s.AMAFW = amafN, amafW
	}
	return s
}

// readCount decodes a count: small, 16 or 32 bits, or an extreme, among
// them counts beyond a search node's 32 bits that the checker's limit probes
// ask rules about.
func readCount(r *reader) uint64 {
	b := r.next()
	switch b & 3 {
	case 0:
		return uint64(b >> 2)
	case 1:
		return uint64(r.next()) | uint64(r.next())<<8
	case 2:
		return uint64(r.next()) | uint64(r.next())<<8 | uint64(r.next())<<16 | uint64(r.next())<<24
	}
	return [...]uint64{0, 1, math.MaxUint32, 1 << 31, 1 << 40, 1 << 62, math.MaxUint32 + 1, 3 << 50}[b>>2&7]
}

// readShare decodes a reward sum in [0, n], both ends included.
func readShare(r *reader, n uint64) float64 {
	switch b := r.next(); b {
	case 0:
		return 0
	case 255:
		return float64(n)
	default:
		return float64(n) * float64(b) / 255
	}
}

// priorExtremes are priors of every sign and size.
var priorExtremes = [...]float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
	-math.SmallestNonzeroFloat64, 1e300, -1e300, math.Copysign(0, -1), 0.5}

// readPrior decodes a prior: none, on the 1/8 grid in [−16, 16), any finite
// float64, or an extreme.
func readPrior(r *reader) (float64, bool) {
	b := r.next()
	switch b & 3 {
	case 1:
		return float64(int8(r.next())) / 8, true
	case 2:
		var u uint64
		for k := range 8 {
			u |= uint64(r.next()) << (8 * k)
		}
		if h := math.Float64frombits(u); !math.IsNaN(h) && !math.IsInf(h, 0) {
			return h, true
		}
		return 0, false
	case 3:
		return priorExtremes[b>>2&7], true
	}
	return 0, false
}

// siteInputs prints a site's inputs for a failure report.
type siteInputs struct {
	rule string
	kind core.Kind
	self core.Stats
	kids []core.Stats
	t    int64
}

func (in siteInputs) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rule %s at a %v node, t = %d, statistics in max's perspective:\n  parent %+v", in.rule, in.kind, in.t, in.self)
	for i, k := range in.kids {
		fmt.Fprintf(&b, "\n  child %d %+v", i, k)
	}
	return b.String()
}
