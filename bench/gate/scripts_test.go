package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// benchcmp runs scripts/benchcmp.sh in dir with the environment env and
// returns its exit status and output.
func benchcmp(t *testing.T, dir string, env []string, args ...string) (int, string) {
	t.Helper()
	script, err := filepath.Abs("../../scripts/benchcmp.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if e, ok := err.(*exec.ExitError); ok {
		return e.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// runIn runs a command in dir or fails the test.
func runIn(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// TestBenchcmpErrors checks that benchcmp.sh exits 2, not 1 (the
// regression status), when it cannot compare: too few samples, a commit
// that does not exist, a gate that does not build (a module that does not
// require this one); and that it leaves nothing in TMPDIR.
func TestBenchcmpErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchmarks")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	// A module of its own, in a git repository, with one benchmark.
	mod := t.TempDir()
	files := map[string]string{
		"go.mod":     "module example.com/own\n\ngo 1.26\n",
		"b_test.go":  "package own\n\nimport \"testing\"\n\nfunc BenchmarkNothing(b *testing.B) {\n\tfor b.Loop() {\n\t}\n}\n",
		".gitignore": "",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runIn(t, mod, "git", "init", "-q")
	runIn(t, mod, "git", "add", ".")
	runIn(t, mod, "git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")

	for _, tt := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"too few samples", []string{"COUNT=5"}, []string{"HEAD"}, "COUNT=5: want at least 10"},
		{"no such commit", nil, []string{"no-such-commit"}, "no-such-commit is neither a commit nor a module directory"},
		{"the gate does not build", []string{"PKG=.", "BENCHTIME=1x"}, []string{"HEAD"}, "building the gate failed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			env := append([]string{"TMPDIR=" + tmp}, tt.env...)
			code, out := benchcmp(t, mod, env, tt.args...)
			if code != 2 || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, want 2 with %q:\n%s", code, tt.want, out)
			}
			left, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range left {
				t.Errorf("left behind in TMPDIR: %s", e.Name())
			}
		})
	}
}
