// Package gen draws game trees for testing MCTS selection rules: rapid
// generators of random trees and the trap families of the literature.
//
// [Trees] returns a rapid generator of random [tree.Tree] values bounded by a
// [Shape] (depth, branching, node kinds, chance nodes, binary or graded
// rewards, shared move identities, priors) whose draws shrink toward simpler
// trees.
//
// [Traps] lists the counterexamples of the literature as parameterised
// families: [GreedyFirstLossTrap], [RaveZeroTrap], [NegativeHeuristicTrap] and
// [EpsilonDeepTrap] from the consistency paper, [BiasTrap] from the slides on
// ε-greedy and Boltzmann exploration, and [CoquelinMunosChain], UCT's slow
// case; [LostPosition] is the paper's §4 situation.
//
// Trees themselves, their text format and the exact solver are in package
// tree.
package gen
