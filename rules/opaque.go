package rules

import "github.com/mctscheck/mctscheck/core"

// Opaque returns r behind a wrapper that has only Select and Needs: it
// hides every optional interface r implements (core.Scorer,
// core.Stochastic, core.Builtin, and any other method) except
// core.Needer, whose Needs it forwards (core.NeedsOf(r), so the search
// keeps the same statistics and gives the same virtual experience). The
// wrapped rule makes the same choices as r, drawing the same numbers from
// Site.Rand, so a search with it runs exactly as with r. A checker sees it
// as a user's rule that implements only Select: the sweep checks every
// catalogue rule both ways, and the verdicts must agree.
// Opaque(nil) is nil.
func Opaque(r core.Rule) core.Rule {
	if r == nil {
		return nil
	}
	return opaque{r: r, needs: core.NeedsOf(r)}
}

// opaque is Opaque's wrapper. Its Needs are read once, as core.New does.
type opaque struct {
	r     core.Rule
	needs core.Needs
}

// Select implements core.Rule.
func (o opaque) Select(s *core.Site) int { return o.r.Select(s) }

// Needs implements core.Needer.
func (o opaque) Needs() core.Needs { return o.needs }
