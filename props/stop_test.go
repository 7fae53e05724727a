package props_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// stopped checks a report of a check that stopped with err: what finished,
// marked so.
func stopped(t *testing.T, rep *props.Report, err, want error, why string, planned int) {
	t.Helper()
	if !errors.Is(err, want) || rep == nil {
		t.Fatalf("err %v, report %v: want %v and the report of what finished", err, rep, want)
	}
	if rep.Stopped != why || rep.TreesPlanned != planned {
		t.Errorf("stopped %q after %d of %d trees, want %q of %d", rep.Stopped, rep.Trees, rep.TreesPlanned, why, planned)
	}
}

// TestStoppedRun: a check of a rule, and of a whole search, that Ctrl-C
// stops after two trees returns the context's error with the report of
// those two trees: the verdict interrupted, not the verdict so far.
func TestStoppedRun(t *testing.T) {
	o := props.Options{Trees: 20, Seeds: 2, MaxBudget: 1024, Jobs: 1}
	for _, c := range []struct {
		name     string
		families int // the trap families of whole searches a check searches too
		check    func(ctx context.Context, o props.Options) (*props.Report, error)
	}{
		{"rule", 0, func(ctx context.Context, o props.Options) (*props.Report, error) {
			return props.Run(ctx, core.UCT{C: 1}, o)
		}},
		{"search", len(gen.SearchTraps()), func(ctx context.Context, o props.Options) (*props.Report, error) {
			return props.RunSearch(ctx, textbookMCTS{}, o)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			planned := 20 + len(gen.Traps()) + c.families
			ctx, cancel := context.WithCancel(bg)
			defer cancel()
			o := o
			o.Progress = func(done, total int) {
				if done == 2 {
					cancel()
				}
			}
			rep, err := c.check(ctx, o)
			stopped(t, rep, err, context.Canceled, props.StoppedInterrupted, planned)
			if rep.Verdict != props.Interrupted || rep.Witness != nil || rep.Trees != 2 || rep.Converged+rep.Inconclusive != 2 {
				t.Errorf("%s: %d trees; want interrupted after 2 trees, no witness", rep.Summary, rep.Trees)
			}
			if want := "interrupted after 2 of " + fmt.Sprintf("%d trees", planned); !strings.HasPrefix(rep.Summary, want) || !strings.Contains(rep.Summary, "no verdict") {
				t.Errorf("summary %q, want it to begin %q and say there is no verdict", rep.Summary, want)
			}
			t.Log(rep.Summary)
			if len(rep.Curve) == 0 || rep.Curve[0].Searches < 4 || rep.Sims == 0 {
				t.Errorf("curve %+v, %d simulations: want the searches that finished", rep.Curve, rep.Sims)
			}
		})
	}
}

// TestStoppedDeadline: a check whose deadline passes says so.
func TestStoppedDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(bg, 300*time.Millisecond)
	defer cancel()
	rep, err := props.RunSearch(ctx, textbookMCTS{}, props.Options{Trees: 100_000, Seeds: 2, MaxBudget: 1024, Jobs: 2})
	stopped(t, rep, err, context.DeadlineExceeded, props.StoppedDeadline, 100_000+len(gen.Traps())+len(gen.SearchTraps()))
	if rep.Verdict != props.Interrupted || !strings.HasPrefix(rep.Summary, "stopped at its deadline after ") {
		t.Errorf("verdict %s: %s", rep.Verdict, rep.Summary)
	}
}

// TestStoppedShrinking: a check stopped while it shrinks its witness
// reports the witness as found, unshrunk, with the verdict it has (the
// tree was judged): its replay gives it again.
func TestStoppedShrinking(t *testing.T) {
	for _, c := range []struct {
		name     string
		verdict  props.Verdict
		families int // the trap families of whole searches a check searches too
		check    func(ctx context.Context, o props.Options) (*props.Report, error)
		again    func(tr *tree.Tree, o props.Options) (*props.Report, error)
	}{
		{"rule", props.Inconsistent, 0,
			func(ctx context.Context, o props.Options) (*props.Report, error) { return props.Run(ctx, greedy{}, o) },
			func(tr *tree.Tree, o props.Options) (*props.Report, error) {
				return props.CheckTree(bg, greedy{}, tr, o)
			}},
		{"search", props.Stuck, len(gen.SearchTraps()),
			func(ctx context.Context, o props.Options) (*props.Report, error) {
				return props.RunSearch(ctx, textbookMCTS{Bug: "fpu-never"}, o)
			},
			func(tr *tree.Tree, o props.Options) (*props.Report, error) {
				return props.RunSearchTree(bg, textbookMCTS{Bug: "fpu-never"}, tr, o)
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(bg)
			defer cancel()
			o := props.Options{Trees: 5, MaxBudget: 2048, Jobs: 1, RuleSpec: c.name}
			o.Status = func(s props.Status) {
				if s.Phase == props.PhaseShrinking {
					cancel()
				}
			}
			rep, err := c.check(ctx, o)
			stopped(t, rep, err, context.Canceled, props.StoppedInterrupted, 5+len(gen.Traps())+c.families)
			w := rep.Witness
			if rep.Verdict != c.verdict || w == nil || !w.Unfinished || !w.Tree.Equal(w.Original) || w.Search != nil {
				t.Fatalf("%s\n%v: want %s with the witness as found", rep.Summary, w, c.verdict)
			}
			if !strings.Contains(rep.Summary, "interrupted before this witness was shrunk: it is the tree as found") ||
				!strings.Contains(w.String(), ", not shrunk: the check stopped first;") {
				t.Errorf("the summary or the witness does not say it is not shrunk:\n%s\n%s", rep.Summary, w)
			}
			t.Logf("%s\n%v", rep.Summary, w)
			ro := props.Options{Seed: w.Run.Seed, Seeds: w.Run.Seeds, KeepOrder: w.Run.KeepOrder, MaxBudget: int(w.Run.Budget)}
			again, err := c.again(tree.MustParse(w.Run.Tree), ro)
			if err != nil || again.Verdict != c.verdict {
				t.Errorf("the replay of the unshrunk witness: %v, %v", err, again.Summary)
			}
		})
	}
}
