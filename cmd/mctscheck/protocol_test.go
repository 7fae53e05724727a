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
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is absent: the example is not run (CI has it)")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	data, err := os.ReadFile(protocolPage)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## A whole search to paste\n")
	if !ok {
		t.Fatalf("%s has no section \"A whole search to paste\"", protocolPage)
	}
	_, script, ok := strings.Cut(section, "```sh\n")
	script, _, ok2 := strings.Cut(script, "```\n")
	_, printed, ok3 := strings.Cut(section, "It prints, and exits with status 1")
	if !ok || !ok2 || !ok3 {
		t.Fatalf("%s: the example has no sh block or no printed output", protocolPage)
	}
	_, printed, _ = strings.Cut(printed, "\n\n")
	printed, _, _ = strings.Cut(printed, "\n\n")

	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	shim := "#!/bin/sh\n" + asCommandEnv + "=1 exec '" + bin + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "mctscheck"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
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
