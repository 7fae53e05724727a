package props

import (
	"fmt"
	"regexp"
)

// Replay is what replays a witness exactly: the subject searched, the
// rule's spec, the seed and the options of the search that failed. props
// writes no command line of any tool: a tool formats a Replay as its own
// flags (mctscheck's check), and Check formats it as the environment of a
// go test run (TestLine).
type Replay struct {
	// Rule is Options.RuleSpec, empty for a rule that has none.
	Rule string `json:"rule"`
	// Search says that Rule names a whole search (RunSearch), not a
	// selection rule: mctscheck check -search replays it.
	Search bool `json:"search,omitempty"`
	// Tree is the witness tree in the text format, in the failed seed's
	// child order; empty for a game.
	Tree string `json:"tree,omitempty"`
	// Game and Moves name a game's position (GameOptions.Game and
	// Position); empty for a tree.
	Game  string `json:"game,omitempty"`
	Moves string `json:"moves,omitempty"`
	// Seed is the failed search's seed, searched alone (Seeds 1).
	Seed  uint64 `json:"seed"`
	Seeds int    `json:"seeds"`
	// Budget is the largest budget, MaxBudget.
	Budget int64 `json:"budget"`
	// KeepOrder searches the subject in its own child order; otherwise a
	// game's moves are searched in the order Order draws.
	KeepOrder bool   `json:"keep_order"`
	Order     uint64 `json:"order"`
	// Growth and Backup name the engine's modes (core.Growth and
	// core.Backup's String).
	Growth string `json:"growth"`
	Backup string `json:"backup"`
	// Workers, VirtualLoss and VirtualValue are the tree-parallel search's
	// options (Options.Workers and VirtualLoss), 0 for a serial one.
	Workers      int     `json:"workers"`
	VirtualLoss  float64 `json:"virtual_loss"`
	VirtualValue float64 `json:"virtual_value"`
	// Test is the name of the go test that found it with Check, "" if
	// none: TestLine replays it there.
	Test string `json:"test,omitempty"`
}

// replayOf is the replay of tree text t searched with o, in its own order.
func replayOf(t string, o Options, test string) Replay {
	r := Replay{Rule: o.RuleSpec, Tree: t, Seed: o.Seed, Seeds: o.Seeds, Budget: int64(o.MaxBudget),
		KeepOrder: o.KeepOrder, Growth: o.Growth.String(), Backup: o.Backup.String(), Test: test}
	if o.Workers >= 2 {
		r.Workers, r.VirtualLoss, r.VirtualValue = o.Workers, o.VirtualLoss.N, o.VirtualLoss.Value
	}
	return r
}

// TestLine is the shell line that replays a witness Check found: its go
// test with TreeEnv and SeedEnv set, or "" if it has no test.
func (r Replay) TestLine() string {
	if r.Test == "" || r.Tree == "" {
		return ""
	}
	return fmt.Sprintf("%s=%s %s=%d go test -run '^%s$' .", TreeEnv, ShellQuote(r.Tree), SeedEnv, r.Seed, regexp.QuoteMeta(r.Test))
}

// ShellQuote quotes s for a POSIX shell, as replay lines need.
func ShellQuote(s string) string {
	out := []byte{'\''}
	for i := range len(s) {
		if s[i] == '\'' {
			out = append(out, `'\''`...)
		} else {
			out = append(out, s[i])
		}
	}
	return string(append(out, '\''))
}
