package bench_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/cli"
)

// checkTreeEnv makes the test binary a child that runs `mctscheck check`
// on a tree file and reports its peak memory and CPU time (TestMain):
// BenchmarkCheckTree's message to the child it starts, not a knob for
// users.
const checkTreeEnv = "MCTSCHECK_BENCH_CHECKTREE"

// checkTreeProfileEnv, if set, is where the child writes its heap
// profile (BenchmarkCheckTree's -childprofile).
const checkTreeProfileEnv = "MCTSCHECK_BENCH_CHECKTREE_PROFILE"

// childProfile is BenchmarkCheckTree's -childprofile.
var childProfile = flag.String("childprofile", "", "BenchmarkCheckTree's children write their heap profiles to `PREFIX`-SHAPE-NODES.pprof, for go tool pprof -sample_index=alloc_space")

// checkTreeGOGC is the tool's GOGC (cmd/mctscheck sets it unless the
// environment does), so that the child collects garbage as the tool does.
const checkTreeGOGC = 400

// checkTreeChild runs the tool's check command with the arguments in arg
// (one a line) in this process, as cmd/mctscheck does, and prints its exit
// code, peak resident memory, CPU time (user + system, its own and that of
// the search programs it started and reaped) and, if it wrote a -json
// report with a witness, the witness's nodes and the shrinker's
// evaluations (0 and 0 otherwise). It runs under an address-space limit
// (limitMemory), so that a check whose memory runs away fails alone
// instead of taking a shared machine's memory.
func checkTreeChild(arg string) int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(checkTreeGOGC)
	}
	if err := limitMemory(childMemoryLimit); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if os.Getenv(checkTreeProfileEnv) != "" {
		runtime.MemProfileRate = 64 << 10
	}
	var out bytes.Buffer
	code := cli.MctscheckTool().Run(strings.Split(arg, "\n"), strings.NewReader(""), &out, io.Discard)
	if name := os.Getenv(checkTreeProfileEnv); name != "" {
		runtime.GC() // the profile counts what the last collection saw
		if err := writeHeapProfile(name); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	rss, err := peakRSS()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var doc struct {
		Witness struct{ Nodes, Shrinks int }
	}
	if bytes.HasPrefix(out.Bytes(), []byte("{")) {
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	fmt.Printf("exit %d maxrss-kib %d cpu-ns %d witness %d shrinks %d\n", code, rss,
		(processCPU() + childrenCPU()).Nanoseconds(), doc.Witness.Nodes, doc.Witness.Shrinks)
	return 0
}

// childMemoryLimit is the address space a child of BenchmarkCheckTree or
// BenchmarkShrink may take: several times what any of their checks needs,
// well below the machine's memory.
const childMemoryLimit = 6 << 30

// writeHeapProfile writes the heap profile to the file name.
func writeHeapProfile(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// checkTreeCase is one tree of BenchmarkCheckTree, with the check's seeds
// and last budget.
type checkTreeCase struct {
	shape         string // chain or wide
	inner         int    // chain: max and min nodes; wide: leaves
	seeds, budget int
}

// nodes is the number of nodes of the case's tree.
func (c checkTreeCase) nodes() int {
	if c.shape == "chain" {
		return 2*c.inner + 1
	}
	return c.inner + 1
}

func (c checkTreeCase) name() string {
	return fmt.Sprintf("tree=%s/nodes=%d/rule=uct/seeds=%d/budget=%d", c.shape, c.nodes(), c.seeds, c.budget)
}

// write writes the case's tree in the text format to a file in dir and
// returns its name. A chain alternates max and min nodes, each with a
// leaf (0 under max, 1 under min) and the next node as its children, down
// to a leaf 1, so that the root's value 1 lies at the bottom; a wide tree
// is a max root over leaves 0 and a last leaf 1.
func (c checkTreeCase) write(dir string) (string, error) {
	name := filepath.Join(dir, fmt.Sprintf("%s-%d.tree", c.shape, c.nodes()))
	f, err := os.Create(name)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriter(f)
	if c.shape == "chain" {
		for d := range c.inner {
			if d%2 == 0 {
				w.WriteString("(max 0 ")
			} else {
				w.WriteString("(min 1 ")
			}
		}
		w.WriteString("1")
		w.WriteString(strings.Repeat(")", c.inner))
	} else {
		w.WriteString("(max")
		w.WriteString(strings.Repeat(" 0", c.inner-1))
		w.WriteString(" 1)")
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	return name, f.Close()
}

// checkTreeCases are BenchmarkCheckTree's trees: of about 10^6 nodes, a
// chain at the tool's defaults for a -tree (16 seeds, budgets 64 to
// 16,384), and a wide root with fewer seeds and a smaller budget, since
// every simulation there reads every one of the 10^6 children (-large adds
// it at the defaults, several CPU minutes an op); and a root over 10^5
// leaves at the defaults, where what a check holds beyond the tree counts
// most per node.
var checkTreeCases = []checkTreeCase{
	{shape: "chain", inner: 1<<19 - 1, seeds: 16, budget: 16384},
	{shape: "wide", inner: 1_000_000, seeds: 4, budget: 1024},
	{shape: "wide", inner: 100_000, seeds: 16, budget: 16384},
}

var checkTreeLarge = checkTreeCase{shape: "wide", inner: 1_000_000, seeds: 16, budget: 16384}

// childCheck is what a child of checkTreeChild measured: its peak
// resident memory in bytes, its CPU time in seconds, and its witness's
// nodes and shrinker evaluations (0 without a witness).
type childCheck struct {
	peak, cpu      float64
	nodes, shrinks int
}

// runCheck runs `mctscheck` with args in a child process (checkTreeChild),
// with its heap profile written to profile if that is not empty, and
// returns what it measured. Exit codes other than want are errors.
func runCheck(exe string, args []string, profile string, want int) (childCheck, error) {
	env := []string{checkTreeEnv + "=" + strings.Join(args, "\n")}
	if profile != "" {
		env = append(env, checkTreeProfileEnv+"="+profile)
	}
	var code int
	var kib, ns int64
	var c childCheck
	if err := runChild(exe, env, "exit %d maxrss-kib %d cpu-ns %d witness %d shrinks %d", &code, &kib, &ns, &c.nodes, &c.shrinks); err != nil {
		return c, err
	}
	if code != want {
		return c, fmt.Errorf("mctscheck %s: exit code %d, want %d", strings.Join(args, " "), code, want)
	}
	c.peak, c.cpu = float64(kib)*1024, float64(ns)/1e9
	return c, nil
}

// runCheckTree runs the check of c's tree file in a child process and
// returns its peak resident memory in bytes and its CPU time in seconds.
func runCheckTree(exe, file string, c checkTreeCase) (peak, cpu float64, err error) {
	args := []string{"check", "-rule", "uct", "-tree", "@" + file, "-seeds", strconv.Itoa(c.seeds), "-budget", strconv.Itoa(c.budget)}
	profile := ""
	if *childProfile != "" {
		profile = fmt.Sprintf("%s-%s-%d.pprof", *childProfile, c.shape, c.nodes())
	}
	r, err := runCheck(exe, args, profile, 0)
	return r.peak, r.cpu, err
}

// BenchmarkCheckTree measures the memory of `mctscheck check -rule uct
// -tree @FILE` on trees of about 10^6 nodes. Each op runs the tool's check
// command (cli, with the tool's GOGC) in a child process, this test binary
// started again, from reading the file to the report, and reads its peak
// resident set (getrusage's ru_maxrss) and CPU time. B/node is the peak
// divided by the tree's nodes, peak-MiB the peak itself (both include the
// Go runtime's few MiB), cpu-s the child's CPU time, user and system, on
// all its threads (the check searches GOMAXPROCS seeds at once). With the
// test flag -large (go test -run '^$' -bench CheckTree ./bench -args
// -large) it also checks the wide tree at the defaults; with
// -childprofile PREFIX each child writes its heap profile.
func BenchmarkCheckTree(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cases := checkTreeCases
	if *large {
		cases = append(cases, checkTreeLarge)
	}
	dir := b.TempDir()
	for _, c := range cases {
		b.Run(c.name(), func(b *testing.B) {
			file, err := c.write(dir)
			if err != nil {
				b.Fatal(err)
			}
			var peak, cpu float64
			for b.Loop() {
				p, s, err := runCheckTree(exe, file, c)
				if err != nil {
					b.Fatal(err)
				}
				peak, cpu = max(peak, p), cpu+s
			}
			b.ReportMetric(peak/float64(c.nodes()), "B/node")
			b.ReportMetric(peak/(1<<20), "peak-MiB")
			b.ReportMetric(cpu/float64(b.N), "cpu-s")
		})
	}
}

// TestCheckTreeChild runs BenchmarkCheckTree's child on small trees of
// both shapes: the harness works, and the tool checks them with exit code
// 0 (UCT is consistent).
func TestCheckTreeChild(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []checkTreeCase{{shape: "chain", inner: 31, seeds: 2, budget: 1024}, {shape: "wide", inner: 100, seeds: 2, budget: 1024}} {
		file, err := c.write(dir)
		if err != nil {
			t.Fatal(err)
		}
		peak, cpu, err := runCheckTree(exe, file, c)
		if err != nil {
			t.Errorf("%s: %v", c.name(), err)
			continue
		}
		if peak <= 0 || cpu <= 0 {
			t.Errorf("%s: peak %v bytes, CPU %v s; want both positive", c.name(), peak, cpu)
		}
	}
}
