package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/gtp"
)

func TestWriteLeelaZeroNetwork(t *testing.T) {
	bias := make([]float64, 362)
	bias[7], bias[361] = -25, 1.5
	var buf bytes.Buffer
	if err := WriteLeelaZeroNetwork(&buf, bias, 0.5, 0.5); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	// 1 + 4 + 8·B + 14 lines for B = 1 block, and the lengths Leela Zero's
	// load_v1_network reads (F = 1 filter).
	want := []int{1, 18 * 9, 1, 1, 1, 9, 1, 1, 1, 9, 1, 1, 1, 2, 2, 2, 2, 362 * 722, 362, 1, 1, 1, 1, 256 * 361, 256, 256, 1}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(lines), len(want))
	}
	if lines[0] != "1" {
		t.Errorf("version line %q, want 1", lines[0])
	}
	for i, l := range lines {
		if n := len(strings.Fields(l)); n != want[i] {
			t.Errorf("line %d has %d numbers, want %d", i+1, n, want[i])
		}
	}
	pol := strings.Fields(lines[18])
	if pol[7] != "-25" || pol[361] != "1.5" || pol[0] != "0" {
		t.Errorf("policy biases %s %s %s, want -25 1.5 0", pol[7], pol[361], pol[0])
	}
	if lines[26] != "0.5" {
		t.Errorf("value bias line %q, want 0.5", lines[26])
	}
	// Variances (lines 5, 9, 13, 17, 23) are 1; all else but the biases 0.
	for _, i := range []int{4, 8, 12, 16, 22} {
		for _, f := range strings.Fields(lines[i]) {
			if f != "1" {
				t.Fatalf("line %d: variance %s, want 1", i+1, f)
			}
		}
	}
	// By color: four weights carry the Black-to-move plane to the value.
	buf.Reset()
	if err := WriteLeelaZeroNetwork(&buf, bias, 1.5, -1.5); err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	nonzero := func(i int) (n int, last string) {
		for _, f := range strings.Fields(lines[i]) {
			if f != "0" {
				n, last = n+1, f
			}
		}
		return
	}
	for _, c := range []struct {
		line, n int
		last    string
	}{{1, 1, "1"}, {5, 0, ""}, {9, 0, ""}, {13, 0, ""}, {17, 0, ""}, {19, 1, "1"}, {23, 361, "0.002770083"}, {25, 1, "3"}, {26, 1, "-1.5"}} {
		if n, last := nonzero(c.line); n != c.n || last != c.last {
			t.Errorf("by color, line %d: %d nonzero numbers, the last %q; want %d, %q", c.line+1, n, last, c.n, c.last)
		}
	}
	if f := strings.Fields(lines[1]); f[16*9+4] != "1" {
		t.Errorf("by color: the input convolution's weight 1 is not the centre tap of plane 16")
	}
	if err := WriteLeelaZeroNetwork(&buf, bias[:361], 0, 0); err == nil {
		t.Error("361 biases: no error")
	}
	if err := WriteLeelaZeroNetwork(&buf, bias, 100, 100); err == nil {
		t.Error("value bias 100: no error")
	}
}

func readTestPositions(t *testing.T) []*Position {
	t.Helper()
	ps, err := ReadPositions("testdata/positions.txt")
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// raveFiles hold the positions that trap Pachi's RAVE and the closest
// candidates of the search for them (docs/engines.md).
var raveFiles = []string{"testdata/rave-positions.txt", "testdata/rave-near.txt"}

// readRAVEPositions returns the positions of raveFiles.
func readRAVEPositions(t *testing.T) []*Position {
	t.Helper()
	var out []*Position
	for _, f := range raveFiles {
		ps, err := ReadPositions(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ps...)
	}
	return out
}

// TestRAVEPositionsFiles re-solves the positions of raveFiles and checks
// the answers the files state: each a win for the player to move by a
// single move, not the pass, with its optimal line's final score the
// board's and a win for the mover.
func TestRAVEPositionsFiles(t *testing.T) {
	for i, p := range readRAVEPositions(t) {
		if testing.Short() && i >= 2 {
			break
		}
		sol, err := p.Solve(SolveLimits{})
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if err := p.agrees(sol); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		if p.Value != "win" || len(p.Optimal) != 1 || p.Optimal[0] == Size*Size || len(p.Known) < 3 {
			t.Errorf("%s: value %s, optimal %s, %d known lines; want a win by a single move, and how it is known", p.Name, p.Value, vertices(p.Optimal), len(p.Known))
		}
		if got := sol.Final.Score(); got != sol.FinalScore || (got > 0) != (p.ToMove == goboard.Black) {
			t.Errorf("%s: final score %v for %v, who wins", p.Name, got, p.ToMove)
		}
	}
}

// TestPositionsFile re-solves the positions of testdata and checks the
// answers the file states, the cases it covers, the priors the cases
// promise, and that each final line's score is the board's.
func TestPositionsFile(t *testing.T) {
	ps := readTestPositions(t)
	cases := map[string]int{}
	solved := map[string]*Solution{}
	for _, p := range ps {
		cases[p.Case]++
		key := fmt.Sprint(p.Stones, p.ToMove)
		sol := solved[key]
		if sol == nil {
			if testing.Short() && len(solved) >= 4 {
				continue
			}
			var err error
			if sol, err = p.Solve(SolveLimits{}); err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
			solved[key] = sol
		}
		if err := p.agrees(sol); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		if p.Value == "" || len(p.Optimal) == 0 || len(p.Known) == 0 {
			t.Errorf("%s: the file does not state its answers and how they are known", p.Name)
		}
		prior := 0.0
		for i, m := range sol.Moves {
			for _, o := range sol.Optimal {
				if m == o {
					prior += p.Priors(sol.Moves)[i]
				}
			}
		}
		switch p.Case {
		case "tiny-prior":
			if prior > 1e-9 {
				t.Errorf("%s: prior of the winning move %g, want below 1e-9", p.Name, prior)
			}
		case "normal-prior", "fpu":
			if prior < 0.01 {
				t.Errorf("%s: prior of the winning move %g, want at least 0.01", p.Name, prior)
			}
		}
		// The optimal line ends in a win for the player to move exactly
		// when the position is won.
		got := sol.Final.Score()
		blackWins := got > 0
		moverWins := blackWins == (p.ToMove == goboard.Black)
		if got != sol.FinalScore || moverWins != (sol.Value == 1) {
			t.Errorf("%s: final score %v with value %v for %v", p.Name, got, sol.Value, p.ToMove)
		}
	}
	if len(ps) < 20 {
		t.Errorf("%d positions, want at least 20", len(ps))
	}
	for _, c := range []string{"normal-prior", "tiny-prior", "fpu", "lost"} {
		if cases[c] == 0 {
			t.Errorf("no %s position", c)
		}
	}
}

// TestPassAliveArea checks the bound's Benson test on the base board of
// the positions: each big chain has two eyes and is pass-alive; with one
// eye filled it is not.
func TestPassAliveArea(t *testing.T) {
	p := readTestPositions(t)[0]
	_, b, err := p.Setup()
	if err != nil {
		t.Fatal(err)
	}
	blackStones := 0
	for m := range Size * Size {
		if b.At(m) == goboard.Black {
			blackStones++
		}
	}
	if got := passAliveArea(b, goboard.Black); got != blackStones+2 {
		t.Errorf("black pass-alive area %d, want %d stones + 2 eyes", got, blackStones)
	}
	eye, _ := goboard.ParseVertex("C13", Size)
	if err := b.PlayAs(goboard.Black, eye); err != nil {
		t.Fatal(err)
	}
	if got := passAliveArea(b, goboard.Black); got != 0 {
		t.Errorf("black pass-alive area with one eye left %d, want 0", got)
	}
}

// TestSolveSuperko: the setup's positions count for positional superko,
// and a move that recreates one is not listed.
func TestSolveSuperko(t *testing.T) {
	p := readTestPositions(t)[0]
	setup, b, _ := p.Setup()
	s := &solver{hist: map[uint64]int{}, tt: map[ttKey]float64{}, lim: SolveLimits{Nodes: 1000, MaxEmpty: 24}}
	before := len(s.moves(b))
	// Pretend the position after Black's first legal move was already seen.
	m := s.moves(b)[0]
	c := *b
	_ = c.Play(m)
	s.hist[c.Hash()]++
	if after := len(s.moves(b)); after != before-1 {
		t.Errorf("%d moves with %s's position in the history, want %d", after, Vertex(m), before-1)
	}
	if len(setup) != Size*Size-emptyCount(b) {
		t.Errorf("%d setup moves for %d stones", len(setup), Size*Size-emptyCount(b))
	}
}

func TestParsePositionsErrors(t *testing.T) {
	row := strings.Repeat("X ", 18) + "O\n"
	board := "board\n" + strings.Repeat(row, 18) + "X X X X X X X X X . O O O O O O O O O\n"
	for _, c := range []struct{ name, text, want string }{
		{"empty", "", "no positions"},
		{"no end", "position a\n", "no \"end\""},
		{"keyword", "position a\nfoo 1\nend\n", "unknown keyword"},
		{"short row", "position a\nboard\nX X\n", "board row 19"},
		{"no liberty", "position a\n" + strings.Replace(board, ".", "X", 1) + "end\n", "no empty point"},
		{"symmetry", "position a\nbias A1 1\nbias T19 2\n" + board + "end\n", "symmetric image"},
		{"wrong answer", "position a\n" + board + "value loss\nend\n", ""},
	} {
		_, err := ParsePositions(strings.NewReader(c.text))
		if c.want == "" {
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// fakeEngine writes a shell script that speaks enough GTP, run as
// "SCRIPT -v {visits} -s {seed}", and whose genmove does what odd says for
// odd seeds and even says for even seeds: "move X" answers X, "move X
// visits N" first lists the root children on stderr as Leela Zero does (X
// with 50 visits, K6 with N if N > 0), "move X amaf V" dumps its tree as
// Pachi does (X with 50 playouts, K6 with none and the AMAF value V over
// 1000 playouts), "crash" exits, "hang" sleeps (in a
// child process, whose id it writes to DIR/pid, after touching
// DIR/hanging), "garbage" writes a line that is no GTP reply.
func fakeEngine(t *testing.T, dir, odd, even string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	genmove := func(behaviour string) string {
		f := strings.Fields(behaviour)
		switch {
		case len(f) == 4 && f[0] == "move" && f[2] == "visits":
			list := fmt.Sprintf(`printf ' %s ->      50 (V: 50.00%%%%) (LCB: 49.28%%%%) (N: 16.67%%%%) PV: %s\n' >&2; `, f[1], f[1])
			if f[3] != "0" {
				list += fmt.Sprintf(`printf '  K6 ->      %s (V: 40.00%%%%) (LCB: 39.28%%%%) (N: 12.50%%%%) PV: K6\n' >&2; `, f[3])
			}
			return list + `printf '= %s\n\n' "` + f[1] + `"`
		case len(f) == 4 && f[0] == "move" && f[2] == "amaf":
			// Pachi's tree dump: the move played with 50 playouts, K6
			// unvisited with the AMAF value given over 1000 playouts.
			dump := `printf '(UCT tree; root white; extra komi 0.000000; max depth 3)\n[pass] 0.5/50 [prior 0.000/0 amaf 0.000/0 crit 0 vloss 0] h=0 c#=2\n' >&2; ` +
				fmt.Sprintf(`printf ' [%s] 0.400/50 [prior 0.500/20 amaf 0.410/900 crit 0 vloss 0] h=0 c#=0\n  [K6] 0.1/3 [prior 0.500/20 amaf 0.1/3 crit 0 vloss 0] h=0 c#=0\n' >&2; `, f[1]) +
				fmt.Sprintf(`printf ' [K6] 0.000/0 [prior 0.500/20 amaf %s/1000 crit 0 vloss 0] h=0 c#=0\nexpanded nodes: 2\n' >&2; `, f[3])
			return dump + `printf '= %s\n\n' "` + f[1] + `"`
		case len(f) == 2 && f[0] == "move":
			return `printf '= %s\n\n' "` + f[1] + `"`
		case behaviour == "crash":
			return "exit 3"
		case behaviour == "hang":
			return `touch "` + filepath.Join(dir, "hanging") + `"; sleep 600 & echo $! > "` + filepath.Join(dir, "pid") + `"; wait`
		case behaviour == "garbage":
			return `printf 'hello there\n\n'`
		}
		t.Fatalf("fakeEngine: unknown behaviour %q", behaviour)
		return ""
	}
	script := `#!/bin/sh
seed=$4
while read -r line; do
  case "$line" in
    genmove*) if [ $((seed % 2)) = 1 ]; then ` + genmove(odd) + `; else ` + genmove(even) + `; fi ;;
    quit*) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
`
	name := strings.NewReplacer(" ", "-", "=", "").Replace(odd + "_" + even)
	path := filepath.Join(dir, name+".sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path + " -v {visits} -s {seed}"
}

// TestFaults runs fake engines that crash, hang, answer garbage or an
// illegal move on even seeds and play the winning move on odd ones: each
// fault is reported with its kind, the run goes on, and no process is
// left behind.
func TestFaults(t *testing.T) {
	ps := readTestPositions(t)[:1] // pair-d2-r6-normal-prior: K6 wins
	dir := t.TempDir()
	for _, c := range []struct{ behaviour, kind string }{
		{"move A1", FaultIllegal},
		{"move Z99", FaultGarbage},
		{"crash", FaultCrash},
		{"hang", FaultTimeout},
		{"garbage", FaultGarbage},
	} {
		if c.behaviour == "hang" && testing.Short() {
			continue // waits for its timeout
		}
		cfg := Config{Command: fakeEngine(t, dir, "move K6", c.behaviour), Budgets: []int{1, 2}, Seeds: []int{1, 2}, Timeout: 20 * time.Second}
		if c.behaviour == "hang" {
			cfg.Timeout = 2 * time.Second
		}
		rep, err := Run(context.Background(), cfg, ps)
		if err != nil {
			t.Fatalf("%s: %v", c.behaviour, err)
		}
		trials := rep.Positions[0].Trials
		if len(trials) != 4 || rep.Stopped != "" {
			t.Fatalf("%s: %d trials, stopped %q; want 4 (the run goes on after a fault)", c.behaviour, len(trials), rep.Stopped)
		}
		for _, tr := range trials {
			if tr.Seed == 1 && (tr.Fault != "" || !tr.Optimal) || tr.Seed == 2 && (tr.FaultKind != c.kind || !strings.HasPrefix(tr.Fault, c.kind+": ")) {
				t.Errorf("%s, seed %d: fault %q of kind %q, want %q", c.behaviour, tr.Seed, tr.Fault, tr.FaultKind, c.kind)
			}
		}
		if rep.Faults != 2 || rep.Flagged() != 0 {
			t.Errorf("%s: %d faults, %d flagged; want 2, 0", c.behaviour, rep.Faults, rep.Flagged())
		}
		if c.behaviour == "hang" {
			data, err := os.ReadFile(filepath.Join(dir, "pid"))
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			// The hanging engine's child was killed with its group and
			// reaped by its parent's end (or is a zombie of init).
			// (A killed process takes a moment to disappear.)
			alive := func() bool { return running(pid) }
			for end := time.Now().Add(3 * time.Second); alive() && time.Now().Before(end); {
				time.Sleep(20 * time.Millisecond)
			}
			if alive() {
				t.Errorf("the hanging engine's child %d is still running", pid)
			}
		}
	}
}

// findLeelaZero returns the leelaz binary, or skips.
func findLeelaZero(t *testing.T) string {
	for _, p := range []string{os.Getenv("LEELAZ"), "leelaz", "/usr/games/leelaz"} {
		if p == "" {
			continue
		}
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Skip("leelaz is not installed (apt-get install leela-zero); skipping the Leela Zero check")
	return ""
}

// TestLeelaZero checks Leela Zero 0.17 with the project's networks on the
// three priors of one board at two budgets and one seed: no fault, every
// move legal, and on the tiny-prior position the only winning move is
// never played (the finding the check exists for). The CI run on every
// position is cli's TestEngineLeelaZero, through mctscheck engine.
func TestLeelaZero(t *testing.T) {
	lz := findLeelaZero(t)
	ps := readTestPositions(t)[:3]
	cfg := Config{
		Command: lz + " --cpu-only -g --noponder -d -r 0 --timemanage off -t 1 -v {visits} -s {seed} -w {network}",
		Budgets: []int{16, 2048}, Seeds: []int{1}, Timeout: 60 * time.Second,
	}
	rep, err := Run(context.Background(), cfg, ps)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rep.WriteText(&buf)
	t.Log("\n" + buf.String())
	if rep.Faults != 0 {
		t.Errorf("%d faults", rep.Faults)
	}
	for _, pr := range rep.Positions {
		if pr.Position.Case == "tiny-prior" && !strings.Contains(pr.Flag, "does not find") {
			t.Errorf("%s: Leela Zero found the move of prior %.2g (flag %q)", pr.Position.Name, pr.OptimalPrior, pr.Flag)
		}
	}
}

// TestGNUGoScores cross-checks the solver's final positions with GNU Go:
// each position's setup and optimal line are played into GNU Go (area
// rules, komi 7.5), whose final_score must equal the board's score; the
// positions of all the files (with -short, two boards and the first
// RAVE position). The board's score is Tromp-Taylor's, where a dame is no
// one's; GNU Go's final_score fills the dames (its final_status_list
// dame) in turn from the player to move, so an odd number of them gives
// that player one point more.
func TestGNUGoScores(t *testing.T) {
	path := gtp.FindGNUGo()
	if path == "" {
		t.Skip("gnugo is not installed (apt-get install gnugo); skipping the GNU Go cross-check")
	}
	ps := readTestPositions(t)
	rave := readRAVEPositions(t)
	seen := map[string]bool{}
	checked := 0
	for i, p := range append(ps, rave...) {
		key := fmt.Sprint(p.Stones, p.ToMove)
		if seen[key] || testing.Short() && checked >= 2 && i != len(ps) {
			continue
		}
		seen[key] = true
		sol, err := p.Solve(SolveLimits{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := gtp.Start(nil, path, "--mode", "gtp", "--chinese-rules", "--komi", "7.5")
		if err != nil {
			t.Fatal(err)
		}
		setup, _, _ := p.Setup()
		cmds := []string{"boardsize 19", "clear_board", "komi 7.5"}
		for _, m := range setup {
			cmds = append(cmds, "play "+m.GTP())
		}
		color := p.ToMove
		for _, m := range sol.Line {
			cmds = append(cmds, fmt.Sprintf("play %s %s", map[goboard.Color]string{goboard.Black: "b", goboard.White: "w"}[color], Vertex(m)))
			color = color.Opponent()
		}
		for _, cmd := range cmds {
			if _, err := c.Send(cmd); err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
		}
		dame, err := c.Send("final_status_list dame")
		if err != nil {
			t.Fatalf("%s: final_status_list dame: %v", p.Name, err)
		}
		got, err := c.Send("final_score")
		_ = c.Close()
		if err != nil {
			t.Fatalf("%s: final_score: %v", p.Name, err)
		}
		want := sol.FinalScore
		if len(strings.Fields(dame))%2 == 1 {
			want += map[goboard.Color]float64{goboard.Black: 1, goboard.White: -1}[color]
		}
		if got != scoreString(want) {
			t.Errorf("%s: GNU Go's final_score %s, the board's %s with the dames %q filled in turn from %v", p.Name, got, scoreString(want), dame, color)
		}
		checked++
	}
	t.Logf("%d final positions agree with GNU Go's final_score", checked)
}

// scoreString writes a score as GTP's final_score does: "B+1.5", "W+0.5".
func scoreString(s float64) string {
	switch {
	case s > 0:
		return "B+" + strconv.FormatFloat(s, 'f', 1, 64)
	case s < 0:
		return "W+" + strconv.FormatFloat(-s, 'f', 1, 64)
	}
	return "0"
}

// TestFlag checks the findings: a share that stays at 0 (at the budgets
// where a trial did not fault), and one that falls as the budget grows.
func TestFlag(t *testing.T) {
	p := readTestPositions(t)[0]
	sol := &Solution{Moves: []int{1, 2, 361}, Optimal: []int{2}, Value: 1}
	cfg := Config{Budgets: []int{4, 8, 16}, Seeds: []int{1, 2}}
	mk := func(optimal ...string) *PositionResult {
		pr := &PositionResult{Position: p, Solution: sol}
		for i, o := range optimal {
			tr := Trial{Budget: cfg.Budgets[i/2], Seed: i%2 + 1, Optimal: o == "y"}
			if o == "f" {
				tr.Fault, tr.FaultKind = "crash: gone", FaultCrash
			}
			pr.Trials = append(pr.Trials, tr)
		}
		return pr
	}
	for _, c := range []struct {
		trials []string
		want   string
	}{
		{[]string{"n", "n", "n", "n", "n", "n"}, "0 of 2 seeds at every budget up to 2^4 visits: the engine does not find the only winning move C1"},
		{[]string{"y", "y", "y", "n", "n", "n"}, "the share of the only winning move C1 falls from 2/2 at 2^2 visits to 0/2 at 2^4 visits"},
		{[]string{"n", "n", "y", "n", "y", "y"}, ""},
		// Only the last budget faulted: the flag is about the budgets that ran.
		{[]string{"n", "n", "n", "n", "f", "f"}, "0 of 2 seeds at every budget up to 2^3 visits: the engine does not find the only winning move C1 (every trial at 2^4 visits faulted)"},
		{[]string{"n", "f", "n", "f", "f", "f"}, "0 of 1 seed at every budget up to 2^3 visits"},
		{[]string{"f", "f", "f", "f", "f", "f"}, ""},
	} {
		if got := flag(mk(c.trials...), cfg); c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
			t.Errorf("trials %v: flag %q, want %q", c.trials, got, c.want)
		}
	}
}
