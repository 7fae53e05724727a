package props

import (
	"fmt"
	"regexp"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// replayLines returns the command lines that replay a witness.
func replayLines(t *tree.Tree, o Options, testName string) []string {
	var out []string
	q := shellQuote(t.String())
	if testName != "" {
		out = append(out, fmt.Sprintf("%s=%s %s=%d go test -run '^%s$' .", TreeEnv, q, SeedEnv, o.Seed, regexp.QuoteMeta(testName)))
	}
	if o.RuleSpec != "" {
		line := fmt.Sprintf("mctscheck check -rule %s -tree %s -seed %d -seeds %d -budget %d",
			shellQuote(o.RuleSpec), q, o.Seed, o.Seeds, o.MaxBudget)
		if o.KeepOrder {
			line += " -keep-order"
		}
		if o.Growth == core.GrowPractical {
			line += " -growth practical"
		}
		if o.Backup == core.BackupMinimax {
			line += " -backup minimax"
		}
		if o.Workers >= 2 {
			line += fmt.Sprintf(" -tree-workers %d -virtual-loss %g -virtual-value %g", o.Workers, o.VirtualLoss.N, o.VirtualLoss.Value)
		}
		out = append(out, line)
	}
	return out
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
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
