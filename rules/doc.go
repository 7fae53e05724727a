// Package rules is mctscheck's catalogue of selection rules: every rule of
// the table in docs/theory.md, from the papers it cites, as a documented Go
// value that runs in the core engine, and a registry that names them, gives
// their parameters and states what the papers predict, so that the checker
// (package props) can test the predictions and the command-line tool can
// list the rules and build any of them from a spec such as "uct:c=0.7".
//
// "The paper" is Berthier, Doghmen and Teytaud, "Consistency Modifications
// for Automatically Tuned Monte-Carlo Tree Search" (2010); "Grand
// Challenge" is Gelly et al., "The Grand Challenge of Computer Go: Monte
// Carlo Tree Search and Extensions"; "slides" is Keller, "Monte-Carlo Tree
// Search: Advanced Topics" (Basel, 2016).
//
// # Rules
//
// A rule is a core.Rule: Select picks a child of a max or min node from a
// core.Site, which shows every statistic from the chooser's perspective, so
// a rule always maximises. The deterministic rules are small structs whose
// fields are the parameters; they implement core.Scorer, with Select a
// direct loop over the children that agrees with core.ArgmaxScore (ties go
// to the lower index). The stochastic rules (EpsGreedy, EpsGreedyDecay,
// Boltzmann, BoltzmannDecay) draw only from Site.Rand and implement
// core.Stochastic instead, whose Probs gives the distribution they draw from.
// Rules that read AMAF statistics or priors, or give virtual experience,
// say so through core.Needer. Algorithm 2 is core.Threshold, made by
// Threshold.
//
// Scores are finite for every input a search can produce (n = 0, n(F) = 0,
// t = 0, w = n, priors of any sign and size): each type's doc says how its
// formula's singularities are resolved. A child that must come before every
// visited child (a first-play urgency of +∞) scores Unvisited, the largest
// finite float64.
//
// A parameter field whose zero value would be a singularity (a smoothing
// count K, a temperature τ, a decay scale C) means the catalogue's default
// when it is 0 or negative; every other field means what it says, so the
// zero value of UCT, GreedyFPU, Prior and EpsGreedy is a greedy rule. Parse
// checks every parameter's range; a struct literal is not checked, except
// that a NaN parameter of the papers' rules is a fault: the search ends
// with a *core.RuleError naming the field (TestNaNParameters).
//
// # Names and specs
//
// Rule names are lower-case words joined by hyphens: the family first
// (uct, rave, eps-greedy, boltzmann), then a variant: -decay for a decaying
// exploration schedule, -minimax for a rule that runs with minimax backups,
// -floor for the RAVE fix; greedy-fpu, mc-rave and negative-heuristic are
// the papers' own names. Parameters are named after the symbol in the
// formula: c (exploration or decay scale C), k (a count K), fpu, floor, n0
// (N*), eps (ε), tau (τ), v and vmin (V_threshold and V'_threshold), rule
// (a wrapped rule). A spec is a name, optionally followed by ':' and
// name=value pairs separated by commas, e.g. "eps-greedy:eps=0.1" or
// "threshold:v=0.3,rule=rave:k=50"; a wrapper's rule= comes last and takes
// the rest of the spec. Parse turns a spec into an Instance, whose
// canonical Spec lists every parameter.
//
// # The catalogue
//
// All lists the entries in this order. V̂ = w/n is the mean of a child from
// the chooser's perspective, n(F) its parent's count, V' and Ṽ its AMAF
// mean, h its prior; "bdg" stands for binary deterministic games (no
// chance nodes, rewards in {0,1}).
//
//	name                 parameters (default)        consistent       frugal   source
//	uct                  c (√2) in [0,1e6]           yes; c=0: no     no       paper Eq. 12; Grand Challenge §3.4
//	greedy-fpu           fpu (1) in [0,1]            no               —        paper §3 "Tricks", Eq. 3
//	smoothed             k (1) in (0,1e9]            yes (bdg)        yes      paper §3 "Tricks", Eq. 14
//	rave                 k (100) in (0,1e9]          no               —        paper §3, Eq. 13
//	rave-floor           k (100), floor (0.1)        yes (bdg)        yes      paper §3 "Tricks"
//	mc-rave              k (100) in (0,1e9]          no               —        Grand Challenge §4.1, Eq. 1
//	prior                c (√2), n0 (10)             yes; c=0: no     —        Grand Challenge §4.2
//	negative-heuristic   k (10) in (0,1e9]           no               —        paper §3 (MoGo)
//	eps-greedy           eps (0.2) in [0,1]          no               no       paper Fig. 1; slides
//	eps-greedy-decay     c (1) in (0,1e6]            yes              no       paper §3; slides
//	boltzmann            tau (0.1), fpu (1)          no               no       slides
//	boltzmann-decay      c (1), fpu (1)              yes; c<1: no     no       slides
//	eps-greedy-minimax   eps (0.2)                   yes; eps=0,1: no —        slides
//	boltzmann-minimax    tau (0.1), fpu (1)          yes              —        slides
//	threshold            v (0.3), vmin (0),          no (the paper's  —        paper §3 "Tricks", Algorithm 2
//	                     rule (greedy-fpu)           claim refuted);
//	                                                 yes (bdg) over a
//	                                                 -minimax rule
//
// The formulas are on the types: UCT, GreedyFPU, Smoothed, RAVE (rave and
// rave-floor), MCRAVE, Prior, NegativeHeuristic, EpsGreedy (eps-greedy and
// eps-greedy-minimax), EpsGreedyDecay, Boltzmann (boltzmann and
// boltzmann-minimax), BoltzmannDecay, and Threshold.
//
// Two rows are more precise than the papers' own claims (docs/theory.md's
// table gives them as here). Smoothed (Eq. 14) is
// consistent only in binary deterministic games, not in all games: in
// (max (max 0 1) 0.5) the good move loses its first simulation and keeps
// the score 1/3, below the leaf's 1/2, for ever (TestSmoothedNonBinary).
// And Algorithm 2 does not make a rule consistent, whatever the paper's
// theorem says of rules satisfying Eq. 4 (Prediction.Eq4 records which
// do): with average backups its random mode can be absorbing
// (gen.AbsorbingRandomTrap), so threshold is predicted inconsistent over
// every inner rule with average backups. The -minimax variants need no
// Eq. 4, and Algorithm 2 reads their backed-up values, so threshold over a
// consistent one is predicted consistent on binary deterministic games.
//
// A prediction is about the limit; Prediction.Stuck and Practical record,
// apart from it, a decision expected to stay wrong through any budget a
// run can reach (ludii-progressive-bias). Prediction.AppliesTo says
// whether the claim covers a given tree: smoothed's, about binary
// deterministic games, says nothing of a tree with a chance node.
//
// # Real engines
//
// Engines lists presets of real engines' selection rules, read from each
// engine's source at a cited commit: leela-zero, lc0 and lc0-absolute,
// katago, openspiel-uct and openspiel-puct, mctx-muzero and mctx-gumbel,
// fuego and fuego-go, pachi-ucb1amaf, and Ludii's ludii-ucb1tuned,
// ludii-progressive-bias, ludii-progressive-history and ludii-ag0. Lookup
// and Parse find them like the papers' rules ("lc0:fpu=0.5"); All keeps to
// the papers' table. Each type's doc gives the repository, path and commit,
// the formula, and what the preset does not model; each entry's
// Prediction gives the reasoning against Eq. 4 and Eq. 5, with a practical
// finding apart where there is one, and props' TestEngines checks it.
// docs/presets.md records the facts from the sources that the predictions
// rest on (lc0's 16-bit policy, KataGo's weights, mctx's root noise).
//
// What the engines read besides each child's statistics comes from
// core.Site, which computes it once per site visit however many times a
// rule or a checker asks: the policy (Site.Policy, from the priors that
// Needs.Priors asks for: negative and absent ones counted as 0, normalised
// to sum 1, uniform when no child has a positive prior; a node whose priors
// were partly removed, as the shrinker does, gives the bare children 0);
// the policy mass of the visited children (Site.VisitedPolicy), the
// argument of the FPU reduction; the children's visit sum (Site.ChildN),
// which engines use as the node's count; the parent's mean
// (Site.ParentMean); the minimum and maximum mean (Site.MeanRange, mctx).
// UCB1-Tuned and KataGo declare Needs.Squares, so that the search keeps
// every node's sum of squared rewards (8 bytes a node) and their variances
// are the rewards' own (Site.Variance, Site.ParentVariance); on a site
// without squares they fall back to the Bernoulli bound, exact for rewards
// in {0,1}. Rules that declare neither pay nothing for them. The rest, one
// home in policy.go: engines that keep values on [-1,1] (lc0, KataGo,
// OpenSpiel, Ludii) see Q = 2V̂ − 1, so their constants are used as their
// sources give them. Ties are broken as each
// engine does: by the highest policy (Leela Zero, lc0, which sort children
// by policy), uniformly at random (Ludii, Pachi: core.Stochastic), by the
// first child of a shuffled order (OpenSpiel: the checker's child orders).
// LeelaZero and Lc0 are not core.Scorers, since their policy tie-break is
// not a score; Urgency gives their scores.
//
// # Writing a rule
//
// A new rule is a type with a Select method, and a Score method if it is
// the argmax of a score; see Example_customRule. It runs in core.New like
// any rule here, and the checker and fuzz targets accept it directly.
package rules
