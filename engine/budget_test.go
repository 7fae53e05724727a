package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMinimumBudget(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want int
	}{
		{"Error: minimum 500 playouts.", 500},
		{"it exited with status 1: Error: minimum 500 playouts. | pachi: Invalid -t argument =16", 500},
		{"? visits must be at least 32", 32},
		{"a minimum of 64 visits", 64},
		{"crash: the engine ended", 0},
	} {
		if got := MinimumBudget(c.msg); got != c.want {
			t.Errorf("MinimumBudget(%q) = %d, want %d", c.msg, got, c.want)
		}
	}
}

func TestSuggestBudgets(t *testing.T) {
	for _, c := range []struct {
		budgets []int
		min     int
		want    string
	}{
		{[]int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}, 500, "512..1024"},
		{[]int{16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384}, 500, "512..16384"},
		{[]int{100, 200, 400}, 500, "800..800"},
		{[]int{100, 1000, 5000}, 500, "1000,5000"},
		{[]int{100}, 500, "500"},
	} {
		if got := SuggestBudgets(c.budgets, c.min); got != c.want {
			t.Errorf("SuggestBudgets(%v, %d) = %q, want %q", c.budgets, c.min, got, c.want)
		}
	}
}

// minimumEngine writes a fake engine, run as "SCRIPT -v {visits} -s
// {seed}", that refuses fewer than 500 visits: at its start as Pachi does
// ("Error: minimum 500 playouts." on stderr, exit status 1), or, with
// atGenmove, as an error reply to genmove; otherwise it plays K6.
func minimumEngine(t *testing.T, atGenmove bool) string {
	t.Helper()
	refuse := `if [ "$2" -lt 500 ]; then echo "Error: minimum 500 playouts." >&2; echo "pachi: Invalid -t argument =$2" >&2; exit 1; fi`
	genmove := `printf '= K6\n\n'`
	if atGenmove {
		refuse = ""
		genmove = `if [ "$2" -lt 500 ]; then printf '? minimum 500 playouts\n\n'; else printf '= K6\n\n'; fi`
	}
	script := "#!/bin/sh\n" + refuse + `
while read -r line; do
  case "$line" in
    genmove*) ` + genmove + ` ;;
    quit*) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
`
	path := filepath.Join(t.TempDir(), "minimum.sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path + " -v {visits} -s {seed}"
}

// TestBudgetRefused: an engine that refuses the smallest budget at its
// start, naming its minimum, is refused before the positions are solved
// and before any trial, with the budgets to give instead; one that
// refuses at genmove stops at its first faults with the same advice.
func TestBudgetRefused(t *testing.T) {
	ps := readTestPositions(t)[:1]
	budgets := []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}
	var solving bool
	cfg := Config{Command: minimumEngine(t, false), Budgets: budgets, Seeds: []int{1, 2}, Timeout: 20 * time.Second,
		Progress: func(s Status) { solving = solving || s.Solving != "" }}
	rep, err := Run(context.Background(), cfg, ps)
	be, ok := errors.AsType[*BudgetError](err)
	if !ok || rep != nil || solving {
		t.Fatalf("Run: report %v, error %v, solving %v; want a *BudgetError before solving", rep, err, solving)
	}
	if be.Budget != 1 || be.Minimum != 500 || be.Suggest != "512..1024" || !strings.Contains(be.Fault, "Error: minimum 500 playouts.") ||
		!strings.Contains(be.Error(), "give -budgets 512..1024") {
		t.Errorf("BudgetError %+v: %v", be, be)
	}
	// From the engine's minimum on, it runs.
	cfg.Budgets = []int{512, 1024}
	if rep, err = Run(context.Background(), cfg, ps); err != nil || rep.Faults != 0 || rep.Done != 4 {
		t.Errorf("-budgets 512..1024: %v, report %+v", err, rep)
	}

	cfg = Config{Command: minimumEngine(t, true), Budgets: budgets, Seeds: []int{1, 2}, Timeout: 20 * time.Second}
	rep, err = Run(context.Background(), cfg, ps)
	if err != nil || rep.Stopped == "" || !strings.Contains(rep.Stopped, "the engine names a minimum of 500: try -budgets 512..1024") {
		t.Fatalf("refused at genmove: %v, stopped %q", err, rep.Stopped)
	}
	var text strings.Builder
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "(the engine names a minimum of 500: try -budgets 512..1024)") {
		t.Errorf("report:\n%s", text.String())
	}
}
