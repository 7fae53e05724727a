package cli

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestNoPlotDeps: package cli, which a user's command links, does not
// depend on gonum's plotting; package cli/plot does.
func TestNoPlotDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	deps := func(pkg string) string {
		out, err := exec.Command(goTool, "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return string(out)
	}
	if d := deps("github.com/mctscheck/mctscheck/cli"); strings.Contains(d, "gonum.org/v1/plot") {
		t.Errorf("package cli depends on gonum.org/v1/plot")
	}
	if d := deps("github.com/mctscheck/mctscheck/cli/plot"); !strings.Contains(d, "gonum.org/v1/plot") {
		t.Errorf("package cli/plot does not depend on gonum.org/v1/plot: the test above proves nothing")
	}
}

// TestNoArrowBackUp: no package imports, directly or not, a package that
// depends on a package whose directory holds it: a command inside match/
// that imported gtp, which imports match, would be one. Commands live in
// cmd/, above everything they use.
func TestNoArrowBackUp(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "github.com/mctscheck/mctscheck/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		deps[f[0]] = f[1:]
	}
	if len(deps) < 10 {
		t.Fatalf("go list gave %d packages: the test proves nothing", len(deps))
	}
	for pkg, ds := range deps {
		for _, dep := range ds {
			for above := range deps {
				if strings.HasPrefix(pkg, above+"/") && slices.Contains(deps[dep], above) {
					t.Errorf("%s imports %s, which depends on %s: an arrow back up to the package that holds it", pkg, dep, above)
				}
			}
		}
	}
}
