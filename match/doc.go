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
// Go(cfg) plays Go with area scoring and komi (goboard.Config),
// positional superko in the stored tree, and the end of a game at two
// passes or at goboard's move cap (3·size² moves by default); records in
// SGF. Its searches roll out with goboard.FastLight through a
// goboard.FastGame: the roll-out is the board's own light playout (simple
// ko, no list of a position's moves), while the stored tree keeps
// positional superko and exact legality. ConnectFour() plays Connect Four,
// records as move strings (connect4.Parse), with core's uniform roll-outs.
// Other games implement Game and State. The mctscheck command's -game
// names (go9, go5:komi=0.5, connect4) are read by its own table of games.
//
// A search needs MinBudget simulations to decide a move: in practical mode
// the first simulation rolls out from the root, the second expands it.
//
// # GTP
//
// Referee plays one game of Go between two engines that speak the Go Text
// Protocol (Engine; gtp.Client is one): it sets both up, asks each in turn
// for a move, checks the move on its own board, tells the other engine,
// and ends the game at two passes, a resignation or the move cap, with its
// own area count and each engine's final_score. The command in
// cmd/referee runs it between two engine commands;
// scripts/gtp-vs-gnugo.sh plays mctscheck gtp against GNU Go with it.
//
// Go's board, fast game, exact oracle (goboard.Oracle) and SGF are in
// games/goboard, the GTP engine and client in gtp.
package match
