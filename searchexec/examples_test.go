package searchexec_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/searchexec"
	"github.com/mctscheck/mctscheck/tree"
)

// The reference programs of examples/, relative to this package.
const (
	pythonMCTS = "../examples/mcts.py"
	cMCTS      = "../examples/mcts.c"
)

// bugs are the reference programs' bugs: the inconsistent ones with the
// condition of their witness, then the slow ones. The last six show only
// on special shapes, which the whole-search families of the default trees
// (gen.SearchTraps) have: from names the family whose tree the default
// check first finds each on.
var bugs = []bug{
	{"fpu-never", props.Eq5, ""},
	{"negamax-sign", props.Eq4, ""},
	{"terminal-rollout", props.Eq7, ""},
	{"virtual-loss-kept", "", ""},
	{"final-by-mean", "", ""},
	{"open-loop", props.Eq4, "trap open-loop:"},
	{"path-free-hash", props.Eq4, "trap cousins:"},
	{"alternating-turns", props.Eq4, "trap double-move:"},
	{"depth-discount", props.Eq7, ""}, // met first on a bias trap, whose deep terminal the discount moves too
	{"win-loss", props.Eq7, ""},
	{"widening-cap", props.Eq5, "trap many-moves:"},
}

// bug is a bug of the reference programs; the zero bug is the correct
// search.
type bug struct {
	name string
	cond props.Condition // "" for a bug that is only slow
	from string          // the start of the name of the tree its witness is shrunk from, if given
}

// needTool returns the path of the program name, or skips the test.
func needTool(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is absent: the reference program that needs it is not tested (CI has it)", name)
	}
	return path
}

// buildMCTS compiles examples/mcts.c with cc, once for all the tests,
// or skips the test.
func buildMCTS(t testing.TB) string {
	t.Helper()
	cc := needTool(t, "cc")
	built.Do(func() {
		bin := filepath.Join(testDir, "mcts")
		out, err := exec.Command(cc, "-O2", "-o", bin, cMCTS, "-lm").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("cc %s: %v\n%s", cMCTS, err, out)
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// built is examples/mcts.c compiled, once.
var built struct {
	sync.Once
	bin string
	err error
}

// program starts the search of argv with the bug, if any.
func program(t *testing.T, bug string, argv ...string) *searchexec.Program {
	t.Helper()
	if bug != "" {
		argv = append(argv, "--bug", bug)
	}
	p, err := searchexec.Options{}.New(argv[0], argv[1:]...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// agreeTrees have max, min and chance nodes, a player moving twice in a
// row, and priors and move identities for the parsers.
var agreeTrees = []string{
	"(max (min 1 0) (chance 0.5:(min 1 0.5) 0.5:0.25)~0.5 0.125@3)",
	"(max (max 0 1) 0.5)",
	"(min (max 1 (min 0 0.75)) (chance 0.25:1 0.75:(max 0 0.5)) 0.375)",
	"(max (chance 0.5:(max 1@4 0.5@2 0.25@0) 0.5:(max 0@2 0.75@4)) (min 0.625@2 (max 1 0)@4 0.375@0 0.25@1 0.875@3 0.5@5) 0.5625)",
}

// checkAgree checks that each searcher reports what the first does, on
// agreeTrees with two seeds from seed, up to 1,024 simulations (-short:
// 256).
func checkAgree(t *testing.T, seed uint64, searchers ...props.Searcher) {
	t.Helper()
	checkpoints := []int64{64, 128, 256, 512, 1024}
	if testing.Short() {
		checkpoints = checkpoints[:3]
	}
	var first [][]props.Checkpoint
	for i, s := range searchers {
		var got [][]props.Checkpoint
		for _, text := range agreeTrees {
			for sd := seed; sd < seed+2; sd++ {
				var cps []props.Checkpoint
				err := s.Search(context.Background(), props.NewSearchTree(tree.MustParse(text)), sd, checkpoints, func(cp props.Checkpoint) error {
					cps = append(cps, cp)
					return nil
				})
				if err != nil {
					t.Fatalf("searcher %d on %s with seed %d: %v", i, text, sd, err)
				}
				got = append(got, cps)
			}
		}
		if i == 0 {
			first = got
		} else if diff := cmp.Diff(first, got, cmpopts.EquateNaNs()); diff != "" {
			t.Errorf("searcher %d reports otherwise than searcher 0 (-0 +%d):\n%s", i, i, diff)
		}
	}
}

// TestExamplesAgree: examples/mcts.py and examples/mcts.c report the same
// statistics for the same trees and seeds, with each bug and without, so
// that what is checked of one holds of the other.
func TestExamplesAgree(t *testing.T) {
	py := needTool(t, "python3")
	bin := buildMCTS(t)
	names := []string{"", "mover-means", "chance-as-max"} // the correct search and the faults that replay
	for _, b := range bugs {
		names = append(names, b.name)
	}
	for _, bug := range names {
		t.Run("bug="+bug, func(t *testing.T) {
			if testing.Short() && (bug == "virtual-loss-kept" || bug == "final-by-mean") {
				t.Skip("the slow bugs: without -short")
			}
			checkAgree(t, 1, program(t, bug, py, pythonMCTS), program(t, bug, bin))
		})
	}
}

// TestExamplesBugs: each inconsistent bug of the reference programs is
// stuck on the default trees, with a witness of at most 9 nodes that
// replays, the bugs of special shapes on their families' trees; the
// correct program and the slow bugs never are (on the default run without
// -short: the C program, which reports what the Python one does).
func TestExamplesBugs(t *testing.T) {
	bin := buildMCTS(t)
	for _, b := range append([]bug{{}}, bugs...) {
		t.Run("bug="+b.name, func(t *testing.T) {
			o := props.Options{Jobs: 2, RuleSpec: "mcts --bug " + b.name}
			if testing.Short() {
				if b.cond == "" {
					t.Skip("the default run: without -short")
				}
				o.Trees, o.MaxBudget = 3, 4096
			}
			p := program(t, b.name, bin)
			rep, err := props.RunSearch(context.Background(), p, o)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s\n%v", rep.Summary, rep.Witness)
			if b.cond == "" {
				if rep.Verdict != props.NoCounterexample && rep.Verdict != props.Inconclusive {
					t.Fatalf("mcts.c with %q: %s", b.name, rep.Summary)
				}
				return
			}
			w := rep.Witness
			if rep.Verdict != props.Stuck {
				t.Fatalf("mcts.c --bug %s: %s, want stuck (%s)", b.name, rep.Summary, b.cond)
			}
			if w.Condition != b.cond || w.Nodes > 9 || !strings.HasPrefix(w.From, b.from) {
				t.Fatalf("mcts.c --bug %s: %s, shrunk from %s; want %s with at most 9 nodes, shrunk from %s…", b.name, rep.Summary, w.From, b.cond, b.from)
			}
			if doc := documentedWitnesses(t, b.name); !testing.Short() && !slices.Contains(doc, w.Tree.String()) {
				t.Errorf("examples/mcts.py documents the witness of --bug %s as %q; the default check finds %v", b.name, doc, w.Tree)
			}
			again, err := props.RunSearchTree(context.Background(), p, tree.MustParse(w.Run.Tree),
				props.Options{Seed: w.Run.Seed, Seeds: w.Run.Seeds, KeepOrder: w.Run.KeepOrder, MaxBudget: int(w.Run.Budget)})
			if err != nil {
				t.Fatal(err)
			}
			if again.Verdict != props.Stuck || !again.Witness.Tree.Equal(w.Tree) {
				t.Errorf("the replay of %v: %s", w.Tree, again.Summary)
			}
		})
	}
}

// documentedWitnesses returns the witnesses examples/mcts.py's doc gives
// for the bug: the trees after "Witness:" (or "Witnesses:") in its entry.
func documentedWitnesses(t *testing.T, bug string) []string {
	t.Helper()
	src, err := os.ReadFile(pythonMCTS)
	if err != nil {
		t.Fatal(err)
	}
	entry := regexp.MustCompile(`\n  ` + regexp.QuoteMeta(bug) + ` (?:.|\n {19})*`).Find(src)
	_, after, ok := strings.Cut(string(entry), "Witness")
	if !ok {
		t.Fatalf("examples/mcts.py documents no witness for --bug %s", bug)
	}
	var trees []string
	depth, start := 0, 0
	for i, c := range after {
		switch c {
		case '(':
			if depth == 0 {
				start = i
			}
			depth++
		case ')':
			if depth--; depth == 0 {
				trees = append(trees, strings.Join(strings.Fields(after[start:i+1]), " "))
			}
		}
	}
	return trees
}

// TestExamplesPromises: the reference programs' bugs that break a promise
// of the protocol are each a fault of its kind, reproduced when the tree
// is searched again; a program seeded from the clock is the fault
// nondeterministic every time (twenty checks of the replay form, one tree
// and one seed), never a witness presented as one that replays.
func TestExamplesPromises(t *testing.T) {
	bin := buildMCTS(t)
	for _, c := range []struct {
		bug, tree string
		kind      props.FaultKind
	}{
		{"mover-means", "(max (min 1 0) 0.25)", props.FaultPerspective},
		{"chance-as-max", "(max (chance 0.5:1 0.5:0) 0.25)", props.FaultChance},
	} {
		rep, err := props.RunSearchTree(context.Background(), program(t, c.bug, bin), tree.MustParse(c.tree), props.Options{Seeds: 1, MaxBudget: 1024})
		if err != nil {
			t.Fatal(err)
		}
		if w := rep.Witness; rep.Verdict != props.Faulted || w.Fault.Kind != c.kind || !w.Fault.Reproduced {
			t.Errorf("mcts.c --bug %s on %s: %s\n%v", c.bug, c.tree, rep.Summary, w)
		}
	}
	p := program(t, "seed-ignored", bin)
	for i := range 20 {
		rep, err := props.RunSearchTree(context.Background(), p, tree.MustParse("(max (min 1 0.5) (chance 0.5:0 0.5:(max 1 0)))"), props.Options{Seeds: 1, MaxBudget: 1024})
		if err != nil {
			t.Fatal(err)
		}
		if w := rep.Witness; rep.Verdict != props.Faulted || w.Fault.Kind != props.FaultNondeterministic || w.Fault.Checkpoint == 0 {
			t.Fatalf("check %d of mcts.c --bug seed-ignored: %s\n%v", i, rep.Summary, w)
		}
	}
}

// TestJSClient: a client written in JavaScript from docs/protocol.md
// (testdata/mcts.js) makes examples/mcts.py's searches exactly, with seeds
// beyond 2^53, which a JSON number would have rounded.
func TestJSClient(t *testing.T) {
	node := needTool(t, "node")
	py := needTool(t, "python3")
	checkAgree(t, 1<<63+12345, program(t, "", py, pythonMCTS), program(t, "", node, "testdata/mcts.js"))
}
