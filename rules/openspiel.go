package rules

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
)

// OpenSpiel's MCTSBot, google-deepmind/open_spiel@112b77704631fc2ce7ad8e4581f6ca09798ce15a
// open_spiel/algorithms/mcts.cc (SearchNode::UCTValue, PUCTValue,
// MCTSBot::ApplyTreePolicy; the Python twin open_spiel/python/algorithms/
// mcts.py is the same), uct_c = 2 as in open_spiel/examples/mcts_example.cc
// and the AlphaZero examples. Returns are on OpenSpiel's two-player scale,
// Q = 2V̂ − 1, and a node's explore_count N(F) counts the node's own first
// (evaluation) visit: N(F) = 1 + Σ n over the children.
//
// Expansion shuffles a node's children once (std::shuffle with the bot's
// generator, "to reduce bias from move generation order"), and selection
// takes the first child with a strictly higher value, so ties go to the
// first child of a random order drawn per node. That is what the checker's
// child orders are: every seed but the first searches the tree with each
// node's children in an order drawn from the seed (props' package doc). So
// the presets break ties by the lowest index, and the shuffle is modelled
// by the orders the checker already tries, one independent permutation per
// node and seed, as OpenSpiel draws one per node and search.
//
// Not modelled: the solver and the exact outcome OpenSpiel gives a visited
// terminal child (its value is then the outcome, without exploration
// bonus; the site does not say which children are terminal, and for a
// deterministic terminal the mean is that outcome already), random
// roll-out evaluation of new leaves (paper mode has none), Dirichlet noise
// at the root (off by default) and the final choice (most visited, then
// highest mean: the decision here is the most visited child).

// openSpielN is OpenSpiel's explore_count of the node: 1 + Σ n.
func openSpielN(s *core.Site) float64 { return 1 + s.ChildN() }

// OpenSpielUCT is SearchNode::UCTValue:
//
//	score(i) = Q(i) + C·sqrt(ln N(F) / n(i)),  +∞ (Unvisited) if n(i) = 0
type OpenSpielUCT struct {
	C float64
}

func (r OpenSpielUCT) score(s *core.Site, i int, logN float64) float64 {
	n := s.N(i)
	if n == 0 {
		return Unvisited
	}
	// Not core.UCTScore: uct_c = 2 is for values on OpenSpiel's [-1,1] scale, Q = 2V̂ − 1.
	return signed(s.W(i)/n) + r.C*math.Sqrt(logN/n)
}

// Select implements core.Rule.
func (r OpenSpielUCT) Select(s *core.Site) int {
	logN := core.LogCount(openSpielN(s)) // ln N(F), N(F) ≥ 1
	return core.Argmax(s.Len(), func(i int) float64 { return r.score(s, i, logN) })
}

// Score implements core.Scorer.
func (r OpenSpielUCT) Score(s *core.Site, i int) float64 {
	return r.score(s, i, core.LogCount(openSpielN(s)))
}

// OpenSpielPUCT is SearchNode::PUCTValue with the node's policy P (the
// normalised priors, Site.Policy(1)) as the evaluator's prior:
//
//	score(i) = Q(i) + C·P(i)·sqrt(N(F)) / (n(i) + 1),  Q(i) = 0 if n(i) = 0
//
// An unvisited child's value is 0, a draw on OpenSpiel's scale: a fixed
// first-play urgency of 1/2 in mctscheck's rewards.
type OpenSpielPUCT struct {
	C float64
}

// openSpielPUCTAt is OpenSpielPUCT at one site: what its scores share.
type openSpielPUCTAt struct {
	r   OpenSpielPUCT
	s   *core.Site
	pol []float64
	sq  float64
}

func (r OpenSpielPUCT) at(s *core.Site) openSpielPUCTAt {
	return openSpielPUCTAt{r: r, s: s, pol: s.Policy(1), sq: math.Sqrt(openSpielN(s))}
}

func (z openSpielPUCTAt) score(i int) float64 {
	var q float64
	if m, ok := z.s.Mean(i); ok {
		q = signed(m)
	}
	return q + z.r.C*z.pol[i]*z.sq/(z.s.N(i)+1)
}

// Select implements core.Rule.
func (r OpenSpielPUCT) Select(s *core.Site) int { return core.Argmax(s.Len(), r.at(s).score) }

// Score implements core.Scorer.
func (r OpenSpielPUCT) Score(s *core.Site, i int) float64 { return r.at(s).score(i) }

// Needs implements core.Needer: the rule reads the priors.
func (OpenSpielPUCT) Needs() core.Needs { return core.Needs{Priors: true} }
