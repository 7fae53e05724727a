package gtp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pachiScript runs scripts/pachi-vs-mctscheck.sh with args and the extra
// environment env, and returns its exit status and output.
func pachiScript(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script, err := filepath.Abs("../scripts/pachi-vs-mctscheck.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Env = append(append(os.Environ(), "TMPDIR="+t.TempDir()), env...)
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil { // it did not start
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

// TestPachiScriptArgs: scripts/pachi-vs-mctscheck.sh refuses bad arguments
// and settings with exit status 2 and a message that names them, before
// building or running anything.
func TestPachiScriptArgs(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "pachi.txt")
	if err := os.WriteFile(notExec, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"no argument", nil, nil, "usage: scripts/pachi-vs-mctscheck.sh PACHI"},
		{"two arguments", nil, []string{dir, dir}, "usage: scripts/pachi-vs-mctscheck.sh PACHI"},
		{"no such path", nil, []string{filepath.Join(dir, "nowhere")}, "nowhere: no such file or directory"},
		{"not Pachi's source", nil, []string{dir}, "not Pachi's source directory"},
		{"not executable", nil, []string{notExec}, "pachi.txt: not an executable"},
		{"zero pairs", []string{"PAIRS=0"}, []string{dir}, "PAIRS=0: want a positive integer"},
		{"bad budget", []string{"BUDGET=2e4"}, []string{dir}, "BUDGET=2e4: want a positive integer"},
		{"no genmoves", []string{"GENMOVES= "}, []string{dir}, "GENMOVES is empty"},
		{"bad genmoves", []string{"GENMOVES=1 ten"}, []string{dir}, "GENMOVES: ten: want positive integers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := pachiScript(t, tc.env, tc.args...)
			if code != 2 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want 2 and %q in\n%s", code, tc.want, out)
			}
		})
	}
}

// fakePachi speaks enough GTP for the script, and reports its playouts on
// standard error as Pachi does: 30 new ones a genmove, on a root that keeps
// 10 from the previous genmove after the first.
const fakePachi = `#!/usr/bin/env bash
root=0
while read -r cmd arg; do
	case $cmd in
	genmove)
		if ((root > 0)); then echo "<pre-simulated 10 games>" >&2; root=10; fi
		root=$((root + 30))
		echo "*** WINNER is C3 with score 50.0% (7/$root games), extra komi 0.0" >&2
		printf '= C3\n\n' ;;
	quit) printf '=\n\n'; exit 0 ;;
	*) printf '=\n\n' ;;
	esac
done
`

// TestPachiScriptRuns: with a stand-in for Pachi, the script runs both
// sides on the same sessions, counts the stand-in's new playouts from its
// standard error, and prints a row per number of genmoves.
func TestPachiScriptRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mctscheck and runs searches")
	}
	dir := t.TempDir()
	pachi := filepath.Join(dir, "pachi")
	if err := os.WriteFile(pachi, []byte(fakePachi), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, text := pachiScript(t, []string{"PAIRS=2", "BUDGET=100", "GENMOVES=1 3", "OUT=" + out}, pachi)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, text)
	}
	for _, row := range []string{"\n1 ", "\n3 ", "cpu:", "cache:", "host:", "touch:"} {
		if !strings.Contains(text, row) {
			t.Errorf("no row %q in\n%s", strings.TrimSpace(row), text)
		}
	}
	rates, err := os.ReadFile(filepath.Join(out, "rates.3.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// Each line: our simulations, our CPU seconds, the stand-in's playouts
	// and CPU seconds; three genmoves of 30 new playouts each.
	lines := strings.Split(strings.TrimSpace(string(rates)), "\n")
	if len(lines) != 2 {
		t.Fatalf("rates.3.txt has %d lines, want 2 (PAIRS)\n%s", len(lines), rates)
	}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 4 || f[0] != "300" || f[2] != "90" {
			t.Errorf("rates line %q, want 300 of ours and 90 of the stand-in's", l)
		}
	}
	// Each line: the page faults of our run and of the stand-in's, counts
	// with GNU time, "-" without.
	faults, err := os.ReadFile(filepath.Join(out, "faults.3.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimSpace(string(faults)), "\n")
	if len(lines) != 2 {
		t.Fatalf("faults.3.txt has %d lines, want 2 (PAIRS)\n%s", len(lines), faults)
	}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 2 {
			t.Fatalf("faults line %q, want two fields", l)
		}
		for _, x := range f {
			if _, err := strconv.Atoi(x); err != nil && x != "-" {
				t.Errorf("faults line %q: %q is neither a count nor -", l, x)
			}
		}
	}
}
