// Package match plays selection rules against each other on real games, 9×9
// Go and Connect Four: the experiment of Table 1 of Berthier, Doghmen and
// Teytaud ("Consistency Modifications for Automatically Tuned Monte-Carlo
// Tree Search", 2010), in which Algorithm 2, the consistency modification,
// wrapped around MoGo plays MoGo alone and wins 52.9% ± 0.9% of the games at
// 500,000 simulations per move (52.1% ± 4.9% at 5 million): the
// modification costs no strength. It also referees games between GTP
// engines (Referee), which mctscheck's gtp command and GNU Go play.
//
// # Matches
//
// Play plays Config.Games games of rule A against rule B. A moves first in
// the even-numbered games and B in the odd ones. Each move is the decision
// (the most visited root child by default) of a new search of Config.Budget
// simulations from the current position, in core's practical mode: descent
// by the rule in the stored tree, one expansion per simulation, a roll-out
// below. The result is A's score per game (a win 1, a draw 1/2) with its 95%
// Wilson score interval (Wilson), and the games themselves (Record).
//
// Games run in parallel over Config.Workers goroutines. Game i is seeded
// with GameSeed(Config.Seed, i), and the search of its move at ply p with
// GameSeed of that and p, so a match's result depends on its seed and
// configuration only, not on the number of workers or the order in which
// games finish; Config.First lets a long match run in parts that play the
// same games as one run.
//
// # Games
//
// ByName knows "go9" (and "go5" to "go19"): Go with area scoring,
// komi 7.5, positional superko in the stored tree, and the end of a game
// at two passes or at goboard's move cap (3·size² moves), records in SGF;
// and "connect4": Connect Four, records as move strings (connect4.Parse).
// Other games implement Game and State.
//
// Go's searches roll out with light playouts (uniformly random moves that
// do not fill one's own single-point eye, pass only when there is none)
// through FastGame, which plays the roll-out on a copy of the board and
// draws each move as goboard's Board.Playout does, instead of listing every
// position's moves as goboard.Light does through the Game: about three
// times faster (BenchmarkRollout) for the same distribution, except that
// roll-outs know simple ko only, like Board.Playout. core still sees every
// roll-out move, so AMAF and RAVE statistics are complete. Connect Four's
// roll-outs are core's uniform ones.
//
// # The checker on Go positions
//
// Go has no exact solver at 9×9; GoOracle values small positions exactly,
// for props.CheckGame: alpha-beta to the end of the game under the Game's
// own rules, without a transposition table (under positional superko a
// position's value depends on the game before it). Even 5×5 endgames with
// two to five empty points are beyond 200,000 nodes when the game runs to
// goboard's move cap, since the losing side's self-ataris and recaptures
// go on for dozens of moves; with a move cap ten moves ahead
// (goboard.Config.MaxMoves) valuing all the root's children takes 2,000 to
// 30,000 nodes (twelve endgames measured). TestCheckerOnGo
// checks rules on such endgames: 5×5, komi set so that the board as it
// stands wins by 1/2, the cap ten moves on, positions that have a losing
// and a winning move (MCTSCHECK_GO=N checks N of them with the whole
// catalogue; the README quotes the counts).
//
// # GTP
//
// gtp.Client speaks the Go Text Protocol to an engine, started by gtp.Start
// or connected through any reader and writer. Referee plays one game
// between two engines: it sets both up, asks each in turn for a move,
// checks the move on its own board, tells the other engine, and ends the
// game at two passes, a resignation or the move cap, with its own area
// count and each engine's final_score. The command in match/referee runs
// it between two engine commands; scripts/gtp-vs-gnugo.sh plays mctscheck
// gtp against GNU Go with it.
package match
