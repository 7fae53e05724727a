package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// small reports whether the expensive tests run at a smaller scale: under
// -race and -short.
func small() bool { return raceDetector || testing.Short() }

// commandDoc is the command's package doc, which holds the JSON schema.
const commandDoc = "../cmd/mctscheck/doc.go"

// testdata is the absolute path of testdata, for tests that change directory.
var testdata, _ = filepath.Abs("testdata")

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// result is what one in-process run of the tool gave.
type result struct {
	stdout, stderr string
	code           int
}

// mctscheck runs the tool in-process with args and stdin.
func mctscheck(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := mctscheckTool.Run(args, strings.NewReader(stdin), &out, &errb)
	return result{out.String(), errb.String(), code}
}

// timings matches the fields of the JSON documents that vary between runs.
var timings = regexp.MustCompile(`("(?:elapsed_ns|sims_per_second)": )[0-9.e+-]+`)

// normalize checks that doc is one JSON document and zeroes its timings,
// keeping the fields in the order the tool writes them.
func normalize(t *testing.T, doc string) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(doc))
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		t.Fatalf("output is not one JSON document: %v\n%s", err, doc)
	}
	return timings.ReplaceAllString(doc, "${1}0")
}

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(testdata, name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got); go test -update rewrites it:\n%s", path, diff)
	}
}

// TestJSONGolden pins every command's -json document.
func TestJSONGolden(t *testing.T) {
	out := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"solve", []string{"solve", "-json", "-tree", "(max (min 1 0)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)~-0.2 0.5)"}, 0},
		{"solve_chance", []string{"solve", "-json", "-tree", "(chance 0.25:1 0.75:(max 0 1))"}, 0},
		{"solve_leaf", []string{"solve", "-json", "-tree", "0.25"}, 0},
		{"search", []string{"search", "-json", "-rule", "uct", "-tree", "(max (min 1 0) (chance 0.5:1 0.5:0) 0.25)", "-budget", "3000", "-checkpoints"}, 0},
		{"search_greedy", []string{"search", "-json", "-rule", "greedy-fpu", "-tree", "(max (max 0 1) 0.5)", "-budget", "100"}, 0},
		{"search_minimax", []string{"search", "-json", "-rule", "eps-greedy-minimax:eps=0.3", "-tree", "(min (max 0 1) (max 0 0.5))", "-budget", "500", "-seed", "7", "-decision", "highest-mean", "-growth", "practical"}, 0},
		{"rules", []string{"rules", "-json"}, 0},
		{"check_tree", []string{"check", "-json", "-rule", "greedy-fpu", "-tree", "(max (max 0 1) 0.5)"}, 0},
		{"check", []string{"check", "-json", "-rule", "uct", "-trees", "3", "-seeds", "2", "-budget", "1024"}, 0},
		{"run", []string{"run", "-json", "-rules", "uct,greedy-fpu", "-trees", "5", "-out", out}, 0},
		// The same document whatever the number of workers.
		{"run", []string{"run", "-json", "-rules", "uct,greedy-fpu", "-trees", "5", "-out", "", "-workers", "1"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if small() && slices.Contains(tt.args, "-workers") {
				t.Skip("-race or -short: one worker's document is compared in the normal run; the run above has the concurrency")
			}
			r := mctscheck(t, "", tt.args...)
			if r.code != tt.code {
				t.Fatalf("mctscheck %s: exit %d, want %d\nstderr: %s", strings.Join(tt.args, " "), r.code, tt.code, r.stderr)
			}
			golden(t, tt.name, normalize(t, r.stdout))
		})
	}
	// The report's JSON is the -json document.
	rep, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !*update {
		want, _ := os.ReadFile(filepath.Join("testdata", "run.golden"))
		if diff := cmp.Diff(string(want), normalize(t, string(rep))); diff != "" {
			t.Errorf("report.json differs from the -json document (-want +got):\n%s", diff)
		}
	}
}

// TestSchemaDocumented: every field of every JSON document is named in the
// package doc, where the schema is: every JSON name of the documents' types,
// the tool's and those of the checker's report (package props), and every
// name in the golden documents, which also holds the fields that MarshalJSON
// methods add (the report's summary).
func TestSchemaDocumented(t *testing.T) {
	doc, err := os.ReadFile(commandDoc)
	if err != nil {
		t.Fatal(err)
	}
	documented := func(where, name string) {
		t.Helper()
		if !bytes.Contains(doc, []byte(`"`+name+`"`)) {
			t.Errorf("%s: field %q is not in the schema of doc.go", where, name)
		}
	}
	for _, v := range []any{solveDoc{}, solveChild{}, searchDoc{}, searchChild{}, searchCkpt{}, ruleDoc{}, paramDoc{},
		predictionDoc{}, checkDoc{}, runDoc{}, optionsDoc{}, ruleCheck{}, agreement{},
		props.Report{}, props.Witness{}, props.WitnessSearch{}, props.Finding{}, props.Fault{}, props.CurvePoint{},
		props.ShardReport{}, props.SearchRecord{}, props.SearchRef{}, props.SpotRecord{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			documented(typ.String()+"."+typ.Field(i).Name, name)
		}
	}
	goldens, err := filepath.Glob(filepath.Join("testdata", "*.golden"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range goldens {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for name, x := range v {
					documented(path, name)
					walk(x)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		walk(v)
	}
}

// TestUsageErrors: bad flags, specs and trees get exit code 2 and a
// one-line message that names the flag, the parameter or the offset.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("(max\n  (min 1 0)\n  (min 1 x))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"frob"}, "", `unknown command "frob" (commands: `},
		{[]string{"chek"}, "", `unknown command "chek": did you mean "check"? (commands: `},
		{[]string{"check", "-rule", "uct", "-tree", "random 17"}, "", `-tree "random 17": that is a tree's name in a check's list, not a tree: give its text`},
		{[]string{"check", "-rule", "uct", "-tree", "trap bias:k=2,gap=1,r=0.125"}, "", `-tree "trap bias:k=2,gap=1,r=0.125": that is a tree's name`},
		{[]string{"check", "-rule", "uctt"}, "", `check: -rule: rules: unknown rule "uctt": did you mean "uct"? (known: uct, `},
		{[]string{"check", "-rule", "greedyfpu"}, "", `unknown rule "greedyfpu": did you mean "greedy-fpu"?`},
		{[]string{"check", "-rule", "uct:cc=1"}, "", `rules: uct: unknown parameter "cc": did you mean "c"? (parameters: c)`},
		{[]string{"run", "-rules", "greedy-fp"}, "", `-rules: "greedy-fp" matches no rule: did you mean "greedy-fpu"? (known: `},
		{[]string{"check", "-rule", "exec:FOO=1 python3 rule.py"}, "", `program "FOO=1": executable file not found in $PATH: it sets FOO, which a command line run without a shell cannot: run env FOO=1 PROGRAM, or a wrapper script (docs/protocol.md)`},
		{[]string{"check", "-search", "exec:FOO=1 python3 search.py"}, "", `it sets FOO, which a command line run without a shell cannot`},
		{[]string{"check"}, "", "check: -rule: missing"},
		{[]string{"check", "-rule", "foo"}, "", `check: -rule: rules: unknown rule "foo" (known: uct, `},
		{[]string{"check", "-rule", "uct:x=1"}, "", `-rule: rules: uct: unknown parameter "x"`},
		{[]string{"check", "-rule", "uct:c=abc"}, "", `-rule: rules: uct: parameter "c": "abc" is not a number`},
		{[]string{"check", "-rule", "smoothed:k=0"}, "", `parameter "k" = 0`},
		{[]string{"check", "-rule", "uct", "-budget", "1000"}, "", "check: -budget 1000: want 64 × a power of two"},
		{[]string{"check", "-rule", "uct", "-tree-workers", "65"}, "", "check: -tree-workers 65: want 0 to 64"},
		{[]string{"check", "-rule", "uct", "-tree-workers", "2", "-virtual-loss", "-1"}, "", "check: -virtual-loss -1: want 0 to 2^20"},
		{[]string{"check", "-rule", "uct", "-tree-workers", "2", "-virtual-value", "NaN"}, "", "check: -virtual-value NaN: want a reward in [0,1]"},
		{[]string{"check", "-rule", "uct", "-budget", "512"}, "", "-budget 512"},
		{[]string{"check", "-rule", "uct", "-seeds", "x"}, "", `invalid value "x" for flag -seeds`},
		{[]string{"check", "-rule", "uct", "-seeds", "0"}, "", "-seeds 0"},
		{[]string{"check", "-rule", "uct", "-trees", "-1"}, "", "-trees -1"},
		{[]string{"check", "-rule", "uct", "-bogus"}, "", "flag provided but not defined: -bogus"},
		{[]string{"check", "-rule", "uct", "-backup", "max"}, "", `invalid value "max" for flag -backup: want average or minimax`},
		{[]string{"check", "-rule", "uct", "-tree", "(max 1 0)", "-trees", "5"}, "", "-trees: give -tree (one tree) or -trees"},
		{[]string{"check", "-rule", "uct", "-tree", "(chance 0.5:1 0.5:0)"}, "", "-tree: the root is a chance node"},
		{[]string{"check", "-rule", "uct", "greedy"}, "", `unexpected argument "greedy"`},
		{[]string{"search", "-rule", "uct"}, "", "search: -tree: missing"},
		{[]string{"search", "-tree", "(max 1 0)"}, "", "search: -rule: missing"},
		{[]string{"search", "-rule", "uct", "-tree", "(max 1 2)"}, "", "-tree: offset 7: node 0.1 (terminal): reward 2"},
		{[]string{"search", "-rule", "uct", "-tree", "(max 1 0"}, "", "-tree: offset 8:"},
		{[]string{"search", "-rule", "uct", "-tree", "0.5"}, "", "-tree: the root is a terminal node"},
		{[]string{"search", "-rule", "uct", "-tree", "(max 1 0)", "-budget", "0"}, "", "-budget 0"},
		{[]string{"search", "-rule", "uct", "-tree", "(max 1 0)", "-decision", "best"}, "", `flag -decision: want most-visited`},
		{[]string{"search", "-rule", "uct", "-tree", "(max 1 0)", "-growth", "lazy"}, "", `flag -growth: want paper or practical`},
		{[]string{"solve"}, "", "solve: -tree: missing"},
		{[]string{"solve", "-tree", "(max (min 1 0) (chance 0.5:1 0.25:0))"}, "", "-tree: offset 15: node 0.1 (chance): probabilities sum to 0.75"},
		{[]string{"solve", "-tree", "@" + bad}, "", "-tree: " + bad + ":3:10: offset 26: expected ')' or a child, found 'x'"},
		{[]string{"solve", "-tree", "@-"}, "(max 1 ~)", "-tree: stdin:1:9: offset 8: expected a prior"},
		{[]string{"solve", "-tree", "@" + filepath.Join(dir, "none.txt")}, "", "-tree: open "},
		{[]string{"solve", "-tree", "(max 1 0)", "x"}, "", `unexpected argument "x"`},
		{[]string{"rules", "nope"}, "", `rules: rules: unknown rule "nope"`},
		{[]string{"rules", "-v"}, "", "flag provided but not defined: -v"},
		{[]string{"-trees", "0"}, "", "run: -trees 0"},
		{[]string{"run", "-rules", "nope"}, "", `-rules: "nope" matches no rule`},
		{[]string{"run", "-rules", "[", "-out", ""}, "", `-rules: bad pattern "["`},
		{[]string{"run", "-rule", "uct:c=-1"}, "", `-rule: rules: uct: parameter "c" = -1`},
		{[]string{"run", "-workers", "0"}, "", "-workers 0"},
		{[]string{"help", "nope"}, "", `unknown command "nope"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := mctscheck(t, tt.stdin, tt.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2", r.code)
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

// TestHelp: -h on every command prints its usage, examples and flags on
// stdout and exits 0.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"help"}, {"help", "check"}, {"run", "-h"}, {"rules", "-h"},
		{"check", "-h"}, {"search", "-h"}, {"solve", "--help"}} {
		r := mctscheck(t, "", args...)
		if r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "Usage:") {
			t.Errorf("mctscheck %s: exit %d, stderr %q, stdout:\n%s", strings.Join(args, " "), r.code, r.stderr, r.stdout)
		}
		if args[len(args)-1] != "-h" || len(args) == 1 {
			continue
		}
		for _, want := range []string{"Examples:", "Flags:", "-json"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("mctscheck %s: no %q in\n%s", strings.Join(args, " "), want, r.stdout)
			}
		}
	}
	// The main usage names every way to check; run's names every verdict's
	// word and exit code.
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-h"}, []string{"mctscheck check -search exec:CMD [flags]", "for check -search, a search stuck"}},
		{[]string{"run", "-h"}, []string{"reproduced", "not refuted", "contradicted", "not judged", "code is 4 when", "else 1 when", "130 after Ctrl-C", "2 for bad"}},
	} {
		r := mctscheck(t, "", c.args...)
		for _, want := range c.want {
			if !strings.Contains(strings.Join(strings.Fields(r.stdout), " "), want) {
				t.Errorf("mctscheck %s: no %q in\n%s", strings.Join(c.args, " "), want, r.stdout)
			}
		}
	}
}

// TestRunReport runs the main job on two rules and checks the table, the
// progress lines and the report directory.
func TestRunReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	r := mctscheck(t, "", "-rules", "greedy-fpu,rave*", "-trees", "3", "-out", dir)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"RULE", "PREDICTED", "OBSERVED", "WITNESS", "VISITED (RECENT)", "SIMS/S",
		"greedy-fpu", "5 nodes, Eq. 5", "rave-floor", "consistent (bdg)", "(max (max 0 1) 0.5)",
		"Of 3 rules, the papers' prediction is reproduced for 2, not refuted (inconclusive or stuck) for 1, contradicted for 0.", "report.md"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in the table:\n%s", want, r.stdout)
		}
	}
	// Progress: plain lines (stderr is not a terminal), one per rule.
	if n := strings.Count(r.stderr, "/3] "); n != 3 || strings.Contains(r.stderr, "\r") {
		t.Errorf("progress: %d rule lines, want 3 plain ones:\n%s", n, r.stderr)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# mctscheck report", "| [greedy-fpu](#greedy-fpu) |",
		"```\n(max (max 0 1) 0.5)\n```", "mctscheck check -rule 'greedy-fpu:fpu=1' -tree '(max (max 0 1) 0.5)' -seed 1 -seeds 1 -budget 16384 -keep-order"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("no %q in report.md:\n%s", want, md)
		}
	}
	// Without a plotter, no figure (package cli/plot tests the figure).
	if strings.Contains(string(md), "## Convergence") || !strings.Contains(r.stdout, "(report.md, report.html, report.json)\n") {
		t.Errorf("a report without a plotter mentions plots:\n%s\n%s", r.stdout, md)
	}
}

// TestRunPlotter: a Tool's Plot gets every rule's curve, and a witness
// tree's beside it for a rule with a witness; its files are
// listed and report.md shows the first, with the caption of one panel per
// rule.
func TestRunPlotter(t *testing.T) {
	dir := t.TempDir()
	var got []Convergence
	tool := mctscheckTool
	tool.Plot = func(d string, cs []Convergence) ([]string, error) {
		got = cs
		return []string{"curves.png", "curves.svg"}, os.WriteFile(filepath.Join(d, "curves.png"), []byte("png"), 0o644)
	}
	var out, errb bytes.Buffer
	code := tool.Run([]string{"-rules", "greedy-fpu,uct", "-trees", "2", "-seeds", "1", "-budget", "1024", "-out", dir}, strings.NewReader(""), &out, &errb)
	if code != 0 || len(got) != 2 || got[0].Rule != "uct" || !got[0].PredictedConsistent || got[1].Agreement != Reproduced ||
		len(got[0].Curve) != 5 || got[0].MaxBudget != 1024 ||
		got[0].Witness != nil || len(got[1].Witness) != 5 || got[1].Witness[4].Wrong != 1 { // greedy-fpu's witness stays wrong
		t.Fatalf("exit %d, curves %+v\n%s%s", code, got, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "(report.md, report.html, report.json, curves.png, curves.svg)") {
		t.Errorf("the report line does not list the plots:\n%s", out.String())
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"![convergence](curves.png)", "One panel per rule", "Also as [SVG](curves.svg)."} {
		if !strings.Contains(string(md), want) {
			t.Errorf("no %q in report.md:\n%s", want, md)
		}
	}
	if strings.Contains(string(md), "Left") {
		t.Errorf("report.md's caption speaks of a left panel:\n%s", md)
	}
}

// TestRunNotRefuted: an inconclusive verdict neither reproduces nor
// contradicts the prediction: the table says "not refuted" and the exit
// code is 0 (eps-greedy with ε = 0.05, at a budget too small to show its
// witness).
func TestRunNotRefuted(t *testing.T) {
	r := mctscheck(t, "", "-rule", "eps-greedy:eps=0.05", "-trees", "1", "-seeds", "1", "-budget", "1024", "-out", "")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "not refuted") || !strings.Contains(r.stdout, "reproduced for 0, not refuted (inconclusive or stuck) for 1, contradicted for 0.") {
		t.Errorf("table without the agreement:\n%s", r.stdout)
	}
}

// TestCheckContradicted: on a tree the user chose, a witness for a rule
// predicted consistent contradicts the prediction and exits 1 (my-greedy,
// whose author predicted it consistent); no witness for a rule predicted
// inconsistent does not, since the tree need hold none of its traps
// (greedy-fpu on a tree without a first loss), nor does a witness outside the
// prediction's class of games.
func TestCheckContradicted(t *testing.T) {
	r := mycheck(t, "check", "-rule", "my-greedy", "-tree", "(max (max 0 1) (min 1 0))")
	if r.code != 1 || !strings.Contains(r.stdout, "prediction contradicted") {
		t.Errorf("my-greedy on its trap: exit %d, want 1 and a contradiction\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, c := range []struct{ rule, tree string }{
		{"greedy-fpu", "(max 1 0)"},
		{"threshold:v=0.3,rule=uct", "(max (min 1 1 1 0) (max 0 1))"},
	} {
		r := mctscheck(t, "", "check", "-rule", c.rule, "-tree", c.tree)
		if r.code != 0 || !strings.Contains(r.stdout, "no counterexample") || !strings.Contains(r.stdout, "prediction not refuted") {
			t.Errorf("%s on %s: exit %d, want 0, no counterexample, not refuted\n%s%s", c.rule, c.tree, r.code, r.stdout, r.stderr)
		}
	}
	// smoothed is predicted consistent on binary deterministic games; its
	// witness on a tree with a reward of 1/2 is outside that class.
	r = mctscheck(t, "", "check", "-rule", "smoothed", "-tree", "(max (max 0 1) 0.5)")
	if r.code != 0 || !strings.Contains(r.stdout, "verdict    inconsistent") || !strings.Contains(r.stdout, "prediction not refuted") {
		t.Errorf("smoothed on a non-binary trap: exit %d, want 0, inconsistent, not refuted\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestReplay runs the replay line of check's witness, which must give the
// witness again.
func TestReplay(t *testing.T) {
	r := mctscheck(t, "", "check", "-rule", "rave", "-trees", "2")
	if r.code != 0 || !strings.Contains(r.stdout, "prediction reproduced") {
		t.Fatalf("exit %d, want 0 (reproduced)\n%s%s", r.code, r.stdout, r.stderr)
	}
	_, line, ok := strings.Cut(r.stdout, "replay: mctscheck ")
	if !ok {
		t.Fatalf("no replay line in\n%s", r.stdout)
	}
	line, _, _ = strings.Cut(line, "\n")
	again := mctscheck(t, "", shellSplit(t, line)...)
	if again.code != 0 || !strings.Contains(again.stdout, "inconsistent (Eq. 5) on a 3-node tree") {
		t.Errorf("replay %s: exit %d\n%s%s", line, again.code, again.stdout, again.stderr)
	}
}

// shellSplit splits a command line with single quotes, as replay lines use.
func shellSplit(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	in, has := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			in, has = !in, true
		case c == ' ' && !in:
			if has {
				out = append(out, cur.String())
				cur.Reset()
				has = false
			}
		default:
			cur.WriteByte(c)
			has = true
		}
	}
	if in {
		t.Fatalf("unbalanced quotes in %q", s)
	}
	if has {
		out = append(out, cur.String())
	}
	return out
}

// TestTextOutputs checks the text forms of rules, solve and search.
func TestTextOutputs(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"rules"}, []string{"NAME", "uct", "threshold", "consistent (bdg)", "bdg: binary deterministic games"}},
		{[]string{"rules", "uct"}, []string{"uct: ", "spec        uct:c=", "predicted   consistent", "source"}},
		{[]string{"solve", "-tree", "(max (min 1 0) (chance 0.5:1 0.5:0) 0.5)"}, []string{"V = 0.5", "optimal  children 1, 2"}},
		{[]string{"search", "-rule", "greedy-fpu", "-tree", "(max (max 0 1) 0.5)", "-budget", "1000", "-checkpoints"},
			[]string{"decision  child 1 (most-visited), NOT optimal", "999", "1000         1       no"}},
		{[]string{"check", "-rule", "greedy-fpu", "-tree", "(max (max 0 1) 0.5)", "-seeds", "1", "-budget", "1024"},
			[]string{"the given tree × 1 seed from 1,", "stays at 1 simulation while"}},
	}
	for _, tt := range tests {
		r := mctscheck(t, "", tt.args...)
		if r.code != 0 {
			t.Errorf("mctscheck %s: exit %d: %s", strings.Join(tt.args, " "), r.code, r.stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("mctscheck %s: no %q in\n%s", strings.Join(tt.args, " "), w, r.stdout)
			}
		}
	}
}

// TestExitCodes: bad input is 2, an -out that cannot be written fails before
// the run (2), and -tree @ names what is missing.
func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"check", "-rule", "uct", "-tree", "@"}, 2, "give a file name after @"},
		{[]string{"-rules", "uct", "-trees", "1", "-out", "/proc/mctscheck-nope"}, 2, "-out /proc/mctscheck-nope"},
	} {
		r := mctscheck(t, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("mctscheck %s: exit %d, stderr %q; want %d and %q", strings.Join(c.args, " "), r.code, r.stderr, c.code, c.want)
		}
	}
}

// TestPresetsCommand runs the presets of real engines through the tool:
// every one is listed, and none contradicts its prediction.
func TestPresetsCommand(t *testing.T) {
	args := []string{"presets", "-trees", "2", "-seeds", "2", "-out", ""}
	if small() {
		args = append(args, "-trees", "1", "-budget", "2048") // a sixth of the time, the same verdicts
	}
	r := mctscheck(t, "", args...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, e := range rules.Engines() {
		if !strings.Contains(r.stdout, e.Name+" ") {
			t.Errorf("no row for %s in\n%s", e.Name, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "contradicted for 0.") {
		t.Errorf("a prediction contradicted:\n%s", r.stdout)
	}
}

// TestCheckWorkersReplay: a witness found under tree-parallel search
// (-workers, in lockstep) carries a replay line with the workers and the
// virtual loss, and that line gives the same witness again.
func TestCheckWorkersReplay(t *testing.T) {
	r := mctscheck(t, "", "check", "-rule", "greedy-fpu", "-tree-workers", "2", "-tree", "(max (max 0 1) (min 1 0))", "-budget", "1024")
	_, line, ok := strings.Cut(r.stdout, "replay: mctscheck ")
	if r.code != 0 || !ok {
		t.Fatalf("exit %d, no replay line:\n%s%s", r.code, r.stdout, r.stderr)
	}
	line, _, _ = strings.Cut(line, "\n")
	if !strings.Contains(line, "-tree-workers 2 -virtual-loss 1 -virtual-value 0") {
		t.Errorf("replay line without the workers: %s", line)
	}
	again := mctscheck(t, "", shellSplit(t, line)...)
	if again.code != 0 || !strings.Contains(again.stdout, "verdict    inconsistent") {
		t.Errorf("replay %s: exit %d\n%s%s", line, again.code, again.stdout, again.stderr)
	}
}

// TestHelpAgrees: presets -h is presets' own help, and the main help and
// check -h give exit code 1 the same meaning.
func TestHelpAgrees(t *testing.T) {
	r := mctscheck(t, "", "presets", "-h")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Usage: mctscheck presets") || strings.Contains(r.stdout, "-presets\n") {
		t.Errorf("presets -h is not presets' own help:\n%s", r.stdout)
	}
	main := mctscheck(t, "", "-h").stdout
	check := strings.Join(strings.Fields(mctscheck(t, "", "check", "-h").stdout), " ")
	for _, meaning := range []string{"a prediction contradicted (a witness for a rule predicted consistent, or every tree converged for one predicted inconsistent)"} {
		if !strings.Contains(strings.Join(strings.Fields(main), " "), meaning) {
			t.Errorf("the main help does not say exit 1 is %q:\n%s", meaning, main)
		}
	}
	if !strings.Contains(check, "1 when the prediction is contradicted (a witness against a rule predicted consistent, or every tree converged for one predicted inconsistent)") {
		t.Errorf("check -h's exit code 1 differs from the main help's:\n%s", check)
	}
}

// TestRenamedCommand: a former command or flag name is an error that
// names the new one, not an alias.
func TestRenamedCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"engines"}, `mctscheck: unknown command "engines": it is now presets (see mctscheck -h)`},
		{[]string{"engines", "-h"}, `unknown command "engines": it is now presets`},
		{[]string{"run", "-engines"}, "mctscheck: run: unknown flag -engines: it is now -presets (see mctscheck run -h)"},
		{[]string{"-engines=true"}, "unknown flag -engines: it is now -presets"},
	} {
		r := mctscheck(t, "", c.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("mctscheck %s: exit %d, stderr %q; want %d and %q", strings.Join(c.args, " "), r.code, r.stderr, exitUsage, c.want)
		}
	}
}

// TestEveryCommandListed: the main help's usage lines and the command's
// doc (go doc ./cmd/mctscheck) name every command, and each command's -h
// prints its usage without a complaint from the flag package.
func TestEveryCommandListed(t *testing.T) {
	help := mctscheck(t, "", "-h").stdout
	usage, _, ok := strings.Cut(help, "\nCommands:\n")
	if !ok {
		t.Fatalf("the main help has no Commands section:\n%s", help)
	}
	data, err := os.ReadFile("../cmd/mctscheck/doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, doc, _ := strings.Cut(string(data), "// # Commands\n")
	doc, _, _ = strings.Cut(doc, "\n//\n// With no arguments")
	for _, c := range commands() {
		if !strings.Contains(usage, "\n  mctscheck "+c.name+" ") && !(c.name == "run" && strings.Contains(usage, "mctscheck [run]")) {
			t.Errorf("the main help's usage lines do not name %s:\n%s", c.name, usage)
		}
		if !strings.Contains(doc, "\n//\tmctscheck "+c.name+" ") && !(c.name == "run" && strings.Contains(doc, "mctscheck [run]")) {
			t.Errorf("cmd/mctscheck/doc.go's Commands do not name %s:\n%s", c.name, doc)
		}
		if r := mctscheck(t, "", c.name, "-h"); r.code != 0 || !strings.HasPrefix(r.stdout, "Usage: mctscheck ") || strings.Contains(r.stdout+r.stderr, "goroutine ") {
			t.Errorf("%s -h: exit %d\n%s%s", c.name, r.code, r.stdout, r.stderr)
		}
	}
}
