package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/engine"
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
	args := []string{"-q", "-out", "", "-positions", "../engine/testdata/positions.txt", "-budgets", budgets, "-seeds", "1",
		"-gtp", lz + " --cpu-only -g --noponder -d -r 0 --timemanage off -t 1 -v {visits} -s {seed} -w {network}"}
	stdout, stderr, code := runEngineCmd(args...)
	t.Log("\n" + stdout)
	m := regexp.MustCompile(`(\d+) positions?, (\d+) flagged, (\d+) faults?\.`).FindStringSubmatch(stdout)
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
		if len(f) > 2 && f[1] == "tiny-prior" && !strings.Contains(stdout, f[0]+": 0 of 1 seed at every budget") {
			t.Errorf("%s is not flagged", f[0])
		}
	}
}

// TestEngineJSON runs a fake engine that always passes on a lost position
// (where every move is optimal) and on two won positions (where passing
// loses): one JSON document, the won positions flagged, exit 1.
func TestEngineJSON(t *testing.T) {
	positions := positionsNamed(t, "pair-d2-r6-normal-prior", "pair-d4-r4-normal-prior", "lost-b6-w4-d2-neutral")
	stdout, stderr, code := runEngineCmd("-q", "-json", "-out", "", "-positions", positions,
		"-budgets", "1", "-seeds", "1", "-gtp", engineScript(t, `printf '= pass\n\n'`))
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
	if code != exitFinding || doc.Faults != 0 || doc.Flagged != 2 || len(doc.Positions) != 3 {
		t.Errorf("exit %d, %d positions, %d flagged, %d faults; want 1, 3, 2, 0", code, len(doc.Positions), doc.Flagged, doc.Faults)
	}
	for _, p := range doc.Positions {
		if len(p.Trials) != 1 || p.Trials[0].Move != "pass" || (p.Value == "loss") != (p.Flag == "") {
			t.Errorf("%s: value %s, flag %q, trials %v", p.Name, p.Value, p.Flag, p.Trials)
		}
	}
}

// positionsNamed writes a positions file of the testdata positions named.
func positionsNamed(t *testing.T, names ...string) string {
	t.Helper()
	data, err := os.ReadFile("../engine/testdata/positions.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, name := range names {
		_, rest, ok := strings.Cut(string(data), "\nposition "+name+"\n")
		if !ok {
			t.Fatalf("no position %s in the testdata", name)
		}
		block, _, _ := strings.Cut(rest, "\nend\n")
		out.WriteString("position " + name + "\n" + block + "\nend\n")
	}
	path := filepath.Join(t.TempDir(), "positions.txt")
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// engineScript writes a fake GTP engine, a shell script whose genmove runs
// the shell code given, and returns its command line with the {visits}
// and {seed} placeholders.
func engineScript(t *testing.T, genmove string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	path := filepath.Join(t.TempDir(), "engine.sh")
	body := "#!/bin/sh\nwhile read -r l; do case \"$l\" in genmove*) " + genmove + ";; quit*) printf '=\\n\\n'; exit 0;; *) printf '=\\n\\n';; esac; done\n"
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path + " {visits} {seed}"
}

// firstPosition returns the first position of the testdata file
// (pair-d2-r6-normal-prior, K6 wins), with edit applied to its text.
func firstPosition(t *testing.T, edit func(string) string) string {
	t.Helper()
	data, err := os.ReadFile("../engine/testdata/positions.txt")
	if err != nil {
		t.Fatal(err)
	}
	text, _, _ := strings.Cut(string(data), "\nend\n")
	path := filepath.Join(t.TempDir(), "positions.txt")
	if err := os.WriteFile(path, []byte(edit(text+"\nend\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestEngineExitCodes: a positions file with a wrong answer, or that the
// solver cannot solve within -solve-nodes, exits 2 before the engine
// runs; an engine whose first trials all fault alike stops with one line
// and exit 4; faults and nothing flagged exit 4; a flagged position 1.
func TestEngineExitCodes(t *testing.T) {
	same := func(s string) string { return s }
	k6 := engineScript(t, `printf '= K6\n\n'`)
	for _, c := range []struct {
		name      string
		positions string
		args      []string
		code      int
		stderr    string
	}{
		{"wrong answer", firstPosition(t, func(s string) string { return strings.Replace(s, "optimal K6", "optimal K7", 1) }),
			nil, exitUsage, "optimal moves K7 differ from the solver's K6"},
		{"wrong value", firstPosition(t, func(s string) string { return strings.Replace(s, "value win", "value loss", 1) }),
			nil, exitUsage, "the file says loss, the solver win"},
		{"unsolvable", firstPosition(t, same), []string{"-solve-nodes", "50"},
			exitUsage, "position too big to solve exactly: more than 50 positions searched (while solving "},
		{"cat", firstPosition(t, same), []string{"-gtp", "sh -c 'exec cat' {visits} {seed}"},
			exitFault, "engine: stopped after 3 of 4 trials: the first 3 trials all faulted the same way (garbage), so the engine's setup is broken: garbage: gtp \"boardsize 19\": malformed reply \"boardsize 19\"\n"},
		{"some faults", firstPosition(t, same), []string{"-gtp", engineScript(t, `if [ "$2" = 2 ]; then exit 1; fi; printf '= K6\n\n'`)},
			exitFault, "engine: 2 of 4 trials faulted (the report lists them) and no position is flagged\n"},
		{"finding", firstPosition(t, same), []string{"-gtp", engineScript(t, `printf '= C16\n\n'`)}, exitFinding, ""},
		// An engine that refuses the smallest budget at its start, as
		// Pachi does below 500 playouts, is refused before the check.
		{"minimum", firstPosition(t, same), []string{"-budgets", "1..1024", "-gtp", "sh -c 'if [ $0 -lt 500 ]; then echo \"Error: minimum 500 playouts.\" >&2; exit 1; fi; exec cat' {visits}"},
			exitUsage, "engine: -budgets 1..1024: the engine refuses a budget of 1 (it ended at its start: exit status 1: Error: minimum 500 playouts.); it names a minimum of 500: give -budgets 512..1024\n"},
		{"ok", firstPosition(t, same), nil, exitOK, ""},
	} {
		args := []string{"-q", "-out", "", "-positions", c.positions, "-budgets", "1,2", "-seeds", "2"}
		if !slices.Contains(c.args, "-gtp") {
			args = append(args, "-gtp", k6)
		}
		stdout, stderr, code := runEngineCmd(append(args, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.stderr) || c.stderr == "" && stderr != "" {
			t.Errorf("%s: exit %d, stderr %q; want %d, %q\n%s", c.name, code, stderr, c.code, c.stderr, stdout)
		}
		if c.code == exitFault && strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: %d lines on stderr, want one", c.name, strings.Count(stderr, "\n"))
		}
	}
}

// TestEngineInterrupt: Ctrl-C during a trial writes the trials that
// finished, to stdout and the report directory, and exits 130.
func TestEngineInterrupt(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "hanging")
	gtpCmd := engineScript(t, `if [ "$2" = 2 ]; then touch '`+mark+`'; sleep 600; fi; printf '= K6\n\n'`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(mark); err == nil {
				cancel()
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	var out, errb bytes.Buffer
	tool := Tool{ctx: ctx}
	outDir := filepath.Join(dir, "report")
	code := tool.Run([]string{"engine", "-q", "-out", outDir, "-positions", firstPosition(t, func(s string) string { return s }),
		"-budgets", "1,2", "-seeds", "2", "-gtp", gtpCmd}, strings.NewReader(""), &out, &errb)
	if code != exitInterrupted || !strings.Contains(errb.String(), "interrupted after 1 of 4 trials; the finished ones are written above and to "+outDir) {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	// A cell is a word of its own; the temporary directory's name in the
	// report's path may hold "0/0" too.
	if !strings.HasPrefix(out.String(), "Interrupted after 1 of 4 trials") || !strings.Contains(out.String(), "1/1  –\n") || slices.Contains(strings.Fields(out.String()), "0/0") {
		t.Errorf("stdout:\n%s", out.String())
	}
	var doc struct {
		Interrupted bool
		Done        int `json:"trials_done"`
	}
	data, err := os.ReadFile(filepath.Join(outDir, "report.json"))
	if err != nil || json.Unmarshal(data, &doc) != nil || !doc.Interrupted || doc.Done != 1 {
		t.Errorf("report.json: %v, %+v", err, doc)
	}
	if md, err := os.ReadFile(filepath.Join(outDir, "report.md")); err != nil || !strings.Contains(string(md), "Interrupted after 1 of 4 trials") {
		t.Errorf("report.md: %v\n%s", err, md)
	}
}

// TestEngineGamesDir: a command not on PATH is found in the games
// directories (Debian's /usr/games), and the check runs it from there.
func TestEngineGamesDir(t *testing.T) {
	games := t.TempDir()
	script, _, _ := strings.Cut(engineScript(t, `printf '= K6\n\n'`), " ")
	if err := os.Rename(script, filepath.Join(games, "fake-leelaz")); err != nil {
		t.Fatal(err)
	}
	defer func(dirs []string) { gamesDirs = dirs }(gamesDirs)
	gamesDirs = []string{filepath.Join(games, "none"), games}
	stdout, stderr, code := runEngineCmd("-out", "", "-positions", firstPosition(t, func(s string) string { return s }),
		"-budgets", "1", "-seeds", "1", "-gtp", "fake-leelaz {visits} {seed}")
	want := "engine: fake-leelaz is not on PATH; using " + filepath.Join(games, "fake-leelaz") + "\n"
	if code != exitOK || !strings.HasPrefix(stderr, "mctscheck: "+want) && !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want 0 and %q\n%s", code, stderr, want, stdout)
	}
	gamesDirs = []string{games + "/none"}
	if _, stderr, code := runEngineCmd("-out", "", "-positions", "../engine/testdata/positions.txt", "-gtp", "fake-leelaz {visits}"); code != exitUsage ||
		!strings.Contains(stderr, "fake-leelaz: not found on PATH, nor in "+games+"/none") {
		t.Errorf("not found: exit %d, stderr %q", code, stderr)
	}
}

// TestEngineProgress: the progress lines say when solving begins, and for
// each position finished its shares, the trials done and the time left.
func TestEngineProgress(t *testing.T) {
	_, stderr, code := runEngineCmd("-out", "", "-positions", firstPosition(t, func(s string) string { return s }),
		"-budgets", "1,2", "-seeds", "2", "-gtp", engineScript(t, `printf '= K6\n\n'`))
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != exitOK || len(lines) != 2 || !strings.HasSuffix(lines[0], "engine: solving the positions exactly (1 board)") ||
		!regexp.MustCompile(`engine: \[1/1\] pair-d2-r6-normal-prior: 2/2 2/2; 4/4 trials, \d+s, about 0s left$`).MatchString(lines[1]) {
		t.Errorf("exit %d, progress:\n%s", code, stderr)
	}
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{42 * time.Second, "42s"}, {185 * time.Second, "3m05s"}, {130 * time.Minute, "2h10m"}, {31 * time.Hour, "31h"}} {
		if got := roughDuration(c.d); got != c.want {
			t.Errorf("roughDuration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// TestEngineReportDir: -out holds report.md and report.json; with the
// Tool's PlotEngine, its figure too, which report.md shows.
func TestEngineReportDir(t *testing.T) {
	dir := t.TempDir()
	var got []engine.ClassShare
	tool := Tool{PlotEngine: func(d string, cs []engine.ClassShare) ([]string, error) {
		got = cs
		return []string{"share.png"}, os.WriteFile(filepath.Join(d, "share.png"), []byte("png"), 0o644)
	}}
	var out, errb bytes.Buffer
	positions := positionsNamed(t, "pair-d2-r6-normal-prior", "pair-d2-r6-tiny-prior", "lost-b6-w4-d2-neutral")
	code := tool.Run([]string{"engine", "-q", "-out", dir, "-positions", positions,
		"-budgets", "1,2", "-seeds", "1", "-gtp", engineScript(t, `printf '= pass\n\n'`)}, strings.NewReader(""), &out, &errb)
	if code != exitFinding {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil || !strings.Contains(string(md), "![The share of optimal moves against the budget, per case of positions](share.png)") ||
		!strings.Contains(string(md), "pair-d2-r6-normal-prior") {
		t.Errorf("report.md: %v\n%s", err, md)
	}
	if !strings.Contains(out.String(), "Report: "+filepath.Join(dir, "report.md")+" (report.md, report.json, share.png)") {
		t.Errorf("stdout does not name the report:\n%s", out.String())
	}
	// The lost positions (every move optimal) are left out of the figure.
	if len(got) != 2 || got[0].Class != "normal-prior" || got[1].Class != "tiny-prior" || got[0].Played[1] != 1 || got[0].Optimal[1] != 0 {
		t.Errorf("the figure's shares: %+v", got)
	}
}
