package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// asCommandEnv, set to 1, makes the test binary the mctscheck command
// (TestMain), so that a test can put it on PATH and run the docs'
// examples as they stand.
const asCommandEnv = "MCTSCHECK_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommandEnv) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// protocolPage is the page of the protocols.
const protocolPage = "../../docs/protocol.md"

// TestSearchProtocolExample runs the search protocol's worked example as
// it stands in docs/protocol.md, with this command as mctscheck, from the
// repository's root, and checks that it prints what the page says it
// prints, and exits with status 1.
func TestSearchProtocolExample(t *testing.T) {
	script, printed := searchExample(t, "A whole search to paste")
	checkSearchExample(t, script, printed)
}

// TestSearchProtocolCapabilities runs the page's example of a search that
// declares what it handles: the greedy program's file, written as the
// example before it writes it, then the section's sh block.
func TestSearchProtocolCapabilities(t *testing.T) {
	greedy, _ := searchExample(t, "A whole search to paste")
	program, _, ok := strings.Cut(greedy, "\nPROGRAM\n")
	if !ok {
		t.Fatal("the greedy example writes no program")
	}
	script, printed := searchExample(t, "A search that declares what it handles")
	checkSearchExample(t, program+"\nPROGRAM\n"+script, printed)
}

// searchExample returns the sh block of the section of docs/protocol.md
// with the given title, and the lines it prints.
func searchExample(t *testing.T, title string) (script, printed string) {
	t.Helper()
	section, _, _ := strings.Cut(pageSection(t, "## "+title), "\n## ")
	_, script, ok := strings.Cut(section, "```sh\n")
	script, _, ok2 := strings.Cut(script, "```\n")
	_, printed, ok3 := strings.Cut(section, "It prints, and exits with status 1")
	if !ok || !ok2 || !ok3 {
		t.Fatalf("%s: the example has no sh block or no printed output", protocolPage)
	}
	_, printed, _ = strings.Cut(printed, "\n\n")
	printed, _, _ = strings.Cut(printed, "\n\n")
	return script, printed
}

// checkSearchExample runs script with sh from the repository's root, with
// this command as mctscheck, and checks that it exits with status 1 and
// prints each line of printed (but its "…" lines).
func checkSearchExample(t *testing.T, script, printed string) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent: the example is not run (CI has it)")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := commandDir(t)
	cmd := exec.Command(sh, "-c", script)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("the example: %v, want exit status 1\n%s", err, out)
	}
	for _, line := range strings.Split(printed, "\n") {
		line = strings.TrimPrefix(line, "    ")
		if line != "…" && !strings.Contains(string(out), line+"\n") {
			t.Errorf("the example does not print, as the page says,\n%s\nIt prints:\n%s", line, out)
		}
	}
}

// commandDir returns a directory that holds this test binary as the
// command mctscheck (TestMain), to put first on PATH.
func commandDir(t *testing.T) string {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	shim := "#!/bin/sh\n" + asCommandEnv + "=1 exec '" + bin + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "mctscheck"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestProtocolWorkedExample runs docs/protocol.md's worked example, the
// sh block as it is on the page with its /tmp/ moved to a directory of the
// test's own and this command as mctscheck on PATH, and checks
// that it exits 1 and prints the page's lines (but its "…" lines) in order.
func TestProtocolWorkedExample(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent: the example is not run (CI has it)")
	}
	example := pageSection(t, "## A worked example to paste")
	dir := t.TempDir()
	want := strings.ReplaceAll(fenced(t, example, "```text\n"), "/tmp/", dir+"/")
	out, err := runBlock(t, strings.ReplaceAll(fenced(t, example, "```sh\n"), "/tmp/", dir+"/"), "")
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

// TestExecEnvironmentExample runs docs/protocol.md's example of a
// variable given to a rule's program (through env, then a wrapper
// script), as it is on the page with its /tmp/ moved to a directory of the
// test's own: both checks exit 0 with the verdict the page says.
func TestExecEnvironmentExample(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent: the example is not run (CI has it)")
	}
	section := pageSection(t, "### Environment variables, a directory, a pipeline")
	out, err := runBlock(t, strings.ReplaceAll(fenced(t, section, "```sh\n"), "/tmp/", t.TempDir()+"/"), "../..")
	const want = "verdict    no counterexample: 1 tree × 2 seeds up to budget 1024, "
	if err != nil || strings.Count(string(out), want) != 2 {
		t.Errorf("the example: %v, want two checks that print %q:\n%s", err, want, out)
	}
}

// pageSection returns docs/protocol.md from the line heading on.
func pageSection(t *testing.T, heading string) string {
	t.Helper()
	page, err := os.ReadFile(protocolPage)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no section %q", protocolPage, heading)
	}
	return section
}

// runBlock runs an sh block of the page with bash -euo pipefail in dir
// ("": the test's), with this command as mctscheck on PATH, and returns
// what it prints.
func runBlock(t *testing.T, block, dir string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", block)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+commandDir(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
	return cmd.Output()
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
