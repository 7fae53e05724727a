package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/props"
)

// l3 is Pons' L3_R1 test set, end-game positions whose trees are small.
// l3 is relative to cmd/mctscheck, the command's directory, where the
// golden documents, which hold the path, were made: the tests that use it
// run there (inCommandDir).
const l3 = "../../games/connect4/testdata/Test_L3_R1"

// inCommandDir runs the rest of the test in cmd/mctscheck.
func inCommandDir(t *testing.T) {
	t.Chdir(filepath.Dir(commandDoc))
}

// greedyWitness is line 9 of L3_R1, on which greedy-fpu's seed 3, in the
// move order drawn from 3, never tries the winning move again.
const greedyWitness = "233377345754465174223731671122611552"

// TestGameGolden pins the -json documents of solve -game and check -game.
func TestGameGolden(t *testing.T) {
	inCommandDir(t)
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"solve_connect4", []string{"solve", "-json", "-game", "connect4", "-moves", "7422341735647741166133573473242566"}, 0},
		{"solve_connect4_over", []string{"solve", "-json", "-game", "connect4", "-moves", "1212121"}, 0},
		{"check_connect4", []string{"check", "-json", "-rule", "uct", "-game", "connect4", "-positions", l3, "-limit", "3", "-seeds", "2", "-budget", "1024"}, 0},
		{"check_connect4_witness", []string{"check", "-json", "-rule", "greedy-fpu", "-game", "connect4", "-moves", greedyWitness,
			"-seed", "3", "-seeds", "1", "-order", "3"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "check_connect4_witness" && small() {
				// Most of the test's time under -race; TestGameText checks
				// the same witness at a smaller budget.
				t.Skip("-race or -short: the witness's golden document is checked in the normal run")
			}
			r := mctscheck(t, "", tt.args...)
			if r.code != tt.code {
				t.Fatalf("mctscheck %s: exit %d, want %d\nstderr: %s", strings.Join(tt.args, " "), r.code, tt.code, r.stderr)
			}
			golden(t, tt.name, normalize(t, r.stdout))
		})
	}
}

// TestGameSchemaDocumented: every JSON name of the game documents' types
// is in the schema of doc.go (TestSchemaDocumented reads the golden files).
func TestGameSchemaDocumented(t *testing.T) {
	doc, err := os.ReadFile(commandDoc)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{solveGameDoc{}, checkGameDoc{}, gameOptionsDoc{}, gameTotal{}, gameShare{},
		props.PositionReport{}, props.PositionWitness{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if !bytes.Contains(doc, []byte(`"`+name+`"`)) {
				t.Errorf("%s.%s: field %q is not in the schema of doc.go", typ, typ.Field(i).Name, name)
			}
		}
	}
}

// TestGameErrors: bad moves, files, scores and flags exit 2 with one line
// that names them; a solver out of its budget or time exits 3, never with
// a value.
func TestGameErrors(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		code  int
		want  string
	}{
		{[]string{"solve", "-game", "chess", "-moves", "1"}, "", 2, `-game "chess": unknown game (games: connect4, goN[:komi=K,cap=M])`},
		{[]string{"solve", "-game", "connect4"}, "", 2, "-moves: missing"},
		{[]string{"solve", "-game", "connect4", "-moves", "4458"}, "", 2, `-moves: move string offset 3: "8" is not a column, want 1 to 7`},
		{[]string{"solve", "-game", "connect4", "-moves", "4444444"}, "", 2, "-moves: move string offset 6: column 4 is full"},
		{[]string{"solve", "-game", "connect4", "-moves", "12121212"}, "", 2, "-moves: move string offset 7: column 2 played after the game was won at offset 6"},
		{[]string{"solve", "-game", "connect4", "-moves", "4", "-table-bits", "40"}, "", 2, "-table-bits: Config.TableBits 40"},
		{[]string{"solve", "-game", "connect4", "-moves", "", "-max-nodes", "10000"}, "", 3, "no value: the solver ran out of its budget of 10000 positions (-max-nodes)"},
		{[]string{"solve", "-game", "connect4", "-moves", "4", "-timeout", "1ms"}, "", 3, "no value: the solver ran out of its time (-timeout 1ms)"},
		{[]string{"check", "-rule", "uct", "-game", "connect4"}, "", 2, "-positions, -moves: give one"},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-moves", "1", "-positions", l3}, "", 2, "-positions, -moves: give one"},
		{[]string{"check", "-game", "connect4", "-moves", "1"}, "", 2, "-rule: missing"},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-moves", "9"}, "", 2, `-moves: move string offset 0: "9" is not a column`},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-moves", "1212121"}, "", 2, `-moves: position "1212121": the game is over`},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-positions", l3, "-limit", "-1"}, "", 2, "-limit -1"},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-moves", "1", "-limit", "3"}, "", 2, "-limit: only with -positions"},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-moves", "1", "-order", "2", "-keep-order"}, "", 2, "-order, -keep-order: give one"},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-moves", "1", "-budget", "1000"}, "", 2, "-budget 1000"},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-positions", "-"}, "# nothing\n\n", 2, "-positions: stdin: no positions"},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-positions", "-"}, "# a comment\n1234 5 6\n", 2, "-positions: stdin:2: 3 fields, want MOVES or MOVES SCORE"},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-positions", "-"}, "1234\n12x4 1\n", 2, `-positions: stdin:2: move string offset 2: "x" is not a column`},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-positions", "-"}, "1234 one\n", 2, `-positions: stdin:1: score "one", want an integer`},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-positions", "-", "-budget", "1024"}, "2252576253462244111563365343671351441 1\n", 2,
			"-positions: stdin:1: score 1 says a win for the player to move, the solver a loss"},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-moves", "4", "-max-nodes", "1000"}, "", 2,
			`-moves: props: position too deep for the oracle's budget: position "4": its child 0 is beyond it (raise -max-nodes)`},
		{[]string{"check", "-rule", "uct", "-game", "connect4", "-positions", "none.txt"}, "", 2, "-positions: open none.txt"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := mctscheck(t, tt.stdin, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d", r.code, tt.code)
			}
			if !strings.HasPrefix(r.stderr, "mctscheck: ") || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("stderr %q, want one line starting with mctscheck: ", r.stderr)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr %q, want it to contain %q", r.stderr, tt.want)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q, want nothing", r.stdout)
			}
		})
	}
}

// TestGameText checks the text forms of solve -game and check -game, and
// that a game witness's replay line gives it again.
func TestGameText(t *testing.T) {
	inCommandDir(t)
	r := mctscheck(t, "", "solve", "-game", "connect4", "-moves", "7422341735647741166133573473242566")
	for _, want := range []string{"position  7422341735647741166133573473242566: 34 stones, first player to move",
		"value     1: a win for the player to move, score 1", "column  value  score  optimal", "1234567"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("solve: no %q in\n%s", want, r.stdout)
		}
	}
	budget := "16384"
	if small() {
		budget = "2048" // an eighth of the time, the same witness
	}
	r = mctscheck(t, "", "check", "-rule", "greedy-fpu", "-game", "connect4", "-positions", l3, "-limit", "9", "-seeds", "4", "-budget", budget)
	if r.code != 0 {
		t.Fatalf("check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"POSITION", "VERDICT", budget, "total", "1/0/8", "prediction reproduced",
		`greedy-fpu:fpu=1 is inconsistent (Eq. 5) on connect4 position "` + greedyWitness + `"`,
		"as an explicit tree (109 nodes exported, shrunk to 5):", "(max (max 0 1) 0.5)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check: no %q in\n%s", want, r.stdout)
		}
	}
	if n := strings.Count(r.stderr, "/9] "); n != 9 {
		t.Errorf("progress: %d position lines, want 9:\n%s", n, r.stderr)
	}
	_, line, ok := strings.Cut(r.stdout, "replay: mctscheck check -rule 'greedy-fpu:fpu=1' -game")
	if !ok {
		t.Fatalf("no game replay line in\n%s", r.stdout)
	}
	line, _, _ = strings.Cut(line, "\n")
	args := append([]string{"check", "-rule", "greedy-fpu:fpu=1", "-game"}, shellSplit(t, line)...)
	again := mctscheck(t, "", args...)
	if again.code != 0 || !strings.Contains(again.stdout, "is inconsistent (Eq. 5) on connect4 position") || !strings.Contains(again.stdout, "1/0/0") {
		t.Errorf("replay %s: exit %d\n%s%s", line, again.code, again.stdout, again.stderr)
	}
}
