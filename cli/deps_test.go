package cli

import (
	"os/exec"
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
