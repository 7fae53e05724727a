package rules_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/internal/proc/proctest"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// helperEnv, when set, makes the test binary a protocol program (TestMain)
// that behaves as its value says: the well-behaved and faulty programs of
// these tests, in Go, so that they need no other language.
const helperEnv = "MCTSCHECK_EXEC_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

// helperSite is the part of a JSON site the helper reads.
type helperSite struct {
	Op    string          `json:"op"`
	Depth int             `json:"depth"`
	Ln    float64         `json:"ln"`
	N     []float64       `json:"n"`
	W     []float64       `json:"w"`
	V     []float64       `json:"v"`
	Q     []float64       `json:"q"`
	Var   []*float64      `json:"var"`
	Seed  json.RawMessage `json:"seed"`
}

// helper runs a protocol program in JSON framing:
//
//	uct      core.UCT with C = √2, as examples/uct.py
//	crash    crashes on the first batch
//	exit     exits with status 0 on the first batch
//	hang     hangs on the first batch
//	spawn    starts a child process that sleeps, then hangs
//	garbage  answers a line that is not JSON
//	range    answers child k to a site with k children
//	stray    writes a log line on stdout after its first answer
//	tuned    declares squares and answers tunedRule's choice from the
//	         sites' variances
//	seed     declares seed and answers seededRule's choice from the site's
//	         seed; seed-string the same with the seed as a string
//	crash-every  uct, but crashes at its crashEvery-th site (its count
//	         restarts with the process)
//	liar     declares probs, answers child 0 to every select site and
//	         uniform probabilities to every probs site
//	probs-sum, probs-neg, probs-long  declare probs and answer [1, 1, …],
//	         [2, -1, …] or k+1 probabilities
//	echo     answers every batch twice
//	crash-deep  crashes on a batch with a site at depth ≥ 1, uct elsewhere
//	version  answers the handshake with version 99
//	holdout  starts a child that holds its output, then exits with status 0
//	         at the first batch
//	setsid   starts a child in a session of its own, whose pid its name
//	         gives, and answers as uct
//	no-handshake  exits with status 3 instead of answering the handshake
func helper(mode string) int {
	in := bufio.NewReader(os.Stdin)
	if _, err := in.ReadString('\n'); err != nil {
		return 1
	}
	if mode == "no-handshake" {
		fmt.Fprintln(os.Stderr, "helper: no handshake, as asked")
		return 3
	}
	if mode == "setsid" {
		var err error
		if mode, err = proctest.Detached(mode); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 1
		}
	}
	version := rules.ProtocolVersion
	if mode == "version" {
		version = 99
	}
	probs := strings.HasPrefix(mode, "probs") || mode == "liar"
	fmt.Printf(`{"version":%d,"framing":"json","probs":%v,"squares":%v,"seed":%v,"seed_string":%v,"name":"helper %s"}`+"\n",
		version, probs, mode == "tuned", strings.HasPrefix(mode, "seed"), mode == "seed-string", mode)
	answered := 0 // sites answered by this process
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var sites []helperSite
		if err := json.Unmarshal(line, &sites); err != nil {
			fmt.Fprintln(os.Stderr, "helper: bad batch:", err)
			return 2
		}
		switch mode {
		case "crash":
			fmt.Fprintln(os.Stderr, "helper: crashing as asked")
			crashSelf()
		case "exit":
			return 0
		case "hang":
			time.Sleep(time.Hour)
		case "holdout":
			if err := proctest.HoldOutput(); err != nil {
				fmt.Fprintln(os.Stderr, "helper:", err)
				return 1
			}
			return 0
		case "spawn":
			cmd := exec.Command("sleep", "3600")
			_ = cmd.Start()
			time.Sleep(time.Hour)
		case "crash-deep":
			for _, s := range sites {
				if s.Depth >= 1 {
					crashSelf()
				}
			}
		case "crash-every":
			if answered+len(sites) >= crashEvery {
				fmt.Fprintf(os.Stderr, "helper: site %d, crashing as it does every %d sites\n", answered+len(sites), crashEvery)
				crashSelf()
			}
			answered += len(sites)
		case "garbage":
			fmt.Println("hello, mctscheck")
			continue
		}
		answers := make([]any, len(sites))
		for i, s := range sites {
			answers[i] = helperUCT(s)
			switch {
			case mode == "range":
				answers[i] = len(s.N)
			case mode == "liar" && s.Op == "select":
				answers[i] = 0
			case probs && s.Op == "probs":
				answers[i] = helperProbs(mode, len(s.N))
			case mode == "tuned":
				answers[i] = helperTuned(s)
			case strings.HasPrefix(mode, "seed"):
				answers[i] = helperSeeded(s)
			}
		}
		out, _ := json.Marshal(answers)
		fmt.Printf("%s\n", out)
		switch mode {
		case "stray":
			fmt.Println("a log line")
		case "echo":
			fmt.Printf("%s\n", out)
		}
	}
}

// crashEvery is the site at which the crash-every helper crashes.
const crashEvery = 10001

// helperProbs is the answer of mode to a probs site with k children:
// uniform for the liar, which always picks child 0, and no distribution
// for the others.
func helperProbs(mode string, k int) []float64 {
	p := make([]float64, k)
	for i := range p {
		p[i] = 1 / float64(k)
	}
	switch mode {
	case "probs-sum":
		p[0] = 1
		p[1] = 1
	case "probs-neg":
		p[0], p[1] = 2, -1
	case "probs-long":
		p = append(p, 0)
	}
	return p
}

// tunedScore is a UCB1-Tuned score: the mean plus sqrt(ln/n · min(1/4,
// var + sqrt(2·ln/n))), unvisited children first.
func tunedScore(w, n, ln, variance float64) float64 {
	return w/n + math.Sqrt(ln/n*min(0.25, variance+math.Sqrt(2*ln/n)))
}

// tunedRule is tunedScore in Go, reading the site's variances.
type tunedRule struct{}

func (tunedRule) Select(s *core.Site) int {
	return core.ArgmaxVisited(s, func(i int) float64 {
		v, _ := s.Variance(i)
		return tunedScore(s.W(i), s.N(i), core.LogParent(s), v)
	})
}
func (tunedRule) Needs() core.Needs { return core.Needs{Squares: true} }

// helperTuned is tunedRule on a site as sent, which must carry each
// child's variance, consistent with its sum of squares.
func helperTuned(s helperSite) int {
	best, bestScore := 0, math.Inf(-1)
	for i, n := range s.N {
		if n == 0 {
			return i
		}
		if s.Var[i] == nil || len(s.Q) != len(s.N) {
			fmt.Fprintln(os.Stderr, "helper: a site without squares")
			os.Exit(3)
		}
		if v := tunedScore(s.W[i], n, s.Ln, *s.Var[i]); v > bestScore {
			best, bestScore = i, v
		}
	}
	return best
}

// seededRule picks a child from the site's seed with splitmix64, as
// docs/protocol.md specifies: a child = (first draw >> 32)·k >> 32.
type seededRule struct{}

func (seededRule) Select(s *core.Site) int { return seededChild(s.Rand().Uint64(), s.Len()) }

// seededChild is the child a seeded program picks.
func seededChild(seed uint64, k int) int {
	return int((splitmix64(&seed) >> 32) * uint64(k) >> 32)
}

// splitmix64 is the step of docs/protocol.md: state += 0x9e3779b97f4a7c15,
// then the mix of the new state.
func splitmix64(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// helperSeeded is seededRule on a site as sent, its seed a number or a
// string.
func helperSeeded(s helperSite) int {
	text := strings.Trim(string(s.Seed), `"`)
	seed, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper: bad seed", string(s.Seed))
		os.Exit(3)
	}
	return seededChild(seed, len(s.N))
}

// helperUCT is core.UCT with C = √2 on a site as sent.
func helperUCT(s helperSite) int {
	best, bestScore := 0, -1.0
	for i, n := range s.N {
		if n == 0 {
			return i
		}
		if v := core.UCTScore(s.W[i], n, rules.DefaultC, s.Ln); v > bestScore {
			best, bestScore = i, v
		}
	}
	return best
}

// helperRule starts the test binary as the helper program in mode.
func helperRule(t *testing.T, mode string, o rules.ExecOptions) *rules.ExecRule {
	t.Helper()
	// A race-enabled helper would sleep a second at exit (GORACE's
	// atexit_sleep_ms), which a short timeout takes for a hang.
	o.Env = append(o.Env, helperEnv+"="+mode, "GORACE=atexit_sleep_ms=0")
	x, err := o.New(os.Args[0], "-test.run=^$")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// checkReaped closes x and fails t if any process it started, or any
// process in their groups, is still there.
func checkReaped(t *testing.T, x *rules.ExecRule) {
	t.Helper()
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	pids := x.Pids()
	if len(pids) == 0 {
		t.Fatal("no process was started")
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d is still there after Close", pid)
		}
	}
}

// faultTree is a small tree on which UCT meets sites at depths 0 and 1.
const faultTree = "(max (min 1 0) (min 0 0) 0.5)"

// checkFault checks the helper program in mode with props.CheckTree and
// returns the fault the report gives.
func checkFault(t *testing.T, mode string, o rules.ExecOptions) (*props.Report, *rules.ExecRule) {
	t.Helper()
	x := helperRule(t, mode, o)
	tr := tree.MustParse(faultTree)
	start := time.Now()
	rep, err := props.CheckTree(context.Background(), x, tr, props.Options{Seeds: 2, MinBudget: 16, MaxBudget: 256})
	if err != nil {
		t.Fatalf("%s: CheckTree: %v", mode, err)
	}
	if rep.Verdict != props.Faulted || rep.Witness == nil || rep.Witness.Fault == nil {
		t.Fatalf("%s: verdict %s, want a fault of the rule: %s", mode, rep.Verdict, rep.Summary)
	}
	t.Logf("%s (%v): %s", mode, time.Since(start).Round(time.Millisecond), rep.Witness.Fault.Message)
	return rep, x
}

var outOfRange = regexp.MustCompile(`chose child (\d+) of a site with (\d+) children`)

func TestExecFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a dozen programs: skipped with -short")
	}
	fast := rules.ExecOptions{Timeout: 500 * time.Millisecond, MaxRestarts: 1}
	for _, tc := range []struct {
		mode string
		kind props.FaultKind
		want []string // in the fault's message or the program's stderr
	}{
		{"crash", props.FaultCrash, []string{"signal: killed", "crashing as asked", `"ln":`}},
		{"exit", props.FaultCrash, []string{"exited with status 0", `"n":[`}},
		{"hang", props.FaultHang, []string{"hangs: no answer after 500ms", `"kind":"max"`}},
		{"spawn", props.FaultHang, []string{"hangs", `"kind":"max"`}},
		{"garbage", props.FaultGarbage, []string{"garbage", "hello, mctscheck", `"w":[`}},
		{"range", props.FaultRange, []string{"of a site with", `"depth":0`}},
		{"stray", props.FaultGarbage, []string{"a log line"}},
		{"probs-sum", props.FaultRange, []string{"the probabilities sum to 2"}},
		{"probs-neg", props.FaultRange, []string{"child 0 has the probability 2"}},
		{"probs-long", props.FaultRange, []string{",0] to a probs site with", "probabilities"}},
		{"echo", props.FaultGarbage, []string{"wrote more than its answers"}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			rep, x := checkFault(t, tc.mode, fast)
			if k := rep.Witness.Fault.Kind; k != tc.kind {
				t.Errorf("fault of kind %s, want %s", k, tc.kind)
			}
			msg := rep.Witness.Fault.Message + " " + rep.Witness.Fault.Stderr
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("the fault %q does not say %q", msg, w)
				}
			}
			if m := outOfRange.FindStringSubmatch(msg); m != nil && m[1] != m[2] {
				t.Errorf("the fault %q names a child in range", msg)
			}
			checkReaped(t, x)
		})
	}
}

// TestExecHandshakeFault: a program that exits instead of answering the
// handshake fails on the handshake, however many sites wait (those of
// dozens of trees at once), and however many times it is asked: the fault
// names the handshake and no batch.
func TestExecHandshakeFault(t *testing.T) {
	for range 3 { // how many sites wait for the first start depends on timing
		x := helperRule(t, "no-handshake", rules.ExecOptions{})
		rep, err := props.Run(context.Background(), x, props.Options{Trees: 20, Jobs: x.Concurrency(), MinBudget: 16, MaxBudget: 256})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != props.Faulted {
			t.Fatalf("%s, want a fault", rep.Summary)
		}
		_, last := x.FaultCount()
		for _, msg := range []string{rep.Witness.Fault.Message, last.Error()} {
			if !strings.Contains(msg, "exited with status 3 while answering the handshake") || strings.Contains(msg, "batch") {
				t.Errorf("the fault %q does not name the handshake alone", msg)
			}
		}
		checkReaped(t, x)
	}
}

// TestExecLiar: a program that always answers child 0 but declares
// uniform probabilities gets the fault verdict, with the disagreement
// named, where trusting its declaration gave "inconclusive … recovers".
func TestExecLiar(t *testing.T) {
	if testing.Short() {
		t.Skip("the limit probe asks one site a round trip, for seconds: skipped with -short")
	}
	x := helperRule(t, "liar", rules.ExecOptions{})
	rep, err := props.CheckTree(context.Background(), x, tree.MustParse("(max (min 1 0) 0.5)"), props.Options{Seeds: 1, Jobs: x.Concurrency()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Faulted || rep.Witness.Fault.Kind != props.FaultLie {
		t.Fatalf("%s, want a fault (lie)", rep.Summary)
	}
	if msg := rep.Witness.Fault.Message; !strings.Contains(msg, "declared probabilities disagree with the rule's choices: child 0") {
		t.Errorf("the fault %q does not name the disagreement", msg)
	}
	checkReaped(t, x)
}

// TestExecCrashNowAndThen: a program that crashes at every 10,001st site
// (its count restarting with the process) gets the fault verdict with any
// number of seeds, never a clean one: the crash is a fault even though no
// single site reproduces it.
func TestExecCrashNowAndThen(t *testing.T) {
	if testing.Short() {
		t.Skip("tens of thousands of sites: skipped with -short")
	}
	for _, seeds := range []int{1, 4} {
		x := helperRule(t, "crash-every", rules.ExecOptions{})
		rep, err := props.Run(context.Background(), x, props.Options{Trees: 10, Seeds: seeds, Jobs: x.Concurrency()})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != props.Faulted || rep.Witness.Fault.Kind != props.FaultCrash {
			t.Fatalf("seeds %d: %s, want a fault (crash)", seeds, rep.Summary)
		}
		f := rep.Witness.Fault
		if !strings.Contains(f.Stderr, "crashing as it does every") {
			t.Errorf("seeds %d: fault %+v, want the program's stderr", seeds, f)
		}
		checkReaped(t, x)
	}
}

// TestExecSquaresAndSeeds: a program that declares squares gets each
// child's variance exactly as Site.Variance gives it, so that its
// UCB1-Tuned makes Go's choices; one that declares seeds gets them as
// numbers or, with seed_string, as strings, and draws as Go's rule does.
func TestExecSquaresAndSeeds(t *testing.T) {
	tr := tree.MustParse("(max (chance 0.5:(min 1 0.25) 0.5:0.75) (min (max 0 1) 0.5) 0.25)")
	for _, tc := range []struct {
		mode string
		ref  core.Rule
	}{{"tuned", tunedRule{}}, {"seed", seededRule{}}, {"seed-string", seededRule{}}} {
		x := helperRule(t, tc.mode, rules.ExecOptions{})
		if err := sameStatsAs(tr, x, tc.ref, 3, 500); err != nil {
			t.Errorf("%s: %v", tc.mode, err)
		}
		checkReaped(t, x)
	}
}

func TestExecWrongVersion(t *testing.T) {
	x := helperRule(t, "version", rules.ExecOptions{})
	_, err := x.Capabilities()
	if err == nil || !strings.Contains(err.Error(), "speaks protocol version 99; mctscheck speaks version 1") {
		t.Fatalf("Capabilities: %v, want the wrong version", err)
	}
	tr := tree.MustParse(faultTree)
	rep, err := props.CheckTree(context.Background(), x, tr, props.Options{Seeds: 1, MaxBudget: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Witness == nil || rep.Witness.Fault == nil || !strings.Contains(rep.Witness.Fault.Message, "version 99") {
		t.Fatalf("verdict %s, want a fault that names the version: %s", rep.Verdict, rep.Summary)
	}
	checkReaped(t, x)
}

// TestExecSameAsUCT checks that the helper's UCT over the protocol makes
// core's choices: the same statistics at every node, from concurrent
// searches whose sites travel in shared batches.
func TestExecSameAsUCT(t *testing.T) {
	x := helperRule(t, "uct", rules.ExecOptions{})
	trees := []string{faultTree, "(max (chance 0.5:(min 1 0) 0.5:1) (min (max 0 1) 0.75) 0.25)",
		"(min (max 1 0 0.5) (max 0.25 (min 1 0)) 1)"}
	var wg sync.WaitGroup
	errs := make([]error, 4*len(trees))
	for j := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[j] = sameStats(tree.MustParse(trees[j%len(trees)]), x, uint64(j+1), 600)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	batches, sites := x.Stats()
	t.Logf("%d sites in %d batches", sites, batches)
	if batches >= sites {
		t.Errorf("%d sites in %d batches: no batch held two sites", sites, batches)
	}
	checkReaped(t, x)
}

// sameStats searches tr with rule and with core.UCT{C: √2} from seed and
// says where their statistics differ.
func sameStats(tr *tree.Tree, rule core.Rule, seed uint64, sims int) error {
	return sameStatsAs(tr, rule, core.UCT{C: rules.DefaultC}, seed, sims)
}

// sameStatsAs searches tr with rule and with ref from seed and says where
// their statistics differ.
func sameStatsAs(tr *tree.Tree, rule, ref core.Rule, seed uint64, sims int) error {
	walk := func(r core.Rule) ([]string, error) {
		s, err := core.New(tr.Game(), r, core.Config{Seed: seed})
		if err != nil {
			return nil, err
		}
		if err := s.Run(context.Background(), sims); err != nil {
			return nil, err
		}
		var out []string
		s.Walk(func(n core.NodeInfo) bool {
			out = append(out, fmt.Sprintf("%v n=%d w=%g", n.Path, n.Visits, n.W))
			return true
		})
		return out, nil
	}
	got, err := walk(rule)
	if err != nil {
		return err
	}
	want, err := walk(ref)
	if err != nil {
		return err
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		return fmt.Errorf("%s, seed %d: statistics differ from %T's:\n got %v\nwant %v", tr, seed, ref, got, want)
	}
	return nil
}

func TestExecParse(t *testing.T) {
	in, err := rules.Parse("exec: " + os.Args[0] + " -test.run='^$'")
	if err != nil {
		t.Fatal(err)
	}
	x, ok := in.Rule.(*rules.ExecRule)
	if !ok {
		t.Fatalf("Parse gave a %T, want an *ExecRule", in.Rule)
	}
	if got, want := x.Command(), []string{os.Args[0], "-test.run=^$"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("command %q, want %q", got, want)
	}
	if len(x.Pids()) != 0 {
		t.Error("Parse started the program; it should start on first use")
	}
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"exec:", "exec: 'unterminated", "exec: /no/such/program"} {
		if _, err := rules.Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

// TestExecRestartIsAFault: a program that crashes on every batch with a
// site at depth 1 fails every search whose site was in flight, the root's
// sites of a failed batch too: no site is answered by a program that
// failed, and every failure is counted.
func TestExecRestartIsAFault(t *testing.T) {
	x := helperRule(t, "crash-deep", rules.ExecOptions{MaxRestarts: 1000})
	tr := tree.MustParse(faultTree)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for j := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := core.New(tr.Game(), x, core.Config{Seed: uint64(j + 1)})
			if err != nil {
				errs[j] = err
				return
			}
			errs[j] = s.Run(context.Background(), 100)
		}()
	}
	wg.Wait()
	for j, err := range errs {
		var re *core.RuleError
		if !errors.As(err, &re) {
			t.Fatalf("search %d: %v, want a rule error", j, err)
		}
		f, ok := re.Panic.(*rules.ExecFault)
		if !ok || f.Kind != "crash" {
			t.Errorf("search %d: %v, want a crash", j, re)
		}
	}
	if n, last := x.FaultCount(); n == 0 || last == nil {
		t.Errorf("FaultCount %d, %v: the crashes were not counted", n, last)
	}
	checkReaped(t, x)
}

func TestExecCommandWords(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`sh a b`, `a|b`},
		{`  sh   'a b'  c `, `a b|c`},
		{`sh "a \"b\" \\ c" d`, `a "b" \ c|d`},
		{`sh a\ b 'it'\''s'`, `a b|it's`},
		{`sh '' x`, `|x`},
	} {
		x, err := rules.ExecCommand(tc.line, rules.ExecOptions{})
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		if got := strings.Join(x.Command()[1:], "|"); got != tc.want {
			t.Errorf("%s: words %q, want %q", tc.line, got, tc.want)
		}
	}
	for _, bad := range []string{`sh 'a`, `sh "a`, ``, `   `} {
		if _, err := rules.ExecCommand(bad, rules.ExecOptions{}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
