package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInvocation: the command lines the tool prints to be pasted name it
// as it was run: by its name when PATH finds it, else by the path it was
// run by; under go run or go test, by its name.
func TestInvocation(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "mycheck")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	t.Setenv("PATH", other)
	for _, c := range []struct {
		arg0, path, want string
	}{
		{"./mycheck", other, "./mycheck"},
		{"../bin/mycheck", other, "../bin/mycheck"},
		{"mycheck", other, "mycheck"},
		{exe, other, exe},
		{exe, dir, "mycheck"}, // the file PATH finds
		{exe, other + string(os.PathListSeparator) + dir, "mycheck"},
		{"/tmp/go-build123/b001/exe/mycheck", dir, "mycheck"}, // go run: the name
		{"/tmp/a dir/mycheck", other, "'/tmp/a dir/mycheck'"},
	} {
		t.Setenv("PATH", c.path)
		tool := Tool{Name: "mycheck", arg0: c.arg0}
		if got := tool.invocation(); got != c.want {
			t.Errorf("run as %q with PATH %s: invocation %q, want %q", c.arg0, c.path, got, c.want)
		}
	}
}

// TestReplayLinePaths: check's replay line and report.json's command
// name the command as it was run, ./mycheck when it is not on PATH.
func TestReplayLinePaths(t *testing.T) {
	tool := myTool
	tool.arg0 = "./mycheck"
	t.Setenv("PATH", t.TempDir())
	var out, errb strings.Builder
	code := tool.Run([]string{"check", "-rule", "my-greedy", "-tree", "(max (max 0 1) 0.5)", "-budget", "1024"}, strings.NewReader(""), &out, &errb)
	if code != exitFinding || !strings.Contains(out.String(), "\nreplay: ./mycheck check -rule 'my-greedy:fpu=1' -tree ") {
		t.Errorf("exit %d, no replay line of ./mycheck:\n%s%s", code, out.String(), errb.String())
	}
	if strings.Contains(errb.String(), "./mycheck") {
		t.Errorf("messages name the path, not the command:\n%s", errb.String())
	}
}

// TestReplayLinesPaste builds the command, runs it from another directory
// by a relative path, by ./NAME and from PATH, and pastes each replay line
// it prints into sh where it was run: each gives the witness again.
func TestReplayLinesPaste(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the command")
	}
	shell, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	tmp := t.TempDir()
	bin, work := filepath.Join(tmp, "bin"), filepath.Join(tmp, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "mycheck"), "../cmd/mctscheck")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const check = " check -rule greedy-fpu -tree '(max (max 0 1) 0.5)' -budget 1024"
	for _, c := range []struct{ dir, path, command, want string }{
		{work, os.Getenv("PATH"), "../bin/mycheck", "../bin/mycheck"},
		{bin, os.Getenv("PATH"), "./mycheck", "./mycheck"},
		{work, bin + string(os.PathListSeparator) + os.Getenv("PATH"), "mycheck", "mycheck"},
	} {
		sh := func(line string) (string, int) {
			cmd := exec.Command(shell, "-c", line)
			cmd.Dir = c.dir
			cmd.Env = append(os.Environ(), "PATH="+c.path)
			out, err := cmd.Output()
			code := 0
			if e, ok := err.(*exec.ExitError); ok {
				code = e.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			return string(out), code
		}
		out, code := sh(c.command + check)
		_, line, ok := strings.Cut(out, "\nreplay: ")
		line, _, _ = strings.Cut(line, "\n")
		if code != 0 || !ok || !strings.HasPrefix(line, c.want+" check -rule 'greedy-fpu:fpu=1' -tree ") {
			t.Errorf("(in %s) %s: exit %d, replay line %q, want one of %s:\n%s", c.dir, c.command+check, code, line, c.want, out)
			continue
		}
		again, code := sh(line)
		if code != 0 || !strings.Contains(again, "greedy-fpu:fpu=1 is inconsistent") {
			t.Errorf("(in %s) pasted %s: exit %d\n%s", c.dir, line, code, again)
		}
	}
}

// TestUnconvergedListed: check names every tree that did not converge in
// its JSON, each with its text; the text says how many it leaves out and
// prints the line that checks the first one alone, which, run, leaves it
// unconverged again; so does each random one of the JSON, checked alone
// with the check's seeds.
func TestUnconvergedListed(t *testing.T) {
	scale := []string{"-trees", "20", "-budget", "1024"} // 23 trees unconverged, one of them random
	r := mctscheck(t, "", append([]string{"check", "-rule", "uct", "-json"}, scale...)...)
	var doc struct {
		Inconclusive int             `json:"inconclusive"`
		Unconverged  []props.TreeRef `json:"unconverged"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc.Inconclusive <= shownUnconverged {
		t.Fatalf("exit %d, %v: want more than %d trees unconverged:\n%s", r.code, err, shownUnconverged, r.stdout)
	}
	if len(doc.Unconverged) != doc.Inconclusive {
		t.Errorf("%d trees did not converge, the JSON lists %d", doc.Inconclusive, len(doc.Unconverged))
	}
	random := 0
	for _, u := range doc.Unconverged {
		if !strings.HasPrefix(u.Name, "random ") {
			continue
		}
		random++
		one := mctscheck(t, "", "check", "-rule", "uct", "-tree", u.Tree, "-seed", "1", "-seeds", "4", "-budget", "1024", "-json")
		if !strings.Contains(one.stdout, `"verdict": "inconclusive"`) {
			t.Errorf("%s alone: exit %d, not inconclusive:\n%s", u.Name, one.code, one.stdout)
		}
	}
	if random == 0 {
		t.Errorf("no random tree left unconverged: the replays are not tested")
	}
	text := mctscheck(t, "", append([]string{"check", "-rule", "uct"}, scale...)...).stdout
	more := fmt.Sprintf(" and %d more); no witness\n", doc.Inconclusive-shownUnconverged)
	if !strings.Contains(text, more) || !strings.Contains(text, fmt.Sprintf("\n           and %d more: -json and -out list every one\n", doc.Inconclusive-shownUnconverged)) {
		t.Errorf("the text does not say that it leaves %d trees out:\n%s", doc.Inconclusive-shownUnconverged, text)
	}
	line := regexp.MustCompile(`(?m)^           the first alone: mctscheck (check .*)$`).FindStringSubmatch(text)
	if line == nil {
		t.Fatalf("no line checks the first tree alone:\n%s", text)
	}
	args, err := rules.SplitCommand(line[1])
	if err != nil {
		t.Fatal(err)
	}
	if one := mctscheck(t, "", args...); !strings.Contains(one.stdout, "verdict    inconclusive: 1 of 1 tree") {
		t.Errorf("%s: exit %d\n%s", line[1], one.code, one.stdout)
	}
}
