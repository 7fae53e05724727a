// Package core is mctscheck's Monte-Carlo tree search engine: Algorithm 1 of
// Berthier, Doghmen and Teytaud ("Consistency Modifications for Automatically
// Tuned Monte-Carlo Tree Search", 2010) over max, min, chance and terminal
// nodes, with pluggable selection rules, virtual experience from priors,
// AMAF/RAVE statistics, roll-outs, Algorithm 2's threshold, minimax backups
// and decision rules. It imports only the standard library.
//
// # The loop
//
// A Search drives a Game, a cursor that resets to the root and plays move
// indices. Each simulation descends from the root: at max and min nodes the
// Rule picks a child from a Site that shows every child's n_t and w_t from
// the chooser's perspective (at min nodes w becomes n − w, so a rule always
// takes the argmax); at chance nodes the search samples the game's
// distribution. The reward of the terminal reached, in [0,1] for max, is added
// to every stored node of the path.
//
// Two growth modes decide what is stored. GrowPaper stores every node of every
// path and descends by the rule down to a terminal: Algorithm 1 verbatim, the
// mode of the consistency checker. GrowPractical is the loop of the Grand
// Challenge paper §3.3: a stored leaf with fewer than ExpandAfter visits is
// evaluated by a roll-out of the default Policy (uniform by default);
// otherwise its children are added and the descent goes on.
//
// # Determinism
//
// Every random choice (chance sampling, roll-outs, stochastic rules, the
// threshold's random child) draws from the search's one RNG, seeded by
// Config.Seed. Same game, rule, configuration and seed give identical
// statistics on any machine. Rules must draw only from Site.Rand.
//
// # Memory
//
// Nodes live in one arena indexed by int32; the children of a node are
// contiguous, so a node is 16 bytes: the reward sum (float64), the real visit
// count (uint32) and the index of its first child (int32). Optional
// statistics are parallel arrays that exist only when the rule asks for them
// (Needs): virtual experience 16 bytes a node, priors 8, AMAF 20, minimax
// values 8 (Search.BytesPerNode). With Config.Capacity covering the tree, a
// search allocates nothing per simulation.
//
// # Inspection
//
// Run can be called repeatedly; between calls, Walk and Lookup read every
// stored node's visits, reward sum, value, virtual experience, AMAF statistics,
// kind, path and children, and Decide applies a decision rule. The checker
// (package props) inspects searches this way at doubling budgets.
package core
