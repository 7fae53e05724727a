package searchexec_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
// condition of their witness, then the slow ones.
var bugs = []struct {
	name string
	cond props.Condition // "" for a bug that is only slow
}{
	{"fpu-never", props.Eq5},
	{"negamax-sign", props.Eq4},
	{"terminal-rollout", props.Eq7},
	{"virtual-loss-kept", ""},
	{"final-by-mean", ""},
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
	for _, bug := range []string{"", "fpu-never", "negamax-sign", "terminal-rollout", "virtual-loss-kept", "final-by-mean"} {
		t.Run("bug="+bug, func(t *testing.T) {
			if testing.Short() && (bug == "virtual-loss-kept" || bug == "final-by-mean") {
				t.Skip("the slow bugs: without -short")
			}
			checkAgree(t, 1, program(t, bug, py, pythonMCTS), program(t, bug, bin))
		})
	}
}

// TestExamplesBugs: each inconsistent bug of the reference programs is
// stuck, with a witness of at most 7 nodes that replays; the correct
// program and the slow bugs never are (on the default run without -short:
// the C program, which reports what the Python one does).
func TestExamplesBugs(t *testing.T) {
	bin := buildMCTS(t)
	for _, b := range append(bugs, struct {
		name string
		cond props.Condition
	}{"", ""}) {
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
			if rep.Verdict != props.Stuck || w.Condition != b.cond || w.Nodes > 7 {
				t.Fatalf("mcts.c --bug %s: %s, want stuck (%s) with at most 7 nodes", b.name, rep.Summary, b.cond)
			}
			if doc := documentedWitness(t, b.name); !testing.Short() && doc != w.Tree.String() {
				t.Errorf("examples/mcts.py documents the witness of --bug %s as %s; the default check finds %v", b.name, doc, w.Tree)
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

// documentedWitness returns the witness examples/mcts.py's doc gives for
// the bug: "Witness: TREE." in its entry.
func documentedWitness(t *testing.T, bug string) string {
	t.Helper()
	src, err := os.ReadFile(pythonMCTS)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)\n  ` + regexp.QuoteMeta(bug) + ` .*?Witness:\s+(\(.*?\))\.`).FindSubmatch(src)
	if m == nil {
		t.Fatalf("examples/mcts.py documents no witness for --bug %s", bug)
	}
	return strings.Join(strings.Fields(string(m[1])), " ")
}

// TestJSClient: a client written in JavaScript from docs/protocol.md
// (testdata/mcts.js) makes examples/mcts.py's searches exactly, with seeds
// beyond 2^53, which a JSON number would have rounded.
func TestJSClient(t *testing.T) {
	node := needTool(t, "node")
	py := needTool(t, "python3")
	checkAgree(t, 1<<63+12345, program(t, "", py, pythonMCTS), program(t, "", node, "testdata/mcts.js"))
}
