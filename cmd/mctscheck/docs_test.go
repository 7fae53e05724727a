package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// envVar is an environment variable of the repository's tests and scripts.
var envVar = regexp.MustCompile(`MCTSCHECK_[A-Z0-9_]*[A-Z0-9]`)

// guide is the page that lists them.
const guide = "../../docs/guide.md"

// TestEnvironmentDocumented: every MCTSCHECK_* variable that a test,
// script or workflow reads is listed, with what it does, in docs/guide.md,
// and the page lists none that is gone.
func TestEnvironmentDocumented(t *testing.T) {
	used := map[string]string{}
	readRepo(t, []string{".go", ".sh", ".yml"}, func(path, text string) {
		for _, v := range envVar.FindAllString(text, -1) {
			used[v] = path
		}
	})
	data, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Environment variables\n")
	if !ok {
		t.Fatalf("%s has no section Environment variables", guide)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	listed := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if v := envVar.FindString(line); v != "" && strings.HasPrefix(line, "| `"+v) {
			listed[v] = true
		}
	}
	for v, path := range used {
		if !listed[v] {
			t.Errorf("%s reads %s, which %s's table does not list", path, v, guide)
		}
	}
	for v := range listed {
		if used[v] == "" {
			t.Errorf("%s lists %s, which nothing reads any more", guide, v)
		}
	}
	if len(used) == 0 {
		t.Error("found no MCTSCHECK_ variable: the walk is wrong")
	}
}

// projectIssue is a reference to one of the project's own issues, which a
// user of the module cannot see: the word issue followed by a number.
var projectIssue = regexp.MustCompile(`(?i)\bissues? #?[0-9]+`)

// TestNoIssueNumbers: no doc, comment, script or workflow of the
// repository cites the project's issues by number; a citation of another
// project's tracker ("lc0 #644") names that project.
func TestNoIssueNumbers(t *testing.T) {
	files := 0
	readRepo(t, []string{".go", ".md", ".sh", ".yml", ".py", ".c"}, func(path, text string) {
		files++
		for i, line := range strings.Split(text, "\n") {
			if m := projectIssue.FindString(line); m != "" && !strings.Contains(line, "projectIssue") {
				t.Errorf("%s:%d cites %q: say what it is, not where it was asked for", path, i+1, m)
			}
		}
	})
	if files < 100 {
		t.Errorf("read %d files: the walk is wrong", files)
	}
}

// readRepo calls read with the path and text of every file of the
// repository with one of the extensions exts, and of .ci/run; it skips
// testdata and hidden directories but .github and .ci.
func readRepo(t *testing.T, exts []string, read func(path, text string)) {
	t.Helper()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || strings.HasPrefix(name, ".") && name != "." && name != ".." && name != ".github" && name != ".ci" {
				return filepath.SkipDir
			}
			return nil
		}
		if !slices.Contains(exts, filepath.Ext(path)) && filepath.Base(path) != "run" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		read(path, string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
