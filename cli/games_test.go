package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Small 5×5 Go endgames that the Go oracle solves: goWin has Black to move
// and one losing move (D2) among five with komi 0.5 and the game ending six
// moves on; goTrap is one where rave never tries the winning move.
const (
	goGame  = "go5:komi=0.5,cap=6"
	goWin   = "C4,E3,A1,B2,E5,C2,A5,D4,E2,A4,B3,C1,B4,D5,D3,A3,E1,B1,E4,D1,E3,C5"
	goTrapG = "go5:komi=1.5,cap=10"
	goTrap  = "D5,B5,D1,E1,E4,A3,C4,A4,E2,C5,C2,C1,D2,D3,A1,B4,A2,B1,C3,D4"
)

// TestGameTable: every game of the table is read by check -game, solve
// -game and match alike.
func TestGameTable(t *testing.T) {
	for _, tt := range []struct{ game, moves string }{{"connect4", "7422341735647741166133573473242566"}, {goGame, goWin}} {
		if r := mctscheck(t, "", "solve", "-game", tt.game, "-moves", tt.moves, "-json"); r.code != 0 || !strings.Contains(r.stdout, `"game": "`+tt.game+`"`) {
			t.Errorf("solve -game %s: exit %d\n%s%s", tt.game, r.code, r.stdout, r.stderr)
		}
		if r := mctscheck(t, "", "match", "-a", "uct", "-b", "mc-rave", "-game", tt.game, "-games", "2", "-budget", "10", "-json"); r.code != 0 || !strings.Contains(r.stdout, `"game": "`+tt.game+`"`) {
			t.Errorf("match -game %s: exit %d\n%s%s", tt.game, r.code, r.stdout, r.stderr)
		}
	}
	for _, g := range gameTable {
		if !strings.Contains(gameNames(), g.syntax) {
			t.Errorf("%s: not in the games' help %q", g.prefix, gameNames())
		}
	}
}

// TestGoPositions: check -game on Go endgames judges them by the exact
// oracle: UCT finds the optimal moves, rave's trap is a witness whose
// replay line gives it again, and solve values every move.
func TestGoPositions(t *testing.T) {
	r := mctscheck(t, goWin+"\n# a comment\n"+strings.ToLower(strings.ReplaceAll(goWin, ",", " "))+"\n", "check", "-rule", "uct", "-game", goGame, "-positions", "-", "-budget", "1024", "-json")
	var doc checkGameDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); r.code != 0 || err != nil {
		t.Fatalf("check uct: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if doc.Game != goGame || doc.Total.Positions != 2 || doc.Total.NoCounterexample != 2 || doc.Agreement != Reproduced ||
		doc.Positions[0].Position != goWin || doc.Positions[1].Position != goWin || doc.Positions[0].Value != 1 {
		t.Errorf("check uct: %s", r.stdout)
	}

	r = mctscheck(t, "", "check", "-rule", "rave", "-game", goTrapG, "-moves", goTrap, "-budget", "1024")
	if r.code != 0 || !strings.Contains(r.stdout, "rave:k=100 is inconsistent (Eq. 5) on "+goTrapG+` position "`+goTrap+`"`) || !strings.Contains(r.stdout, "prediction reproduced") {
		t.Fatalf("check rave: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	_, line, ok := strings.Cut(r.stdout, "replay: mctscheck check -rule 'rave:k=100' -game")
	if !ok {
		t.Fatalf("no replay line in\n%s", r.stdout)
	}
	line, _, _ = strings.Cut(line, "\n")
	again := mctscheck(t, "", append([]string{"check", "-rule", "rave:k=100", "-game"}, shellSplit(t, line)...)...)
	if again.code != 0 || !strings.Contains(again.stdout, "is inconsistent (Eq. 5) on "+goTrapG) || !strings.Contains(again.stdout, "1/0/0") {
		t.Errorf("replay %s: exit %d\n%s%s", line, again.code, again.stdout, again.stderr)
	}

	r = mctscheck(t, "", "solve", "-game", goGame, "-moves", goWin)
	for _, want := range []string{"position  " + goWin + " on " + goGame + ": black to move", "value     1: a win for the player to move",
		"move  value  optimal", "D2    0", "C3    1      *", "pass  1      *"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("solve: no %q in\n%s", want, r.stdout)
		}
	}
	r = mctscheck(t, "", "solve", "-game", "go5:komi=0", "-moves", "C3 pass pass", "-json")
	if r.code != 0 || !strings.Contains(r.stdout, `"over": true`) || !strings.Contains(r.stdout, `"value": 0`) || !strings.Contains(r.stdout, `"to_move": "white"`) {
		t.Errorf("solve a finished game: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestGoGameErrors: bad -game values and Go positions are usage errors
// (exit 2) that say what is wrong; a position beyond the oracle's budget
// is one too for check, and no value (exit 3) for solve.
func TestGoGameErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"check", "-rule", "uct", "-game", "go4", "-moves", ""}, 2, `-game "go4": board size 4, want 5 to 19`},
		{[]string{"check", "-rule", "uct", "-game", "go", "-moves", ""}, 2, `-game "go": want goN`},
		{[]string{"check", "-rule", "uct", "-game", "gomoku", "-moves", ""}, 2, `-game "gomoku": unknown game (games: connect4, goN[:komi=K,cap=M])`},
		{[]string{"check", "-rule", "uct", "-game", "go5:komi=0.3", "-moves", ""}, 2, `komi 0.3, want a multiple of 0.5`},
		{[]string{"check", "-rule", "uct", "-game", "go5:komi=x", "-moves", ""}, 2, `komi "x" is not a number`},
		{[]string{"check", "-rule", "uct", "-game", "go5:cap=0", "-moves", ""}, 2, `cap "0": want 1 to 2500 moves`},
		{[]string{"check", "-rule", "uct", "-game", "go5:size=3", "-moves", ""}, 2, `unknown parameter "size"`},
		{[]string{"check", "-rule", "uct", "-game", "go5:cap=3,cap=4", "-moves", ""}, 2, `"cap=4": want komi=K and cap=M, each at most once`},
		{[]string{"check", "-rule", "uct", "-game", "go5", "-moves", "C3,Z9"}, 2, `-moves: move 2: vertex "Z9"`},
		{[]string{"check", "-rule", "uct", "-game", "go5", "-moves", "C3,C3"}, 2, `-moves: move 2: C3: point is occupied`},
		{[]string{"check", "-rule", "uct", "-game", "go5", "-moves", "pass,pass"}, 2, `position "pass,pass": the game is over`},
		{[]string{"check", "-rule", "uct", "-game", "go5", "-moves", "C3", "-max-nodes", "100"}, 2, "beyond it (raise -max-nodes)"},
		{[]string{"solve", "-game", "go5", "-moves", "C3", "-max-nodes", "100"}, 3, "no value: the search ran out of its budget of 100 positions (-max-nodes)"},
		{[]string{"solve", "-game", "go5"}, 2, "-moves: missing"},
		{[]string{"solve", "-game", "go5:komi=0.5,cap=2", "-moves", "", "-table-bits", "20"}, 2, "flag provided but not defined: -table-bits"},
		{[]string{"match", "-a", "uct", "-b", "uct", "-game", "go20"}, 2, `-game "go20": board size 20`},
	} {
		r := mctscheck(t, "", tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
			t.Errorf("mctscheck %s: exit %d, stderr %q; want %d and %q", strings.Join(tt.args, " "), r.code, r.stderr, tt.code, tt.want)
		}
	}
}

// TestGoSchemaDocumented: solve -game goN's document uses the names of the
// schema in doc.go.
func TestGoSchemaDocumented(t *testing.T) {
	doc, err := os.ReadFile(commandDoc)
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeOf(solveGoDoc{})
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if !bytes.Contains(doc, []byte(`"`+name+`"`)) {
			t.Errorf("solveGoDoc.%s: field %q is not in the schema of doc.go", typ.Field(i).Name, name)
		}
	}
}
