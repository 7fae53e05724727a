package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shardFiles runs the command args as n shards, the last first, each
// writing its -json document to a file, and returns the files' paths. A
// shard exits 0 whatever its part's verdict.
func shardFiles(t *testing.T, n int, args ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for k := n; k >= 1; k-- {
		r := mctscheck(t, "", append(args, "-shard", fmt.Sprintf("%d/%d", k, n), "-json")...)
		if r.code != exitOK {
			t.Fatalf("shard %d/%d: exit %d\n%s", k, n, r.code, r.stderr)
		}
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", k))
		if err := os.WriteFile(p, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// mergeIsWhole checks that the command args, split into each number of
// shards in ns and merged, prints the JSON document and exits with the
// code of the whole command.
func mergeIsWhole(t *testing.T, args []string, ns ...int) result {
	t.Helper()
	whole := mctscheck(t, "", append(args, "-json")...)
	if whole.code != exitOK && whole.code != exitFinding && whole.code != exitFault {
		t.Fatalf("exit %d\n%s", whole.code, whole.stderr)
	}
	for _, n := range ns {
		merged := mctscheck(t, "", append([]string{"merge", "-json"}, shardFiles(t, n, args...)...)...)
		if merged.code != whole.code {
			t.Errorf("%d shards merged: exit %d, the whole command's %d\n%s", n, merged.code, whole.code, merged.stderr)
		}
		if diff := cmp.Diff(normalize(t, whole.stdout), normalize(t, merged.stdout)); diff != "" {
			t.Errorf("%d shards merged are not the whole command's document (-whole +merged):\n%s", n, diff)
		}
	}
	return whole
}

// speeds matches the simulations per second in report.md, which vary.
var speeds = regexp.MustCompile(`(\| |; )[0-9.]+[kM]?( \||  simulations/s| simulations/s)`)

// TestMergeRunIsTheWholeRun: run split into shards, merged, gives the
// whole run's document, report.md (but for the speeds) and exit code, on
// a small catalogue: a witness, rules that do not converge, one predicted
// consistent. A shard says it is one.
func TestMergeRunIsTheWholeRun(t *testing.T) {
	args := []string{"run", "-rules", "greedy-fpu,uct,eps-greedy,rave-floor", "-trees", "4", "-seeds", "3", "-budget", "2048", "-out", ""}
	whole := mergeIsWhole(t, args, 2, 3)
	if !strings.Contains(whole.stdout, `"verdict": "inconsistent"`) || !strings.Contains(whole.stdout, `"verdict": "inconclusive"`) {
		t.Errorf("the run has no witness or no unconverged rule: the test proves less than it says\n%s", whole.stdout)
	}
	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }
	mctscheck(t, "", append(args[:len(args)-2:len(args)-2], "-out", out("whole"))...)
	var reports []string
	for k := 1; k <= 2; k++ {
		r := mctscheck(t, "", append(args[:len(args)-2:len(args)-2], "-out", out(fmt.Sprint(k)), "-shard", fmt.Sprintf("%d/2", k))...)
		if r.code != exitOK || !strings.Contains(r.stdout, fmt.Sprintf("SHARD %d/2", k)) || !strings.Contains(r.stdout, "This is shard") {
			t.Fatalf("shard %d/2: exit %d, or its table does not say it is a shard's:\n%s", k, r.code, r.stdout)
		}
		reports = append(reports, filepath.Join(out(fmt.Sprint(k)), "report.json"))
	}
	if r := mctscheck(t, "", append([]string{"merge", "-out", out("merged")}, reports...)...); r.code != exitOK {
		t.Fatalf("merge -out: exit %d\n%s", r.code, r.stderr)
	}
	read := func(dir string) string {
		data, err := os.ReadFile(filepath.Join(dir, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		return speeds.ReplaceAllString(string(data), "${1}SPEED${2}")
	}
	if diff := cmp.Diff(read(out("whole")), read(out("merged"))); diff != "" {
		t.Errorf("the merged report.md is not the whole run's (-whole +merged):\n%s", diff)
	}
	for _, f := range []string{"report.html", "report.json"} {
		if _, err := os.Stat(filepath.Join(out("merged"), f)); err != nil {
			t.Errorf("merge -out wrote no %s: %v", f, err)
		}
	}
}

// TestMergeCheckIsTheWholeCheck: check split into shards, its trees' or
// its one tree's seeds, merged, gives the whole check's document and exit
// code.
func TestMergeCheckIsTheWholeCheck(t *testing.T) {
	mergeIsWhole(t, []string{"check", "-rule", "eps-greedy", "-trees", "5", "-seeds", "2", "-budget", "1024"}, 3)
	one := mergeIsWhole(t, []string{"check", "-rule", "greedy-fpu", "-tree", "(max (max 0 1) 0.5)", "-budget", "2048"}, 5, 16, 20) // 20: shards with no search
	if !strings.Contains(one.stdout, `"agreement": "reproduced"`) {
		t.Errorf("greedy-fpu on its trap: %s", one.stdout)
	}
}

// TestMergeSearchIsTheWholeCheck: check -search of examples/mcts.c (built
// with the C compiler; without one, of examples/mcts.py), buggy and not,
// split into shards and merged, gives the whole check's document and exit
// code: stuck (1) with the same witness, and inconclusive.
func TestMergeSearchIsTheWholeCheck(t *testing.T) {
	search := searchProgram(t)
	stuck := mergeIsWhole(t, []string{"check", "-search", "exec:" + search + " --bug fpu-never", "-trees", "4", "-seeds", "3", "-budget", "2048"}, 2, 3)
	if stuck.code != exitFinding || !strings.Contains(stuck.stdout, `"verdict": "stuck"`) {
		t.Errorf("the buggy search: exit %d\n%s", stuck.code, stuck.stdout)
	}
	mergeIsWhole(t, []string{"check", "-search", "exec:" + search, "-trees", "3", "-seeds", "2", "-budget", "1024"}, 2)
}

// searchProgram returns the command line of examples/mcts.c, compiled
// into a temporary directory, or of examples/mcts.py, or skips the test.
func searchProgram(t *testing.T) string {
	t.Helper()
	if cc, err := exec.LookPath("cc"); err == nil {
		bin := filepath.Join(t.TempDir(), "mcts")
		if out, err := exec.Command(cc, "-O2", "-o", bin, "../examples/mcts.c", "-lm").CombinedOutput(); err != nil {
			t.Fatalf("cc examples/mcts.c: %v\n%s", err, out)
		}
		return bin
	}
	if _, err := exec.LookPath("python3"); err == nil {
		return "python3 ../examples/mcts.py"
	}
	t.Skip("neither cc nor python3: no reference search to split (CI has both)")
	return ""
}

// TestMergeBadInput: reports that are not all the shards of one check or
// run get a message that says what is wrong, and exit code 2.
func TestMergeBadInput(t *testing.T) {
	check := []string{"check", "-rule", "uct", "-trees", "2", "-seeds", "2", "-budget", "1024"}
	run := []string{"run", "-rules", "uct,greedy-fpu", "-trees", "2", "-seeds", "2", "-budget", "1024", "-out", ""}
	three := shardFiles(t, 3, check...) // shards 3, 2, 1
	other := shardFiles(t, 3, append(check, "-seed", "5")...)
	runs := shardFiles(t, 2, run...)
	dir := t.TempDir()
	edited := func(name, path string, edit func(string) string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(edit(string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	whole := edited("whole.json", three[0], func(string) string { return mctscheck(t, "", append(check, "-json")...).stdout })
	version := edited("version.json", three[1], func(s string) string {
		return regexp.MustCompile(`"version": "[^"]*"`).ReplaceAllString(s, `"version": "v0.0.1"`)
	})
	cut := edited("cut.json", three[1], func(s string) string {
		var doc map[string]any
		if err := json.Unmarshal([]byte(s), &doc); err != nil {
			t.Fatal(err)
		}
		shard := doc["shard"].(map[string]any)
		searches := shard["searches"].([]any)
		shard["searches"] = searches[:len(searches)-1]
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	})
	interrupted := edited("interrupted.json", runs[0], func(s string) string {
		return strings.Replace(strings.Replace(s, `"agreement": "not refuted"`, `"agreement": "interrupted"`, 1), `"verdict": "inconclusive"`, `"verdict": "interrupted"`, 1)
	})
	garbage := edited("garbage.json", three[0], func(string) string { return "not json" })
	for _, c := range []struct {
		name  string
		files []string
		want  string
	}{
		{"none", nil, "give the report.json (or -json output) of every shard"},
		{"absent", []string{filepath.Join(dir, "absent.json")}, "no such file"},
		{"garbage", []string{garbage}, "not a report's JSON"},
		{"whole", []string{whole, three[1]}, "not a shard's report"},
		{"missing", three[:2], "1 shard (1/3) missing"},
		{"twice", append(three[:3:3], three[1]), "shard 2/3 is given twice"},
		{"other check", []string{three[0], three[1], other[2]}, "shards of different checks"},
		{"run and check", []string{three[0], runs[0]}, "the reports are of run and of check"},
		{"version", []string{three[0], version, three[2]}, "by v0.0.1: run every shard with the same program"},
		{"cut short", []string{three[0], cut, three[2]}, "its report was cut short"},
		{"interrupted", []string{interrupted, runs[1]}, "was interrupted: run that shard again"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := mctscheck(t, "", append([]string{"merge"}, c.files...)...)
			if r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
				t.Errorf("exit %d, want 2 with %q:\n%s", r.code, c.want, r.stderr)
			}
		})
	}
	if r := mctscheck(t, "", "check", "-rule", "uct", "-shard", "3/2"); r.code != exitUsage || !strings.Contains(r.stderr, "want K/N with 1 ≤ K ≤ N") {
		t.Errorf("check -shard 3/2: exit %d\n%s", r.code, r.stderr)
	}
	if r := mctscheck(t, "", "check", "-rule", "uct", "-game", "connect4", "-moves", "4", "-shard", "1/2"); r.code != exitUsage || !strings.Contains(r.stderr, "not with -game") {
		t.Errorf("check -game -shard: exit %d\n%s", r.code, r.stderr)
	}
}

// TestMergeCheckText: the text of merged shards of a check whose trees do
// not all converge is the whole check's but for its speed: the trees it
// names, how many it leaves out, and the line that checks the first alone.
func TestMergeCheckText(t *testing.T) {
	args := []string{"check", "-rule", "uct", "-trees", "10", "-seeds", "2", "-budget", "1024"}
	whole := mctscheck(t, "", args...)
	merged := mctscheck(t, "", append([]string{"merge"}, shardFiles(t, 2, args...)...)...)
	if !strings.Contains(whole.stdout, "the first alone: ") {
		t.Fatalf("the whole check names no unconverged tree: the test proves less than it says\n%s", whole.stdout)
	}
	speed := regexp.MustCompile(`(?m)^speed .*$`)
	if diff := cmp.Diff(speed.ReplaceAllString(whole.stdout, "speed"), speed.ReplaceAllString(merged.stdout, "speed")); diff != "" {
		t.Errorf("the merged text is not the whole check's (-whole +merged):\n%s", diff)
	}
}
