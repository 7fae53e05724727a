package props

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Replay is what replays a witness exactly: the subject searched, the
// rule's spec, the seed and the options of the search that failed. It is
// formatted as the check command of mctscheck or of a command built with
// package cli (CheckLine), and as the environment of a go test run of
// Check (TestLine).
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
	// Budget is the largest budget, MaxBudget; MinBudget and Window are
	// the smallest and the doublings the criterion reads, 0 for the
	// defaults (only Go calls set others: GoCall).
	Budget    int64 `json:"budget"`
	MinBudget int64 `json:"min_budget,omitempty"`
	Window    int   `json:"window,omitempty"`
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
	// Package is the directory of that test's package relative to its
	// module's root, "./sub" or "." (the root itself), from which
	// TestLine's go test runs; "" with no test.
	Package string `json:"package,omitempty"`
}

// replayOf is the replay of tree text t searched with o, in its own order.
func replayOf(t string, o Options, test string) Replay {
	r := Replay{Rule: o.RuleSpec, Tree: t, Seed: o.Seed, Seeds: o.Seeds, Budget: int64(o.MaxBudget),
		KeepOrder: o.KeepOrder, Growth: o.Growth.String(), Backup: o.Backup.String(), Test: test}
	if test != "" {
		r.Package = testPackage()
	}
	if o.MinBudget != 64 {
		r.MinBudget = int64(o.MinBudget)
	}
	if o.Window != 4 {
		r.Window = o.Window
	}
	if o.Workers >= 2 {
		r.Workers, r.VirtualLoss, r.VirtualValue = o.Workers, o.VirtualLoss.N, o.VirtualLoss.Value
	}
	return r
}

// ReplayTree is the replay of the tree text t as a check with o searched
// it, every seed in its child order up to the last budget: a tree that
// did not converge (Report.Unconverged), checked alone.
func (o Options) ReplayTree(t string) Replay { return o.replayTree(t, "") }

// replayTree is ReplayTree in the go test test (Check's).
func (o Options) replayTree(t, test string) Replay {
	if d, err := o.withDefaults(); err == nil {
		o = d
	}
	return replayOf(t, o, test)
}

// TestLine is the shell line that replays a witness Check found, run
// from the root of the test's module: its go test with TreeEnv and
// SeedEnv set, as in
//
//	MCTSCHECK_TREE='(max (max 0 1) 0.5)' MCTSCHECK_SEED=1 go test ./sub -run '^TestMyRule$'
//
// or "" if it has no test. A replay of every seed in its order (an
// unconverged tree: Options.ReplayTree) sets TreeEnv alone, so that the
// test's own options search the tree.
func (r Replay) TestLine() string {
	if r.Test == "" || r.Tree == "" {
		return ""
	}
	pkg := r.Package
	if pkg == "" {
		pkg = "."
	}
	seed := fmt.Sprintf(" %s=%d", SeedEnv, r.Seed)
	if r.Seeds != 1 || !r.KeepOrder {
		seed = ""
	}
	return fmt.Sprintf("%s=%s%s go test %s -run '^%s$'", TreeEnv, ShellQuote(r.Tree), seed, ShellWord(pkg), regexp.QuoteMeta(r.Test))
}

// GoCall is the Go call that replays the witness of a whole search
// (Search) found by RunSearch or RunSearchTree outside a test, with s the
// Searcher that was checked and ctx a context: RunSearchTree on the
// witness tree with the failed seed alone, in the tree's order, as in
//
//	props.RunSearchTree(ctx, s, tree.MustParse("(max 0 1)"), props.Options{Seed: 3, Seeds: 1, KeepOrder: true, MaxBudget: 16384})
//
// It is "" for a rule's witness or a game position.
func (r Replay) GoCall() string {
	if !r.Search || r.Tree == "" {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "props.RunSearchTree(ctx, s, tree.MustParse(%s), props.Options{", strconv.Quote(r.Tree))
	if r.Rule != "" {
		fmt.Fprintf(&b, "RuleSpec: %s, ", strconv.Quote(r.Rule))
	}
	fmt.Fprintf(&b, "Seed: %d, Seeds: 1, KeepOrder: true", r.Seed)
	if r.MinBudget != 0 {
		fmt.Fprintf(&b, ", MinBudget: %d", r.MinBudget)
	}
	fmt.Fprintf(&b, ", MaxBudget: %d", r.Budget)
	if r.Window != 0 {
		fmt.Fprintf(&b, ", Window: %d", r.Window)
	}
	b.WriteString("})")
	return b.String()
}

// CheckLine is the command line that replays the witness with the check
// command of mctscheck, or of a command of one's own built with package
// cli, run as command (e.g. "mctscheck", "./mycheck"): the flags that
// search the same tree or position with the same seed and options. It is
// "" when the witness has no rule spec (Options.RuleSpec).
func (r Replay) CheckLine(command string) string {
	if r.Rule == "" {
		return ""
	}
	q := ShellQuote
	var b strings.Builder
	flag := "-rule"
	if r.Search {
		flag = "-search"
	}
	fmt.Fprintf(&b, "%s check %s %s", command, flag, q(r.Rule))
	if r.Game != "" {
		fmt.Fprintf(&b, " -game %s -moves %s -seed %d -seeds %d -budget %d", q(r.Game), q(r.Moves), r.Seed, r.Seeds, r.Budget)
		if r.KeepOrder {
			b.WriteString(" -keep-order")
		} else {
			fmt.Fprintf(&b, " -order %d", r.Order)
		}
		fmt.Fprintf(&b, " -growth %s -backup %s", r.Growth, r.Backup)
		return b.String()
	}
	b.Grow(b.Len() + len(r.Tree) + 256) // a tree's text is copied once
	b.WriteString(" -tree ")
	writeShellQuoted(&b, r.Tree)
	fmt.Fprintf(&b, " -seed %d -seeds %d -budget %d", r.Seed, r.Seeds, r.Budget)
	if r.KeepOrder {
		b.WriteString(" -keep-order")
	}
	if r.Growth != "paper" {
		fmt.Fprintf(&b, " -growth %s", r.Growth)
	}
	if r.Backup != "average" {
		fmt.Fprintf(&b, " -backup %s", r.Backup)
	}
	if r.Workers >= 2 {
		fmt.Fprintf(&b, " -tree-workers %d -virtual-loss %g -virtual-value %g", r.Workers, r.VirtualLoss, r.VirtualValue)
	}
	return b.String()
}

// testPackage is the directory of the running test's package relative
// to its module's root ("./sub", or "." at the root): go test runs a
// test binary in its package's directory, and the module's root is the
// nearest directory above it with a go.mod. It is "." when there is no
// such directory.
func testPackage() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for root := wd; ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			rel, err := filepath.Rel(root, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		up := filepath.Dir(root)
		if up == root {
			return "."
		}
		root = up
	}
}

// ShellWord is s as one word of a POSIX shell: s itself when it is not
// empty and holds only letters, digits and the characters _ - . / : , + @
// % (as a path such as ./mycheck does), else ShellQuote(s).
func ShellWord(s string) string {
	if s == "" {
		return ShellQuote(s)
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_-./:,+@%", c) >= 0) {
			return ShellQuote(s)
		}
	}
	return s
}

// ShellQuote quotes s for a POSIX shell, as replay lines need.
func ShellQuote(s string) string {
	var b strings.Builder
	writeShellQuoted(&b, s)
	return b.String()
}

// writeShellQuoted writes s to b quoted for a POSIX shell; a tree's text,
// megabytes without a quote, is copied once.
func writeShellQuoted(b *strings.Builder, s string) {
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(`'\''`)
		s = s[i+1:]
	}
	b.WriteString(s)
	b.WriteByte('\'')
}
