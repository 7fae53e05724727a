package connect4

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
)

// outsideEnv names the environment variable that gives TestOutside a file
// of positions scored outside this repository.
const outsideEnv = "MCTSCHECK_C4_SCORES"

// ponsInvalid is the score Pons' solver gives, with -a, to a column that
// cannot be played.
const ponsInvalid = -1000

// TestOutside checks the solver against scores computed outside this
// repository: the file that MCTSCHECK_C4_SCORES names, one position a line,
// either "MOVES SCORE" (Pons' test sets, and his c4solver's output) or
// "MOVES S1 … S7" (c4solver -a: each column's score for the player to
// move, -1000 for a full column), such as Pascal Pons' own solver writes
// for positions scored outside this repository. Without the variable it is
// skipped.
func TestOutside(t *testing.T) {
	path := os.Getenv(outsideEnv)
	if path == "" {
		t.Skipf("set %s to a file of scored positions", outsideEnv)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := newSolver(t, Config{})
	ctx := context.Background()
	n, single, moves := 0, 0, 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 && len(fields) != 1+Width {
			t.Fatalf("%s:%d: %d fields, want MOVES SCORE or MOVES and %d scores", path, line, len(fields), Width)
		}
		p, err := Parse(fields[0])
		if err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		var want []int
		for _, f := range fields[1:] {
			v, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
			want = append(want, v)
		}
		n++
		if len(want) == 1 {
			single++
			got, err := s.Score(ctx, p)
			if err != nil || got != want[0] {
				t.Errorf("%s:%d: %s: score %d, %v; want %d", path, line, fields[0], got, err, want[0])
			}
			continue
		}
		ms, err := s.Moves(ctx, p)
		if err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		got := []int{ponsInvalid, ponsInvalid, ponsInvalid, ponsInvalid, ponsInvalid, ponsInvalid, ponsInvalid}
		for _, m := range ms {
			got[m.Column] = m.Score
			moves++
		}
		for c := range Width {
			if got[c] != want[c] {
				t.Errorf("%s:%d: %s: column %d scores %d, want %d", path, line, fields[0], c+1, got[c], want[c])
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("%s: no positions", path)
	}
	t.Logf("%s: %d positions compared (%d of them move by move, %d moves)", path, n, n-single, moves)
}
