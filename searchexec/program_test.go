package searchexec_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/internal/proc"
	"github.com/mctscheck/mctscheck/internal/proc/proctest"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/searchexec"
	"github.com/mctscheck/mctscheck/tree"
)

// helperEnv, when set, makes the test binary a search program (TestMain)
// that behaves as its value says: the well-behaved and faulty programs of
// these tests, in Go, so that they need no other language.
const helperEnv = "MCTSCHECK_SEARCH_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	dir, err := os.MkdirTemp("", "searchexec-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testDir is a directory the tests share, removed at their end.
var testDir string

// request is a search request as the helper reads it.
type request struct {
	Tree        string  `json:"tree"`
	Seed        string  `json:"seed"`
	Checkpoints []int64 `json:"checkpoints"`
}

// helper runs a search program:
//
//	flat       flat Monte Carlo: the root children in turn, each simulation
//	           a uniformly random roll-out, the best mean decided
//	nodes      flat, declaring nodes and reporting every node
//	crash      crashes at the first request, saying so on stderr
//	crash3     crashes at its third request
//	exit       exits with status 0 at the first request
//	hang       hangs at the first request
//	spawn      starts a child process that sleeps, then hangs
//	garbage    answers a line that is not JSON
//	stray      writes a log line on stdout before its answers
//	version    answers the hello with version 99
//	hello      answers the hello with a line that is not JSON
//	range      decides child k of a root with k children
//	counts     reports one visit too many
//	nan        reports a null mean for a visited child
//	extra      answers once more after the last checkpoint, with the last answer
//	extra-late answers once more, 50 ms after the last checkpoint
//	holdout    starts a child that holds its output, then exits with status 0
//	           at the first request
//	setsid     starts a child in a session of its own, whose pid its name
//	           gives, and searches as flat does
//	binary     flat, declaring no chance nodes and rewards in {0, 1}, and
//	           exiting with status 2 on a tree that has either
//	rewards    declares rewards that are neither "binary" nor "any"
//	fickle     declares no chance nodes in its first process only (the
//	           first to create the file $MCTSCHECK_FICKLE_FILE)
func helper(mode string) int {
	in := bufio.NewReader(os.Stdin)
	if _, err := in.ReadString('\n'); err != nil {
		return 1
	}
	if mode == "setsid" {
		var err error
		if mode, err = proctest.Detached(mode); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 1
		}
	}
	switch mode {
	case "version":
		fmt.Println(`{"version":99}`)
	case "hello":
		fmt.Println("hello, mctscheck")
	case "binary":
		fmt.Printf(`{"version":%d,"chance":false,"rewards":"binary"}`+"\n", searchexec.ProtocolVersion)
	case "rewards":
		fmt.Printf(`{"version":%d,"rewards":"ternary"}`+"\n", searchexec.ProtocolVersion)
	case "fickle":
		if f, err := os.OpenFile(os.Getenv("MCTSCHECK_FICKLE_FILE"), os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			f.Close()
			fmt.Printf(`{"version":%d,"chance":false}`+"\n", searchexec.ProtocolVersion)
			break
		}
		fmt.Printf(`{"version":%d}`+"\n", searchexec.ProtocolVersion)
	default:
		fmt.Printf(`{"version":%d,"nodes":%v,"name":"helper %s"}`+"\n", searchexec.ProtocolVersion, mode == "nodes", mode)
	}
	for searches := 1; ; searches++ {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			fmt.Fprintln(os.Stderr, "helper: bad request:", err)
			return 2
		}
		switch {
		case mode == "crash" || mode == "crash3" && searches == 3:
			fmt.Fprintf(os.Stderr, "helper: crashing at search %d as asked\n", searches)
			crashSelf()
		case mode == "exit":
			return 0
		case mode == "hang":
			time.Sleep(time.Hour)
		case mode == "holdout":
			if err := proctest.HoldOutput(); err != nil {
				fmt.Fprintln(os.Stderr, "helper:", err)
				return 1
			}
			return 0
		case mode == "spawn":
			_ = exec.Command("sleep", "3600").Start()
			time.Sleep(time.Hour)
		case mode == "garbage":
			fmt.Println("hello, mctscheck")
			continue
		case mode == "stray":
			fmt.Println("searching", req.Tree)
		case mode == "binary":
			if tr := tree.MustParse(req.Tree); !tr.BinaryDeterministic() {
				fmt.Fprintln(os.Stderr, "helper: a tree with a chance node or a reward other than 0 and 1, which the handshake declared it does not handle:", req.Tree)
				return 2
			}
		}
		flat(req, mode)
		if mode == "extra-late" {
			time.Sleep(50 * time.Millisecond)
			fmt.Printf(`{"sims":%d,"decision":0,"visits":[],"means":[]}`+"\n", req.Checkpoints[len(req.Checkpoints)-1])
		}
	}
}

// flat searches req's tree by flat Monte Carlo and answers each checkpoint.
func flat(req request, mode string) {
	tr := tree.MustParse(req.Tree)
	rng, _ := strconv.ParseUint(req.Seed, 10, 64)
	k := tr.NumChildren(0)
	n, w := make([]int64, k), make([]float64, k)
	sims := int64(0)
	for _, c := range req.Checkpoints {
		for ; sims < c; sims++ {
			i := int(sims) % k
			at := tr.Child(0, i)
			for tr.NumChildren(at) > 0 {
				rng = rng*6364136223846793005 + 1442695040888963407
				at = tr.Child(at, int((rng>>33)%uint64(tr.NumChildren(at))))
			}
			n[i]++
			w[i] += tr.Reward(at)
		}
		best := 0
		for i := range k {
			if w[i]*float64(n[best]) > w[best]*float64(n[i]) {
				best = i
			}
		}
		a := map[string]any{"sims": c, "decision": best, "visits": n, "means": means(n, w)}
		switch mode {
		case "range":
			a["decision"] = k
		case "counts":
			a["visits"] = append([]int64{n[0] + 1}, n[1:]...)
		case "nan":
			m := means(n, w)
			m[0] = nil
			a["means"] = m
		case "nodes":
			nv, nm := make([]int64, tr.Len()), make([]any, tr.Len())
			nv[0], nm[0] = c, 0.5
			for i := range k { // the root's children are the nodes right after it in preorder only when they are leaves
				if tr.NumChildren(tr.Child(0, i)) == 0 {
					nv[1+i], nm[1+i] = n[i], means(n, w)[i]
				}
			}
			a["node_visits"], a["node_means"] = nv, nm
		}
		out, _ := json.Marshal(a)
		if mode == "extra" && c == req.Checkpoints[len(req.Checkpoints)-1] {
			fmt.Printf("%s\n%s\n", out, out) // one write: the extra answer comes with the last
			continue
		}
		fmt.Printf("%s\n", out)
	}
}

// means are w/n, null where n is 0.
func means(n []int64, w []float64) []any {
	out := make([]any, len(n))
	for i := range n {
		if n[i] > 0 {
			out[i] = w[i] / float64(n[i])
		}
	}
	return out
}

// helperProgram starts the test binary as the helper program in mode.
func helperProgram(t *testing.T, mode string, o searchexec.Options) *searchexec.Program {
	t.Helper()
	// A race-enabled helper would sleep a second at exit (GORACE's
	// atexit_sleep_ms), which a short timeout takes for a hang.
	o.Env = append(o.Env, helperEnv+"="+mode, "GORACE=atexit_sleep_ms=0")
	p, err := o.New(os.Args[0], "-test.run=^$")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// checkReaped closes p and fails t if any process it started, or any
// process in their groups, is still there.
func checkReaped(t *testing.T, p *searchexec.Program) {
	t.Helper()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	pids := p.Pids()
	if len(pids) == 0 {
		t.Fatal("no process was started")
	}
	for _, pid := range pids {
		if proc.Alive(pid) {
			t.Errorf("process %d is still there after Close", pid)
		}
	}
}

var bg = context.Background()

// TestProgramSearches: one process serves many searches, and searches at
// once run in as many processes.
func TestProgramSearches(t *testing.T) {
	tr := tree.MustParse("(max 0.25 (min 1 0.75) 0.5)")
	for _, jobs := range []int{1, 2} {
		p := helperProgram(t, "flat", searchexec.Options{})
		rep, err := props.RunSearchTree(bg, p, tr, props.Options{Seeds: 6, MaxBudget: 1024, Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != props.NoCounterexample {
			t.Errorf("flat Monte Carlo on %v: %s", tr, rep.Summary)
		}
		if s, n := p.Searches(), len(p.Pids()); s != 7 || n != jobs { // the 6 seeds, and the first again
			t.Errorf("jobs %d: %d searches in %d processes, want 7 in %d", jobs, s, n, jobs)
		}
		checkReaped(t, p)
	}
}

// TestProgramFaults: every way a program can fail is a fault of its kind,
// with the tree and the seed, and no process is left behind.
func TestProgramFaults(t *testing.T) {
	const text = "(max 0.25 (min 1 0.5) 0.75)"
	for _, c := range []struct {
		mode string
		kind props.FaultKind
		msg  string
	}{
		{"crash", props.FaultCrash, "ended: signal: killed while searching to checkpoint 64"},
		{"crash3", props.FaultCrash, "crashing at search 3"},
		{"exit", props.FaultCrash, "exited with status 0 while searching"},
		{"hang", props.FaultHang, "hangs: no answer after"},
		{"spawn", props.FaultHang, "hangs: no answer after"},
		{"garbage", props.FaultGarbage, `answered garbage at checkpoint 64: "hello, mctscheck"`},
		{"stray", props.FaultGarbage, `answered garbage at checkpoint 64: "searching (max`},
		{"version", props.FaultProtocol, "protocol version 99; mctscheck speaks version 1"},
		{"hello", props.FaultProtocol, `answered the hello with "hello, mctscheck"`},
		{"range", props.FaultRange, "decided child 3 of a root with 3 children: not a legal root move"},
		{"counts", props.FaultRange, "the root children's visits add up to 65 after 64 simulations"},
		{"nan", props.FaultNaN, "node 0.0 has 22 visits and the mean NaN"},
		{"nodes", props.FaultRange, "root child 1 has 0 visits"},
		{"extra", props.FaultGarbage, "wrote more than its answers: \"{\\\"decision\\\""},
		{"holdout", props.FaultCrash, "exited with status 0 while searching to checkpoint 64"},
		{"rewards", props.FaultProtocol, `"rewards": "ternary", want "binary" (rewards in {0, 1} only) or "any"`},
	} {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			o := searchexec.Options{} // the defaults: a loaded machine is no hang
			if c.kind == props.FaultHang {
				o.Timeout, o.PerSim = 300*time.Millisecond, time.Microsecond
			}
			p := helperProgram(t, c.mode, o)
			start := time.Now()
			rep, err := props.RunSearchTree(bg, p, tree.MustParse(text), props.Options{Seeds: 4, KeepOrder: true, MaxBudget: 256, Window: 2})
			if err != nil {
				t.Fatal(err)
			}
			w := rep.Witness
			if rep.Verdict != props.Faulted || w.Fault.Kind != c.kind || !strings.Contains(w.Fault.Message, c.msg) {
				t.Fatalf("%s\n%v", rep.Summary, w)
			}
			if w.Tree.String() != text || !strings.Contains(w.Fault.Inputs, "with seed "+strconv.FormatUint(w.Seeds[0], 10)) {
				t.Errorf("the fault's tree %v and seed %v: %q", w.Tree, w.Seeds, w.Fault.Inputs)
			}
			if strings.HasPrefix(c.mode, "crash") && !strings.Contains(w.Fault.Stderr, "as asked") {
				t.Errorf("the fault does not quote the program's stderr: %q", w.Fault.Stderr)
			}
			took := time.Since(start)
			t.Logf("%v: %s", took.Round(time.Millisecond), rep.Summary)
			if c.kind == props.FaultCrash && took > 5*time.Second {
				t.Errorf("the crash took %v to find: it waited for the timeout (10 s), not for the program", took)
			}
			checkReaped(t, p)
		})
	}
}

// TestProgramExtraAnswer: an answer after the last checkpoint is a fault,
// whether the program serves one search or several, and whether it comes
// with the last answer or later (read when the program stops).
func TestProgramExtraAnswer(t *testing.T) {
	const text = "(max 0.25 (min 1 0.5) 0.75)"
	for _, mode := range []string{"extra", "extra-late"} {
		for _, seeds := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/seeds=%d", mode, seeds), func(t *testing.T) {
				t.Parallel()
				p := helperProgram(t, mode, searchexec.Options{})
				rep, err := props.RunSearchTree(bg, p, tree.MustParse(text), props.Options{Seeds: seeds, KeepOrder: true, MaxBudget: 256, Window: 2, Jobs: 1})
				if err != nil {
					t.Fatal(err)
				}
				if w := rep.Witness; rep.Verdict != props.Faulted || w.Fault.Kind != props.FaultGarbage {
					t.Fatalf("%s\n%v", rep.Summary, w)
				}
				t.Log(rep.Summary)
				checkReaped(t, p)
			})
		}
	}
}

// TestProgramInterrupted: a search whose context ends stops at once, its
// process killed.
func TestProgramInterrupted(t *testing.T) {
	p := helperProgram(t, "hang", searchexec.Options{})
	ctx, cancel := context.WithTimeout(bg, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := props.RunSearchTree(ctx, p, tree.MustParse("(max 0 1)"), props.Options{Seeds: 1, MaxBudget: 1024})
	if err != context.DeadlineExceeded || time.Since(start) > 5*time.Second {
		t.Fatalf("RunSearchTree of a hanging program, cancelled: %v after %v", err, time.Since(start))
	}
	checkReaped(t, p)
}

// TestProgramNotFound: a program that is not there is bad input.
func TestProgramNotFound(t *testing.T) {
	if _, err := searchexec.Command("no-such-program-mctscheck --x", searchexec.Options{}); err == nil || !strings.Contains(err.Error(), "no-such-program-mctscheck") {
		t.Errorf("Command of a missing program: %v", err)
	}
	if _, err := searchexec.Command("'unterminated", searchexec.Options{}); err == nil {
		t.Error("Command of a bad line: no error")
	}
}

// TestProgramCapabilities: a program that declares no chance nodes and
// rewards in {0, 1} gets no other tree, from the families, the random
// trees and the shrinker alike (it exits on any other), and the report
// says what it handles; a -tree outside them is refused.
func TestProgramCapabilities(t *testing.T) {
	p := helperProgram(t, "binary", searchexec.Options{})
	rep, err := props.RunSearch(bg, p, props.Options{Trees: 20, MaxBudget: 1024, Window: 2, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := props.Handles{NoChance: true, BinaryRewards: true}
	if rep.Verdict == props.Faulted || rep.Handles == nil || *rep.Handles != want {
		t.Fatalf("%s, handles %v, want %v\n%v", rep.Summary, rep.Handles, want, rep.Witness)
	}
	if rep.Witness != nil && rep.Witness.Shrinks == 0 {
		t.Errorf("the witness was not shrunk: the shrinker's candidates are not tested")
	}
	t.Logf("%s (%d trees)\n%v", rep.Summary, rep.Trees, rep.Witness)
	if _, err := props.RunSearchTree(bg, p, tree.MustParse("(max (chance 0.5:1 0.5:0) 0.25)"), props.Options{}); err == nil ||
		!strings.Contains(err.Error(), "node 0.0 is a chance node, and the search handles none") {
		t.Errorf("RunSearchTree on a tree with a chance node: %v", err)
	}
	checkReaped(t, p)
}

// TestProgramFickleHandshake: processes of one program that declare
// different capabilities are a protocol fault. The first process is
// discarded after a search whose report fails, so that the next search
// starts a second one.
func TestProgramFickleHandshake(t *testing.T) {
	p := helperProgram(t, "fickle", searchexec.Options{Env: []string{"MCTSCHECK_FICKLE_FILE=" + t.TempDir() + "/first"}})
	if h, err := p.Handles(); err != nil || h != (props.Handles{NoChance: true}) {
		t.Fatalf("the first process declares %v, %v; want no chance nodes", h, err)
	}
	st := props.NewSearchTree(tree.MustParse("(max 0.25 (min 1 0.5) 0.75)"))
	stop := errors.New("stop")
	if err := p.Search(bg, st, 1, []int64{64}, func(props.Checkpoint) error { return stop }); err != stop {
		t.Fatalf("a search whose report fails: %v", err)
	}
	err := p.Search(bg, st, 1, []int64{64}, func(props.Checkpoint) error { return nil })
	var f *props.Fault
	if !errors.As(err, &f) || f.Kind != props.FaultProtocol || !strings.Contains(f.Message, "another handshake than its first process's") {
		t.Fatalf("the second process's search: %v", err)
	}
	if n := len(p.Pids()); n != 2 {
		t.Errorf("%d processes, want 2", n)
	}
	checkReaped(t, p)
}
