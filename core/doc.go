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
// # Parallel search
//
// NewRoot and NewTreeParallel are the two parallelisations of the Grand Challenge
// paper §4.3, one worker per goroutine, each with its own cursor on the
// game. Root parallelism (RootSearch) runs k independent searches, seeded
// by WorkerSeed, and sums their root statistics for the decision; its
// budget is divided among them in a fixed way, so it is deterministic for
// a given k. Tree parallelism (NewTreeParallel) runs k workers on one tree, with
// atomic statistics and an optional virtual loss (Config.VirtualLoss); its
// statistics depend on the timing of the threads, unless Config.Lockstep
// has the workers take turns in one goroutine, in batches of k simulations
// in flight together (deterministic, and the way a checker can study what
// virtual loss does to a rule). Both allocate nothing per simulation and
// are free of data races.
//
// # Determinism
//
// Every random choice (chance sampling, roll-outs, stochastic rules, the
// threshold's random child) draws from the search's one RNG, seeded by
// Config.Seed (a parallel search's workers from their own, WorkerSeed of
// it). Same game, rule, configuration and seed give identical statistics on
// any machine and any GOMAXPROCS. Rules must draw only from Site.Rand. The
// one exception is tree parallelism without Lockstep, where which worker
// reaches a node first is decided by thread timing; with one worker it is
// the serial search exactly.
//
// # Memory
//
// Nodes live in an arena indexed by int32; the children of a node are
// contiguous, so a node is 16 bytes: the reward sum (float64), the real visit
// count (uint32) and the index of its first child (int32). Optional
// statistics are parallel arrays that exist only when the rule asks for them
// (Needs): virtual experience 16 bytes a node, priors 8, AMAF 20, sums of
// squared rewards 8 (Needs.Squares, for Site.Variance), minimax values 8, a
// tree-parallel search's virtual loss 4 (Search.BytesPerNode). What a Site
// derives from all its children (the policy, its visited mass, the visit
// sum, the range of the means: Site.Policy and its neighbours) costs 0
// bytes a node: it is computed on a rule's first call, once per site
// visit, and the search's UCT loop never builds a site at all.
// The arena grows by chunks that never move (doubling up to 2^20 nodes, 16
// MiB, then 2^20 at a time), so a search's peak memory is its tree plus at
// most one chunk, never an old copy and a new one. With Config.Capacity
// covering the tree, a search allocates nothing per simulation.
//
// # Speed
//
// The hot loop is specialised, not forked. There is one descent
// (descend.go) and one UCT loop (uctSelect in uct.go), each a generic
// function whose type parameter, a mode, is a compile-time constant: the
// serial search's instantiation carries none of the tree-parallel one's
// atomics, virtual loss or held-back backups, and a plain search's (core's
// UCT, keeping no optional statistic) none of a rule's: no Site, a path
// of nodes alone, the backup inside the descent, and a cursor fixed to
// the game's methods or to its arrays. For core's UCT (or a rule
// that names it through Builtin) on plain sites, the search scores the
// stored children directly, without building a Site, taking 1/n and
// 1/sqrt(n) from a table for small counts and computing every score as
// UCTScore does, to the last bit. Every other rule gets a Site (buildSite,
// the one place a search builds one) and one interface call per node. A
// game stored whole (ArrayGame, such as package tree's explicit trees) is
// read from its GameArrays instead of through the Game's methods, by every
// worker: the same values, without an interface call per move; a game
// that implements Playouter plays the default roll-out itself, and a
// roll-out policy that implements PolicyPlayouter its own.
//
// # Inspection
//
// Run can be called repeatedly; between calls, Walk and Lookup read every
// stored node's visits, reward sum, value, virtual experience, AMAF statistics,
// kind, path and children, and Decide applies a decision rule. The checker
// (package props) inspects searches this way at doubling budgets.
package core
