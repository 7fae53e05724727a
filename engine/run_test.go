package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/games/goboard"
)

// TestFirstFaultsStop: an engine whose first trials all fault the same way
// (one that crashes, cat, which echoes its input and is no GTP engine)
// stops the check after FirstTrials trials, with the reason; one that
// faults in two ways, or not on every first trial, does not.
func TestFirstFaultsStop(t *testing.T) {
	ps := readTestPositions(t)[:1]
	dir := t.TempDir()
	cfg := Config{Budgets: []int{1}, Seeds: []int{1, 2, 3, 4}, Timeout: 20 * time.Second}
	for _, c := range []struct {
		command string
		stops   bool
		kind    string
	}{
		{fakeEngine(t, dir, "crash", "crash"), true, FaultCrash},
		{"sh -c 'exec cat' {visits} {seed}", true, FaultGarbage},
		{fakeEngine(t, dir, "crash", "garbage"), false, ""},
		{fakeEngine(t, dir, "move K6", "crash"), false, ""},
	} {
		cfg.Command = c.command
		rep, err := Run(context.Background(), cfg, ps)
		if err != nil {
			t.Fatalf("%s: %v", c.command, err)
		}
		if !c.stops {
			if rep.Stopped != "" || rep.Done != 4 {
				t.Errorf("%s: stopped %q after %d trials; want all 4 played", c.command, rep.Stopped, rep.Done)
			}
			continue
		}
		if rep.Done != FirstTrials || rep.Total != 4 || !strings.Contains(rep.Stopped, "the first 3 trials all faulted the same way ("+c.kind+")") {
			t.Errorf("%s: %d of %d trials, stopped %q; want %d, stopped on %s", c.command, rep.Done, rep.Total, rep.Stopped, FirstTrials, c.kind)
		}
		if f := rep.FirstFault(); !strings.HasPrefix(f, c.kind+": ") {
			t.Errorf("%s: first fault %q", c.command, f)
		}
		var text strings.Builder
		rep.WriteText(&text)
		if !strings.Contains(text.String(), "3 trials, the first pair-d2-r6-normal-prior, budget 1, seed 1: "+c.kind) {
			t.Errorf("%s: the report does not count the alike faults on one line:\n%s", c.command, text.String())
		}
	}
}

// TestBadPositions: a position whose stated answers are wrong, or that the
// solver cannot solve within its bound, is a *PositionError before any
// trial (the engine, which would fail, is never started); the solver
// reports its progress and stops when the context ends.
func TestBadPositions(t *testing.T) {
	ps := readTestPositions(t)
	p := *ps[0] // pair-d2-r6-normal-prior: K6 wins
	p.Optimal = []int{p.Optimal[0] + 1}
	cfg := Config{Command: "no-such-engine {visits}", Budgets: []int{1}, Seeds: []int{1}}
	_, err := Run(context.Background(), cfg, []*Position{&p})
	var pe *PositionError
	if !errors.As(err, &pe) || pe.Name != p.Name || !strings.Contains(err.Error(), "optimal moves L6 differ from the solver's K6") {
		t.Errorf("wrong stated answer: %v", err)
	}
	// A board of 3,826 nodes (pair-d6) under a bound of 1,000.
	board := func(prefix string) *Position {
		return ps[slices.IndexFunc(ps, func(p *Position) bool { return strings.HasPrefix(p.Name, prefix) })]
	}
	cfg.Solve.Nodes = 1000
	_, err = Run(context.Background(), cfg, []*Position{board("pair-d6-")})
	if !errors.As(err, &pe) || !errors.Is(err, ErrTooBig) || !errors.As(err, new(*NodeLimitError)) ||
		!strings.Contains(err.Error(), "more than 1000 positions searched") {
		t.Errorf("unsolvable within the bound: %v", err)
	}
	if testing.Short() {
		return // the solver reports its progress every 10,000 nodes: a second of solving
	}
	// A board of 17,458 nodes (triple-d6) under a bound of 10,000.
	cfg.Solve.Nodes = ProgressEvery
	var nodes []int
	cfg.Progress = func(st Status) {
		if st.Solving != "" {
			nodes = append(nodes, st.Nodes)
		}
	}
	if _, err = Run(context.Background(), cfg, []*Position{board("triple-d6-")}); !errors.As(err, new(*NodeLimitError)) {
		t.Errorf("triple-d6 within 10,000 nodes: %v", err)
	}
	if !slices.Equal(nodes, []int{0, ProgressEvery}) {
		t.Errorf("solving progress at %v nodes, want 0 and %d", nodes, ProgressEvery)
	}
	// Ctrl-C while solving: the context's error, not a bad position.
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Solve.Nodes = 0
	cfg.Progress = func(st Status) {
		if st.Nodes > 0 {
			cancel()
		}
	}
	if _, err = Run(ctx, cfg, []*Position{board("triple-d6-")}); !errors.Is(err, context.Canceled) || errors.As(err, &pe) {
		t.Errorf("cancelled while solving: %v", err)
	}
}

// TestInterrupted: when the context ends during a trial, Run returns the
// trials that finished, marked interrupted, and the context's error; the
// trial cut short is not counted, as a fault or otherwise.
func TestInterrupted(t *testing.T) {
	ps := readTestPositions(t)[:2]
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // cancel once the hanging trial (seed 2) has begun
		for {
			if _, err := os.Stat(filepath.Join(dir, "hanging")); err == nil {
				cancel()
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	cfg := Config{Command: fakeEngine(t, dir, "move K6", "hang"), Budgets: []int{1, 2}, Seeds: []int{1, 2}, Timeout: time.Minute}
	rep, err := Run(ctx, cfg, ps)
	if !errors.Is(err, context.Canceled) || rep == nil {
		t.Fatalf("Run: %v, report %v", err, rep)
	}
	if !rep.Interrupted || rep.Done != 1 || rep.Total != 8 || rep.Faults != 0 || len(rep.Positions) != 1 || len(rep.Positions[0].Trials) != 1 {
		t.Fatalf("interrupted %v, %d of %d trials, %d faults; want 1 of 8, no fault", rep.Interrupted, rep.Done, rep.Total, rep.Faults)
	}
	var text strings.Builder
	rep.WriteText(&text)
	// The budget not reached reads "–", not "0/0", in the report and the
	// progress line's shares.
	if !strings.HasPrefix(text.String(), "Interrupted after 1 of 8 trials") || !strings.Contains(text.String(), "1/1  –\n") ||
		strings.Contains(text.String(), "0/0") {
		t.Errorf("report:\n%s", text.String())
	}
	if got := rep.Positions[0].Shares(cfg.Budgets); got != "1/1 –" {
		t.Errorf("shares %q, want \"1/1 –\"", got)
	}
}

// TestSeedSplit: an engine that plays the winning move on odd seeds and
// another on even ones is flagged, with the seeds named.
func TestSeedSplit(t *testing.T) {
	ps := readTestPositions(t)[:1]
	cfg := Config{Command: fakeEngine(t, t.TempDir(), "move K6", "move C16"), Budgets: []int{1, 2}, Seeds: []int{1, 2, 3, 4}, Timeout: 20 * time.Second}
	rep, err := Run(context.Background(), cfg, ps)
	if err != nil {
		t.Fatal(err)
	}
	pr := rep.Positions[0]
	want := "the seed decides, not the budget: seeds 2, 4 never play the only winning move K6 up to 2 visits, seeds 1, 3 play it at every budget"
	if pr.Flag != want || !slices.Equal(pr.SeedsNever, []int{2, 4}) || !slices.Equal(pr.SeedsFound, []int{1, 3}) {
		t.Errorf("flag %q, seeds never %v, found %v; want %q", pr.Flag, pr.SeedsNever, pr.SeedsFound, want)
	}
	d := rep.Doc()
	if !slices.Equal(d.Positions[0].SeedsNever, []int{2, 4}) || d.Flagged != 1 {
		t.Errorf("JSON: seeds never %v, flagged %d", d.Positions[0].SeedsNever, d.Flagged)
	}
}

// TestSeedsDisagree: at a single budget, seeds that split are flagged:
// "seeds disagree", with the seeds named on each side.
func TestSeedsDisagree(t *testing.T) {
	ps := readTestPositions(t)[:1]
	cfg := Config{Command: fakeEngine(t, t.TempDir(), "move K6", "move C16"), Budgets: []int{1024}, Seeds: []int{1, 2, 3, 4, 5}, Timeout: 20 * time.Second}
	rep, err := Run(context.Background(), cfg, ps)
	if err != nil {
		t.Fatal(err)
	}
	pr := rep.Positions[0]
	want := "the seeds disagree at 2^10 visits: seeds 1, 3, 5 play the only winning move K6, seeds 2, 4 do not (one budget: whether more visits bring the others to it is not measured)"
	if pr.Flag != want || !slices.Equal(pr.SeedsNever, []int{2, 4}) || !slices.Equal(pr.SeedsFound, []int{1, 3, 5}) {
		t.Errorf("flag %q, seeds never %v, found %v; want %q", pr.Flag, pr.SeedsNever, pr.SeedsFound, want)
	}
	// Seeds that agree at one budget are not flagged.
	cfg.Command = fakeEngine(t, t.TempDir(), "move K6", "move K6")
	if rep, err = Run(context.Background(), cfg, ps); err != nil || rep.Flagged() != 0 {
		t.Errorf("seeds that agree: %d flagged, error %v", rep.Flagged(), err)
	}
}

// TestWhy: the root visits an engine lists on stderr say why it missed
// the winning move: never tried (not listed) or tried and valued lower.
func TestWhy(t *testing.T) {
	ps := readTestPositions(t)[:1]
	dir := t.TempDir()
	for _, c := range []struct{ odd, even, why, means string }{
		{"move C16 visits 0", "move C16 visits 0", "never tried: K6 had 0 of 50 root visits in each of the 2 missed trials at 2 visits", "Never tried (1 position)"},
		{"move C16 visits 20", "move C16 visits 30", "tried, valued lower: K6 had 25 of 75 root visits (mean of the 2 missed trials at 2 visits; the engine's prior for it 0.12)", "Tried, valued lower (1 position)"},
		{"move C16 visits 0", "move C16 visits 30", "never tried in 1 of the 2 missed trials at 2 visits (0 root visits), tried and valued lower in the other 1 (K6 had 30 of 65 root visits on average)", "Tried, valued lower"},
		{"move C16", "move C16", "unknown: the engine reported no root visits", ""},
		{"move C16 amaf 0.05", "move C16 amaf 0.07", "never tried: K6 had 0 of 50 root visits in each of the 2 missed trials at 2 visits; its AMAF (RAVE) value, from the playouts that played it at a later turn, 0.06 over 1000 playouts (mean of 2 missed trials)", "Never tried (1 position)"},
	} {
		cfg := Config{Command: fakeEngine(t, dir, c.odd, c.even), Budgets: []int{1, 2}, Seeds: []int{1, 2}, Timeout: 20 * time.Second}
		rep, err := Run(context.Background(), cfg, ps)
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		rep.WriteText(&text)
		if !strings.Contains(text.String(), "    why: "+c.why) || c.means != "" && !strings.Contains(text.String(), "  "+c.means) {
			t.Errorf("%s / %s: want %q and %q in\n%s", c.odd, c.even, c.why, c.means, text.String())
		}
	}
}

// TestRootStats reads Leela Zero's listing of root children: the last
// listing counts, a move it leaves out has 0 visits.
func TestRootStats(t *testing.T) {
	stderr := `NN eval=0.500000
 C16 ->      11 (V: 50.00%) (LCB: 49.28%) (N: 16.67%) PV: C16 R16
Playouts: 20, Win: 50.00%, PV: C16
 C16 ->      40 (V: 52.00%) (LCB: 49.28%) (N: 16.67%) PV: C16 R16 K13
  K6 ->      12 (V: 61.50%) (LCB: 49.15%) (N: 12.00%) PV: K6 R16
pass ->       7 (V: 40.00%) (N: 10.00%) PV: pass
3.9 average depth, 7 max depth
`
	r := rootStats(stderr)
	k6, _ := goboard.ParseVertex("K6", Size)
	k11, _ := goboard.ParseVertex("K11", Size)
	if total, opt, prior := r.visits([]int{k6}); total != 59 || opt != 12 || prior != 0.12 {
		t.Errorf("K6: %d of %d visits, prior %v; want 12 of 59, 0.12", opt, total, prior)
	}
	if _, opt, prior := r.visits([]int{k11}); opt != 0 || prior != -1 {
		t.Errorf("K11, not listed: %d visits, prior %v; want 0, -1", opt, prior)
	}
	if w := r.winrate("c16"); w != 0.52 {
		t.Errorf("C16's win rate %v, want 0.52 (the last listing)", w)
	}
	if total, opt, prior := rootStats("no listing\n").visits([]int{k6}); total != -1 || opt != -1 || prior != -1 {
		t.Errorf("no listing: %d, %d, %v; want -1s", total, opt, prior)
	}
	if v, n := r.amaf([]int{k6}); v != -1 || n != -1 {
		t.Errorf("Leela Zero's listing: AMAF %v over %d, want -1, -1 (it reports none)", v, n)
	}
}

// TestPachiRootStats: Pachi's tree dump (-d 4, dumpthres=-1) gives the
// root children's playouts, win rates and AMAF values, the unvisited
// ones included; deeper nodes and the root's own line are not children.
func TestPachiRootStats(t *testing.T) {
	stderr := `[4000] best 94.1% xkomi 0.0 | seq  K11 K13 | can b  K11(94.1)
(UCT tree; root white; extra komi 0.000000; max depth 16)
[pass] 0.710/4444 [prior 0.000/0 amaf 0.000/0 crit -0.290 vloss 0] h=0 c#=7
 [K11] 0.796/3943 [prior 0.500/20 amaf 0.788/11983 crit 0.045 vloss 0] h=0 c#=5
  [K13] 0.725/2896 [prior 0.500/20 amaf 0.735/9053 crit 0.049 vloss 0] h=0 c#=5
   [K6] 0.831/2505 [prior 0.500/20 amaf 0.831/7518 crit 0.037 vloss 0] h=0 c#=3
 [C16] 0.109/46 [prior 0.500/20 amaf 0.812/6175 crit -0.082 vloss 0] h=0 c#=7
 [K6] 0.000/0 [prior 0.500/20 amaf 0.052/9311 crit 0.000 vloss 0] h=0 c#=0
 [pass] 0.000/0 [prior 0.500/20 amaf 0.000/0 crit 0.000 vloss 0] h=0 c#=0
expanded nodes: 412
*** WINNER is K11 with score 79.6% (3943/4444 games), extra komi 0.0
`
	r := rootStats(stderr)
	k6, _ := goboard.ParseVertex("K6", Size)
	if total, opt, prior := r.visits([]int{k6}); total != 3989 || opt != 0 || prior != -1 {
		t.Errorf("K6: %d of %d visits, prior %v; want 0 of 3989 (the root's children, not its grandchildren), -1", opt, total, prior)
	}
	if v, n := r.amaf([]int{k6}); v != 0.052 || n != 9311 {
		t.Errorf("K6's AMAF %v over %d, want 0.052 over 9311", v, n)
	}
	if w := r.winrate("K11"); w != 0.796 {
		t.Errorf("K11's win rate %v, want 0.796", w)
	}
	if len(r) != 4 {
		t.Errorf("%d root children, want 4 (K11, C16, K6, pass): %v", len(r), r)
	}
	// Written in pieces, as a pipe delivers it, the stream gives the same.
	var p rootParser
	for i := 0; i < len(stderr); i += 7 {
		_, _ = p.Write([]byte(stderr[i:min(i+7, len(stderr))]))
	}
	if got := p.list(); len(got) != 4 || got["K6"] != r["K6"] {
		t.Errorf("written in pieces: %v, want %v", got, r)
	}
}

// TestETA: the estimate of the time left uses each budget's mean trial
// time, and extrapolates linearly in the budget for budgets not yet
// measured.
func TestETA(t *testing.T) {
	e := newETA([]int{10, 20, 40}, 2)
	if e.left() != -1 {
		t.Errorf("no trial yet: %v, want -1", e.left())
	}
	e.record(10, time.Second)
	// 1 more at 10, 2 at 20 and 2 at 40, all at 1 s (no slope yet).
	if got := e.left(); got != 5*time.Second {
		t.Errorf("after one trial: %v, want 5s", got)
	}
	e.record(10, time.Second)
	e.record(20, 3*time.Second)
	// 1 more at 20 (3 s), 2 at 40: 3 s + 0.2 s/visit · 20 visits = 7 s each.
	if got := e.left(); got != 17*time.Second {
		t.Errorf("after three trials: %v, want 17s", got)
	}
}
