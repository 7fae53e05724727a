// Package games holds implicit games: [core.Game] implementations whose
// trees are defined by rules rather than stored. [Synth] is the benchmarks'
// reference workload, a uniform tree defined by hashes; [TicTacToe] is the
// smallest real game. Their cursors do not allocate per move.
//
// The real games have packages of their own: games/connect4 (bitboards and
// an exact solver checked against Pascal Pons' test sets) and games/goboard
// (a Go board from 5×5 to 19×19 with area scoring, light playouts and a
// differential check against GNU Go). Explicit trees are in package tree.
package games
