// Command mctscheck checks whether Monte-Carlo tree search selection rules
// are consistent: whether, with enough simulations, the root decision
// converges to a minimax-optimal move (Berthier, Doghmen and Teytaud,
// "Consistency Modifications for Automatically Tuned Monte-Carlo Tree
// Search", 2010). It is the command-line face of packages rules (the
// catalogue), props (the checker), core (the engine), tree (explicit trees) and gen (random trees and traps).
//
// The module is not on the Go module proxy yet: install it from a clone
// with go install ./cmd/mctscheck, or run it there with
// go run ./cmd/mctscheck (the README shows how to use it from a module of
// one's own). mctscheck version prints the module version and the commit
// of the build. The command is package
// cli (github.com/mctscheck/mctscheck/cli); cli.Main builds the same
// command with rules of one's own.
//
// # Commands
//
//	mctscheck [run] [flags]                 check every rule of the catalogue
//	mctscheck rules [NAME...]               list the catalogue
//	mctscheck check -rule SPEC [flags]      check one rule
//	mctscheck presets [flags]               check the presets of real engines' rules (run -presets)
//	mctscheck search -rule SPEC -tree TREE  run one search
//	mctscheck solve -tree TREE              solve a tree exactly
//	mctscheck solve -game connect4 -moves MOVES           solve a Connect Four position
//	mctscheck check -rule SPEC -game connect4 -positions FILE  check on real positions
//	mctscheck check -search exec:'CMD' [flags]  check a whole search, in any language
//	mctscheck match -a SPEC -b SPEC [flags] play rule A against rule B
//	mctscheck gtp -rule SPEC [-budget N]    play Go over GTP
//	mctscheck engine -gtp CMD -positions FILE  check a real Go engine over GTP against solved positions
//	mctscheck merge REPORT.json...          join the shards of a check or run (-shard K/N) into its report
//	mctscheck version [-json]               the module version and commit of the build
//
// With no arguments, mctscheck runs every rule of the catalogue through the
// checker, on the trap families and on 100 random trees, 4 seeds each,
// budgets 64 to 16,384 simulations doubling: the scale at which package
// props states its error rates. Rules whose prediction is about binary
// deterministic games are checked on those only. It prints a table on
// stdout, progress on stderr, and writes a report directory (-out, default
// ./mctscheck-report): report.md, report.html (the same with each witness
// tree drawn and each rule's convergence chart, the witness tree's search
// beside the average), report.json (the -json document) and
// convergence.png and convergence.svg (drawn by package cli/plot, which a
// command of one's own built with cli.Main links only if it sets
// cli.Tool.Plot). check -out DIR writes the same for one rule; check -dot
// and solve -dot print a tree as Graphviz DOT. Each command's -h lists its flags
// with examples. Run, check and match take -cpuprofile FILE, a CPU profile
// of the work for go tool pprof: where a check or a match of one's rule
// spends its time.
//
// The tool is built with profile-guided optimisation: go build, go install
// and go run read default.pgo in this directory, a profile of the default
// run, run -presets, check -rule uct and two short matches that
// scripts/pgo.sh writes. It runs with GOGC=400 unless the environment sets
// GOGC: the checker's live heap is a few MB, and at Go's default of 100 the
// collector runs often enough to cost a few percent of a check's CPU
// (docs/speed.md).
//
// A SPEC is a rule name with optional parameters, as in uct, uct:c=0.7 or
// threshold:v=0.3,rule=rave:k=50 (see mctscheck rules and package rules).
// A TREE is a tree in the text format of package tree, as in
// '(max (min 1 0) (chance 0.5:1 0.5:0)~-0.2 0.25@3)', or @FILE to read one
// from a file, @- from standard input.
//
// Match plays rule A against rule B on 9×9 Go or Connect Four (package
// match), colours alternating, and prints A's score with its 95% interval
// per budget: the paper's Table 1 in miniature (scripts/table1.sh, docs/games.md).
// Gtp plays Go as a GTP version 2 engine on stdin and stdout: genmove runs
// one search of -budget simulations with -rule and plays the most visited
// move; errors get GTP's "? message" replies (scripts/gtp-vs-gnugo.sh plays
// it against GNU Go).
//
// The replay lines of witnesses,
//
//	mctscheck check -rule SPEC -tree TREE -seed S -seeds R -budget B [-growth practical] [-backup minimax]
//
// check the witness tree alone with the seeds and budgets that found it;
// those of a whole search's witnesses,
//
//	mctscheck check -search exec:'CMD' -tree TREE -seed S -seeds 1 -budget B -keep-order
//
// search it again with the program. Check -search runs a program that
// speaks the search protocol of docs/protocol.md (package searchexec):
// each search is the program's own, judged at its checkpoints against the
// exact solution; examples/mcts.py and examples/mcts.c are textbook
// searches with bugs to plant.
//
// Run, check and check -search split over processes or machines with
// -shard K/N: part K of N runs the searches (tree t, seed j) with
// (t·seeds + j) mod N = K − 1 (check -search, which judges a tree on all
// its seeds at once, the trees with t mod N = K − 1) and writes that
// part's report, complete,
// with each search's evidence besides (the "shard" object of REPORT);
// its exit code is 0 whatever the part's verdict, which is of that part
// only. Merge reads the report.json (or -json document) of all N parts
// and writes the report of the whole check or run: the same verdicts,
// witnesses, counts and curves, only the timings differ. It refuses, with
// exit code 2, parts of different checks, flags or versions, missing or
// repeated parts, a report cut short, and an interrupted part.
// docs/guide.md shows a GitHub Actions matrix that runs the parts
// (.github/workflows/check-search.yml).
//
// # Exit codes
//
//   - 0: no prediction contradicted: for run and check, every verdict
//     reproduces the papers' prediction or does not refute it (an
//     inconclusive check, shown as "not refuted"); rules, search and solve
//     exit 0 when they succeed.
//   - 1: a finding: for run and check, a prediction contradicted (a witness
//     for a rule predicted consistent, or every tree converged for one
//     predicted inconsistent); for check -search, a stuck search. Gtp
//     exits 0 at quit or at the end of its input; its errors are GTP
//     replies.
//   - 2: usage or input errors: a bad flag, rule spec, tree or file, with a
//     one-line message on stderr that names the flag, the rule parameter or
//     the tree's byte offset (and file:line:column for @FILE).
//   - 3: an error of the tool itself or of the machine (a file that cannot
//     be written after the run started, a write to standard output or to
//     the -cpuprofile file that fails, as on a full disk, an internal
//     error).
//   - 4: a fault: a rule, or the program behind an exec: rule or a
//     check -search, broke its contract (for search and match too): it
//     panicked, answered NaN or a child out of range, crashed, hung, wrote
//     stray output, reported what cannot be, or declared probabilities or
//     scores that its own choices contradict. The verdict is "fault" and
//     the agreement "not judged": a fault is not a finding about
//     consistency. A run with both a fault and a contradicted prediction
//     exits 4.
//   - 130: interrupted by Ctrl-C. Run and check then print and write
//     what they checked so far, marked partial ("stopped": "interrupted"):
//     a check that stopped before a verdict has the verdict and agreement
//     "interrupted"; a witness found but not yet shrunk is reported as
//     found. Other commands write nothing.
//
// With -deadline DURATION, run and check stop when it passes, and print
// and write what finished as Ctrl-C does ("stopped": "deadline"), with a
// line on stderr that says so. The exit code is then that of what was
// found by the deadline: 1 for a finding (a contradicted prediction, a
// stuck search, a witness found but not shrunk), 4 for a fault, and 0
// otherwise. A 0 says that nothing was found in the time given, not that
// the check passed: its report says "interrupted", not a verdict, and
// names the trees checked, as go test -fuzztime passes a fuzz run that
// found nothing in its time.
//
// These are the codes of the binary (go build, go install): go run exits
// 1 whatever the command's code, after printing "exit status N".
//
// For example:
//
//	mctscheck: check: -rule: rules: uct: unknown parameter "x" (parameters: c)
//	mctscheck: solve: -tree: offset 15: node 0.1 (chance): probabilities sum to 0.75, want 1
//
// # JSON documents
//
// With -json every command prints one JSON document on stdout (progress
// still goes to stderr). Field names are snake_case; fields are never
// removed or renamed within a major version of the module, new ones may be
// added. Rewards and values are for the max player. Timings (elapsed_ns,
// sims_per_second) vary from run to run; every other field is a function
// of the flags.
//
// solve:
//
//	{
//	  "tree":     string,   // the tree, canonical text
//	  "kind":     string,   // the root's kind: "max", "min", "chance" or "terminal"
//	  "value":    number,   // V(root), the exact Bellman value
//	  "children": [{
//	    "index": int, "move": int, "kind": string,
//	    "prob":  number,    // only under a chance root
//	    "prior": number,    // only when the edge has one
//	    "value": number,    // V(child)
//	    "optimal": bool     // V(child) = V(root) at a max or min root
//	  }],
//	  "optimal":  [int]     // the optimal children's indices; [] at a chance or terminal root
//	}
//
// search:
//
//	{
//	  "tree": string, "rule": string (canonical spec), "growth": "paper"|"practical",
//	  "backup": "average"|"minimax", "decision_rule": "most-visited"|"highest-mean"|"secure",
//	  "seed": int, "budget": int, "sims": int,
//	  "decision":   int,          // the root child decided, -1 if none
//	  "optimal":    bool,         // whether it is optimal
//	  "value":      number|null,  // the root's backed-up value
//	  "true_value": number,       // V(root)
//	  "children": [{
//	    "index": int, "move": int,
//	    "n": int,                 // real simulations through the child
//	    "w": number,              // the sum of their rewards
//	    "value": number|null,     // w/n, or the minimax value; null when n = 0
//	    "true_value": number,     // V(child)
//	    "optimal": bool
//	  }],
//	  "checkpoints": [{"budget": int, "decision": int, "optimal": bool}],  // with -checkpoints
//	  "elapsed_ns": int
//	}
//
// rules: an array of
//
//	{
//	  "name": string, "summary": string,
//	  "kind": "paper"|"engine"|"own", // the papers' catalogue, a real engine's preset, or a rule of the tool's user
//	  "spec": string,             // the canonical spec with the defaults
//	  "params": [{"name": string, "default": string, "range": string, "doc": string}],
//	  "backup": "average"|"minimax",
//	  "predicted": PREDICTION
//	}
//
// where
//
//	PREDICTION = {
//	  "consistent": bool,         // in the games of condition
//	  "condition": string,        // e.g. "binary deterministic games"; absent for all games
//	  "frugal": "yes"|"no"|"unknown",
//	  "eq4": bool,                // whether the rule satisfies the paper's Eq. 4
//	  "source": string, "why": string,
//	  "stuck": bool,              // only when true: consistent in the limit, but stuck through any budget a run can reach
//	  "practical": string         // only with a practical finding: the tree, how long, and when it returns (an estimate)
//	}
//
// check: a RESULT, with the options and, with -tree, the tree:
//
//	{
//	  "command": string,          // only in a part of a split check (-shard): the command line
//	  "replay": REPLAY,           // only in such a part: the check's options, its tree empty (merge's "the first alone")
//	  "tree": string,             // only with -tree
//	  "options": OPTIONS,
//	  ...RESULT's fields
//	}
//
// run (and report.json):
//
//	{
//	  "command": string,          // the run command line with its options (and -shard K/N in a part)
//	  "options": OPTIONS,
//	  "rules": [RESULT],          // in catalogue order, then the -rule specs
//	  "reproduced": int,          // rules whose prediction the verdict reproduces
//	  "not_refuted": int,         // inconclusive (no witness, some tree not converged) or stuck
//	  "contradicted": int,        // the exit code is 1 when this is not 0 (and no rule faulted)
//	  "faulted": int,             // rules that faulted: the exit code is 4 when this is not 0
//	  "interrupted": int,         // only in a partial run: rules Ctrl-C or -deadline stopped before a verdict
//	  "partial": true,            // only in a partial run: a check stopped before its end
//	  "stopped": "interrupted"|"deadline",  // only in a partial run: Ctrl-C (exit code 130) or -deadline
//	  "elapsed_ns": int
//	}
//
// where
//
//	OPTIONS = {
//	  "trees": int, "traps": bool, "seeds": int, "seed": int,
//	  "min_budget": int, "max_budget": int, "growth": "paper"|"practical",
//	  "shard": "K/N"              // only in a part of a split check (-shard)
//	}
//
//	RESULT = {
//	  "name": string,             // the rule's name, or its spec if not the defaults
//	  "spec": string,             // canonical spec
//	  "backup": string, "growth": string,
//	  "binary_only": bool,        // checked on binary deterministic trees only
//	  "predicted": PREDICTION,
//	  "verdict": "inconsistent"|"stuck"|"inconclusive"|"no-counterexample"|"fault"|"interrupted",
//	  "agreement": "reproduced"|"not refuted"|"contradicted"|"not judged"|"interrupted",
//	  ...REPORT's fields after its verdict
//	}
//
//	REPORT = {                    // props.Report: the checker's report on trees, or on one game position
//	  "verdict": "inconsistent"|"stuck"|"inconclusive"|"no-counterexample"|"fault"|"interrupted",
//	  "summary": string,          // the verdict in one line
//	  "stopped": "interrupted"|"deadline",  // only when the check stopped before its end (Ctrl-C, -deadline): the report is of
//	                              // what finished; "interrupted" is then the verdict unless a tree had failed (its witness is "unfinished")
//	  "overconfidence": {         // the paper's §4 figure, NOT a consistency verdict; null when no search of a lost tree was read
//	    "note": string,           // says so
//	    "points": [{"budget": int,
//	      "searches": int,        // searches of lost trees (exact value below 1/2 for the player to move) whose decided root child has a mean
//	      "overconfident": int,   // those whose decided root child's mean, for that player, is above 0.9
//	      "share": number}]       // overconfident / searches
//	  }|null,
//	  ...POSITION's fields,       // only in the report on a game position (check -game)
//	  "witness": WITNESS|null,    // non-null exactly when inconsistent, stuck or fault
//	  "trees": int,               // trees checked; a game position is one tree
//	  "trees_planned": int,       // only when "stopped": the trees the check would have checked
//	  "converged": int, "inconclusive": int,
//	  "stuck": int,               // trees whose decision stays wrong through the horizon, its limit not shown
//	  "unconverged": [{"name": string, "tree": string}], // every tree that did not converge, with its text
//	                              // for -tree (the seeds as the check's); "tree" absent for a game position
//	  "recoveries": [string],     // up to five: when the rule would recover from a trap (limit probe)
//	  "seeds": int, "max_budget": int,
//	  "handles": {"no_chance": true, "binary_rewards": true, "alternating": true},  // check -search: the trees the program declared it handles (each key only if true); absent for every tree
//	  "optimal_from": int,        // budget from which every converged tree was decided optimally
//	  "nodes_reported": bool,     // check -search only: whether the program reported every node's statistics ("nodes"), or the root children's only
//	  "visited": number,          // share of tree nodes visited (frugality), in (0,1]; absent for a game position, and for a search that does not report every node (unknown)
//	  "recent": number,           // the same during the criterion's window; absent where "visited" is
//	  "curve": [{"budget": int, "wrong": number, "optimal_share": number, "searches": int}],
//	  "sims": int, "elapsed_ns": int, "sims_per_second": number,
//	  "shard": SHARD              // only in a part of a split check (-shard): what merge reads
//	}
//
//	SHARD = {                     // props.ShardReport
//	  "shard": "K/N",
//	  "version": string,          // the checker's module version, and the commit of the build when it recorded one
//	  "check": string,            // the options that decide the report, and a digest of the trees: the same in every part
//	  "search": true,             // only for check -search
//	  "trees": int,               // the whole check's trees
//	  "first_seed": int, "min_budget": int, "window": int,
//	  "searches": [{              // the part's searches taken up, in the check's order
//	    "tree": int, "seed": int, // the tree's index in the check, and the seed
//	    "name": string,           // the tree's name
//	    "tree_text": string,      // the tree's text, in the part's first search of the tree alone
//	    "outcome": "failed"|"stuck"|"fault",  // absent for none of those
//	    "recovery": string,       // when the rule would recover; absent otherwise
//	    "optimal_from": int,      // the first checkpoint (0: 64) from which every decision was optimal, -1 if none
//	    "visited": number, "recent": number,
//	    "root_only": true,        // only for a search that reported its root's children alone
//	    "wrong_throughout": true, // only for a search whose decision was wrong at every checkpoint of the window
//	    "in_view": true,          // only when it was so with a mechanism in view (check -search: every seed so makes the tree stuck)
//	    "wrong": [number],        // per checkpoint: 1 if the decision was not optimal, else 0
//	    "share": [number],        // per checkpoint: the optimal root children's share of the root's simulations
//	    "confidence": [number|null],  // only on a tree lost at its root: per checkpoint, the decided child's mean for the player to move (null: none), the §4 figure
//	    "sims": int
//	  }],
//	  "spot": [{"tree": int, "sims": int, "fault": true}],  // check -search without a witness: the trees searched again ("fault" only when one faulted)
//	  "witness_of": {"tree": int, "seed": int}|null,  // the search the witness was shrunk from
//	  "witness_sims": int         // the simulations the witness took
//	}
//
//	POSITION = {                  // props.PositionReport
//	  "game": string, "position": string,
//	  "value": number,            // V(root) for the player to move, by the solver
//	  "optimal": [int],           // the optimal root moves, by index
//	  "moves": [int],             // each root move's identity (Connect Four: its column, 0 to 6)
//	  "failed_seeds": int,        // seeds wrong in the limit
//	  "stuck_seeds": int,         // seeds wrong through the horizon, the limit not shown
//	  "root_error": number,       // the largest |V̂(root) − V(root)| over seeds at the last budget
//	  "judged_nodes": int,        // stored nodes judged for Eq. 5 and Eq. 4, over the seeds
//	  "beyond_oracle": int        // nodes left unjudged: some child beyond -max-nodes
//	}
//
//	WITNESS = {                   // props.Witness
//	  "verdict": "inconsistent"|"stuck"|"fault",  // wrong in the limit, through the horizon, or a fault of the rule
//	  "horizon": int,             // H, in simulations of a node, up to which the limit probe read the rule
//	  "tree": string,             // the minimal tree, text format; absent for a game position, and for a fault no search met
//	  "nodes": int,               // its size; 0 for a game position
//	  "condition": "Eq. 4"|"Eq. 5"|"Eq. 6"|"Eq. 7"|"decision rule"|"fault",  // Eq. 7 and decision rule: a whole search's (docs/protocol.md)
//	  "from": string,             // what it was shrunk from: a trap name or "random N"; absent for a game position
//	  "original": string,         // that tree; absent for a game position
//	  "findings": [{"condition": string, "node": string, "child": int, "text": string}],
//	  "fault": FAULT|null,        // non-null exactly when the verdict is fault
//	  "seeds": [int],             // the seed that fails, in the tree's (printed) child order; absent for a game position
//	  "budgets": [int],
//	  "shrinks": int,             // candidate trees the shrinker evaluated; 0 for a game position
//	  "unfinished": true,         // only when the check stopped before shrinking it: the tree as found, and no "search"
//	  "run": REPLAY,              // what replays it, structured
//	  "replay": [string],         // command lines that replay it exactly: REPLAY as this tool's flags
//	  "search": {                 // the replayed search on "tree", which report.html draws; absent for a game position and a fault
//	    "curve": [{"budget": int, "wrong": 0|1, "optimal_share": number, "searches": 1}],
//	    "visits": [int],          // simulations through each node at the last budget, nodes numbered breadth-first (the root 0, then its children);
//	                              // for a search that reports the root's children only, the root and its children: the others are unknown
//	    "means": [number|null],   // the same nodes' values for max at the last budget; null for a node without simulations
//	    "decision": int,          // the root child decided at the last budget
//	    "not_reported": string    // why the nodes beyond "visits" are unknown (a whole search without "nodes"); absent when all are known
//	  },
//	  ...GAMEWITNESS's fields     // only on a game position
//	}
//
//	FAULT = {                     // props.Fault: how the rule broke its contract
//	  "kind": "panic"|"nan"|"range"|"crash"|"hang"|"garbage"|"protocol"|"lie"|"nondeterministic"|"perspective"|"chance",
//	  "message": string,          // what happened
//	  "inputs": string,           // what the rule saw there, one line per child; for a whole search, what it was asked
//	  "node": string,             // where, e.g. "0.1"; "" for a whole search's fault that names no node
//	  "sim": int,                 // the simulation; -1 in the limit probe, beyond the run; for a whole search, the simulations its last good answer reported
//	  "checkpoint": int,          // only for a whole search: the checkpoint it was asked for when it faulted
//	  "stderr": string,           // the end of an exec: program's stderr; absent otherwise
//	  "reproduced": bool          // it came back when its tree was searched again alone with its seed
//	}
//
//	GAMEWITNESS = {               // props.PositionWitness
//	  "game": string, "position": string,
//	  "seed": int,                // the seed that fails
//	  "order": int,               // the move order it searched (0: the game's own)
//	  "growth": string, "backup": string,
//	  "explicit": WITNESS|null,   // the position's tree exported and shrunk, if small enough
//	  "not_exported": string      // why "explicit" is null, if it is; absent otherwise
//	}
//
//	REPLAY = {                    // props.Replay
//	  "rule": string,             // the rule's spec, or the search's (exec:CMD)
//	  "search": true,             // only for a whole search: replayed by check -search
//	  "tree": string,             // the witness tree in its failing order; absent for a game
//	  "game": string, "moves": string,  // the position; absent for a tree
//	  "seed": int, "seeds": int, "budget": int,
//	  "min_budget": int, "window": int,  // only when not the defaults (64, 4)
//	  "keep_order": bool, "order": int,  // the subject's own order, or the order drawn from "order"
//	  "growth": string, "backup": string,
//	  "workers": int, "virtual_loss": number, "virtual_value": number,  // 0 for a serial search
//	  "test": string,             // the go test that found it with props.Check; absent otherwise
//	  "package": string           // that test's package from its module's root ("./sub"); absent otherwise
//	}
//
// match:
//
//	{
//	  "game": string,             // "go9", "goN" or "connect4"
//	  "a": string, "b": string,   // the rules' canonical specs
//	  "games": int,               // games per budget
//	  "first": int,               // the index of the first game (-first)
//	  "seed": int,
//	  "budgets": [{
//	    "budget": int,            // simulations per move
//	    "games": int, "wins": int, "draws": int, "losses": int,  // A's results
//	    "rate": number,           // A's score per game: (wins + draws/2)/games
//	    "low": number, "high": number,  // its 95% Wilson interval
//	    "first_rate": number|null,      // A's score when it moved first
//	    "second_rate": number|null,     // and second; null when it never did
//	    "moves": number,          // moves per game, on average
//	    "ends": [{"end": string, "games": int}],  // how the games ended, e.g. "two passes"
//	    "elapsed_ns": int
//	  }],
//	  "elapsed_ns": int
//	}
//
// solve -game connect4:
//
//	{
//	  "game": "connect4",
//	  "position": string,         // the move string, columns 1 to 7
//	  "stones": int,
//	  "to_move": "first"|"second",
//	  "over": bool,               // the game has ended (then "moves" is {})
//	  "value": number,            // for the player to move: 1 a win, 0.5 a draw, 0 a loss
//	  "score": int,               // Pons' score for the player to move
//	  "moves": {COLUMN: number},  // the value of each legal move for the player who makes it
//	  "scores": {COLUMN: int},    // its score
//	  "optimal": [int],           // the columns whose score is the position's
//	  "nodes": int,               // positions the solver searched
//	  "elapsed_ns": int
//	}
//
// where a COLUMN is "1", "2", "3", "4", "5", "6" or "7", from the left.
//
// check -game connect4:
//
//	{
//	  "game": "connect4",
//	  "positions_file": string,   // -positions; absent with -moves
//	  "options": {"seeds": int, "seed": int, "order": int, "keep_order": bool,
//	    "min_budget": int, "max_budget": int, "growth": string, "limit": int,
//	    "max_nodes": int, "export": int},
//	  "name": string, "spec": string, "backup": string, "growth": string,
//	  "binary_only": false, "predicted": PREDICTION,
//	  "verdict": string,          // fault if a position faulted (the check stops there), else inconsistent if one is, else stuck, else inconclusive if one is;
//	                              // "interrupted" if Ctrl-C or -deadline stopped the check before any of these
//	  "agreement": string,
//	  "summary": string,
//	  "stopped": "interrupted"|"deadline",  // only when Ctrl-C or -deadline stopped the check: "positions" are those that finished
//	  "total": {
//	    "positions": int, "inconsistent": int, "inconclusive": int, "stuck": int, "no_counterexample": int, "faulted": int,
//	    "optimal": [{"budget": int, "share": number, "searches": int}],  // share of optimal root decisions
//	    "decisive": int,          // positions where some move is not optimal
//	    "optimal_decisive": [{"budget": int, "share": number, "searches": int}],
//	    "sims": int
//	  },
//	  "positions": [REPORT],      // one per position, with POSITION's fields
//	  "elapsed_ns": int
//	}
//
// A REPORT is props.Report as encoding/json writes it, WITNESS its
// props.Witness: one report and one witness for trees and game positions,
// whose game fields are absent for trees. A RESULT is a REPORT with the
// tool's fields around it: the rule, how it was checked and the papers'
// prediction before the verdict, and agreement right after it. Package
// cli's tests check these blocks against the types, field by field and in
// order, and the golden files in testdata pin the documents.
package main
