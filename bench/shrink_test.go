package bench_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// shrinkCase is one check of BenchmarkShrink: a witness of 5 nodes, the
// paper's trap of greedy first-play urgency (max (max 0 1) 0.5), hidden
// in a tree of nodes nodes, (max (max 0 1 BUSHY) 0.5), where BUSHY is a
// bushy subtree (bushyTree) that the witness's search never enters. The
// rule greedy-fpu checks it (exit code 0: its inconsistency is
// predicted), or the search of examples/mcts.c with its negamax-sign bug
// (exit code 1, a finding), at the defaults of a -tree: 16 seeds, budgets
// 64 to 16,384.
type shrinkCase struct {
	nodes  int
	search bool
}

func (c shrinkCase) name() string {
	target := "rule/rule=greedy-fpu"
	if c.search {
		target = "search/search=mcts.c-negamax-sign"
	}
	return fmt.Sprintf("target=%s/nodes=%d", target, c.nodes)
}

// args are the tool's arguments for the check of file; mcts is the path
// of examples/mcts.c built.
func (c shrinkCase) args(file, mcts string) (args []string, exit int) {
	if c.search {
		return []string{"check", "-search", "exec:" + mcts + " --bug negamax-sign", "-tree", "@" + file, "-json"}, 1
	}
	return []string{"check", "-rule", "greedy-fpu", "-tree", "@" + file, "-json"}, 0
}

// write writes the case's tree to a file in dir and returns its name.
func (c shrinkCase) write(dir string) (string, error) {
	name := filepath.Join(dir, fmt.Sprintf("bushy-%d.tree", c.nodes))
	f, err := os.Create(name)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriter(f)
	w.WriteString("(max (max 0 1 ")
	bushyTree(w, c.nodes-5, true, 0)
	w.WriteString(") 0.5)")
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	return name, f.Close()
}

// bushyTree writes a tree of exactly n nodes: a min node (max if !min)
// over up to 10 subtrees of the other kind that share its other n−1 nodes
// evenly, down to leaves 0 and 1 in turn (k-th child: k's parity).
func bushyTree(w *bufio.Writer, n int, min bool, k int) {
	if n == 1 {
		w.WriteString(strconv.Itoa(k % 2))
		return
	}
	kids := 10
	if n-1 < kids {
		kids = n - 1
	}
	if min {
		w.WriteString("(min")
	} else {
		w.WriteString("(max")
	}
	rest := n - 1
	for j := range kids {
		share := rest / (kids - j)
		rest -= share
		w.WriteByte(' ')
		bushyTree(w, share, !min, j)
	}
	w.WriteByte(')')
}

// shrinkCases are BenchmarkShrink's checks: the rule and the search at 10^3,
// 10^4 and 10^5 nodes.
var shrinkCases = func() []shrinkCase {
	var out []shrinkCase
	for _, search := range []bool{false, true} {
		for _, n := range []int{1_000, 10_000, 100_000} {
			out = append(out, shrinkCase{nodes: n, search: search})
		}
	}
	return out
}()

// buildMCTS compiles examples/mcts.c with cc into dir, once, or skips b
// when cc is absent.
func buildMCTS(b testing.TB, dir string) string {
	b.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		b.Skip("cc is absent: the search of examples/mcts.c is not measured (CI has it)")
	}
	mcts.Do(func() {
		mcts.bin = filepath.Join(dir, "mcts")
		if out, err := exec.Command(cc, "-O2", "-o", mcts.bin, "../examples/mcts.c", "-lm").CombinedOutput(); err != nil {
			mcts.err = fmt.Errorf("cc examples/mcts.c: %v\n%s", err, out)
		}
	})
	if mcts.err != nil {
		b.Fatal(mcts.err)
	}
	return mcts.bin
}

// mcts is examples/mcts.c built, once.
var mcts struct {
	sync.Once
	bin string
	err error
}

// runShrink runs the check of c in a child process (checkTreeChild) on
// the tree written into dir.
func runShrink(tb testing.TB, exe, dir string, c shrinkCase) childCheck {
	tb.Helper()
	file, err := c.write(dir)
	if err != nil {
		tb.Fatal(err)
	}
	bin := ""
	if c.search {
		bin = buildMCTS(tb, os.TempDir())
	}
	args, exit := c.args(file, bin)
	r, err := runCheck(exe, args, "", exit)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// BenchmarkShrink measures what finding and shrinking a small witness
// inside a large tree costs (shrinkCase): one op is the tool's check of
// the tree in a child process (checkTreeChild), from reading the file to
// the report. peak-MiB is the child's peak resident memory (ru_maxrss),
// B/node that peak per node of the tree, cpu-s its CPU time (user and
// system, with the search program's), witness-nodes the size of the
// witness it reports, shrinks the candidate trees its shrinker judged.
func BenchmarkShrink(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for _, c := range shrinkCases {
		b.Run(c.name(), func(b *testing.B) {
			var peak, cpu float64
			var last childCheck
			for b.Loop() {
				last = runShrink(b, exe, dir, c)
				peak, cpu = max(peak, last.peak), cpu+last.cpu
			}
			b.ReportMetric(peak/(1<<20), "peak-MiB")
			b.ReportMetric(peak/float64(c.nodes), "B/node")
			b.ReportMetric(cpu/float64(b.N), "cpu-s")
			b.ReportMetric(float64(last.nodes), "witness-nodes")
			b.ReportMetric(float64(last.shrinks), "shrinks")
		})
	}
}

// shrinkPeakLimit bounds the peak resident memory of the check of a
// 10^4-node tree in TestShrinkMemory: a shrinker that held its candidate
// trees all at once took gigabytes there.
const shrinkPeakLimit = 300 << 20

// TestShrinkMemory: a 5-node witness inside a tree of 10^4 nodes is found
// and shrunk to at most 7 nodes, by the rule and by the search, within
// shrinkPeakLimit of peak memory. It is in the full suite (a few seconds).
func TestShrinkMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a check of a 10^4-node tree in a child process: the full suite runs it")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, search := range []bool{false, true} {
		c := shrinkCase{nodes: 10_000, search: search}
		t.Run(c.name(), func(t *testing.T) {
			r := runShrink(t, exe, dir, c)
			if r.nodes == 0 || r.nodes > 7 || r.peak > shrinkPeakLimit {
				t.Errorf("witness of %d nodes, peak %.0f MiB; want 1 to 7 nodes, at most %d MiB", r.nodes, r.peak/(1<<20), shrinkPeakLimit>>20)
			}
			t.Logf("witness of %d nodes after %d candidates; peak %.0f MiB, %.2f CPU s", r.nodes, r.shrinks, r.peak/(1<<20), r.cpu)
		})
	}
}
