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
// [SearchTraps] lists the families of whole searches, shapes on which a
// search's own machinery fails where random trees of a small shape rarely
// go: [OpenLoopTrap] (a chance node above moves that differ by outcome),
// [CousinsTrap] (cousins with the same moves and different values),
// [DoubleMoveTrap] (a player moving twice), [MixedDepthTrap] (terminals at
// mixed depths), [ThresholdTrap] (rewards on both sides of 1/2 under a
// chance node) and [ManyMovesTrap] (a wide node).
//
// Trees themselves, their text format and the exact solver are in package
// tree.
package gen
