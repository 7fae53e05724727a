//go:build unix

package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckSearchOut: check -search -out writes report.md, report.html
// and report.json; report.html draws the witness
// with the statistics the program reported (every node's: it declares
// "nodes") and its curve; -dot prints the witness as DOT.
func TestCheckSearchOut(t *testing.T) {
	needPython(t)
	t.Parallel()
	dir := t.TempDir()
	spec := "exec:python3 ../examples/mcts.py --bug fpu-never"
	args := []string{"check", "-search", spec, "-tree", "(max 0 1)", "-seed", "1", "-seeds", "1", "-budget", "1024", "-keep-order"}
	r := mctscheck(t, "", append(args, "-out", dir)...)
	if r.code != exitFinding || !strings.Contains(r.stdout, "Report: "+filepath.Join(dir, "report.md")+" (report.md, report.html, report.json)") {
		t.Fatalf("exit %d, no report line:\n%s%s", r.code, r.stdout, r.stderr)
	}
	page := readReport(t, dir, "report.html")
	for _, s := range []string{
		`<svg xmlns="http://www.w3.org/2000/svg" class="tree"`,
		`<g class="node kind-terminal chosen" data-path="0.0">`, // (max 0 1): the search keeps to 0
		`<g class="node kind-terminal mechanism" data-path="0.1">`,
		`>n=1024<`, `>n=0<`, `>mean=0<`,
		`<svg xmlns="http://www.w3.org/2000/svg" class="curve"`,
		`<polyline class="witness"`,
		"statistics: every node&#39;s (the program declared <code>nodes</code>)",
		"Eq. 5: max node 0: child 1 (V=1) stays at 0 simulations",
		"mctscheck check -search &#39;exec:python3 ../examples/mcts.py --bug fpu-never&#39; -tree &#39;(max 0 1)&#39;",
	} {
		if !strings.Contains(page, s) {
			t.Errorf("report.html has no %s", s)
		}
	}
	if strings.Contains(page, "not reported") {
		t.Error("report.html marks a node not reported, though the program reports every node")
	}
	md := readReport(t, dir, "report.md")
	for _, s := range []string{"# mctscheck report: a whole search",
		"`mctscheck check -search 'exec:python3 ../examples/mcts.py --bug fpu-never' -budget 1024 -keep-order=true -seed 1 -seeds 1 -tree '(max 0 1)'`",
		"- observed: stuck: Eq. 5 witness with 3 nodes", "Witness (Eq. 5, 3 nodes, shrunk from given", "```\n(max 0 1)\n```",
		"- overconfidence: "} {
		if !strings.Contains(md, s) {
			t.Errorf("report.md has no %q:\n%s", s, md)
		}
	}
	var doc struct {
		Verdict string
		Witness struct {
			Tree   string
			Search struct{ Visits []int64 }
		}
	}
	if err := json.Unmarshal([]byte(normalize(t, readReport(t, dir, "report.json"))), &doc); err != nil ||
		doc.Verdict != "stuck" || doc.Witness.Tree != "(max 0 1)" || !cmp.Equal(doc.Witness.Search.Visits, []int64{1024, 1024, 0}) {
		t.Errorf("report.json: %v, %+v", err, doc)
	}
	dot := mctscheck(t, "", append(args, "-dot")...)
	if dot.code != exitFinding || !strings.HasPrefix(dot.stdout, `digraph "witness" {`) ||
		!strings.Contains(dot.stdout, `n1 [shape=box, label="0.0 terminal\nV=0\nn=1024\nmean=0"`) {
		t.Errorf("check -search -dot: exit %d\n%s%s", dot.code, dot.stdout, dot.stderr)
	}
	graphvizReads(t, dot.stdout)
	if r := mctscheck(t, "", append(args, "-json", "-dot")...); r.code != exitUsage {
		t.Errorf("-json -dot: exit %d, want %d", r.code, exitUsage)
	}
}

// TestCheckSearchOutRootOnly: a program that reports the root children's
// statistics only has its witness drawn with the nodes below them marked
// "not reported", never with visits or a mean, in report.html and in DOT,
// and report.json keeps the root's and its children's statistics only.
func TestCheckSearchOutRootOnly(t *testing.T) {
	needPython(t)
	t.Parallel()
	dir := t.TempDir()
	// A greedy search (UCT with c = 0) whose good move loses its first
	// roll-out (with seed 3) and is never tried again: a finding at the
	// root (Eq. 5), on a witness whose root child has children, which the
	// search does not report. (A finding below the root a search without
	// nodes never gets.)
	args := []string{"check", "-search", "exec:python3 testdata/rootonly.py --c 0", "-tree", "(max (max 0 1) 0.5)",
		"-seed", "3", "-seeds", "1", "-budget", "1024", "-keep-order"}
	r := mctscheck(t, "", append(args, "-out", dir)...)
	var doc struct {
		NodesReported *bool `json:"nodes_reported"`
		Witness       struct {
			Tree   string
			Nodes  int
			Search struct {
				Visits []int64
				Means  []*float64
			}
		}
	}
	if err := json.Unmarshal([]byte(readReport(t, dir, "report.json")), &doc); err != nil || doc.Witness.Tree == "" {
		t.Fatalf("exit %d, %v: no witness\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	w := doc.Witness
	root := len(w.Search.Visits) // the root and its children
	if doc.NodesReported == nil || *doc.NodesReported || root < 2 || len(w.Search.Means) != root || w.Nodes <= root {
		t.Fatalf("nodes reported %v; witness %s with %d nodes, %d visit counts: want the root's and its children's only, and nodes below them",
			doc.NodesReported, w.Tree, w.Nodes, root)
	}
	page := readReport(t, dir, "report.html")
	if got, want := strings.Count(page, `<text class="unreported"`), w.Nodes-root; got != want {
		t.Errorf("%d nodes drawn not reported, want the %d below the root's children of %s", got, want, w.Tree)
	}
	for _, s := range []string{"statistics: the root children&#39;s only (the program did not declare <code>nodes</code>)",
		"frugality: not known", "the nodes below them are marked not reported"} {
		if !strings.Contains(page, s) {
			t.Errorf("report.html has no %s", s)
		}
	}
	dot := mctscheck(t, "", append(args, "-dot")...)
	if got, want := strings.Count(dot.stdout, `\nnot reported"`), w.Nodes-root; got != want || strings.Contains(dot.stdout, "NaN") {
		t.Errorf("check -search -dot: %d nodes not reported, want %d\n%s%s", got, want, dot.stdout, dot.stderr)
	}
}
