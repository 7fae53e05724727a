// Package goboard is a Go board with fast light playouts, and the game of Go
// from a position as a [core.Game].
//
// # Rules
//
// Boards are 5×5 to 19×19 (9×9 by default). Scoring is by area, Tromp–Taylor
// style (the Chinese count without removing dead stones): a player's stones
// plus the empty points from which only that player's stones can be reached;
// komi (7.5 by default, any multiple of 0.5) is added to White's area.
// Suicide is forbidden. A [Board] knows simple ko: a move may not retake a
// single-stone ko at once (a pass or any other move lifts the ban). A [Game]
// adds positional superko for the stored tree: a move may not recreate any
// earlier position of the game (the stones only, whoever is to move),
// compared by a 64-bit Zobrist hash (Zobrist 1970) of the stones. The game
// ends on two consecutive passes, or at the move cap (3·size² moves by
// default, passes included, [Config.MaxMoves]), which ends a game that
// would not end with status [MoveCap]; either way the position is scored as
// it stands.
//
// # Points and moves
//
// A move is an integer identity: points 0 to size²−1 row by row from the
// lower-left corner (A1 is 0, B1 is 1, A2 is size), and size² for the pass.
// In text they are GTP vertices: a column letter A to T without I and a row
// number from 1 at the bottom ("D4", "J9"), or "pass" ([Vertex],
// [ParseVertex]). [NewBoard] and [NewGame] build a position from a list of
// moves, each a vertex played by the player to move or a color and a vertex
// ("b D4", "white pass") played by that color as GTP's play command does.
// Errors say what is wrong: malformed vertices, sizes out of range, occupied
// points ([ErrOccupied]), suicide ([ErrSuicide]), ko ([ErrKo]), superko
// ([ErrSuperko]), moves after the end ([ErrOver]). [Board.String] draws the
// board as GNU Go's showboard does.
//
// # The board
//
// Stones form chains kept as circular linked lists with a root per chain;
// merging relabels the smaller chain. Each chain has a pseudo-liberty count,
// the number of (stone, empty neighbour) pairs, which is zero exactly when
// the chain has no liberty; each point has counts of its black, white and
// empty neighbours (the edge counting as both colors), and the empty points
// are kept in a list. A move, a capture, and the playouts' legality and eye
// tests then cost a few array reads and writes and never allocate. These are
// the techniques of libego (Łukasz Lew, "Library of Effective Go routines")
// and Orego (Peter Drake), written anew here. A Board is a fixed-size value
// (about 6 KB): assigning it copies the position.
//
// # Eyes
//
// A single-point eye of a player is an empty point whose neighbours on the
// board are all that player's stones and whose diagonal points hold fewer
// than two of the opponent's stones in the middle of the board, none on the
// edge or in the corner (an off-board diagonal counts as one). This is the
// eye test of the light playouts of libego and Pachi; it calls a point with
// the diagonal pattern of a false eye "not an eye", and it is the one test
// the playouts, the list of moves at tree nodes and the priors share.
//
// # Light playouts
//
// [Board.Playout] plays the game out: each player in turn plays a uniformly
// random legal move (simple ko) that does not fill one of its own
// single-point eyes, and passes only when there is none; then it scores the
// board by area and returns 1 when Black wins, 0 when White wins, 1/2 for a
// draw. The draw is exactly uniform: a partial Fisher–Yates shuffle of the
// empty points draws candidates without replacement until one is playable.
// There is no interface or indirect call per move and no allocation.
//
// BenchmarkPlayout measures the rate; docs/go.md quotes the figures and
// published ones of other programs.
//
// # The game
//
// [Game] is Go from a start position as a [core.Game]: Black is the max
// player ([core.Max] when Black is to move, [core.Min] when White is) and a
// terminal position's reward is [Board.Reward]. At each position it lists
// every legal move (positional superko included) except those that fill one
// of the mover's single-point eyes, in increasing order of identity, and
// then the pass, which is always listed. It implements [core.Mover] (move
// identities as above, MoveLimit size²+1) and [core.Heuristic], whose priors,
// from the mover's point of view, are [Board.Prior]'s, the first that
// applies:
//
//	PriorEyeFill   −1    fills one of the mover's single-point eyes
//	                     (never listed at tree nodes, so a Game never reports it)
//	PriorCapture   +1    captures at least one stone
//	PriorEscape    +0.5  joins a chain in atari and leaves it at least two liberties
//	PriorSelfAtari −0.5  captures nothing and leaves its chain one liberty
//	PriorNone       0    every other move, and the pass
//
// Every listed move has a prior (ok is true).
//
// For practical-mode searches, [FastGame] with the [FastLight] policy rolls
// out with the board's own light playout: below the stored tree every
// position has one move, the one [Board.Playout] would draw (simple ko, no
// list of the position's moves, no superko hash), while the stored tree is
// the Game's, with positional superko and exact legality, as real engines
// do. core still sees every roll-out move, so AMAF and RAVE statistics are
// complete. [Light] is the slower policy that rolls out through the Game,
// one listed move at a time; [Game.Rollout] runs Board.Playout from the
// cursor for engines that hand a whole roll-out to the game.
// BenchmarkRollout and BenchmarkSearch measure them.
//
// # Exact values
//
// [Oracle] values positions of a Game exactly for the consistency checker
// (props.CheckGame): alpha-beta to the end of the game under the Game's
// own rules, without a transposition table (under positional superko a
// position's value depends on the game before it). Exponential, it suits
// small endgames with a move cap a few moves ahead ([Config.MaxMoves]):
// on 5×5 with two to five empty points and the cap ten moves on, valuing
// the root's children takes thousands to tens of thousands of nodes. The
// mctscheck command checks such positions with
// `check -game go5:komi=K,cap=N -moves ...`.
//
// # Games in progress
//
// [History] is a game from the empty board as a referee or a GTP engine
// keeps it: the moves with their colors ("b D4"), played with
// [History.PlayAs] as GTP's play command gives them, under the Game's
// rules; [History.SGF] writes it in SGF and [ScoreText] writes a score as
// SGF and GTP do (B+3.5, W+0.5, 0).
//
// # Correctness
//
// The tests check hand-made positions (captures of one and several stones
// and of two chains at once, suicide of one and several stones, simple ko,
// eyes, a seki scored by area with several komis, the positional superko of
// a double ko, the move cap), and random games on every size against a
// brute-force oracle that shares no code with the board (legality of every
// point, the listed moves, the incremental state, the area).
//
// TestGNUGo compares the board with GNU Go 3.8 over GTP when gnugo is
// installed (it is skipped otherwise): random games on 5×5 to 13×13 where
// GNU Go's is_legal answers for a sample of points at every position,
// GNU Go accepts every move, and its final_score (with --chinese-rules, an
// area count) equals Score at the end of every settled playout; a third as
// many games through a Game against GNU Go run with --positional-superko;
// and the hand-made seki, ko and double-ko positions. scripts/gnugo-check.sh
// runs it on more games and prints the counts. On 1,000 games (117,928
// positions, 2,687,788 legality queries of which 878 ko and 567,816 suicide,
// 994 score comparisons) and 333 superko games (333,233 queries, 17 superko
// refusals) there was no disagreement. The one known source of score
// disagreements, which the test explains instead of failing on, is GNU Go's
// dead-stone analysis: final_score removes the stones it judges dead, which
// area counting does not. In our runs it arose only at unsettled ends (a
// game ended by a random pass while a capture was still possible), which the
// test therefore does not score.
//
// References: J. Tromp, "The Rules of Go" (Tromp–Taylor rules); A. L.
// Zobrist, "A New Hashing Method with Application for Game Playing" (1970);
// G. Farnebäck, "GTP — Go Text Protocol", version 2 draft; the GNU Go 3.8
// documentation; libego, Orego and Pachi for the playout techniques (no code
// is copied).
package goboard
