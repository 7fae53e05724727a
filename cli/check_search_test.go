//go:build unix

package cli

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// needPython skips the test without python3.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent: the reference search is not tested (CI has it)")
	}
}

// TestCheckSearchWitness: a buggy search is stuck with a small witness
// (exit 1), the replay line runs as printed and gives it again, and -json
// says so.
func TestCheckSearchWitness(t *testing.T) {
	needPython(t)
	spec := "exec:python3 ../examples/mcts.py --bug fpu-never"
	r := mctscheck(t, "", "check", "-search", spec, "-budget", "1024", "-trees", "2", "-jobs", "1")
	if r.code != exitFinding || !strings.Contains(r.stdout, "verdict    stuck: Eq. 5 witness with 3 nodes") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	_, line, ok := strings.Cut(r.stdout, "replay: ")
	if !ok {
		t.Fatalf("no replay line:\n%s", r.stdout)
	}
	line, _, _ = strings.Cut(line, "\n")
	args, err := rules.SplitCommand(line)
	if err != nil || args[0] != "mctscheck" {
		t.Fatalf("replay line %q: %v", line, err)
	}
	again := mctscheck(t, "", args[1:]...)
	if again.code != exitFinding || !strings.Contains(again.stdout, "is stuck (Eq. 5) on a 3-node tree:\n  (max 0 1)\n") {
		t.Fatalf("the replay line %s: exit %d\n%s%s", line, again.code, again.stdout, again.stderr)
	}
	js := mctscheck(t, "", append(args[1:], "-json")...)
	var doc struct {
		Verdict string
		Witness struct {
			Tree string
			Run  struct{ Search bool }
		}
	}
	if err := json.Unmarshal([]byte(js.stdout), &doc); err != nil || js.code != exitFinding {
		t.Fatalf("-json: exit %d, %v\n%s", js.code, err, js.stdout)
	}
	if doc.Verdict != "stuck" || doc.Witness.Tree != "(max 0 1)" || !doc.Witness.Run.Search {
		t.Errorf("-json: %+v", doc)
	}
}

// TestCheckSearchFault: a program that breaks the protocol is a fault:
// exit 4, JSON "fault", the tree and the seed.
func TestCheckSearchFault(t *testing.T) {
	for _, c := range []struct{ name, script, msg string }{
		{"version", `read x; echo '{"version":2}'`, "protocol version 2"},
		{"decision", `read x; echo '{"version":1}'; read y; echo '{"sims":64,"decision":5,"visits":[32,32],"means":[0,1]}'; sleep 5`,
			"decided child 5 of a root with 2 children"},
		{"crash", `read x; echo '{"version":1}'; read y; echo 'out of memory' >&2; exit 3`, `exited with status 3 while searching to checkpoint 64 (its stderr ends: "out of memory")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := "exec:sh -c " + shellQuote(c.script)
			r := mctscheck(t, "", "check", "-search", spec, "-tree", "(max 0 1)", "-seeds", "1", "-budget", "1024", "-json")
			var doc struct {
				Verdict, Summary string
				Witness          struct {
					Tree  string
					Seeds []uint64
					Fault struct{ Kind, Message, Stderr string }
				}
			}
			if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != exitFault {
				t.Fatalf("exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
			}
			if doc.Verdict != "fault" || doc.Witness.Tree != "(max 0 1)" || len(doc.Witness.Seeds) != 1 || !strings.Contains(doc.Witness.Fault.Message, c.msg) {
				t.Errorf("%+v", doc)
			}
		})
	}
}

// TestCheckSearchFaultText: a search's fault is printed in a search's
// words, without the figures of a search that kept the contract (speed,
// frugality); a program that ignores the request's seed is the fault
// nondeterministic, with both answers, and its replay line, printed on a
// line of its own, finds it again.
func TestCheckSearchFaultText(t *testing.T) {
	needPython(t)
	spec := "exec:python3 ../examples/mcts.py --bug seed-ignored"
	const tr = "(max (min 1 0.5) (chance 0.5:0 0.5:(max 1 0)))" // a chance node draws at every pass: searches seeded apart differ
	r := mctscheck(t, "", "check", "-search", spec, "-tree", tr, "-seeds", "1", "-budget", "1024")
	if r.code != exitFault {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"verdict    fault: nondeterministic", "\n  first:  decision", "\n  again:  decision",
		"two searches of the tree with that seed answered differently\n", "\nthe search was asked for the tree " + tr + " with seed 1, checkpoints 64 to 1024 doubling\nreplay: "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in\n%s", want, r.stdout)
		}
	}
	for _, not := range []string{"speed ", "frugality ", "the rule saw", "in simulation"} {
		if strings.Contains(r.stdout, not) {
			t.Errorf("%q in a search's fault:\n%s", not, r.stdout)
		}
	}
	_, line, _ := strings.Cut(r.stdout, "replay: ")
	line, _, _ = strings.Cut(line, "\n")
	args, err := rules.SplitCommand(line)
	if err != nil || args[0] != "mctscheck" {
		t.Fatalf("replay line %q: %v", line, err)
	}
	if again := mctscheck(t, "", args[1:]...); again.code != exitFault || !strings.Contains(again.stdout, "fault: nondeterministic") {
		t.Errorf("the replay line %s: exit %d\n%s%s", line, again.code, again.stdout, again.stderr)
	}
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestCheckSearchBadInput: bad flags are usage errors, exit 2.
func TestCheckSearchBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-search", "python3 x.py"}, "want exec:CMD"},
		{[]string{"-search", "exec:no-such-program-mctscheck"}, "no-such-program-mctscheck"},
		{[]string{"-search", "exec:sh", "-rule", "uct"}, "-rule"},
		{[]string{"-search", "exec:sh", "-jobs", "0"}, "-jobs 0"},
		{[]string{"-search", "exec:sh", "-tree", "(chance 1:1)"}, "max or min root"},
		{[]string{"-search", "exec:sh", "-budget", "1000"}, "-budget 1000"},
		{[]string{"-search", "exec:sh -c " + shellQuote(`read x; echo '{"version":1,"chance":false}'; sleep 5`), "-tree", "(max (chance 0.5:1 0.5:0) 0.25)"},
			"-tree: the program handles no chance nodes (its handshake says so), and not this tree: node 0.0 is a chance node"},
	} {
		r := mctscheck(t, "", append([]string{"check"}, c.args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("check %q: exit %d, want 2 and %q\n%s", c.args, r.code, c.msg, r.stderr)
		}
	}
}

// TestCheckSearchInterrupted: Ctrl-C during a check of a search stops it
// and leaves no process behind.
func TestCheckSearchInterrupted(t *testing.T) {
	checkInterrupted(t, "-search", "exec:sh -c 'echo $$ > %s; exec python3 ../examples/mcts.py'")
}

// TestCheckSearchWords: the check of a search counts one seed and one
// program in the singular.
func TestCheckSearchWords(t *testing.T) {
	needPython(t)
	r := mctscheck(t, "", "check", "-search", "exec:python3 ../examples/mcts.py", "-tree", "(max 0 1)", "-seeds", "1", "-budget", "1024", "-jobs", "1")
	if r.code != 0 || !strings.Contains(r.stdout, "checked    the given tree × 1 seed from 1, budgets 64 to 1024 doubling, 1 program side by side\n") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// declaring is a Python program that runs the command of its arguments as
// a search program and adds the capabilities of $DECLARE to its handshake.
const declaring = `import json, os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
p.stdin.write(sys.stdin.readline()); p.stdin.flush()
hs = json.loads(p.stdout.readline()); hs.update(json.loads(os.environ["DECLARE"]))
print(json.dumps(hs), flush=True)
for line in sys.stdin:
    p.stdin.write(line); p.stdin.flush()
    for _ in json.loads(line)["checkpoints"]:
        print(p.stdout.readline(), end="", flush=True)
`

// TestCheckSearchHandles: the text, the JSON and the report of a check
// say which trees the program's handshake declares it handles, and the
// check searches no other.
func TestCheckSearchHandles(t *testing.T) {
	needPython(t)
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "declaring.py")
	if err := os.WriteFile(wrapper, []byte(declaring), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DECLARE", `{"chance": false, "alternating": true}`)
	spec := "exec:python3 " + wrapper + " python3 ../examples/mcts.py"
	out := filepath.Join(dir, "report")
	r := mctscheck(t, "", "check", "-search", spec, "-trees", "3", "-seeds", "1", "-budget", "1024", "-out", out)
	const says = "no chance nodes, players that alternate, as its handshake declares: no other tree was searched"
	if r.code != exitOK || !strings.Contains(r.stdout, "handles    "+says+"\n") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if md := readReport(t, out, "report.md"); !strings.Contains(md, "handles: "+says) {
		t.Errorf("report.md does not say what the program handles:\n%s", md)
	}
	var doc struct {
		Trees   int
		Handles map[string]bool
	}
	if err := json.Unmarshal([]byte(readReport(t, out, "report.json")), &doc); err != nil {
		t.Fatal(err)
	}
	// The trap families and the families of whole searches without chance
	// nodes and double moves, and the 3 random trees.
	trees, h := 3, props.Handles{NoChance: true, Alternating: true}
	for _, tr := range append(gen.Traps(), gen.SearchTraps()...) {
		if h.Allows(tr.Tree) == nil {
			trees++
		}
	}
	if want := (map[string]bool{"no_chance": true, "alternating": true}); !maps.Equal(doc.Handles, want) || doc.Trees != trees || trees >= 3+31+19 {
		t.Errorf("report.json: handles %v, %d trees; want %v, %d trees", doc.Handles, doc.Trees, want, trees)
	}
}
