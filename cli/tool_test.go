package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// myGreedy is a user's rule: greedy with first-play urgency under another
// name, predicted consistent by a mistaken author, so that the checker
// contradicts it.
var myGreedy = &rules.Entry{
	Name:      "my-greedy",
	Summary:   "greedy mean, unvisited children score fpu",
	Params:    []rules.Param{{Name: "fpu", Default: 1, Min: 0, Max: 1, Doc: "first-play urgency"}},
	Predicted: rules.Prediction{Consistent: true, Source: "its author", Why: "hoped"},
	New:       func(a map[string]float64) core.Rule { return rules.GreedyFPU{FPU: a["fpu"]} },
}

// myTool is a user's command with myGreedy.
var myTool = Tool{Name: "mycheck", Rules: []*rules.Entry{myGreedy}}

// mycheck runs myTool in-process.
func mycheck(t *testing.T, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := myTool.Run(args, strings.NewReader(""), &out, &errb)
	return result{out.String(), errb.String(), code}
}

// TestToolRun: a user's command runs the user's rules by default, writes
// the report with replay lines that name it, and exits 1 on the
// contradicted prediction.
func TestToolRun(t *testing.T) {
	dir := t.TempDir()
	r := mycheck(t, "-trees", "2", "-seeds", "1", "-budget", "1024", "-out", dir)
	if r.code != exitFinding {
		t.Fatalf("exit %d, want %d\n%s%s", r.code, exitFinding, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "my-greedy") || strings.Contains(r.stdout, "uct") {
		t.Errorf("the table is not about my-greedy alone:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "mycheck: [1/1] my-greedy") || strings.Contains(r.stderr, "mctscheck:") {
		t.Errorf("progress lines do not name mycheck:\n%s", r.stderr)
	}
	const replay = "mycheck check -rule 'my-greedy:fpu=1' -tree "
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(md, []byte("\n"+replay)) || bytes.Contains(md, []byte("go run ./cmd/mctscheck")) {
		t.Errorf("report.md without a replay line of mycheck:\n%s", md)
	}
	var doc struct {
		Command string
		Rules   []struct{ Witness struct{ Replay []string } }
	}
	js, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err == nil {
		err = json.Unmarshal(js, &doc)
	}
	if err != nil || !strings.HasPrefix(doc.Command, "mycheck run ") || len(doc.Rules) != 1 ||
		len(doc.Rules[0].Witness.Replay) != 1 || !strings.HasPrefix(doc.Rules[0].Witness.Replay[0], replay) {
		t.Errorf("report.json: %v, %+v", err, doc)
	}
	both := mycheck(t, "-rules", "my-greedy,uct", "-trees", "1", "-seeds", "1", "-budget", "1024", "-out", "")
	if !strings.Contains(both.stdout, "my-greedy") || !strings.Contains(both.stdout, "\nuct ") {
		t.Errorf("-rules my-greedy,uct:\n%s%s", both.stdout, both.stderr)
	}
}

// TestToolReplay: check's replay line, run with the user's command, gives
// the witness again.
func TestToolReplay(t *testing.T) {
	r := mycheck(t, "check", "-rule", "my-greedy", "-tree", "(max (min (max 1 0) (max 0 1)) (min 0 (max 1 0)))", "-budget", "1024")
	_, line, ok := strings.Cut(r.stdout, "replay: mycheck ")
	if r.code != exitFinding || !ok {
		t.Fatalf("exit %d, no replay line of mycheck:\n%s%s", r.code, r.stdout, r.stderr)
	}
	line, _, _ = strings.Cut(line, "\n")
	again := mycheck(t, shellSplit(t, line)...)
	if again.code != exitFinding || !strings.Contains(again.stdout, "my-greedy:fpu=1 is inconsistent") {
		t.Errorf("replay %s: exit %d\n%s%s", line, again.code, again.stdout, again.stderr)
	}
}

// TestToolRules: rules lists the user's rules first, and describes them.
func TestToolRules(t *testing.T) {
	r := mycheck(t, "rules")
	if r.code != 0 || !strings.HasPrefix(strings.SplitN(r.stdout, "\n", 3)[1], "my-greedy ") || !strings.Contains(r.stdout, "\nuct ") {
		t.Errorf("rules: exit %d\n%s", r.code, r.stdout)
	}
	r = mycheck(t, "rules", "my-greedy")
	if r.code != 0 || !strings.Contains(r.stdout, "spec        my-greedy:fpu=1") || !strings.Contains(r.stdout, "its author") {
		t.Errorf("rules my-greedy: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestToolConflict: a user's rule named like a catalogue rule is refused
// before any command runs.
func TestToolConflict(t *testing.T) {
	bad := *myGreedy
	bad.Name = "uct"
	var errb bytes.Buffer
	code := Tool{Name: "mycheck", Rules: []*rules.Entry{&bad}}.Run([]string{"rules"}, nil, io.Discard, &errb)
	if code != exitInternal || !strings.Contains(errb.String(), `mycheck: rules: Register: the name "uct" is taken by a rule of the catalogue`) {
		t.Errorf("exit %d, %s", code, errb.String())
	}
}

// TestToolMessages: errors name the user's command.
func TestToolMessages(t *testing.T) {
	r := mycheck(t, "check", "-rule", "my-greedy:x=1")
	if r.code != exitUsage || !strings.HasPrefix(r.stderr, `mycheck: check: -rule: rules: my-greedy: unknown parameter "x"`) {
		t.Errorf("exit %d, %s", r.code, r.stderr)
	}
	r = mycheck(t, "bogus")
	if r.code != exitUsage || !strings.Contains(r.stderr, `mycheck: unknown command "bogus"`) || !strings.Contains(r.stderr, "see mycheck -h") {
		t.Errorf("exit %d, %s", r.code, r.stderr)
	}
}

// TestToolSpeaks: a user's command speaks in its own name in its help
// texts and messages, and calls the expectation the user's.
func TestToolSpeaks(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"run", "-h"}, {"check", "-h"}, {"presets", "-h"}, {"engine", "-h"}, {"search", "-h"}, {"version", "-h"}} {
		r := mycheck(t, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "mycheck") {
			t.Errorf("mycheck %s: exit %d, no mycheck in\n%s", strings.Join(args, " "), r.code, r.stdout)
		}
		for _, line := range strings.Split(r.stdout, "\n") {
			if strings.Contains(strings.ReplaceAll(line, "github.com/mctscheck/mctscheck", ""), "mctscheck ") {
				t.Errorf("mycheck %s: a line names mctscheck: %q", strings.Join(args, " "), line)
			}
			if strings.Contains(line, "papers' prediction") || strings.Contains(line, "the papers predict") {
				t.Errorf("mycheck %s: a line calls the expectation the papers': %q", strings.Join(args, " "), line)
			}
		}
	}
	if r := mycheck(t, "rules"); !strings.Contains(r.stdout, "\nmycheck rules NAME describes a rule in full; mycheck check") {
		t.Errorf("the rules footer does not name mycheck:\n%s", r.stdout)
	}
	if r := mycheck(t, "-h"); !strings.Contains(r.stdout, "mycheck [run] [flags]                     check your rules (the default") ||
		!strings.Contains(r.stdout, "  run      check your rules and write a report (the default)") {
		t.Errorf("mycheck -h does not say that run checks the user's rules:\n%s", r.stdout)
	}
	if r := mycheck(t, "run", "-h"); !strings.HasPrefix(r.stdout, "Usage: mycheck [run]") || !strings.Contains(r.stdout, "Run checks your rules (or") {
		t.Errorf("mycheck run -h does not say that run checks the user's rules:\n%s", r.stdout)
	}
	if r := mycheck(t, "-h"); !strings.HasPrefix(r.stdout, "mycheck checks whether your Monte-Carlo") {
		t.Errorf("mycheck -h does not start with what mycheck is:\n%s", r.stdout)
	}
	r := mycheck(t, "-trees", "1", "-seeds", "1", "-budget", "1024", "-out", "")
	if !strings.Contains(r.stdout, "Of 1 rule, your prediction is reproduced for 0") {
		t.Errorf("the tally does not call the prediction the user's:\n%s", r.stdout)
	}
	if r := mycheck(t, "check", "-rule", "my-greedy", "-nope"); !strings.Contains(r.stderr, "(see mycheck check -h)") {
		t.Errorf("a usage error points to mctscheck's help: %s", r.stderr)
	}
}

// TestReplaceCommandName: the command's name is replaced where it is a
// command, not in paths, module paths or the report directory.
func TestReplaceCommandName(t *testing.T) {
	for in, want := range map[string]string{
		"mctscheck check -rule uct":                "my check -rule uct",
		"see 'mctscheck rules' (mctscheck -h)":     "see 'my rules' (my -h)",
		"go run ./cmd/mctscheck; mctscheck-report": "go run ./cmd/mctscheck; mctscheck-report",
		"github.com/mctscheck/mctscheck":           "github.com/mctscheck/mctscheck",
		"mctscheck: check: ... mctscheck":          "my: check: ... my",
		"mctschecks, xmctscheck mctscheck:x":       "mctschecks, xmctscheck mctscheck:x",
	} {
		if got := replaceCommandName(in, "my"); got != want {
			t.Errorf("replaceCommandName(%q) = %q, want %q", in, got, want)
		}
	}
}
