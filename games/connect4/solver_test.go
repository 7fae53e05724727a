package connect4

import (
	"bufio"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// longEnv names the environment variable that, set to 1, turns on the long
// versions of the tests.
const longEnv = "MCTSCHECK_LONG"

// long reports whether the long tests are on.
func long() bool { return os.Getenv(longEnv) == "1" }

// setNames are Pons' six test sets in testdata (files Test_<name>): end,
// middle, then beginning of the game, each easiest first.
var setNames = []string{"L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3"}

// solveSample reports whether TestSolverSets and TestSolverMoves solve the
// i-th position (0-based) of set name, which is on line i+1. The end and
// middle sets and L1_R1 take at most a few thousand nodes a position, and are
// solved whole (-short: every tenth position). L1_R2 takes about a million
// nodes a position and L1_R3 tens of millions, so only samples of them are:
// L1_R2 every 100th position (-short: every 250th; MCTSCHECK_LONG=1: all,
// minutes of CPU), and L1_R3 the lines in l1r3Sample (-short: its first
// three; MCTSCHECK_LONG=1: every 10th position, about ten minutes).
func solveSample(name string, i int) bool {
	switch name {
	case "L1_R2":
		switch {
		case long():
			return true
		case testing.Short():
			return i%250 == 0
		}
		return i%100 == 0
	case "L1_R3":
		switch {
		case long():
			return i%10 == 0
		case testing.Short():
			return slices.Contains(l1r3Sample[:3], i+1)
		}
		return slices.Contains(l1r3Sample, i+1)
	}
	return !testing.Short() || i%10 == 0
}

// l1r3Sample are the lines of Test_L1_R3 whose positions this solver solves
// in fewer than 300,000 nodes from an empty table: the nine cheapest of the
// set, so that the default test run can afford them.
var l1r3Sample = []int{700, 927, 380, 282, 906, 404, 453, 276, 580}

// setPosition is one line of a test set.
type setPosition struct {
	line  int
	moves string
	pos   Position
	score int
}

// readSet reads testdata/Test_<name>.
func readSet(tb testing.TB, name string) []setPosition {
	tb.Helper()
	path := filepath.Join("testdata", "Test_"+name)
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []setPosition
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			tb.Fatalf("%s:%d: %d fields, want 2", path, line, len(fields))
		}
		p, err := Parse(fields[0])
		if err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		score, err := strconv.Atoi(fields[1])
		if err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, setPosition{line: line, moves: fields[0], pos: p, score: score})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(out) != 1000 {
		tb.Fatalf("%s: %d positions, want 1000", path, len(out))
	}
	return out
}

// newSolver returns a solver or fails the test.
func newSolver(tb testing.TB, c Config) *Solver {
	tb.Helper()
	s, err := NewSolver(c)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestSolverSets checks the solver against Pons' six test sets in testdata,
// on the exact score and so on win, draw or loss: every position of the end
// and middle sets and of L1_R1, and samples of L1_R2 and L1_R3 (see
// solveSample). Each position is solved from an empty table, and the test
// logs the median and maximum time per position of each set.
func TestSolverSets(t *testing.T) {
	s := newSolver(t, Config{})
	for _, name := range setNames {
		set := readSet(t, name)
		var times []time.Duration
		var nodes []int64
		for i, sp := range set {
			if !solveSample(name, i) {
				continue
			}
			s.Reset()
			t0 := time.Now()
			got, err := s.Score(context.Background(), sp.pos)
			times = append(times, time.Since(t0))
			nodes = append(nodes, s.Nodes())
			if err != nil {
				t.Fatalf("%s:%d %s: %v", name, sp.line, sp.moves, err)
			}
			if got != sp.score || Value(got) != Value(sp.score) {
				t.Errorf("%s:%d %s: score %d (value %v), want %d (value %v)", name, sp.line, sp.moves, got, Value(got), sp.score, Value(sp.score))
			}
		}
		slices.Sort(times)
		slices.Sort(nodes)
		t.Logf("set=%s: %d positions; time per position median %v, max %v; nodes median %d, max %d",
			name, len(times), times[len(times)/2], times[len(times)-1], nodes[len(nodes)/2], nodes[len(nodes)-1])
	}
}

// TestSolverMinimax checks the solver against plain minimax (grid.minimax:
// no pruning, no table, no bitboards) on random positions of 30 to 35
// stones, which are not in Pons' sets; with MCTSCHECK_LONG=1 on more of
// them, from 29 stones.
func TestSolverMinimax(t *testing.T) {
	r := rand.New(rand.NewPCG(2024, 4))
	s := newSolver(t, Config{TableBits: 16})
	n, from := 200, 30
	if long() {
		n, from = 2000, 29
	} else if testing.Short() {
		n, from = 40, 32
	}
	seen := map[int]int{} // how many positions scored each value
	for i := range n {
		p := randomPosition(r, from+i%(36-from))
		want := gridOf(t, p.String()).minimax()
		s.Reset()
		got, err := s.Score(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if got != want {
			t.Errorf("%s: solver %d, minimax %d", p, got, want)
		}
		seen[want]++
	}
	if len(seen) < 10 {
		t.Errorf("the random positions have only %d distinct scores: %v", len(seen), seen)
	}
}

// TestSolverMoves checks that a position's score is the maximum of its
// moves' scores (Moves solves each child separately), on a fixed sample of
// each test set (movesSample) and on random positions.
func TestSolverMoves(t *testing.T) {
	s := newSolver(t, Config{})
	ctx := context.Background()
	check := func(what string, p Position) {
		t.Helper()
		want, err := s.Score(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		moves, err := s.Moves(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		best := -100
		for i, m := range moves {
			if i > 0 && m.Column <= moves[i-1].Column {
				t.Errorf("%s: Moves not in increasing columns: %v", what, moves)
			}
			if !p.CanPlay(m.Column) {
				t.Errorf("%s: Moves lists column %d, which cannot be played", what, m.Column)
			}
			if m.Value() != Value(m.Score) {
				t.Errorf("%s: %+v: Value() %v", what, m, m.Value())
			}
			best = max(best, m.Score)
		}
		legal := 0
		for c := range Width {
			if p.CanPlay(c) {
				legal++
			}
		}
		if len(moves) != legal {
			t.Errorf("%s: %d moves, want %d", what, len(moves), legal)
		}
		if best != want {
			t.Errorf("%s: score %d, best move %d: %v", what, want, best, moves)
		}
	}
	for _, name := range setNames {
		for i, sp := range readSet(t, name) {
			if !movesSample(name, i) {
				continue
			}
			check(name+":"+strconv.Itoa(sp.line)+" "+sp.moves, sp.pos)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 100 {
		p := randomPosition(r, 14+i%28)
		check(p.String(), p)
	}
}

// movesSample reports whether TestSolverMoves checks the i-th position of
// set name: every 50th of the end and middle sets (MCTSCHECK_LONG=1: all).
// In the beginning sets the best move often wins quickly, but the other
// moves lead to early positions that take seconds to solve, so only the
// lines in movesLines are checked (MCTSCHECK_LONG=1: every 50th, tens of
// minutes of CPU).
func movesSample(name string, i int) bool {
	lines, begin := movesLines[name]
	switch {
	case begin && long():
		return i%50 == 0
	case begin:
		return slices.Contains(lines, i+1)
	case long():
		return true
	}
	return i%50 == 0
}

// movesLines are, for the beginning sets, lines whose positions Moves
// solves in well under a second.
var movesLines = map[string][]int{
	"L1_R1": {51, 601, 901},
	"L1_R2": {1},
	"L1_R3": {380, 927},
}

func TestSolverOver(t *testing.T) {
	s := newSolver(t, Config{TableBits: MinTableBits})
	tests := []struct {
		moves string
		want  int
	}{
		{"1212121", -18},     // first player won with 4 stones
		{"12121213", 0},      // not over: the grid below decides
		{"2121212", -18},     // first player won with 4 stones
		{"62121212", -18},    // second player won with 4 stones
		{"1122334", -18},     //
		{"12233434544", -16}, // first player won with 6 stones
		{fullDraw, 0},
		{fullDraw[:41], 0}, // one move left, no win in it
	}
	for _, tt := range tests {
		p, err := Parse(tt.moves)
		if err != nil {
			continue // not a position: the case is for Parse
		}
		got, err := s.Score(context.Background(), p)
		if err != nil || got != tt.want {
			t.Errorf("Score(%q) = %d, %v; want %d", tt.moves, got, err, tt.want)
		}
		moves, err := s.Moves(context.Background(), p)
		if err != nil || (p.Over() && moves != nil) {
			t.Errorf("Moves(%q) = %v, %v; want none for a position that is over", tt.moves, moves, err)
		}
	}
}

func TestValue(t *testing.T) {
	got := []float64{Value(-21), Value(-1), Value(0), Value(1), Value(18)}
	if diff := cmp.Diff([]float64{0, 0, 0.5, 1, 1}, got); diff != "" {
		t.Errorf("Value (-want +got):\n%s", diff)
	}
}

func TestNewSolver(t *testing.T) {
	tests := []struct {
		c       Config
		bytes   int
		wantErr string
	}{
		{Config{}, 512 << 10, ""}, // grows to 128 MiB
		{Config{TableBits: MinTableBits}, 8 << 10, ""},
		{Config{TableBits: 20, MaxNodes: 5}, 512 << 10, ""},
		{Config{TableBits: 9}, 0, "connect4: Config.TableBits 9, want 10 to 26, or 0 for 24"},
		{Config{TableBits: 27}, 0, "connect4: Config.TableBits 27, want 10 to 26, or 0 for 24"},
		{Config{TableBits: -1}, 0, "connect4: Config.TableBits -1"},
		{Config{MaxNodes: -1}, 0, "connect4: Config.MaxNodes -1, want ≥ 0 (0: no bound)"},
	}
	for _, tt := range tests {
		s, err := NewSolver(tt.c)
		if tt.wantErr != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) || s != nil {
				t.Errorf("NewSolver(%+v) = %v, %v; want nil and an error starting %q", tt.c, s, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("NewSolver(%+v): %v", tt.c, err)
			continue
		}
		if s.TableBytes() != tt.bytes {
			t.Errorf("NewSolver(%+v).TableBytes() = %d, want %d", tt.c, s.TableBytes(), tt.bytes)
		}
	}
}

// hard is the position of the test sets that takes most nodes to solve from
// an empty table, about 10⁶: L2_R2 line 229, a draw.
const hard = "731334226141141"

// TestSolverBudget checks that a search that runs out of nodes or time
// returns an error, not a value, and leaves the solver usable and its table
// sound.
func TestSolverBudget(t *testing.T) {
	p := MustParse(hard)
	ref := newSolver(t, Config{TableBits: 20})
	want, err := ref.Score(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	need := ref.Nodes()
	if need < 10000 {
		t.Fatalf("%s takes only %d nodes", hard, need)
	}

	s := newSolver(t, Config{TableBits: 20, MaxNodes: 5000})
	for range 3 {
		v, err := s.Score(context.Background(), p)
		if !errors.Is(err, ErrBudget) || v != 0 {
			t.Fatalf("Score with a budget of 5000 nodes = %d, %v; want 0 and ErrBudget", v, err)
		}
		if s.Nodes() > 5001 {
			t.Errorf("Score with a budget of 5000 nodes searched %d", s.Nodes())
		}
	}
	if ms, err := s.Moves(context.Background(), p); !errors.Is(err, ErrBudget) || ms != nil {
		t.Errorf("Moves with a budget of 5000 nodes = %v, %v; want nil and ErrBudget", ms, err)
	}
	// The bounds stored before the budget ran out are sound: a solver with
	// the same table and a large budget finds the exact score.
	s.maxNodes = 10 * need
	if got, err := s.Score(context.Background(), p); err != nil || got != want {
		t.Errorf("Score after budget errors = %d, %v; want %d", got, err, want)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.Reset()
	v, err := s.Score(ctx, p)
	if !errors.Is(err, context.Canceled) || v != 0 || s.Nodes() > 1 {
		t.Errorf("Score with a cancelled context = %d, %v after %d nodes; want 0 and context.Canceled at once", v, err, s.Nodes())
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	<-ctx.Done()
	if _, err := s.Moves(ctx, p); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Moves with an expired context: %v, want context.DeadlineExceeded", err)
	}
}

// median is the position of L2_R2 that takes the median number of nodes
// from an empty table, about 13,000: line 312, a loss by 5.
const median = "125775554151456"

// TestSolverReset checks that Reset empties the table, also when the
// generation counter wraps around. The table's size is its start size, so
// that it does not grow between the solves compared.
func TestSolverReset(t *testing.T) {
	p := MustParse(median)
	s := newSolver(t, Config{TableBits: startTableBits})
	ctx := context.Background()
	want, err := s.Score(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	cold := s.Nodes()
	if _, err := s.Score(ctx, p); err != nil || s.Nodes() >= cold/10 {
		t.Errorf("a second solve of %s searched %d nodes (%v), the first %d: the table did not help", median, s.Nodes(), err, cold)
	}
	for i := range 2 * genLimit {
		s.Reset()
		if i%61 != 0 {
			continue
		}
		if got, err := s.Score(ctx, p); err != nil || got != want || s.Nodes() != cold {
			t.Errorf("after %d resets: score %d (%v) in %d nodes, want %d in %d", i+1, got, err, s.Nodes(), want, cold)
		}
	}
}

// TestSolverAllocs checks that a solve does not allocate.
func TestSolverAllocs(t *testing.T) {
	s := newSolver(t, Config{TableBits: 16})
	p := MustParse(readSet(t, "L2_R1")[0].moves)
	allocs := testing.AllocsPerRun(10, func() {
		s.Reset()
		if _, err := s.Score(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Score allocates %v times per solve", allocs)
	}
}

// TestSolverTableGrows checks that the table is sized to the work: an easy
// position leaves it at its start size, a hard one grows it up to
// Config.TableBits and no further, and growing keeps what it holds, so a
// second solve of the same position is all table hits.
func TestSolverTableGrows(t *testing.T) {
	ctx := context.Background()
	s := newSolver(t, Config{TableBits: 19}) // 4 MiB at most
	if s.TableBytes() != 512<<10 || s.MaxTableBytes() != 4<<20 {
		t.Fatalf("TableBytes %d, MaxTableBytes %d; want 512 KiB and 4 MiB", s.TableBytes(), s.MaxTableBytes())
	}
	easy := readSet(t, "L3_R1")[0]
	if got, err := s.Score(ctx, easy.pos); err != nil || got != easy.score {
		t.Fatalf("%s: %d, %v; want %d", easy.moves, got, err, easy.score)
	}
	if s.TableBytes() != 512<<10 {
		t.Errorf("an easy position grew the table to %d bytes", s.TableBytes())
	}
	p := MustParse(median)
	want, err := newSolver(t, Config{TableBits: 20}).Score(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	grown := 0
	for range 20 { // about 13,000 nodes each: grows past 2^16 stores
		s.Reset()
		if got, err := s.Score(ctx, p); err != nil || got != want {
			t.Fatalf("%s: %d, %v; want %d", median, got, err, want)
		}
		grown = max(grown, s.TableBytes())
	}
	hard := MustParse(hard)
	if _, err := s.Score(ctx, hard); err != nil {
		t.Fatal(err)
	}
	if s.TableBytes() != 4<<20 || grown <= 512<<10 {
		t.Errorf("table %d bytes after the hard position (largest before %d), want 4 MiB, grown earlier", s.TableBytes(), grown)
	}
	first := s.Nodes()
	if _, err := s.Score(ctx, hard); err != nil || s.Nodes() > first/100 {
		t.Errorf("a second solve of %s searched %d nodes (%v), the first %d: the grown table lost them", hard, s.Nodes(), err, first)
	}
}
