// Package cli is the mctscheck command line as a library, so that a user
// can build a checker command with rules of their own. Every command of
// mctscheck (run, rules, check, presets, search, solve, match, gtp,
// engine, version), its JSON documents, its report and its replay lines then work
// for the user's rules as for the catalogue's; the commands, flags and
// JSON schema are documented in cmd/mctscheck (go doc
// github.com/mctscheck/mctscheck/cmd/mctscheck).
//
// A user's command is a rules.Entry per rule and three lines:
//
//	var greedyK = &rules.Entry{
//		Name:      "greedy-k",
//		Summary:   "every child k simulations, then the greatest mean",
//		Params:    []rules.Param{{Name: "k", Default: 2, Min: 1, Max: 1e6, Doc: "simulations of each child first"}},
//		Predicted: rules.Prediction{Source: "mine", Why: "a good move that loses its k first is never tried again"},
//		New:       func(a map[string]float64) core.Rule { return GreedyK{K: a["k"]} },
//	}
//
//	func main() { os.Exit(cli.Main(os.Args[1:], greedyK)) }
//
// With no arguments it checks the user's rules (run -rules '*' adds the
// catalogue), and exits 1 when a verdict contradicts an entry's Predicted.
// Replay lines name the user's command as it was run (./mycheck, or
// mycheck when it is on PATH), so that they paste where it ran, and the
// help texts and messages speak in its name (Tool.Name, by default the
// base name of os.Args[0]).
//
// The report of run (and of check -out) is report.md, report.html and
// report.json; report.html draws each witness tree and each rule's
// convergence with the standard library (package internal/picture), so
// every command has it. The convergence figure convergence.png is drawn
// only by a Tool whose Plot is set, as cmd/mctscheck sets it to
// package cli/plot's Convergence, so that a command built with cli.Main
// links no plotting library:
//
//	tool := cli.Tool{Rules: []*rules.Entry{greedyK}, Plot: plot.Convergence}
//	os.Exit(tool.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
//
// The files: cli.go (the command table, exit codes, the main help),
// tool.go (Tool, the user's command), one file per command (run.go,
// check.go, search.go, solve.go, match.go, gtp.go, rules.go, version.go,
// with game.go and game_check.go for real games), result.go (a rule's
// verdict with its agreement, as check and run report it), report.go (the
// report writer: the run table and the report directory), html.go
// (report.html), check_report.go (check -out and -dot),
// check_search_report.go (check -search -out), json.go (the
// JSON documents), flags.go and
// treearg.go (the flags shared by commands), progress.go and interrupt.go
// (progress lines, Ctrl-C and -deadline); plotting is package cli/plot.
package cli
