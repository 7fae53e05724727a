// Package engine checks a real Go engine, spoken to over GTP, against
// positions whose optimal moves are known exactly: it plays genmove at
// doubling budgets and several seeds and reports, for each position, the
// share of the engine's moves that are optimal. It flags positions where
// that share stays at 0 or falls as the budget grows, or where some seeds
// never find an optimal move that others find (at a single budget: where
// the seeds disagree), and says from the root visits the engine reports
// whether a missed move was never tried or tried and valued lower: Leela
// Zero's listing on stderr, or Pachi's tree dump (-d 4, dumpthres=-1),
// which also gives each root move's AMAF (RAVE) value. `mctscheck engine`
// is its command line; docs/engines.md has the results for Leela Zero and
// Pachi.
//
// # Positions
//
// A [Position] is a 19×19 board filled but for a few points, with the
// player to move, the priors of the project's Leela Zero network, and the
// answers: the value for the player to move and the optimal moves.
// [ReadPositions] reads a positions file (format in docs/engines.md);
// testdata/positions.txt has 57, made by internal/posgen.
//
// # Exact answers
//
// [Position.Solve] solves a position under Leela Zero's rules: area
// scoring (Tromp–Taylor, as [goboard.Board.Score]), komi 7.5, positional
// superko over the whole game including the setup moves, the game ending
// on two passes. It is a minimax over every legal move, the moves that
// fill one's own eye and the pass included, since Leela Zero tries them
// all. It stops early only where the result is proved otherwise: when one
// player's pass-alive area (Benson's algorithm with single-point eyes)
// alone wins, whatever is played elsewhere. Results are shared between
// transpositions only for subtrees without a capture, where the history
// cannot matter. A line that would capture a big chain is not searched,
// and the solution stands only if it does not depend on one (ErrTooBig
// otherwise). The tests check the file's answers against the solver, and
// each solved line's final score against GNU Go's final_score.
//
// # The network
//
// [WriteLeelaZeroNetwork] writes a Leela Zero network (text format,
// version 1, one residual block of one filter) whose weights are all zero:
// its policy is the softmax of the 362 policy biases whatever the
// position, and its value a constant. Leela Zero evaluates each position
// under a random one of the board's 8 symmetries, so a position file gives
// a bias to a point and all its images at once.
//
// # Engines
//
// [Run] first starts the engine once with the smallest budget: an engine
// that refuses it and names a minimum (Pachi: "Error: minimum 500
// playouts.") is a [BudgetError] with the budgets to give instead
// ([SuggestBudgets]). It then solves every position (a [PositionError]
// for one the solver cannot solve within [SolveLimits] or whose stated
// answers are wrong), then starts the engine afresh for each position, budget and seed (the
// command's {visits}, {seed} and {network} replaced), sets the position up
// with play commands, and asks genmove. An engine that fails to start,
// crashes, times out, answers garbage or an illegal move (superko
// included), or fails a command is a fault of that trial: the process
// group is killed and reaped, and the run goes on, unless the first
// [FirstTrials] trials all fault the same way, when the check stops
// (Report.Stopped). When its context ends, Run returns the trials that
// finished. Config.Progress gets the trials done and an estimate of the
// time left.
package engine
