// Package games holds implicit games: [core.Game] implementations whose
// trees are defined by rules rather than stored. [Synth] is the benchmarks'
// reference workload, a uniform tree defined by hashes; [TicTacToe] is the
// smallest real game. Their cursors do not allocate per move.
//
// Explicit trees are in package tree.
package games
