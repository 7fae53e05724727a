package props_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// rootOnly is a searcher that reports its root's children alone, as a
// program that declares no nodes does.
type rootOnly struct{ props.Searcher }

func (r rootOnly) Search(ctx context.Context, t *props.SearchTree, seed uint64, cps []int64, report func(props.Checkpoint) error) error {
	return r.Searcher.Search(ctx, t, seed, cps, func(cp props.Checkpoint) error {
		cp.NodeVisits, cp.NodeMeans = nil, nil
		return report(cp)
	})
}

// clocked is a searcher that seeds its search from the clock, whatever
// seed it is given.
type clocked struct{ props.Searcher }

func (c clocked) Search(ctx context.Context, t *props.SearchTree, _ uint64, cps []int64, report func(props.Checkpoint) error) error {
	return c.Searcher.Search(ctx, t, uint64(time.Now().UnixNano()), cps, report)
}

// belowRoot returns the findings about a node below the root.
func belowRoot(fs []props.Finding) []props.Finding {
	var out []props.Finding
	for _, f := range fs {
		if f.Node != "0" {
			out = append(out, f)
		}
	}
	return out
}

// TestSearchWithoutNodes: a search that reports its root's children alone
// gets no finding below the root, in the text, the JSON or the data a
// drawing reads (the statistics it did not report are unknown, never 0),
// where the same search reporting every node gets one: the sign bug, with
// and without nodes.
func TestSearchWithoutNodes(t *testing.T) {
	sign := textbookMCTS{Bug: "negamax-sign"}
	trap := tree.MustParse("(max (max 0 1) 0.5)")
	rep, err := props.RunSearchTree(bg, sign, trap, props.Options{Seeds: 4})
	if err != nil {
		t.Fatal(err)
	}
	if w := rep.Witness; rep.Verdict != props.Stuck || len(belowRoot(w.Findings)) == 0 || w.Search == nil || w.Search.NotReported != "" {
		t.Fatalf("with nodes: %s\n%v", rep.Summary, w)
	}
	for _, c := range []struct {
		name string
		run  func() (*props.Report, error)
	}{
		{"tree", func() (*props.Report, error) {
			return props.RunSearchTree(bg, rootOnly{sign}, trap, props.Options{Seeds: 4})
		}},
		{"default", func() (*props.Report, error) { return props.RunSearch(bg, rootOnly{sign}, searchOptions()) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := c.run()
			if err != nil {
				t.Fatal(err)
			}
			if rep.Witness != nil {
				if below := belowRoot(rep.Witness.Findings); len(below) > 0 {
					t.Errorf("without nodes, findings below the root: %+v", below)
				}
				if s := rep.Witness.String(); regexp.MustCompile(`node 0\.`).MatchString(s) {
					t.Errorf("without nodes, the witness names a node below the root:\n%s", s)
				}
			}
			if rep.Visited != 0 || rep.Recent != 0 {
				t.Errorf("frugality %v, %v: unknown without nodes", rep.Visited, rep.Recent)
			}
			t.Log(rep.Summary)
		})
	}

}

// TestSearchNondeterministic: a search seeded from the clock, whatever
// seed it is given, gets the fault nondeterministic, showing where two
// searches of the same tree and seed differ, or a witness that replays
// (its replay searches it twice, and a deterministic replay is true):
// never a witness presented as reproducible that does not reproduce.
// Twenty checks of a correct search and of a buggy one.
func TestSearchNondeterministic(t *testing.T) {
	o := searchOptions()
	o.Trees, o.MaxBudget = 3, 1024
	kinds := map[string]int{}
	for i := range 20 {
		for _, bug := range []string{"", "fpu-never"} {
			o.RuleSpec = "clocked " + bug
			rep, err := props.RunSearch(bg, clocked{textbookMCTS{Bug: bug}}, o)
			if err != nil {
				t.Fatal(err)
			}
			w := rep.Witness
			switch rep.Verdict {
			case props.Faulted:
				if w.Fault.Kind != props.FaultNondeterministic || w.Fault.Reproduced || w.Fault.Checkpoint == 0 ||
					!strings.Contains(w.Fault.Message, "first: ") || !strings.Contains(w.Fault.Message, "again: ") {
					t.Fatalf("check %d of clocked %q: %s\n%v", i, bug, rep.Summary, w)
				}
			case props.Stuck:
				for range 3 {
					again, err := props.RunSearchTree(bg, clocked{textbookMCTS{Bug: bug}}, tree.MustParse(w.Run.Tree),
						props.Options{Seed: w.Run.Seed, Seeds: 1, KeepOrder: true, MaxBudget: int(w.Run.Budget)})
					if err != nil {
						t.Fatal(err)
					}
					if again.Verdict != props.Stuck || again.Witness.Condition != w.Condition || !again.Witness.Tree.Equal(w.Tree) {
						t.Fatalf("check %d of clocked %q: the witness %v does not replay: %s", i, bug, w.Tree, again.Summary)
					}
				}
			default:
				t.Fatalf("check %d of clocked %q: %s, with no search compared", i, bug, rep.Summary)
			}
			kinds[bug+" "+string(rep.Verdict)]++
		}
	}
	if kinds[" fault"] != 20 {
		t.Errorf("a correct search seeded from the clock: %v", kinds)
	}
	t.Logf("outcomes: %v", kinds)
}

// TestSearchPromises: a search that reports means for the side to move,
// or that picks chance outcomes instead of drawing them, is a fault of its
// own kind, found by the default check.
func TestSearchPromises(t *testing.T) {
	for _, c := range []struct {
		bug  string
		s    props.Searcher
		tr   string // "": the default check
		kind props.FaultKind
	}{
		{"mover-means", textbookMCTS{Bug: "mover-means"}, "", props.FaultPerspective},
		{"mover-means without nodes", rootOnly{textbookMCTS{Bug: "mover-means"}}, "(min (max 0.25 1) 0 0.75)", props.FaultPerspective},
		{"chance-as-max", textbookMCTS{Bug: "chance-as-max"}, "", props.FaultChance},
	} {
		t.Run(c.bug, func(t *testing.T) {
			o := props.Options{Jobs: 2, RuleSpec: c.bug} // the default trees
			if testing.Short() {
				o.MaxBudget = 4096
			}
			var rep *props.Report
			var err error
			if c.tr == "" {
				rep, err = props.RunSearch(bg, c.s, o)
			} else {
				rep, err = props.RunSearchTree(bg, c.s, tree.MustParse(c.tr), props.Options{Seeds: 1})
			}
			if err != nil {
				t.Fatal(err)
			}
			w := rep.Witness
			if rep.Verdict != props.Faulted || w.Fault.Kind != c.kind || !w.Fault.Reproduced || w.Fault.Node == "" {
				t.Fatalf("%s\n%v", rep.Summary, w)
			}
			t.Log(w)
		})
	}
}

// TestSearchStuckFindings: statistics that stop changing (a backup that
// never reaches the root's children: an even split, means frozen), found
// by the default check, and a child starved at a gap of 1/16 or 3/32
// below its value (a greedy search whose good move loses its first
// simulation), are stuck.
func TestSearchStuckFindings(t *testing.T) {
	rep, err := props.RunSearch(bg, textbookMCTS{Bug: "root-frozen"}, props.Options{Jobs: 2, MaxBudget: 4096, RuleSpec: "root-frozen"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Stuck || rep.Witness.Condition != props.Eq7 {
		t.Errorf("root-frozen: %s\n%v", rep.Summary, rep.Witness)
	}
	for _, text := range []string{"(max (chance 0.5:1 0.5:0) 0.4375)", "(max (chance 0.59375:1 0.40625:0) 0.5)"} {
		rep, err := props.RunSearchTree(bg, textbookMCTS{Bug: "greedy"}, tree.MustParse(text), props.Options{RuleSpec: "greedy"})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != props.Stuck || rep.Witness.Condition != props.Eq5 {
			t.Errorf("greedy on %s: %s\n%v", text, rep.Summary, rep.Witness)
		}
		t.Logf("%s\n%v", rep.Summary, rep.Witness)
	}
}

// TestSearchFaultWords: a search's fault is told in a search's words: what
// it was asked, where it was (no node and no simulation it never reached),
// whether it came back, and the replay on a line of its own.
func TestSearchFaultWords(t *testing.T) {
	crash := searchFunc(func(context.Context, *props.SearchTree, uint64, []int64, func(props.Checkpoint) error) error {
		return errors.New("out of memory")
	})
	rep, err := props.RunSearchTree(bg, crash, tree.MustParse("(max 0 1)"), props.Options{Seeds: 1, RuleSpec: "crash"})
	if err != nil {
		t.Fatal(err)
	}
	f, text := rep.Witness.Fault, rep.Witness.String()
	for _, want := range []string{"at the checkpoint of 64 simulations", "the search was asked for the tree (max 0 1) with seed 1",
		"it came back when the tree was searched again", "\nreplay: props.RunSearchTree("} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "the rule saw") || strings.Contains(text, "in simulation") || f.Node != "" || f.Sim != 0 || f.Checkpoint != 64 || !f.Reproduced {
		t.Errorf("fault %+v:\n%s", f, text)
	}
}

// TestRunSearchGoCall: a witness found by RunSearch outside a test has a
// replay line, a Go call, that gives it again.
func TestRunSearchGoCall(t *testing.T) {
	o := searchOptions()
	o.RuleSpec, o.MinBudget, o.MaxBudget, o.Window = "fpu-never", 32, 2048, 3
	rep, err := props.RunSearch(bg, textbookMCTS{Bug: "fpu-never"}, o)
	if err != nil {
		t.Fatal(err)
	}
	w := rep.Witness
	want := `props.RunSearchTree(ctx, s, tree.MustParse("(max 0 1)"), props.Options{RuleSpec: "fpu-never", Seed: 1, Seeds: 1, KeepOrder: true, MinBudget: 32, MaxBudget: 2048, Window: 3})`
	if rep.Verdict != props.Stuck || len(w.Replay) != 1 || w.Replay[0] != want {
		t.Fatalf("%s: replay %q, want %q", rep.Summary, w.Replay, want)
	}
	// The call, as printed.
	ctx, s := bg, textbookMCTS{Bug: "fpu-never"}
	again, err := props.RunSearchTree(ctx, s, tree.MustParse("(max 0 1)"), props.Options{RuleSpec: "fpu-never", Seed: 1, Seeds: 1, KeepOrder: true, MinBudget: 32, MaxBudget: 2048, Window: 3})
	if err != nil {
		t.Fatal(err)
	}
	if g := again.Witness; g == nil || !g.Tree.Equal(w.Tree) || g.Seeds[0] != w.Seeds[0] || fmt.Sprint(g.Findings) != fmt.Sprint(w.Findings) {
		t.Errorf("the Go call gives\n%v\nnot\n%v", again.Witness, w)
	}
}
