// Package connect4 is Connect Four on the standard 7-column, 6-row board: a
// [Position] type on bitboards, the game as a [core.Game] ([Game]) and an
// exact [Solver].
//
// Columns are 0 to 6 from the left in the Go API ([Position.Play],
// [Game.Move], [ColumnScore]) and '1' to '7' in text: move strings, as in
// Pascal Pons' test sets, list the columns played from the empty board, first
// player first ("4453" is: first player in the centre column, second player
// on top of that stone, first player in the fifth column, second player in
// the third). [Parse] reads them and [Position.String] writes them.
//
// Scores follow Pons: a position's score is from the point of view of the
// player to move; 0 is a draw; a win scores 22 minus the number of stones the
// winner has on the board when the game ends, from 18 (a win with the fourth
// stone) down to 1 (with the 21st, the last), so a faster win scores higher;
// a loss is the negative of the opponent's win. [Value] maps
// a score to the rewards of the rest of the code base: 1 a win, 0.5 a draw, 0
// a loss.
//
// The bitboard layout, the threat computation and the solver's techniques
// (negamax with alpha-beta, a transposition table, centre-first move ordering
// refined by the number of threats a move creates, immediate wins and
// non-losing moves, and null-window searches that narrow the score) are those
// described in Pascal Pons, "Solving Connect 4: how to build a perfect AI",
// http://blog.gamesolver.org/solving-connect-four/; the code is this
// package's own.
//
// The solver's transposition table starts small and grows with the work,
// up to 2^24 entries by default, the size of Pons' own solver's table
// ([Config.TableBits]); one Solver kept across positions, as `mctscheck
// solve -game connect4 -positions FILE` keeps it, pays for it once. The
// comparison with Pons' solver, and how to rerun it, are in
// docs/connect4.md.
//
// An [Oracle] gives, from the solver, the exact value of the positions of a
// [Game] named by lines of play, as the consistency checker asks for them
// (props.CheckGame; `mctscheck check -game connect4`).
//
// The testdata directory holds Pons' six test sets of 1,000 positions each,
// with their exact scores (see its README for the source). go test checks
// the solver against every position of the end and middle sets and of
// Test_L1_R1, and samples of the two harder beginning sets (about 8 s of
// CPU; -short: every tenth and smaller samples), against plain minimax on
// random positions of 30 to 35 stones, and checks that each sampled
// position's score is the best of its moves'; MCTSCHECK_LONG=1 extends
// these to 2,000 random positions from 29 stones, to all of Test_L1_R2 and
// every tenth position of Test_L1_R3, and to more positions for the moves
// (tens of minutes).
package connect4
