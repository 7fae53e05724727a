// Package props checks whether a Monte-Carlo tree search selection rule is
// consistent: whether, given enough simulations, its root decision converges
// to a minimax-optimal move. It runs the engine (package core) on trap trees
// from the literature and on random trees (package gen, drawn with rapid),
// compares what it sees with the exact solution, and answers with one of
// five verdicts, each with the evidence behind it: inconsistent, stuck,
// inconclusive, no counterexample, or fault (the rule broke its contract,
// and could not be judged).
//
//	func TestMyRuleIsConsistent(t *testing.T) {
//		props.Check(t, myRule{}, props.Options{BinaryOnly: true})
//	}
//
// Check fails the test with a minimal, replayable counterexample (an
// inconsistent one, or a stuck one unless Options.AllowStuck) or with the
// rule's fault, its message starting with "fault"; Run returns
// the whole Report for tools; Property is the rapid property behind both, for
// rapid.Check and rapid.MakeFuzz.
//
// # Method
//
// The theorem of Berthier, Doghmen and Teytaud (2010) says that if every max
// node satisfies
//
//   - Eq. 4: a child whose empirical value stays clearly below a sibling's
//     gets a vanishing share of the simulations, and
//   - Eq. 5: while a node's empirical value stays below its true value,
//     every child keeps being simulated,
//
// (mirrored at min nodes), then the most simulated root child is eventually
// optimal (Eq. 6). A finite run cannot prove a limit, but it can catch a rule
// in the act of breaking one. For each tree the checker runs Seeds searches
// (default 4), each observed at doubling budgets from MinBudget to MaxBudget
// (default 64 to 16,384 simulations, paper mode: Algorithm 1 verbatim), and
// reads the last Window doublings (default 4, i.e. 1,024 to 16,384). The
// thresholds are the fields of a [Criterion], set in one place,
// [DefaultCriterion]; in one search:
//
//   - Eq. 6 fails when the decision is outside Opt(root) at every window
//     checkpoint and, at the last one, the decided child leads every optimal
//     child by DecisionSigmas standard deviations of a fair split of their
//     simulations.
//   - Eq. 5 fails at a max (min) node with at least MinParentVisits
//     simulations at the window's start whose simulations grow at least
//     ParentGrowth-fold over the window, whose mean stays at least Gap (δ)
//     below (above) its true value at every checkpoint, and one of whose
//     children gets no simulation in the whole window.
//   - Eq. 4 fails at such a node when two children's means differ, from the
//     chooser's side, by δ at every checkpoint and by SEMultiple standard
//     errors (variance bound 1/4; none for a terminal child, whose mean is
//     its reward) at the last, both having at least MinShareVisits
//     simulations (a terminal child one), and the worse child's share of
//     the node's new simulations in the window's second half is at least
//     ShareKept of its share in the first half.
//
// Each seed but the first searches the tree with the children of every
// node (chance nodes included) in an order drawn from the seed
// (Options.KeepOrder pins the given order): consistency is a property of
// the game, and a rule that ties to the lower index can be trapped in some
// orders only.
//
// # The limit
//
// A seed whose decision is wrong (Eq. 6) with an Eq. 5 or Eq. 4 finding
// behind it is only a candidate: the finding says the rule starved a child,
// or kept a worse child busy, so far. A witness is a wrong decision; Eq. 4
// and Eq. 5 are sufficient conditions that name the mechanism keeping it
// wrong, and never replace it. Whether the mechanism lasts is a property of
// the rule at counts no run reaches, so the checker asks the rule itself.
// From node F's statistics at the end of the run it builds synthetic sites
// (core.NewSiteAt, whose counts may exceed 32 bits) at scales 16^k from the
// run's end up to the horizon H (Options.Horizon, default 2^62 simulations
// of F): the other children's counts grow in their observed proportions
// with their means frozen, the starved children's statistics stay frozen
// (Eq. 5); F's mean, the priors, the AMAF statistics, the virtual
// experience and the depth stay as observed.
//
// At each scale the rule then makes a window of real selections, as a
// search would: each chosen child and F gain a simulation, rewarded with
// the child's frozen mean, and t grows. Choices and shares are read from
// that window, never by bisecting one child's count (which changes F's
// count too). So a rule that depends on F's count (every 4th visit, even
// counts), a rule that draws, and a rule that implements Select alone are
// read the same way. Each window starts from the same generator state at
// every scale (common random numbers), so that a rule's draws differ
// between scales only where its probabilities do. Rules are read in one
// of three ways: a core.Stochastic gives its probabilities, averaged over
// the window; another rule that picks differently under different
// generators is sampled; any other is deterministic.
//
// A rule that draws but does not replay its draws (the same site and
// generator give different choices: it draws from a generator of its own,
// such as math/rand's global one) is read from independent samples of
// 16,384 selections per scale.
//
// Counts up to 2^53 are exact in float64; beyond, a window's single
// simulations no longer move F's count, so the tests for an identical
// mechanism read the scales up to 2^53, and the horizon's reading is kept
// for the practical finding.
//
//   - Eq. 5, deterministic: a window of 256 selections that picks a
//     starved child is a return, measured: "picks child 1 again after about
//     2^38 simulations of the node". Otherwise the deficit at each scale is
//     read: for a core.Scorer, the best growing child's score less the best
//     starved child's; for any other rule, the least amount by which every
//     growing child's mean must fall for a window of 8 selections to pick a
//     starved child. A deficit identical at every scale, or shrinking by
//     decrements that fall geometrically (each at most 3/4 of the last) to a
//     positive floor, is structural: inconsistent. A deficit that still
//     shrinks at H is stuck; where the last decrements suggest a crossing,
//     the report gives it as an estimate. A rule that picks no starved
//     child, none of them ever simulated, at any scale whatever the other
//     means makes the same choice at every scale: inconsistent; with
//     simulated ones, whose deficit lowering the other means cannot reach,
//     the limit is not shown: stuck. One that comes into the probe's range
//     only at large scales is judged from there on. For a rule that draws
//     from its generator but never draws a starved child, whose tiny but
//     constant probability no sample resolves, this reading gives stuck at
//     most.
//   - Eq. 5, declared probabilities: if the starved children's probability
//     p falls like n^-α with α ≥ 1.05 at every one of the last scales, their
//     expected simulations per doubling of F, p·n, fall geometrically:
//     summable, so with positive probability they are never simulated
//     again: inconsistent. Otherwise the expected simulations from the
//     run's end to H (trapezoid rule over the scales) decide: at least one
//     is a return, fewer is stuck.
//   - Eq. 5, sampled: a draw of a starved child in a window of 4,096
//     selections at any scale up to H is a return. Otherwise p is estimated
//     at F's counts from 2 to the run's end (up to 65,536 draws each) and
//     log p is fitted against log n by weighted least squares, with the
//     standard error of α from the Poisson counts. α − 5·SE > 1.05 is
//     geometric decay, inconsistent at a one-sided error rate below 3e-7;
//     the fitted trend integrated to H decides between a return (labelled
//     an estimate) and stuck. With fewer than two measurable scales the
//     deterministic reading judges, its draws common to every scale.
//   - Eq. 4: the worse child's share of the window's selections (its
//     averaged probability, for a declared rule). A share that is the same,
//     and positive, at every scale of the upper half of the exactly counted
//     range is structural: inconsistent. For a sampled rule "the same" means
//     the same draws out of 4,096 at every scale: with common random
//     numbers a probability that falls by d changes a draw with probability
//     d, so identical draws exclude a decline of more than ln(1/α)/4,096 at
//     error rate α (0.0034 at α = 1e-6) for a rule whose draws follow its
//     probabilities. A share that still keeps ShareKept of its size at H,
//     or whose decline a sampled reading does not resolve at z = 5, is
//     stuck. Any other vanishes. For a rule that does not replay its
//     draws, whose scales are independent samples, a share whose lower
//     z = 5 bound is positive at every scale from the run's end to the
//     horizon (a family error rate below 4e-6), with no decline resolved
//     by a weighted fit of the shares against log n at z = 5, is bounded
//     away from 0: the same evidence as an identical share, inconsistent.
//     The fit resolves declines of a few standard errors of its slope (for
//     a share near 0.05, about 0.007 in all from 2^14 to 2^62); a share
//     that falls more slowly reads as bounded, as an identical share of a
//     deterministic rule hides a decline below one selection of its window.
//
// # Verdicts
//
// A tree is a witness of inconsistency when one seed's decision is wrong
// and the mechanism behind it persists in the limit by the structural
// evidence above; it is stuck when the mechanism holds through H and its
// limit is not shown. With minimax backups only Eq. 5 counts: the
// backed-up values converge whatever the shares, so Eq. 4 explains nothing
// there. +Inf and −Inf are scores like any other, ties going to the lower
// index. A tree converged when every seed decided optimally at every window
// checkpoint. Then:
//
//   - inconsistent: a witness, shrunk to a minimal tree (whole subtrees
//     cut to leaves of their values, many at once, level by level from
//     the root; then children dropped in groups; then single edits:
//     subtrees replaced by leaves, children hoisted or dropped, rewards
//     made simpler, annotations removed; each kept while the same seed
//     fails for the same condition in the limit, so that the shrinker's
//     memory and time follow the tree's size; with BinaryOnly it stays
//     with binary deterministic trees), printed in the text format in the order that
//     fails, with the seed, the budgets, the findings and lines that replay
//     it exactly;
//   - stuck: no tree is inconsistent, but one stays wrong through H: a
//     practical finding, shrunk and printed like a witness ("stuck through
//     2^62 simulations of node 0; the score deficit of child 0 still shrinks
//     (0.459 at 2^62); a return is not excluded"). Check fails a test on it
//     unless Options.AllowStuck; against a prediction of consistent it is
//     "not refuted";
//   - inconclusive: some tree did not converge and none is a witness (UCT on
//     the Coquelin–Munos chain at these budgets, for one); the report's
//     recoveries say when the rule would recover from the traps it fell in;
//   - no counterexample: every tree converged: "N trees × R seeds up to
//     budget B, all decisions optimal from budget b on";
//   - fault: the rule broke its contract (below), and could not be judged.
//
// # Faults
//
// A rule that panics, returns a NaN score or a child out of range, gives
// probabilities that are no distribution, or whose program (rules.Exec)
// crashes, hangs or answers garbage, gets the verdict Faulted: the check
// stops there, and the Fault says what happened, where (the node, the
// simulation, the inputs the rule saw) and whether it came back when its
// tree was searched again alone with its seed; a fault that comes back is
// shrunk, with a small budget, to a small tree. It is not a finding about
// consistency. Nothing a rule declares is trusted before its own choices
// bear it out: at the guard's checkpoints and in the limit probe, Select
// must pick a child with the best declared score (core.Scorer), must never
// pick a child declared impossible (core.Stochastic), and must pick each
// child about as often as its declared probabilities say, within the
// deviation that Bernstein's inequality allows at the error rate of a
// z = 5 test (5.7e-7 per child); a declaration its choices contradict is a
// fault (FaultLie). A rule that counts its failures (FaultCounter, as an
// external program does its restarts) is never given a clean verdict after
// one.
//
// The checker's error rates over each catalogue rule's parameter grid and
// over rules from outside the catalogue (package outside) are measured by
// scripts/consistency-sweep.sh; docs/consistency-sweep.md has the tables
// per family, with their 95% bounds. The tests run with fixed seeds and
// are deterministic; those rates are what a different seed risks.
//
// # Whole searches
//
// RunSearch, RunSearchTree and CheckSearch check a whole search as it is
// (a Searcher: its own selection, expansion, roll-outs, backups and
// decision, in Go without package core, or in any language through
// package searchexec), on the same trees, seeds and child orders. The
// searcher reports its root decision and statistics at the checkpoints,
// and every node's if it can; the criterion reads those reports and
// nothing else: a searcher that reports its root's children alone gets no
// finding below them, and its witness marks every other node unknown
// (WitnessSearch.NotReported), never 0.
//
// Reports whose counts do not add up (Checkpoint lists every rule), a
// searcher that panics or fails, and a searcher that breaks a promise the
// exact tree lets the checker test, are the verdict Faulted: two searches
// of the same tree and seed that answer differently (FaultNondeterministic:
// every search is kept, by tree and seed, and any search repeated is
// compared with the first, so a witness or a fault is searched again
// before it is reported and its Reproduced set from what that search did,
// and a check without a witness searches every tree again to its third
// checkpoint), means for the side to move (FaultPerspective: a terminal
// under a min node with the mean 1 − reward), and chance children's visits
// that Bernstein's inequality puts beyond their probabilities
// (FaultChance).
//
// A whole search cannot be asked what it would do beyond the run, so its
// strongest finding is Stuck through the largest budget run, never
// Inconsistent, and a mean is read against an exact value with a margin
// from the evidence, not with δ: the Bernstein bound
// sqrt(2v·L/n) + L/(3n) on the mean of n simulations' rewards (a
// martingale, each reward's conditional variance at most v), L =
// ln(1/α), at the error rate α = Criterion.ErrorRate / (3 × seeds × nodes)
// of each of a tree's readings. Eq. 5 names a child that gets at most
// Criterion.StarvedVisits of a node's simulations over the window while
// its value beats the node's mean by such a margin (v the variance bound
// μ(1−μ) between the two); Eq. 7 a terminal whose mean stays such a margin
// (v = 1/4) away from its reward; Eq. 4 is read as for rules, with δ; and
// the decision rule is a decision that overrules an optimal most visited
// child of a clearly better mean. A seed whose decision is wrong and leads
// (Eq. 6) with one of them in view makes its tree stuck; so does a tree on
// which every seed's decision is wrong at every window checkpoint without
// a lead (an even split), with Eq. 5, Eq. 7, or an Eq. 4 share that does
// not fall at all in view. The witness is shrunk by searching smaller
// trees with the failed seed. ExampleRunSearch checks a textbook MCTS
// written from scratch; docs/protocol.md states the rules for programs.
//
// # Split checks
//
// A check of Run, CheckTree, RunSearch or RunSearchTree splits over
// processes or machines with Options.Shard: shard K of N runs the searches
// (tree t, seed j) with (t·Seeds + j) mod N = K − 1 (a whole search's
// check, which judges a tree on all its seeds at once, whole trees: t mod
// N = K − 1), and stops at its own first witness as a whole check does. Its report is the report of that
// part, with each search's evidence besides (Report.Shard). Merge folds
// the shards' evidence in the check's order, as the check does, up to the
// search that would have ended it, and takes the witness from the shard
// that shrank it: the whole check's report, the same verdict, witness,
// counts and curve. A shard's own verdict is of its part only, but a
// shard's witness means that the whole check has one, the same or an
// earlier tree's.
//
// # Worked examples
//
// Greedy with first-play urgency 1 on (max (max 0 1) 0.5) tries child 0
// first; inside it child 0 loses, so child 0's mean is 0, and child 1, a
// sure 0.5, keeps its mean 0.5 for ever: child 0, whose value is 1, is
// never simulated again. The root decides child 1 with all but one
// simulation (Eq. 6), its mean stays at 0.5, below its value 1, while child
// 0 stays at one simulation (Eq. 5): a candidate. The probe freezes child 0
// at (n = 1, w = 0) and grows child 1 from 2^14 to 2^62 at mean 0.5: no
// window picks child 0, and its deficit is 0.5 at every scale:
// inconsistent.
//
// UCT with C = 0.1 on the same tree starves child 0 too, but its deficit,
// 0.5 − 0.1·sqrt(ln n(F)) + …, shrinks at every scale, and the window at
// 2^38 picks child 0: "picks child 0 again after about 2^38 simulations of
// the node", a recovery, and a horizon a user with a budget of 10^5 should
// know about. With C = 0.05 the return is at about 2^144: the deficit still
// shrinks at 2^62, so the tree is stuck, with the return as an estimate.
//
// UCT with the bonus C·sqrt(ln ln(n(F)+e)/n) and C = 0.15 on
// (max (max 0 1) 0.75) has the deficit 0.75 − 0.15·sqrt(ln ln n(F)): 0.459
// at 2^62, crossing 0 only where ln ln n(F) = 25. It is consistent in the
// limit and stuck through any budget: the verdict is stuck, never
// inconsistent. A model of the decrements as a power of log n would call
// their sum finite, which is why no fitted trend decides a verdict.
//
// A greedy rule that, on every 4th simulation of a node (its count mod 4),
// takes the children in turn keeps exactly 1/8 of the min node's
// simulations on its reply 1 in (max (min 1 0) 0.0625): the min node's
// mean stays at 1/8, above the optimal sibling's 1/16, so the root decides
// wrong at every budget. The window of 256 selections at each scale reads
// the share 32/256 at every one: an exactly constant share, inconsistent.
// Bisecting the child's count instead would change the node's count mod 4
// and read a share of 0 or 1.
//
// Boltzmann with τ = 1/ln(n(F)+2), implementing Select alone, gives a
// worse child the share 1/(1 + n^Δ): with a gap Δ = 1/64 it falls like
// n^-1/64, from 0.46 at 2^14 to 0.34 at 2^62. The sampled windows resolve
// that decline, so the share vanishes: no witness, though a fixed flatness
// margin would have called it flat. ExampleRun shows a report.
package props
