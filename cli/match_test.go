package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/games/connect4"
)

// TestMatchCommand: the JSON document and its counts, the same document
// whatever the number of workers, the games written, and the table.
func TestMatchCommand(t *testing.T) {
	dir := t.TempDir()
	args := []string{"match", "-a", "threshold:v=0.3,rule=mc-rave", "-b", "mc-rave", "-game", "connect4",
		"-games", "6", "-budgets", "20,40", "-json", "-seed", "3"}
	r := mctscheck(t, "", append(args, "-workers", "1", "-out", dir)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	one := normalize(t, r.stdout)
	var doc matchDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Game != "connect4" || doc.A != "threshold:v=0.3,vmin=0,rule=mc-rave:k=100" || doc.B != "mc-rave:k=100" || len(doc.Budgets) != 2 {
		t.Fatalf("document: %+v", doc)
	}
	for _, b := range doc.Budgets {
		ends := 0
		for _, e := range b.Ends {
			ends += e.Games
		}
		if b.Games != 6 || b.Wins+b.Draws+b.Losses != 6 || ends != 6 || b.Low > b.Rate || b.Rate > b.High || b.FirstRate == nil || b.Moves < 7 {
			t.Errorf("budget %d: %+v", b.Budget, b)
		}
	}
	// The progress on stderr ends each budget with its result.
	if !strings.Contains(r.stderr, "mctscheck: match: connect4, budget 40: 6/6 games") || !strings.Contains(r.stderr, "budget 40: A ") {
		t.Errorf("progress:\n%s", r.stderr)
	}
	if r2 := mctscheck(t, "", append(args, "-workers", "3")...); normalize(t, r2.stdout) != one {
		t.Errorf("3 workers give another document:\n%s\n1 worker:\n%s", r2.stdout, one)
	}
	games, err := os.ReadFile(filepath.Join(dir, "budget-40", "games.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(games)), "\n")
	if len(lines) != 8 || !strings.HasPrefix(lines[0], "# Connect Four, budget 40") {
		t.Fatalf("games.txt:\n%s", games)
	}
	for i, l := range lines[2:] {
		f := strings.Fields(l)
		if len(f) != 4 || f[0] != []string{"0", "1", "2", "3", "4", "5"}[i] || f[1] != []string{"A", "B"}[i%2] {
			t.Errorf("games.txt line %q", l)
			continue
		}
		if p, err := connect4.Parse(f[3]); err != nil || !p.Over() {
			t.Errorf("games.txt line %q: %v", l, err)
		}
	}

	// Go: SGF files, and the table.
	r = mctscheck(t, "", "match", "-a", "uct", "-b", "uct:c=0.5", "-game", "go5", "-games", "2", "-budget", "20", "-out", dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"game      go5", "A         uct:c=1.4142135623730951", "B         uct:c=0.5",
		"budget  games  A wins  draws  B wins  A's score", "95% Wilson interval"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in\n%s", want, r.stdout)
		}
	}
	for _, name := range []string{"game-0000.sgf", "game-0001.sgf"} {
		sgf, err := os.ReadFile(filepath.Join(dir, "budget-20", name))
		if err != nil || !bytes.HasPrefix(sgf, []byte("(;GM[1]FF[4]")) || !bytes.Contains(sgf, []byte("SZ[5]")) {
			t.Errorf("%s: %v\n%s", name, err, sgf)
		}
	}
}

func TestMatchUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"match"}, "-a and -b: give both"},
		{[]string{"match", "-a", "uct"}, "-a and -b: give both"},
		{[]string{"match", "-a", "nope", "-b", "uct"}, `-a: rules: unknown rule "nope"`},
		{[]string{"match", "-a", "uct", "-b", "uct:c=-1"}, `-b: rules: uct: parameter "c" = -1`},
		{[]string{"match", "-a", "uct", "-b", "uct", "-game", "chess"}, `-game "chess": unknown game (games: connect4, goN[:komi=K,cap=M])`},
		{[]string{"match", "-a", "uct", "-b", "uct", "-games", "0"}, "-games 0"},
		{[]string{"match", "-a", "uct", "-b", "uct", "-first", "-1"}, "-first -1"},
		{[]string{"match", "-a", "uct", "-b", "uct", "-workers", "0"}, "-workers 0"},
		{[]string{"match", "-a", "uct", "-b", "uct", "-budget", "0"}, "-budget 0"},
		{[]string{"match", "-a", "uct", "-b", "uct", "-budget", "1"}, "-budget 1: want 2 to"},
		{[]string{"match", "-a", "uct", "-b", "uct", "-budgets", "10,1"}, "-budget 1: want 2 to"},
		{[]string{"match", "-a", "uct", "-b", "uct", "-budgets", ""}, `-budgets "": give a comma-separated list`},
		{[]string{"match", "-a", "uct", "-b", "uct", "-budgets", " "}, `-budgets " ": give a comma-separated list`},
		{[]string{"match", "-a", "uct", "-b", "uct", "-budgets", "10,x"}, `-budgets "10,x": "x" is not a number`},
		{[]string{"match", "-a", "uct", "-b", "uct", "-budgets", "10", "-budget", "5"}, "give one of them"},
		{[]string{"match", "-a", "uct", "-b", "uct", "-out", "/proc/mctscheck-nope"}, "-out /proc/mctscheck-nope"},
	} {
		r := mctscheck(t, "", c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("mctscheck %s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), r.code, r.stderr, c.want)
		}
	}
	for _, args := range [][]string{{"match", "-h"}, {"gtp", "-h"}, {"help", "match"}} {
		r := mctscheck(t, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Usage:") || !strings.Contains(r.stdout, "Examples:") || !strings.Contains(r.stdout, "Flags:") {
			t.Errorf("mctscheck %s: exit %d\n%s", strings.Join(args, " "), r.code, r.stdout)
		}
	}
}

// TestMatchSchemaDocumented: every field of match's JSON document is in
// the package doc's schema (TestSchemaDocumented's rule for the other
// commands).
func TestMatchSchemaDocumented(t *testing.T) {
	doc, err := os.ReadFile(commandDoc)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{matchDoc{}, matchBudget{}, count{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name != "" && name != "-" && !bytes.Contains(doc, []byte(`"`+name+`"`)) {
				t.Errorf("%s.%s: field %q is not in the schema of doc.go", typ, typ.Field(i).Name, name)
			}
		}
	}
	for _, name := range []string{"match", "gtp"} {
		if !strings.Contains(commandNames(), name) {
			t.Errorf("command %s not registered: %s", name, commandNames())
		}
	}
}
