package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProtocolWorkedExample runs docs/protocol.md's worked example, the
// sh block as it is on the page with its /tmp/ moved to a directory of the
// test's own and mctscheck built from this checkout on PATH, and checks
// that it exits 1 and prints the page's lines (but its "…" lines) in order.
func TestProtocolWorkedExample(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent: the worked example is not run (CI has it)")
	}
	page, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	_, example, ok := strings.Cut(string(page), "\n## A worked example to paste\n")
	if !ok {
		t.Fatal("docs/protocol.md has no section A worked example to paste")
	}
	block := fenced(t, example, "```sh\n")
	want := fenced(t, example, "```text\n")
	dir := t.TempDir()
	block = strings.ReplaceAll(block, "/tmp/", dir+"/")
	want = strings.ReplaceAll(want, "/tmp/", dir+"/")
	bin := filepath.Join(dir, "bin")
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "mctscheck"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", block)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("the example: %v, want exit status 1\n%s", err, out)
	}
	rest := string(out)
	for _, line := range strings.Split(strings.TrimSpace(want), "\n") {
		if line == "…" {
			continue
		}
		i := strings.Index(rest, line+"\n")
		if i < 0 {
			t.Fatalf("the output lacks, after the lines before it on the page,\n%s\nthe output:\n%s", line, out)
		}
		rest = rest[i+len(line):]
	}
}

// fenced returns the body of the first code block that opens with open in
// text.
func fenced(t *testing.T, text, open string) string {
	t.Helper()
	_, body, ok := strings.Cut(text, open)
	if !ok {
		t.Fatalf("no %q block", strings.TrimSpace(open))
	}
	body, _, ok = strings.Cut(body, "\n```\n")
	if !ok {
		t.Fatalf("the %q block does not end", strings.TrimSpace(open))
	}
	return body + "\n"
}
