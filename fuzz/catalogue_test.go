package fuzz

import (
	"math"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// The rules the engine targets run: a few local rules that reach every
// optional statistic of the engine, then every entry of the catalogue with
// fuzzed parameters.

// fuzzRule is a rule with the name and backup it is reported and run with.
type fuzzRule struct {
	name   string
	rule   core.Rule
	backup core.Backup
	fixed  bool // the rule requires backup; otherwise the fuzzed mode chooses
}

// localRules is the number of local rules pickRule chooses from before the
// catalogue.
const localRules = 5

// pickRule decodes a rule: a selector byte, then parameter bytes. It returns
// an error when the catalogue refuses the parameters, which must not happen
// for values inside the ranges it publishes: the caller reports it.
func pickRule(r *reader) (fuzzRule, error) {
	entries := rules.All()
	sel := int(r.next()) % (localRules + len(entries))
	p := float64(r.next())
	switch sel {
	case 0:
		c := p / 32
		return fuzzRule{name: "core.UCT{C: " + num(c) + "}", rule: core.UCT{C: c}}, nil
	case 1:
		v, vmin := float64(int(p)&15)/16, float64(r.next()&15)/16
		c := float64(int(p)>>4) / 4
		return fuzzRule{name: "core.Threshold{UCT{C: " + num(c) + "}, V: " + num(v) + ", VMin: " + num(vmin) + "}",
			rule: core.Threshold{Rule: core.UCT{C: c}, V: v, VMin: vmin}}, nil
	case 2:
		return fuzzRule{name: "amafBlend", rule: amafBlend{}}, nil
	case 3:
		return fuzzRule{name: "priorVirtual{" + num(p/8) + "}", rule: priorVirtual{n0: p / 8}}, nil
	case 4:
		return fuzzRule{name: "uniform", rule: uniform{}}, nil
	}
	spec := catalogueSpec(r, entries[sel-localRules], p)
	in, err := rules.Parse(spec)
	if err != nil {
		return fuzzRule{name: spec}, err
	}
	return fuzzRule{name: in.Spec, rule: in.Rule, backup: in.Backup, fixed: true}, nil
}

// catalogueSpec writes a spec for entry e whose numeric parameters come from
// the fuzz input: the default, either end of the range (just inside an open
// end) or a point in between. A wrapper's inner rule is another entry that
// is not a wrapper, or else the default.
func catalogueSpec(r *reader, e *rules.Entry, first float64) string {
	var parts []string
	b := first
	for i, p := range e.Params {
		if i > 0 {
			b = float64(r.next())
		}
		if p.Inner {
			entries := rules.All()
			inner := entries[int(b)%len(entries)]
			if len(inner.Params) > 0 && inner.Params[len(inner.Params)-1].Inner {
				parts = append(parts, "rule="+p.DefaultInner)
				continue
			}
			parts = append(parts, "rule="+catalogueSpec(r, inner, float64(r.next())))
			continue
		}
		v := p.Default
		switch int(b) % 4 {
		case 1:
			v = p.Min
			if p.MinOpen {
				v = math.Nextafter(p.Min, p.Max)
			}
		case 2:
			v = p.Max
			if p.MaxOpen {
				v = math.Nextafter(p.Max, p.Min)
			}
		case 3:
			v = p.Min + (p.Max-p.Min)*float64(r.next())/255
			if p.MinOpen && v == p.Min || p.MaxOpen && v == p.Max {
				v = p.Default
			}
		}
		parts = append(parts, p.Name+"="+num(v))
	}
	if len(parts) == 0 {
		return e.Name
	}
	return e.Name + ":" + strings.Join(parts, ",")
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// amafBlend is a RAVE-style blend that makes the search keep AMAF
// statistics.
type amafBlend struct{}

func (amafBlend) Needs() core.Needs { return core.Needs{AMAF: true} }

func (amafBlend) Select(s *core.Site) int {
	best, bestScore := 0, math.Inf(-1)
	for i := range s.Len() {
		an, aw := s.AMAF(i)
		if v := (s.W(i) + aw + 1) / (s.N(i) + an + 2); v > bestScore {
			best, bestScore = i, v
		}
	}
	return best
}

// priorVirtual reads priors and gives virtual experience from them, so that
// the search keeps both.
type priorVirtual struct{ n0 float64 }

func (p priorVirtual) Needs() core.Needs { return core.Needs{Priors: true, Virtual: p} }

func (p priorVirtual) Virtual(h float64, ok bool) (k1, k2 float64) {
	if !ok {
		return p.n0, p.n0 / 2
	}
	return p.n0, p.n0 * min(max(h, 0), 1)
}

func (p priorVirtual) Select(s *core.Site) int {
	best, bestScore := 0, math.Inf(-1)
	for i := range s.Len() {
		h, _ := s.Prior(i)
		v := (s.W(i)+1)/(s.N(i)+2) + h/(s.N(i)+1)
		if v > bestScore {
			best, bestScore = i, v
		}
	}
	return best
}

// uniform picks a child uniformly at random from the search's generator.
type uniform struct{}

func (uniform) Select(s *core.Site) int { return s.Rand().IntN(s.Len()) }
