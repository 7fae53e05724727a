package cli

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/games/connect4"
)

// The end-game and the middle-game easy test sets.
const (
	setL3 = "../games/connect4/testdata/Test_L3_R1"
	setL2 = "../games/connect4/testdata/Test_L2_R1"
)

// Late positions of Test_L3_R1 (lines 1 and 2), quick to solve: a loss by
// 1 and a win by 1 for the player to move.
const (
	late1 = "2252576253462244111563365343671351441"
	late2 = "7422341735647741166133573473242566"
)

// TestSolvePositions: solve -positions prints each position and its score
// as Pons' solver does, agrees with the files' scores on two whole sets
// with one solver (one table) for each, and ends with the "#" summary.
func TestSolvePositions(t *testing.T) {
	for _, set := range []struct{ file, table string }{
		{setL3, "table 512 KiB of at most 128 MiB"}, // the start size: sized to the work
		{setL2, "table 2 MiB of at most 128 MiB"},   // grown once
	} {
		want, err := os.ReadFile(set.file)
		if err != nil {
			t.Fatal(err)
		}
		r := mctscheck(t, "", "solve", "-game", "connect4", "-positions", set.file)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("%s: exit %d, stderr %q", set.file, r.code, r.stderr)
		}
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		last := lines[len(lines)-1]
		if got := strings.Join(lines[:len(lines)-1], "\n") + "\n"; got != string(want) {
			t.Errorf("%s: the output differs from the set's scores", set.file)
		}
		if !strings.HasPrefix(last, "# 1000 positions, ") || !strings.HasSuffix(last, set.table) {
			t.Errorf("%s: summary %q, want it to end %q", set.file, last, set.table)
		}
	}
}

// TestSolvePositionsAnalyze: -analyze prints every column's score, as
// solve -moves gives them, x for a full column; a score that differs from
// the file's is a finding.
func TestSolvePositionsAnalyze(t *testing.T) {
	in := "# two positions\n" + late1 + "\n\n" + late2 + " 2\n"
	r := mctscheck(t, in, "solve", "-game", "connect4", "-positions", "-", "-analyze")
	if r.code != 1 { // late2 is a win by 1, not 2
		t.Fatalf("exit %d, want 1; stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(r.stdout, "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[2], "# 2 positions") {
		t.Fatalf("output %q, want two positions and a summary", r.stdout)
	}
	for i, moves := range []string{late1, late2} {
		one := mctscheck(t, "", "solve", "-game", "connect4", "-moves", moves, "-json")
		var doc solveGameDoc
		if err := json.Unmarshal([]byte(one.stdout), &doc); err != nil {
			t.Fatal(err)
		}
		p := connect4.MustParse(moves)
		want := moves
		for c := 1; c <= connect4.Width; c++ {
			if p.CanPlay(c - 1) {
				want += " " + strconv.Itoa(doc.Scores[strconv.Itoa(c)])
			} else {
				want += " x"
			}
		}
		if lines[i] != want {
			t.Errorf("analyze line %q, want %q (from solve -moves)", lines[i], want)
		}
	}
	if !strings.Contains(lines[0], " x") {
		t.Errorf("%q: %s has a full column, want an x", lines[0], late1)
	}
	if !strings.Contains(r.stderr, "-positions: stdin:4: "+late2+": score 1, the file says 2") ||
		!strings.Contains(r.stderr, "1 of 2 scores differ from -'s") {
		t.Errorf("stderr %q, want the disagreement and the count", r.stderr)
	}
}

// TestSolvePositionsJSON: the document has a position per line with its
// score, nodes and time, and the totals; the file's score is "expected".
func TestSolvePositionsJSON(t *testing.T) {
	r := mctscheck(t, late1+" -1\n1212121\n", "solve", "-game", "connect4", "-positions", "-", "-json")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	var doc solvePositionsDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Count != 2 || len(doc.Positions) != 2 || doc.Disagreements != 0 || doc.File != "-" || doc.Game != "connect4" {
		t.Fatalf("document %+v", doc)
	}
	p := doc.Positions[0]
	if p.Position != late1 || p.Score != -1 || p.Expected == nil || *p.Expected != -1 || p.Nodes <= 0 || p.Scores != nil {
		t.Errorf("first position %+v", p)
	}
	if q := doc.Positions[1]; q.Score != -18 || q.Expected != nil || q.Nodes != 0 { // over: the first player won with 4 stones
		t.Errorf("second position %+v", q)
	}
	if doc.Nodes != p.Nodes || doc.TableBytes != 512<<10 || doc.MaxTableBytes != 128<<20 {
		t.Errorf("totals: nodes %d, table %d of %d", doc.Nodes, doc.TableBytes, doc.MaxTableBytes)
	}
}

// TestSolvePositionsErrors: bad flags and files exit 2, a budget or time
// run out exits 3, each with one line that names the cause.
func TestSolvePositionsErrors(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		code  int
		want  string
	}{
		{[]string{"-positions", ""}, "", 2, "-positions: missing"},
		{[]string{"-positions", "none.txt"}, "", 2, "-positions: open none.txt"},
		{[]string{"-positions", "-"}, "44x\n", 2, `-positions: stdin:1: move string offset 2: "x" is not a column`},
		{[]string{"-positions", "-"}, "\n# none\n", 2, "-positions: stdin: no positions"},
		{[]string{"-positions", "-", "-table-bits", "9"}, "4\n", 2, "-table-bits: Config.TableBits 9"},
		{[]string{"-positions", "-", "-max-nodes", "-1"}, "4\n", 2, "-max-nodes -1"},
		{[]string{"-positions", "-", "-timeout", "-1s"}, "4\n", 2, "-timeout -1s"},
		{[]string{"-positions", "-", "-bogus"}, "4\n", 2, "flag provided but not defined: -bogus"},
		{[]string{"-positions", "-", "-max-nodes", "1000"}, late1 + "\n\n4\n", 3,
			"-positions: stdin:3: 4: no value: the solver ran out of its budget of 1000 positions (-max-nodes)"},
		{[]string{"-positions", "-", "-timeout", "1ms"}, "\n", 2, "no positions"},
		{[]string{"-positions", "-", "-timeout", "1ms"}, "4\n", 3, "no value: the solver ran out of its time (-timeout 1ms)"},
	}
	for _, tt := range tests {
		args := append([]string{"solve", "-game", "connect4"}, tt.args...)
		r := mctscheck(t, tt.stdin, args...)
		if r.code != tt.code || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and one line containing %q", tt.args, r.code, r.stderr, tt.code, tt.want)
		}
	}
}

// TestSolvePositionsHelp: the usage of -positions, and solve -game's
// usage points to it.
func TestSolvePositionsHelp(t *testing.T) {
	r := mctscheck(t, "", "solve", "-game", "connect4", "-positions", "-", "-h")
	if r.code != 0 || !strings.Contains(r.stdout, "Usage: mctscheck solve -game connect4 -positions FILE") || !strings.Contains(r.stdout, "-analyze") {
		t.Errorf("solve -positions -h: exit %d, %q", r.code, r.stdout)
	}
	r = mctscheck(t, "", "solve", "-game", "connect4", "-h")
	if !strings.Contains(r.stdout, "mctscheck solve -game connect4 -positions FILE") {
		t.Errorf("solve -game -h does not mention -positions: %q", r.stdout)
	}
}
