package props_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/props"
)

// TestCheckReplayNamesPackage: Check's replay line runs the test's
// package from the module's root (./props here), not ".".
func TestCheckReplayNamesPackage(t *testing.T) {
	t.Setenv(props.TreeEnv, "(max (max 0 1) 0.5)")
	rec := &recorder{TB: t}
	props.Check(rec, greedy{}, props.Options{})
	want := " go test ./props -run '^TestCheckReplayNamesPackage$'\n"
	if !rec.failed || !strings.Contains(rec.fatal, "\nreplay: "+props.TreeEnv+"='(max (max 0 1) 0.5)' "+props.SeedEnv+"=1"+want) {
		t.Errorf("failed=%v, want a replay line ending in %q:\n%s", rec.failed, want, rec.fatal)
	}
}

// TestShellWord: a word with no special character stays as it is; any
// other is quoted.
func TestShellWord(t *testing.T) {
	for s, want := range map[string]string{
		"./sub":        "./sub",
		".":            ".",
		"./a b":        "'./a b'",
		"":             "''",
		"x=y":          "'x=y'",
		"it's":         `'it'\''s'`,
		"~/mycheck":    "'~/mycheck'",
		"/usr/bin/x-1": "/usr/bin/x-1",
	} {
		if got := props.ShellWord(s); got != want {
			t.Errorf("ShellWord(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestReplayLinePastes writes a module of one's own whose test in ./sub
// fails props.Check, runs go test ./... at its root, and pastes the
// replay line printed there into sh at the root: it runs that test again,
// which fails again on the same tree.
func TestReplayLinePastes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a module of one's own")
	}
	shell, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Dir(filepath.Dir(file))
	mod := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26.0\n\nrequire github.com/mctscheck/mctscheck v0.0.0\n\nreplace github.com/mctscheck/mctscheck => " + repo + "\n",
		"go.sum": string(sum),
		"sub/greedy_test.go": `package sub

import (
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
)

type greedy struct{}

func (greedy) Select(s *core.Site) int {
	for i := range s.Len() {
		if s.N(i) == 0 {
			return i
		}
	}
	return core.Argmax(s.Len(), func(i int) float64 { return s.W(i) / s.N(i) })
}

func TestGreedy(t *testing.T) {
	props.Check(t, greedy{}, props.Options{Trees: 5, Seeds: 1, MaxBudget: 1024})
}
`,
	}
	for name, text := range files {
		path := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The module cache has every module the build needs: no network.
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	sh := func(line string) string {
		cmd := exec.Command(shell, "-c", line)
		cmd.Dir, cmd.Env = mod, env
		out, err := cmd.CombinedOutput()
		if _, ok := err.(*exec.ExitError); !ok && err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	out := sh("go test -count=1 ./...")
	_, line, ok := strings.Cut(out, "replay: ")
	line, _, _ = strings.Cut(line, "\n")
	if !ok || !strings.HasSuffix(line, " go test ./sub -run '^TestGreedy$'") {
		t.Fatalf("go test ./...: no replay line of ./sub:\n%s", out)
	}
	tree := func(s string) string {
		_, after, _ := strings.Cut(s, "-node tree:\n")
		first, _, _ := strings.Cut(after, "\n")
		return strings.TrimSpace(first)
	}
	again := sh(line)
	if !strings.Contains(again, "--- FAIL: TestGreedy") || tree(again) == "" || tree(again) != tree(out) {
		t.Errorf("pasted %s: not the same failure:\n%s\nfirst:\n%s", line, again, out)
	}
}

// TestShellQuote: a quoted word is the word itself to a POSIX shell,
// quotes within it included.
func TestShellQuote(t *testing.T) {
	for _, s := range []string{"", "(max 0 1)", "it's", "'", "''a'b'", "a b\t$x \\ \"q\""} {
		got, want := props.ShellQuote(s), "'"+strings.ReplaceAll(s, "'", `'\''`)+"'"
		if got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", s, got, want)
		}
		out, err := exec.Command("sh", "-c", "printf %s "+got).Output()
		if err != nil {
			t.Skipf("no POSIX shell: %v", err)
		}
		if string(out) != s {
			t.Errorf("the shell reads ShellQuote(%q) = %s as %q", s, got, out)
		}
	}
}
