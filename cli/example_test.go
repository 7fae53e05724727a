package cli_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/mctscheck/mctscheck/cli"
	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// GreedyK simulates every child K times, then picks the greatest mean:
// a rule of one's own, not in the catalogue.
type GreedyK struct{ K float64 }

// Select implements core.Rule.
func (g GreedyK) Select(s *core.Site) int {
	for i := range s.Len() {
		if float64(s.Visits(i)) < g.K {
			return i
		}
	}
	return core.Argmax(s.Len(), func(i int) float64 { return s.W(i) / s.N(i) })
}

// greedyK is GreedyK's entry: its name in specs, its parameter and what
// its author expects of it.
var greedyK = &rules.Entry{
	Name:    "greedy-k",
	Summary: "every child k simulations, then the greatest mean",
	Params:  []rules.Param{{Name: "k", Default: 2, Min: 1, Max: 1e6, Doc: "simulations of each child first"}},
	Predicted: rules.Prediction{Source: "its author",
		Why: "a good move that loses its k first simulations is never tried again"},
	New: func(a map[string]float64) core.Rule { return GreedyK{K: a["k"]} },
}

// A checker command of one's own: cli.Main(os.Args[1:], greedyK) in a
// main package. Here the tool runs check in-process, and the witness's
// replay line names the user's command.
func Example() {
	tool := cli.Tool{Name: "mycheck", Rules: []*rules.Entry{greedyK}}
	var out bytes.Buffer
	code := tool.Run([]string{"check", "-rule", "greedy-k:k=1", "-tree", "(max (max 0 1) 0.5)", "-seeds", "1", "-budget", "1024"},
		nil, &out, io.Discard)
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "verdict") || strings.HasPrefix(line, "prediction") || strings.HasPrefix(line, "replay") {
			fmt.Println(line)
		}
	}
	fmt.Println("exit", code)
	// Output:
	// verdict    inconsistent: Eq. 5 witness with 5 nodes after 1 tree
	// prediction reproduced
	// replay: mycheck check -rule 'greedy-k:k=1' -tree '(max (max 0 1) 0.5)' -seed 1 -seeds 1 -budget 1024 -keep-order
	// exit 0
}
