//go:build unix

package cli

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

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
