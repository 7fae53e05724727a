package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// panicky panics once the root has a few simulations; nanny scores NaN.
type panicky struct{}

func (panicky) Select(s *core.Site) int {
	if s.ParentVisits() > 8 {
		panic("my rule broke")
	}
	return 0
}

type nanny struct{}

func (nanny) Select(s *core.Site) int           { return core.ArgmaxScore(s, nanny{}) }
func (nanny) Score(s *core.Site, i int) float64 { return math.NaN() }

// faultyTool is a user's command whose rules fault.
var faultyTool = Tool{Name: "mycheck", Rules: []*rules.Entry{
	{Name: "my-panic", Summary: "panics", Predicted: rules.Prediction{Consistent: true, Source: "me", Why: "hoped"},
		New: func(map[string]float64) core.Rule { return panicky{} }},
	{Name: "my-nan", Summary: "scores NaN", Predicted: rules.Prediction{Consistent: true, Source: "me", Why: "hoped"},
		New: func(map[string]float64) core.Rule { return nanny{} }},
}}

// TestFaultIsNotAFinding: a rule that panics or scores NaN gets the verdict
// fault, exit code 4 and the JSON value "fault", never "inconsistent" with
// exit 1; a run with such a rule exits 4 too.
func TestFaultIsNotAFinding(t *testing.T) {
	for _, spec := range []string{"my-panic", "my-nan"} {
		var out, errb bytes.Buffer
		code := faultyTool.Run([]string{"check", "-rule", spec, "-tree", "(max (max 0 1) 0.5)", "-json"}, nil, &out, &errb)
		if code != exitFault {
			t.Errorf("%s: exit %d, want %d\n%s", spec, code, exitFault, errb.String())
		}
		var doc struct{ Verdict, Agreement, Summary string }
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", spec, err, out.String())
		}
		if doc.Verdict != "fault" || doc.Agreement != "not judged" || !strings.HasPrefix(doc.Summary, "fault (") {
			t.Errorf("%s: verdict %q, agreement %q, summary %q", spec, doc.Verdict, doc.Agreement, doc.Summary)
		}
	}
	var out, errb bytes.Buffer
	code := faultyTool.Run([]string{"-trees", "2", "-seeds", "1", "-budget", "1024", "-out", ""}, nil, &out, &errb)
	if code != exitFault || !strings.Contains(out.String(), "FAULT (panic)") || !strings.Contains(out.String(), "NOT JUDGED") {
		t.Errorf("run: exit %d, want %d, with the faults in the table:\n%s", code, exitFault, out.String())
	}
}

// brokenAtOnce panics at its first site: no simulation runs.
type brokenAtOnce struct{}

func (brokenAtOnce) Select(*core.Site) int { panic("my rule is broken") }

// TestFaultBeforeAnySimulation: a rule that faults before any simulation
// is done has no frugality and no speed: the text prints no such lines,
// the table "—", never 0% or 0 simulations/s.
func TestFaultBeforeAnySimulation(t *testing.T) {
	tool := Tool{Name: "mycheck", Rules: []*rules.Entry{{Name: "my-broken", Summary: "panics at once",
		Predicted: rules.Prediction{Consistent: true, Source: "me", Why: "hoped"},
		New:       func(map[string]float64) core.Rule { return brokenAtOnce{} }}}}
	var out, errb bytes.Buffer
	code := tool.Run([]string{"check", "-rule", "my-broken"}, nil, &out, &errb)
	if code != exitFault || strings.Contains(out.String(), "frugality") || strings.Contains(out.String(), "speed") {
		t.Errorf("check: exit %d, want %d and no frugality or speed:\n%s", code, exitFault, out.String())
	}
	out.Reset()
	code = tool.Run([]string{"-trees", "2", "-seeds", "1", "-budget", "1024", "-out", ""}, nil, &out, &errb)
	row := strings.Fields(strings.SplitN(out.String(), "\n", 3)[1]) // …, VISITED (RECENT), SIMS/S, NOT JUDGED
	if n := len(row); code != exitFault || n < 4 || row[n-4] != "—" || row[n-3] != "—" {
		t.Errorf("run: exit %d, want %d and the row's frugality and speed \"—\":\n%s", code, exitFault, out.String())
	}
}

// TestExecFaultsExitFour: programs that hang or write a log line on their
// standard output get the verdict fault and exit 4, not a witness of
// inconsistency on a tree where every move is optimal.
func TestExecFaultsExitFour(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent: the external rules are not tested (CI has it)")
	}
	const hello = `import sys, json; sys.stdin.readline(); print(json.dumps({"version": 1}), flush=True)`
	for _, tc := range []struct{ name, program, kind string }{
		{"hang", hello + "\nimport time; time.sleep(100)", "hang"},
		{"stray", hello + "\nfor line in sys.stdin:\n    print('log: thinking', flush=True); print(json.dumps([0] * len(json.loads(line))), flush=True)", "garbage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog := t.TempDir() + "/rule.py"
			if err := os.WriteFile(prog, []byte(tc.program), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			code := mctscheckTool.Run([]string{"check", "-rule", "exec:python3 " + prog, "-tree", "(max 1 1)", "-seeds", "1",
				"-rule-timeout", "300ms", "-json"}, nil, &out, &errb)
			if code != exitFault {
				t.Fatalf("exit %d, want %d\n%s", code, exitFault, errb.String())
			}
			var doc struct {
				Verdict string
				Witness struct{ Fault struct{ Kind string } }
			}
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Verdict != "fault" || doc.Witness.Fault.Kind != tc.kind {
				t.Errorf("verdict %q, fault %q, want fault (%s)\n%s", doc.Verdict, doc.Witness.Fault.Kind, tc.kind, out.String())
			}
		})
	}
}
