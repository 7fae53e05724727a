// Package bench holds mctscheck's benchmarks of the playout hot loop, and
// bench/gate the regression gate that judges them. The package has no API:
// its benchmarks are in its test files.
//
// # Workloads
//
// Every benchmark op is one search of 200,000 simulations from an empty tree,
// with seed 1, so that every op does the same work. Unless named otherwise
// the rule is UCT with C = √2 (core.UCT; unvisited children first, in index
// order) in practical mode (core.GrowPractical with ExpandAfter 0): a stored
// leaf is rolled out by uniformly random moves on its first visit and all
// its children are added on its second.
//
//   - game=synth, the reference workload, defined exactly so that other
//     engines can search the same tree (games.Synth): a uniform tree of
//     branching b and depth d (reference: b = 8, d = 10); the root's hash
//     is 0x243F6A8885A308D3; child i (0-based) of a node with hash h has
//     hash mix(h + (i+1)·0x9E3779B97F4A7C15), where mix is the splitmix64
//     finaliser (z ^= z>>30; z *= 0xBF58476D1CE4E5B9; z ^= z>>27;
//     z *= 0x94D049BB133111EB; z ^= z>>31); max moves at even depths, min at
//     odd ones; max wins a leaf with hash h (reward 1, else 0) iff
//     mix(h ^ 0xD1B54A32D192ED03) is odd. Check value: with b = 8, d = 10 the
//     leaf at path 0.0.1.2.3.4.5.6.7.0.1 has hash 0x8d5413d718d2cf7f and
//     reward 1 (TestSynthDefinition).
//   - game=ttt: tic-tac-toe from the empty board (games.TicTacToe).
//   - game=random: an explicit tree of 60,914 nodes built once with the tree
//     Builder from math/rand/v2's PCG seeded (2010, 2010): depth at most 8,
//     max and min alternating by depth, below the root a leaf with
//     probability 1/10 and a chance node with probability 1/8; decision
//     nodes have 2 to 6 children, chance nodes 2 or 4 equally likely ones;
//     rewards are multiples of 1/4. It runs in paper mode (Algorithm 1
//     verbatim, every node of every path stored) and in practical mode.
//
// The rule sweep runs synth and ttt with five rules of the catalogue
// (package rules) at their defaults, so rule=NAME is rules.Parse(NAME): uct
// (C = √2); smoothed, the paper's Eq. 14 (w+1)/(n+2); rave, the Eq. 13 blend
// with K = 100, AMAF statistics on; eps-greedy, a uniformly random child
// with probability 0.2 and otherwise the highest mean; and threshold,
// Algorithm 2 (V = 0.3) around uct. The scaling sweep (BenchmarkScaling) runs synth at depth 4 to
// 14 with b = 8 and at branching 2 to 32 with d = 10. BenchmarkPlayout
// measures the roll-out loop alone: loop=engine through core (a search whose
// tree may not grow past the root, so every simulation is one roll-out),
// loop=bare the same walk written directly against the game.
//
// # Metrics
//
//   - ns/sim: CPU time of the benchmark's thread per simulation (its
//     goroutine is locked to the thread; CLOCK_THREAD_CPUTIME_ID on Linux,
//     wall time elsewhere). Other processes on a shared machine stretch wall
//     time but hardly this, so it is the metric the gate judges.
//   - wall-ns/sim: wall time per simulation, as sec/op divided by 200,000.
//   - B/node: every byte that core.New and one search allocate, divided by
//     the nodes stored. The arena is sized to the tree beforehand
//     (Config.Capacity), so this is the cost of the representation and not
//     of slack: 16 bytes a node for plain rules, 36 with AMAF.
//   - allocs/op and B/op: allocations during the timed searches; 0.
//
// # Parallel
//
// BenchmarkParallel runs each workload (the synth reference and 9×9 Go from
// the empty board) serially and then root- or tree-parallel in each op, and
// reports speed-up (serial wall time over parallel), cpu-ns/sim and
// cpu-ratio (parallel CPU per simulation over serial: the cost of the
// parallel code, which the load of a shared machine hardly changes; k
// workers on k free cores give at most k / cpu-ratio). Its two controls
// split fixed work over two goroutines: mode=spin touches no memory,
// mode=chase walks a random cycle of cache lines as large as the tree;
// their speed-ups are what the machine gives two goroutines at that moment.
// BenchmarkRMW times the increments a tree-parallel backup does per path
// node: plain, atomic add, float64 compare-and-swap. Tree parallelism pays
// when simulations are long (Go), not on synth, whose simulations are
// short enough that the atomic operations on every path node dominate.
// The figures are in docs/speed.md.
//
// # Against a hand-written loop
//
// BenchmarkReference runs, in each op, three searches that store the same
// tree with the same statistics (TestReferenceMatchesEngine), in an order
// that rotates from op to op, each timed on the thread's CPU clock:
//
//   - the engine;
//   - reference_test.go's reference: the same UCT search of synth written
//     by hand for that workload alone (no interface call for the rule or
//     the game, the synth hash computed in place, no Site, one slice of
//     nodes, the engine's own tables);
//   - the game-reference: that loop with the game behind core.Game (Kind,
//     NumMoves, Play, Reward and core.Playouter at every position), the
//     cost of a pluggable game to a hand-written loop.
//
// engine/reference and engine/game-reference are the ratios of their CPU
// times. Where the time goes, as shares of the reference's time in the
// same run (a CPU profile of BenchmarkReference, -test.benchtime 60x,
// GODEBUG=asyncpreemptoff=1; the reference = 1.00), and the instructions
// of one 200,000-simulation search per simulation (callgrind, which the
// load does not move; the commit and the load are in docs/speed.md):
//
//	                                  engine  game-ref  reference
//	selection (uctArgmax, choose)       0.66      0.62       0.61
//	roll-outs (Synth.Playout)           0.17      0.14       0.18
//	descent, expansion, backup          0.52      0.28       0.21
//	  of which the game's methods       0.13      0.11          -
//	total                               1.35      1.04       1.00
//	instructions a simulation          2,847     2,557      2,326
//	  of which selection               1,171     1,347      1,347
//
// The engine's selection takes fewer instructions than the reference's
// (no test for an unvisited child, two children a turn) but a little more
// time; the reference's branching argmax in its place was faster here
// and slower on the checker's small trees (docs/speed.md). The gap is the rest
// of the descent, which runs core's plain mode here (UCT with no optional
// statistic: no Site, a path of nodes alone, the backup inside the
// descent): 1,281 instructions a simulation outside selection and
// roll-out against the game-reference's 843, the path's steps, the
// arena's chunk tests, the error checks, the kind's dispatch and the
// registers Go's calling convention spills around each call. The game
// behind an interface is not the gap: the game-reference makes the same
// calls. docs/speed.md ("The hot loop against the game-reference") has
// the round's figures, and what was tried and not kept.
//
// # The checker
//
// BenchmarkCheck measures the checker itself: one op is props.Run of a
// catalogue rule (uct, prior, boltzmann-decay, boltzmann-minimax) at the
// defaults, as `mctscheck check -rule NAME` runs it but one tree at a time
// (uct: 8,585,216 simulations on 131 small explicit trees in paper mode).
// Its ns/sim is the process's CPU time (user + system) per simulation,
// everything included (trees, searches, snapshots, the limit probe, the
// criterion), and sims/op the simulations of one op. The tool itself is
// built with profile-guided optimisation (cmd/mctscheck/default.pgo); to
// measure the checker as the tool runs it, build the benchmarks with the
// same profile:
//
//	GOFLAGS=-pgo=$PWD/cmd/mctscheck/default.pgo BENCH=Check scripts/benchcmp.sh HEAD~1 HEAD
//
// BenchmarkCheckTree measures the checker's memory on large explicit
// trees: one op is `mctscheck check -rule uct -tree @FILE` (the tool's
// check command, with the tool's GOGC) in a child process, from reading
// the file to the report, on a chain of 1,048,575 nodes (max and min
// nodes alternating, each over a leaf and the next node; 16 seeds,
// budgets 64 to 16,384, the defaults of a -tree), on a root over
// 1,000,000 leaves (4 seeds, budgets 64 to 1,024, since every simulation
// there reads all the children; -large adds it at the defaults) and on a
// root over 100,000 leaves at the defaults. Its B/node is the child's
// peak resident memory (ru_maxrss) per node of the tree, peak-MiB that
// peak, cpu-s the child's CPU time (user and system, all threads).
//
// BenchmarkShrink measures what finding and shrinking a small witness in
// a large tree costs: a 5-node witness of greedy first-play urgency,
// (max (max 0 1) 0.5), hidden in (max (max 0 1 BUSHY) 0.5) of 10^3, 10^4
// and 10^5 nodes, where BUSHY is a bushy subtree the witness's search
// never enters; one op is `mctscheck check -tree @FILE -json` with the
// rule greedy-fpu, or with -search and examples/mcts.c built with its
// negamax-sign bug (cc), in a child process as above. It reports
// peak-MiB, B/node and cpu-s as BenchmarkCheckTree does (the CPU of the
// search program included), witness-nodes and the candidate trees the
// shrinker judged (shrinks). TestShrinkMemory, in the full suite, checks
// the 10^4-node trees' peak memory and witness.
//
// # Running
//
//	scripts/bench.sh > new.txt            # the suite, -count 10
//	BENCH=Search/game=synth scripts/bench.sh
//	go test -run '^$' -bench . -benchtime 1x ./bench/   # a quick smoke run
//	benchstat -col /d -filter '.name:Scaling /b:8' new.txt   # cost against depth
//	go test -run '^$' -bench Reference -count 10 ./bench/ > ref.txt   # engine/reference
//	go test -run '^$' -bench Memory ./bench/ -args -large   # adds the 1 GiB search
//	go test -run '^$' -bench CheckTree -benchtime 1x -count 5 ./bench/   # B/node
//	go test -run '^$' -bench Shrink -benchtime 1x -count 5 ./bench/      # the shrinker's growth
//
// The test binary reads two environment variables, MCTSCHECK_BENCH_MEMORY
// and MCTSCHECK_BENCH_CHECKTREE, which BenchmarkMemory and
// BenchmarkCheckTree set for the child processes they start; they are not
// knobs for users. Instruction counts, which the load of the machine does
// not move, come from scripts/instrcmp.sh (BENCH=pattern counts a
// benchmark run instead of a tool job).
//
// # Comparing
//
//	scripts/benchcmp.sh BASE [HEAD]     # both commits built, run interleaved, gated
//	go run ./bench/gate old.txt new.txt # the gate alone (go build it to keep its exit status)
//
// benchcmp.sh builds the bench test binary of each commit in a temporary
// git worktree (a directory argument is used as it is), runs the two
// binaries in alternating order one -count at a time, prints benchstat's
// table and exits with the gate's status. The gate fails (exit 1) when a
// benchmark is slower by more than 5% with p < 0.05 (Mann-Whitney U, as
// benchstat), with at least 10 samples a side; the geomean is reported,
// not judged. See bench/gate for its flags, and docs/gate.md for its
// measured false-failure rate.
//
// # Scaling
//
// Cost per simulation follows the depth of the stored tree, not of the game:
// practical mode adds about one node per simulation, so 200,000 simulations
// store a tree about log_b(200,000) deep (6 levels at b = 8) whatever d is,
// and the moves below it are roll-out moves. Up to d = 6 the whole game
// tree is soon stored and simulations end early. Along the stored path the
// rule scans every child of every node, b·log_b(N) scores, so the cost
// grows with b/ln b: benchstat -col /d (or /b) on BenchmarkScaling shows it.
package bench
