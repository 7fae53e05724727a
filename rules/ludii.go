package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// Ludii's selection strategies, package search.mcts.selection of
// Ludeme/Ludii (AI/src/search/mcts/selection/*.java, each at the commit its
// type cites), with BaseNode.valueEstimateUnvisitedChildren in
// AI/src/search/mcts/nodes/BaseNode.java@621312c12f2a5cf1fbbe4ba96c6df34872427d19
// and MCTS.java's default QInit.PARENT: an unvisited child's value is the
// node's own mean (10000 while the node has no visits). Values are on
// Ludii's scale, Q = 2V̂ − 1; N = Σ n over the children
// (sumLegalChildVisits), ln N taken as ln max(N, 1). Every strategy keeps
// the best value found so far and replaces it by an equal one with
// probability 1/(number of equals so far): ties are broken uniformly at
// random, so the four rules are stochastic and Probs gives the uniform
// distribution over the exact maxima.
//
// Not modelled: virtual visits (tree parallelisation), open-loop nodes,
// and the final move selection (robust child by default: the most visited,
// as here).

// ludii holds what every Ludii strategy reads at a node.
type ludii struct {
	u    float64 // value of unvisited children (QInit.PARENT)
	logN float64 // ln max(Σ n, 1)
	n    float64 // Σ n
}

func newLudii(s *core.Site) ludii {
	n := s.ChildN()
	l := ludii{u: 10000, logN: core.LogCount(n), n: n} // ln max(n, 1)
	if m, ok := s.ParentMean(); ok {
		l.u = signed(m)
	}
	return l
}

// LudiiUCB1Tuned is UCB1Tuned.select, Ludeme/Ludii@069ebefd655303fc90669897d00ab91469261b10
// AI/src/search/mcts/selection/UCB1Tuned.java, C = √2:
//
//	score(i) = Q(i) + sqrt(ln N/n(i) · min(1, σ²(i) + C·sqrt(ln N/n(i))))
//	unvisited: u + sqrt(ln N · min(1, 1 + C·sqrt(ln N)))
//
// with σ² the child's sample variance on Ludii's scale, sumSquared/n − Q²
// from Ludii's sums of squared scores: 4·Site.Variance(i), which the search
// keeps because the rule declares Needs.Squares. On a site without squares
// (core.NewSite without them) σ² is the Bernoulli variance 1 − Q(i)², exact
// for rewards in {0,1} and an upper bound otherwise.
type LudiiUCB1Tuned struct {
	C float64
}

// ludiiUCB1TunedAt is LudiiUCB1Tuned at one site.
type ludiiUCB1TunedAt struct {
	c float64
	s *core.Site
	l ludii
}

func (z ludiiUCB1TunedAt) score(i int) float64 {
	exploit, sigma2, vf := z.l.u, 1.0, z.l.logN
	if m, ok := z.s.Mean(i); ok {
		exploit = signed(m)
		sigma2 = 4 * variance(z.s, i) // [-1,1] has twice [0,1]'s spread
		vf = z.l.logN / z.s.N(i)
	}
	// Not core.UCTScore: Ludii's constant and variance are for its [-1,1] scale, Q = 2V̂ − 1.
	return exploit + math.Sqrt(vf*min(1, sigma2+z.c*math.Sqrt(vf)))
}

func (r LudiiUCB1Tuned) at(s *core.Site) ludiiUCB1TunedAt {
	return ludiiUCB1TunedAt{c: r.C, s: s, l: newLudii(s)}
}

// Select implements core.Rule.
func (r LudiiUCB1Tuned) Select(s *core.Site) int { return randomTie(s, r.at(s).score, 0) }

// Probs implements core.Stochastic.
func (r LudiiUCB1Tuned) Probs(s *core.Site, dst []float64) []float64 {
	return tieProbs(s, r.at(s).score, 0, dst)
}

// Needs implements core.Needer: the rule reads the rewards' variances.
func (LudiiUCB1Tuned) Needs() core.Needs { return core.Needs{Squares: true} }

// LudiiProgressiveBias is ProgressiveBias.select, Ludeme/Ludii@78e44976932c68bd448af5bb6e613b3662d251cc
// AI/src/search/mcts/selection/ProgressiveBias.java, C = √2:
//
//	score(i) = Q(i) + C·sqrt(ln N/n(i)) + 10·H(i)/n(i)
//	unvisited: u + C·sqrt(ln N) + u
//
// with H the child's heuristic value on [-1,1]: the move's prior
// (Site.Prior) clamped to [-1,1], 0 without one. Ludii evaluates its
// heuristics on the child's state when it creates the node; a prior on the
// edge is the same number, given before.
type LudiiProgressiveBias struct {
	C float64
}

// ludiiProgressiveBiasAt is LudiiProgressiveBias at one site.
type ludiiProgressiveBiasAt struct {
	c float64
	s *core.Site
	l ludii
}

func (z ludiiProgressiveBiasAt) score(i int) float64 {
	m, ok := z.s.Mean(i)
	if !ok {
		return z.l.u + z.c*math.Sqrt(z.l.logN) + z.l.u
	}
	n := z.s.N(i)
	h, _ := z.s.Prior(i)
	// Not core.UCTScore: the term sits beside 10·H/n, both on Ludii's [-1,1] scale, Q = 2V̂ − 1.
	return signed(m) + z.c*math.Sqrt(z.l.logN/n) + 10*min(max(h, -1), 1)/n
}

func (r LudiiProgressiveBias) at(s *core.Site) ludiiProgressiveBiasAt {
	return ludiiProgressiveBiasAt{c: r.C, s: s, l: newLudii(s)}
}

// Select implements core.Rule.
func (r LudiiProgressiveBias) Select(s *core.Site) int { return randomTie(s, r.at(s).score, 0) }

// Probs implements core.Stochastic.
func (r LudiiProgressiveBias) Probs(s *core.Site, dst []float64) []float64 {
	return tieProbs(s, r.at(s).score, 0, dst)
}

// Needs implements core.Needer: the rule reads the priors.
func (LudiiProgressiveBias) Needs() core.Needs { return core.Needs{Priors: true} }

// LudiiProgressiveHistory is ProgressiveHistory.select, Ludeme/Ludii@78e44976932c68bd448af5bb6e613b3662d251cc
// AI/src/search/mcts/selection/ProgressiveHistory.java (Nijssen and
// Winands 2011), W = 3, C = √2:
//
//	score(i) = Q(i) + C·sqrt(ln N/n(i)) + Hist(i)·W/((1 − Q(i))·n(i) + 1)
//	unvisited: u + C·sqrt(ln N) + Hist(i)·W
//
// Ludii's Hist is a global table of the move's mean score, keyed by the
// move and the ply, over every simulation that played it (u when the move
// has none). The site has the node's AMAF statistics instead: the move's
// mean over the simulations through this node in which the chooser played
// it here or later. Both are the move's results outside the child's own
// subtree averaged over other positions; the AMAF mean is on Ludii's scale
// (2V' − 1), u without AMAF data. Both enter through the weight
// W/((1 − Q(i))·n(i) + 1), which fades with the child's losses, not its
// visits: for a child that wins every simulation it stays W, and a
// negative history is then a penalty that never fades (the preset's
// Prediction).
type LudiiProgressiveHistory struct {
	W, C float64
}

// ludiiProgressiveHistoryAt is LudiiProgressiveHistory at one site.
type ludiiProgressiveHistoryAt struct {
	r LudiiProgressiveHistory
	s *core.Site
	l ludii
}

func (z ludiiProgressiveHistoryAt) score(i int) float64 {
	hist := z.l.u
	if an, aw := z.s.AMAF(i); an > 0 {
		hist = signed(aw / an)
	}
	m, ok := z.s.Mean(i)
	if !ok {
		return z.l.u + z.r.C*math.Sqrt(z.l.logN) + hist*z.r.W
	}
	n, q := z.s.N(i), signed(m)
	// Not core.UCTScore: the term sits beside the history's, both on Ludii's [-1,1] scale, Q = 2V̂ − 1.
	return q + z.r.C*math.Sqrt(z.l.logN/n) + hist*(z.r.W/((1-q)*n+1))
}

func (r LudiiProgressiveHistory) at(s *core.Site) ludiiProgressiveHistoryAt {
	return ludiiProgressiveHistoryAt{r: r, s: s, l: newLudii(s)}
}

// Select implements core.Rule.
func (r LudiiProgressiveHistory) Select(s *core.Site) int { return randomTie(s, r.at(s).score, 0) }

// Probs implements core.Stochastic.
func (r LudiiProgressiveHistory) Probs(s *core.Site, dst []float64) []float64 {
	return tieProbs(s, r.at(s).score, 0, dst)
}

// Needs implements core.Needer: the rule reads AMAF statistics.
func (LudiiProgressiveHistory) Needs() core.Needs { return core.Needs{AMAF: true} }

// LudiiAG0 is AG0Selection.select, Ludeme/Ludii@3a931cf5965e8a6aecc3b01e2a43be5cb6ce3d79
// AI/src/search/mcts/selection/AG0Selection.java (AlphaGo Zero's PUCT),
// C = 2.5:
//
//	score(i) = Q(i) + C·P(i)·sqrt(N)/(1 + n(i)),  Q(i) = u if n(i) = 0
//	(the exploration factor is 1, not sqrt(N)/(1 + n), while N = 0)
//
// with P the node's policy (the normalised priors, Site.Policy(1)) standing
// for Ludii's learned selection policy.
type LudiiAG0 struct {
	C float64
}

// ludiiAG0At is LudiiAG0 at one site.
type ludiiAG0At struct {
	c   float64
	s   *core.Site
	u   float64 // the value of unvisited children
	pol []float64
	sq  float64 // sqrt(N)
}

func (z ludiiAG0At) score(i int) float64 {
	exploit, explore := z.u, 1.0
	if m, ok := z.s.Mean(i); ok {
		exploit = signed(m)
	}
	if z.sq > 0 {
		explore = z.sq / (1 + z.s.N(i))
	}
	return exploit + z.c*z.pol[i]*explore
}

func (r LudiiAG0) at(s *core.Site) ludiiAG0At {
	l := newLudii(s)
	return ludiiAG0At{c: r.C, s: s, u: l.u, pol: s.Policy(1), sq: math.Sqrt(l.n)}
}

// Select implements core.Rule.
func (r LudiiAG0) Select(s *core.Site) int { return randomTie(s, r.at(s).score, 0) }

// Probs implements core.Stochastic.
func (r LudiiAG0) Probs(s *core.Site, dst []float64) []float64 {
	return tieProbs(s, r.at(s).score, 0, dst)
}

// Needs implements core.Needer: the rule reads the priors.
func (LudiiAG0) Needs() core.Needs { return core.Needs{Priors: true} }
