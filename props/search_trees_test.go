package props_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

func TestHandlesAllows(t *testing.T) {
	all := props.Handles{NoChance: true, BinaryRewards: true, Alternating: true}
	for _, c := range []struct {
		h    props.Handles
		text string
		err  string // "" for allowed
	}{
		{props.Handles{}, "(max (max 0.5 (chance 0.5:1 0.5:0)) 0.25)", ""},
		{all, "(max (min 1 (max 0 1)) 0)", ""},
		{all, "(min (max 1 0) 1)", ""},
		{props.Handles{NoChance: true}, "(max (min 1 (chance 0.5:1 0.5:0)) 0)", "node 0.0.1 is a chance node, and the search handles none"},
		{props.Handles{BinaryRewards: true}, "(max (min 1 (chance 0.5:1 0.5:0)) 0.25)", "terminal 0.1 has the reward 0.25, and the search handles rewards in {0, 1} only"},
		{props.Handles{Alternating: true}, "(max (min 1 (chance 0.5:(max 1) 0.5:0)) 0.25)", ""},
		{props.Handles{Alternating: true}, "(max (min 1 (chance 0.5:(min 1) 0.5:0)) 0.25)", "node 0.0.1.0: min moves twice in a row, and the search handles players that alternate only"},
		{props.Handles{Alternating: true}, "(max (chance 1:(max 0 1)) 0.5)", "node 0.0.0: max moves twice in a row"},
		{props.Handles{Alternating: true}, "(min (min 1 0) 0.5)", "node 0.0: min moves twice in a row"},
	} {
		err := c.h.Allows(tree.MustParse(c.text))
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%+v.Allows(%s) = %v, want %q", c.h, c.text, err, c.err)
		}
	}
	if s := all.String(); s != "no chance nodes, rewards in {0, 1}, players that alternate" {
		t.Errorf("String: %q", s)
	}
	if s := (props.Handles{}).String(); s != "every tree" {
		t.Errorf("String of the zero Handles: %q", s)
	}
}

// restricted is the textbook search that declares the trees it handles
// and fails, as a program that cannot build the game would, on any other.
type restricted struct {
	textbookMCTS
	h   props.Handles
	err error // Handles' error
}

func (r restricted) Handles() (props.Handles, error) { return r.h, r.err }

func (r restricted) Search(ctx context.Context, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
	if err := r.h.Allows(tree.MustParse(t.Text)); err != nil {
		return fmt.Errorf("given a tree it does not handle: %v", err)
	}
	return r.textbookMCTS.Search(ctx, t, seed, checkpoints, report)
}

// TestRunSearchHandles: a RestrictedSearcher gets only the trees it
// declares, from the trap families, the random trees and the shrinker
// alike, and the report says which; a tree it does not handle is not
// given to it; a declaration that fails leaves the check with every tree.
func TestRunSearchHandles(t *testing.T) {
	for _, h := range []props.Handles{{NoChance: true}, {BinaryRewards: true}, {Alternating: true}, {NoChance: true, BinaryRewards: true, Alternating: true}} {
		t.Run(h.String(), func(t *testing.T) {
			s := restricted{textbookMCTS: textbookMCTS{Bug: "fpu-never"}, h: h}
			rep, err := props.RunSearch(bg, s, props.Options{Trees: 20, MaxBudget: 1024, Jobs: 2})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != props.Stuck || rep.Handles == nil || *rep.Handles != h || rep.Witness.Shrinks == 0 {
				t.Fatalf("%s, handles %v, want stuck after shrinking, handles %v\n%v", rep.Summary, rep.Handles, h, rep.Witness)
			}
			if err := h.Allows(rep.Witness.Tree); err != nil {
				t.Errorf("the witness %v: %v", rep.Witness.Tree, err)
			}
			_, err = props.RunSearchTree(bg, s, tree.MustParse("(max (chance 0.5:(max 1 0.5) 0.5:(min 0.5)) 0.25)"), props.Options{})
			if err == nil || !strings.Contains(err.Error(), "the search handles "+h.String()+", and not this tree") {
				t.Errorf("RunSearchTree of a tree the search does not handle: %v", err)
			}
		})
	}
	rep, err := props.RunSearch(bg, restricted{err: errors.New("no process")}, props.Options{Trees: 3, MaxBudget: 1024, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Handles != nil || rep.Verdict == props.Faulted {
		t.Errorf("a declaration that failed: %s, handles %v", rep.Summary, rep.Handles)
	}
}

// TestRunSearchFamilies: a search check searches the families of whole
// searches after the trap families, and NoTraps leaves both out.
func TestRunSearchFamilies(t *testing.T) {
	s := searchFunc(func(ctx context.Context, st *props.SearchTree, seed uint64, cps []int64, report func(props.Checkpoint) error) error {
		return textbookMCTS{}.Search(ctx, st, seed, cps, report)
	})
	rep, err := props.RunSearch(bg, s, props.Options{Trees: 1, Seeds: 1, MaxBudget: 256, Window: 2})
	if err != nil {
		t.Fatal(err)
	}
	rep0, err := props.RunSearch(bg, s, props.Options{Trees: 1, Seeds: 1, MaxBudget: 256, Window: 2, NoTraps: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Trees != 31+19+1 || rep0.Trees != 1 {
		t.Errorf("%d trees, and %d with NoTraps; want the 31 trap families, the 19 of whole searches and one random tree, and the random tree alone", rep.Trees, rep0.Trees)
	}
}
