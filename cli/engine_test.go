package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func runEngineCmd(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := Tool{}.Run(append([]string{"engine"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func TestEngineUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-gtp", "x"},
		{"-gtp", "no-such-engine-here", "-positions", "../engine/testdata/positions.txt"},
		{"-gtp", "sh", "-positions", "testdata/none.txt"},
		{"-gtp", "'sh", "-positions", "../engine/testdata/positions.txt"},
		{"-gtp", "sh", "-positions", "../engine/testdata/positions.txt", "-budgets", "8..2"},
		{"-gtp", "sh", "-positions", "../engine/testdata/positions.txt", "-budgets", "4,2"},
		{"-gtp", "sh", "-positions", "../engine/testdata/positions.txt", "-seeds", "0"},
		{"-gtp", "sh", "-positions", "../engine/testdata/positions.txt", "-case", "nope"},
	} {
		if _, stderr, code := runEngineCmd(args...); code != exitUsage {
			t.Errorf("%q: exit %d (%s), want %d", args, code, stderr, exitUsage)
		}
	}
}

// TestEngineLeelaZero is the CI check of a real engine: mctscheck engine -gtp
// runs Leela Zero, with the project's networks, on every position of
// engine/testdata (at least 20 exactly solved ones) at two budgets (one,
// 16 visits, under -short, as .ci/run runs it). It
// expects no fault and the tiny-prior positions flagged, so exit code 1.
func TestEngineLeelaZero(t *testing.T) {
	lz, err := exec.LookPath("leelaz")
	if err != nil {
		if lz, err = exec.LookPath("/usr/games/leelaz"); err != nil {
			t.Skip("leelaz is not installed (apt-get install leela-zero); skipping mctscheck engine on Leela Zero")
		}
	}
	budgets := "16,1024"
	if testing.Short() {
		budgets = "16" // every position still, at one small budget
	}
	args := []string{"-q", "-positions", "../engine/testdata/positions.txt", "-budgets", budgets, "-seeds", "1",
		"-gtp", lz + " --cpu-only -g --noponder -d -r 0 --timemanage off -t 1 -v {visits} -s {seed} -w {network}"}
	stdout, stderr, code := runEngineCmd(args...)
	t.Log("\n" + stdout)
	m := regexp.MustCompile(`(\d+) positions, (\d+) flagged, (\d+) faults\.`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("exit %d, no summary line; stderr: %s", code, stderr)
	}
	if m[3] != "0" {
		t.Errorf("%s faults", m[3])
	}
	if n, _ := strconv.Atoi(m[1]); n < 20 {
		t.Errorf("%s positions, want at least 20", m[1])
	}
	if code != exitFinding {
		t.Errorf("exit %d, want %d (the tiny-prior positions are flagged)", code, exitFinding)
	}
	for _, l := range strings.Split(stdout, "\n") {
		f := strings.Fields(l)
		if len(f) > 2 && f[1] == "tiny-prior" && !strings.Contains(stdout, f[0]+": 0 of 1 seeds at every budget") {
			t.Errorf("%s is not flagged", f[0])
		}
	}
}

// TestEngineJSON runs a fake engine that always passes on the lost
// positions (where every move is optimal) and on one won position (where
// passing loses): one JSON document, the won position flagged, exit 1.
func TestEngineJSON(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "pass.sh")
	body := "#!/bin/sh\nwhile read -r l; do case \"$l\" in genmove*) printf '= pass\\n\\n';; quit*) printf '=\\n\\n'; exit 0;; *) printf '=\\n\\n';; esac; done\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runEngineCmd("-q", "-json", "-positions", "../engine/testdata/positions.txt", "-case", "lost,normal-prior",
		"-budgets", "1", "-seeds", "1", "-gtp", script+" {visits} {seed}")
	var doc struct {
		Positions []struct {
			Name, Value, Flag string
			Trials            []struct{ Move string }
		}
		Flagged, Faults int
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("exit %d, not one JSON document: %v\n%s%s", code, err, stdout, stderr)
	}
	if code != exitFinding || doc.Faults != 0 || doc.Flagged != 17 || len(doc.Positions) != 23 {
		t.Errorf("exit %d, %d positions, %d flagged, %d faults; want 1, 23, 17, 0", code, len(doc.Positions), doc.Flagged, doc.Faults)
	}
	for _, p := range doc.Positions {
		if len(p.Trials) != 1 || p.Trials[0].Move != "pass" || (p.Value == "loss") != (p.Flag == "") {
			t.Errorf("%s: value %s, flag %q, trials %v", p.Name, p.Value, p.Flag, p.Trials)
		}
	}
}
