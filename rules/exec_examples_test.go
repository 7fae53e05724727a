package rules_test

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// The reference clients of examples/, relative to this package.
const (
	pythonClient = "../examples/uct.py"
	cClient      = "../examples/uct.c"
	jsClient     = "../examples/uct.js"
)

// needPython returns the path of python3, or skips the test.
func needPython(t testing.TB) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is absent: the Python client is not tested (CI has it)")
	}
	return py
}

// buildC compiles examples/uct.c with cc, or skips the test.
func buildC(t testing.TB) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("cc is absent: the C client is not built")
	}
	bin := filepath.Join(t.TempDir(), "uct")
	out, err := exec.Command(cc, "-O2", "-ffp-contract=off", "-o", bin, cClient, "-lm").CombinedOutput()
	if err != nil {
		t.Fatalf("cc %s: %v\n%s", cClient, err, out)
	}
	return bin
}

// sameTrees are small trees with max, min and chance nodes on which the
// clients' UCT must make core.UCT's choices.
var sameTrees = []string{
	"(max (min 1 0) (min 0 0) 0.5)",
	"(max (chance 0.5:(min 1 0) 0.5:1) (min (max 0 1) 0.75) 0.25)",
	"(min (max 1 0 0.5) (max 0.25 (min 1 0)) 1)",
	"(max (min (max 0 1) (max 1 0.5)) (min 0.5 (chance 0.25:1 0.75:0)) (min 0.25 1 0))",
}

// checkSameAsUCT searches each tree with x and core.UCT from several
// seeds, concurrently so that the sites travel in batches, and fails on the
// first difference in any node's statistics.
func checkSameAsUCT(t *testing.T, x *rules.ExecRule, sims int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, 2*len(sameTrees))
	for j := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[j] = sameStats(tree.MustParse(sameTrees[j%len(sameTrees)]), x, uint64(j+1), sims)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// TestExecPythonUCT checks that examples/uct.py's UCT makes core.UCT's
// choices, in both framings, and that a short check gives uct's report.
func TestExecPythonUCT(t *testing.T) {
	py := needPython(t)
	for _, framing := range []string{"json", "binary"} {
		t.Run("framing="+framing, func(t *testing.T) {
			x, err := rules.ExecOptions{}.New(py, pythonClient, "--framing", framing)
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			checkSameAsUCT(t, x, 500)
			checkReaped(t, x)
		})
	}
	t.Run("check", func(t *testing.T) {
		x, err := rules.ExecOptions{}.New(py, pythonClient, "--framing", "binary")
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		// A smoke test: scripts/exec-uct.sh compares the default check.
		compareReports(t, x, props.Options{Trees: 4, Seeds: 2, MaxBudget: 1024, Jobs: x.Concurrency()})
		checkReaped(t, x)
	})
}

// compareReports runs props.Run with x and with the catalogue's uct and
// fails if their verdicts, simulations or trees' verdicts differ.
func compareReports(t *testing.T, x *rules.ExecRule, o props.Options) {
	t.Helper()
	start := time.Now()
	got, err := props.Run(context.Background(), x, o)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	want, err := props.Run(context.Background(), rules.MustParse("uct").Rule, o)
	if err != nil {
		t.Fatal(err)
	}
	batches, sites := x.Stats()
	t.Logf("external: %s in %v (%d sites in %d batches); uct: %s", got.Verdict, took.Round(time.Millisecond), sites, batches, want.Verdict)
	if got.Verdict != want.Verdict || got.Sims != want.Sims || got.Trees != want.Trees {
		t.Fatalf("external rule: %s, %d simulations, %d trees; uct: %s, %d, %d",
			got.Verdict, got.Sims, got.Trees, want.Verdict, want.Sims, want.Trees)
	}
	if g, w := fmt.Sprint(got.Recoveries), fmt.Sprint(want.Recoveries); g != w {
		t.Errorf("recoveries differ:\n got %s\nwant %s", g, w)
	}
}

// TestExecJavaScriptUCT checks examples/uct.js, a client written from
// docs/protocol.md alone: its UCT makes core.UCT's choices and a check gives
// uct's report (the default run of mctscheck check, in the full suite); its
// eps-greedy, reading its seeds as strings, draws as examples/uct.py does
// from the same seeds and declares the catalogue's probabilities.
func TestExecJavaScriptUCT(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is absent: the JavaScript client is not tested (CI installs it)")
	}
	x, err := rules.Exec(node, jsClient)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	checkSameAsUCT(t, x, 300)
	o := props.Options{Trees: 2, Seeds: 1, MaxBudget: 1024, NoTraps: true, Jobs: x.Concurrency()}
	if !testing.Short() {
		o = props.Options{Jobs: x.Concurrency()} // mctscheck check's defaults: the traps, 100 random trees, 4 seeds
	}
	compareReports(t, x, o)
	checkReaped(t, x)

	eps, err := rules.Exec(node, jsClient, "--rule", "eps-greedy", "--eps", "0.3")
	if err != nil {
		t.Fatal(err)
	}
	defer eps.Close()
	checkEpsGreedyClient(t, eps, "JavaScript")
	checkReaped(t, eps)
}

// checkEpsGreedyClient checks a client's eps-greedy with ε = 0.3 (eps,
// written in lang): it declares the catalogue's probabilities, and it
// draws as examples/uct.py's does from the same seeds, which declares
// them too (if python3 is here).
func checkEpsGreedyClient(t *testing.T, eps *rules.ExecRule, lang string) {
	t.Helper()
	want := rules.EpsGreedy{Eps: 0.3}
	for i, s := range execSites(t, 200) {
		if got := eps.Probs(s, nil); fmt.Sprint(got) != fmt.Sprint(want.Probs(s, nil)) {
			t.Fatalf("site %d: probabilities %v, want eps-greedy's %v", i, got, want.Probs(s, nil))
		}
	}
	if _, err := exec.LookPath("python3"); err != nil {
		return
	}
	py, err := rules.Exec("python3", pythonClient, "--rule", "eps-greedy", "--eps", "0.3")
	if err != nil {
		t.Fatal(err)
	}
	defer py.Close()
	a, b := execSites(t, 200), execSites(t, 200) // the same sites, the same seeds
	for i := range a {
		if ca, cb := eps.Select(a[i]), py.Select(b[i]); ca != cb {
			t.Fatalf("site %d: the %s client chose %d, the Python client %d", i, lang, ca, cb)
		}
		if got := py.Probs(a[i], nil); fmt.Sprint(got) != fmt.Sprint(want.Probs(a[i], nil)) {
			t.Fatalf("site %d: the Python client's probabilities %v, want eps-greedy's %v", i, got, want.Probs(a[i], nil))
		}
	}
	checkReaped(t, py)
}

// TestExecCClient checks examples/uct.c: its UCT makes core.UCT's
// choices; its eps-greedy declares the catalogue's probabilities and draws
// as examples/uct.py's does from the same seeds.
func TestExecCClient(t *testing.T) {
	bin := buildC(t)
	x, err := rules.Exec(bin, "uct")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	checkSameAsUCT(t, x, 2000)
	checkReaped(t, x)

	eps, err := rules.Exec(bin, "eps-greedy", "0.3")
	if err != nil {
		t.Fatal(err)
	}
	defer eps.Close()
	checkEpsGreedyClient(t, eps, "C")
	// Determinism: the same search seed, the same statistics; another
	// seed, other draws.
	tr := tree.MustParse(sameTrees[3])
	walk := func(seed uint64) string {
		s, err := core.New(tr.Game(), eps, core.Config{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(context.Background(), 3000); err != nil {
			t.Fatal(err)
		}
		var out []string
		s.Walk(func(n core.NodeInfo) bool {
			out = append(out, fmt.Sprintf("%v:%d/%g", n.Path, n.Visits, n.W))
			return true
		})
		return fmt.Sprint(out)
	}
	if a, b := walk(1), walk(1); a != b {
		t.Errorf("the same seed gave other statistics:\n%s\n%s", a, b)
	}
	if a, b := walk(1), walk(2); a == b {
		t.Errorf("seeds 1 and 2 gave the same statistics: are the draws seeded?\n%s", a)
	}
	checkReaped(t, eps)
}

// execSites makes n sites with 2 to 5 children and random statistics,
// each with its own generator, the same for the same n.
func execSites(t testing.TB, n int) []*core.Site {
	t.Helper()
	rng := core.NewRNG(7)
	out := make([]*core.Site, n)
	for i := range out {
		k := 2 + rng.IntN(4)
		kids := make([]core.Stats, k)
		total := uint64(0)
		for j := range kids {
			v := uint64(rng.IntN(50))
			if rng.IntN(4) == 0 {
				v = 0
			}
			kids[j] = core.Stats{Visits: v, W: float64(rng.IntN(int(v) + 1))}
			total += v
		}
		kind := core.Max
		if i%2 == 1 {
			kind = core.Min
		}
		s, err := core.NewSite(kind, core.Stats{Visits: total, W: float64(total) / 2}, kids, int64(i), core.NewRNG(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = s
	}
	return out
}

// BenchmarkExecPipe measures the pipe itself: batches of sites with 3
// children sent to examples/uct.c in its trivial mode, which reads every
// site and answers child 0. Its sites/s metric is selections per second.
func BenchmarkExecPipe(b *testing.B) {
	bin := buildC(b)
	for _, batch := range []int{1, 64, 1024} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			x, err := rules.Exec(bin, "trivial")
			if err != nil {
				b.Fatal(err)
			}
			defer x.Close()
			sites := make([]*core.Site, batch)
			kids := []core.Stats{{Visits: 3, W: 1}, {Visits: 5, W: 4}, {Visits: 2, W: 0}}
			for i := range sites {
				if sites[i], err = core.NewSite(core.Max, core.Stats{Visits: 10, W: 5}, kids, int64(i), core.NewRNG(1)); err != nil {
					b.Fatal(err)
				}
			}
			out := make([]int, batch)
			if err := x.SelectAll(sites, out); err != nil { // started
				b.Fatal(err)
			}
			pid := x.Pids()[0]
			self0, prog0 := cpuTime(), programCPU(pid)
			b.ReportAllocs()
			for b.Loop() {
				if err := x.SelectAll(sites, out); err != nil {
					b.Fatal(err)
				}
			}
			self, prog := cpuTime(), programCPU(pid)
			n := float64(b.N * batch)
			b.ReportMetric(n/b.Elapsed().Seconds(), "sites/s")
			if cpu := (self - self0).Seconds() + prog - prog0; cpu > 0 && prog > 0 {
				b.ReportMetric(n/cpu, "sites/cpu-s")
			}
		})
	}
}

// BenchmarkExecSearch measures whole searches with examples/uct.c's UCT:
// goroutines=G searches run at once, their sites batched together.
func BenchmarkExecSearch(b *testing.B) {
	bin := buildC(b)
	tr := gen.Trees(props.DefaultShape).Example(3)
	for _, g := range []int{1, 64} {
		b.Run(fmt.Sprintf("goroutines=%d", g), func(b *testing.B) {
			x, err := rules.Exec(bin, "uct")
			if err != nil {
				b.Fatal(err)
			}
			defer x.Close()
			const sims = 2000
			for b.Loop() {
				var wg sync.WaitGroup
				for j := range g {
					wg.Add(1)
					go func() {
						defer wg.Done()
						s, err := core.New(tr.Game(), x, core.Config{Seed: uint64(j + 1)})
						if err == nil {
							err = s.Run(context.Background(), sims)
						}
						if err != nil {
							b.Error(err)
						}
					}()
				}
				wg.Wait()
			}
			_, sites := x.Stats()
			b.ReportMetric(float64(sites)/b.Elapsed().Seconds(), "sites/s")
		})
	}
}
