package props_test

import (
	"context"
	"sync"
	"testing"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// lateFaulting is the textbook search, which learns after each search that
// it wrote output after its last answer (as a program of searchexec may):
// LateFault names the last search.
type lateFaulting struct {
	textbookMCTS
	mu   sync.Mutex
	last *props.SearchTree
	seed uint64
}

func (l *lateFaulting) Search(ctx context.Context, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
	err := l.textbookMCTS.Search(ctx, t, seed, checkpoints, report)
	l.mu.Lock()
	l.last, l.seed = t, seed
	l.mu.Unlock()
	return err
}

func (l *lateFaulting) LateFault() (*props.Fault, *props.SearchTree, uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == nil {
		return nil, nil, 0
	}
	return &props.Fault{Kind: props.FaultGarbage, Message: "wrote output after its answer to the last checkpoint"}, l.last, l.seed
}

// TestLateFault: a fault that a LateFaulter finds after its searches makes
// the verdict a fault on the tree and seed of the search it names, and the
// witness's replay meets it again.
func TestLateFault(t *testing.T) {
	tr := tree.MustParse("(max (min 1 0.5) 0.25 (max 0 0.75))")
	s := &lateFaulting{}
	rep, err := props.RunSearchTree(bg, s, tr, props.Options{Seeds: 3, MaxBudget: 1024, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	w := rep.Witness
	if rep.Verdict != props.Faulted || w.Fault.Kind != props.FaultGarbage || w.Tree.String() != s.last.Text || w.Seeds[0] != s.seed {
		t.Fatalf("%s\nwant a garbage fault on %s with seed %d; witness %v", rep.Summary, s.last.Text, s.seed, w)
	}
	if w.Fault.Inputs == "" || w.Fault.Sim != 1024 {
		t.Errorf("the fault does not say where: %+v", w.Fault)
	}
	again, err := props.RunSearchTree(bg, &lateFaulting{}, w.Tree, props.Options{Seed: w.Seeds[0], Seeds: 1, KeepOrder: true, MaxBudget: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if again.Verdict != props.Faulted {
		t.Errorf("the replay: %s", again.Summary)
	}
}
