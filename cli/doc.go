// Package cli is the mctscheck command line as a library, so that a user
// can build a checker command with rules of their own. Every command of
// mctscheck (run, rules, check, search, solve, match, gtp), its JSON
// documents, its report and its replay lines then work for the user's
// rules as for the catalogue's; the commands, flags and JSON schema are
// documented in cmd/mctscheck (go doc github.com/mctscheck/mctscheck/cmd/mctscheck).
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
// Replay lines name the user's command (Tool.Name, by default the base
// name of os.Args[0]), so that they replay with it.
package cli
