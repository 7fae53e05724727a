package tree_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// TestEmptyAndNil is the bad-input table of trees that are not there: the
// zero Tree, a nil *Tree and a typed-nil *Cursor give values or errors,
// never panics.
func TestEmptyAndNil(t *testing.T) {
	for name, tr := range map[string]*tree.Tree{"zero": {}, "nil": nil} {
		c := tr.Game()
		if k, n, r := c.Kind(), c.NumMoves(), c.Reward(); k != core.Terminal || n != 0 || r != 0 {
			t.Errorf("%s Tree: Game() = kind %v, %d moves, reward %v; want a terminal of reward 0", name, k, n, r)
		}
		if _, err := core.New(c, core.UCT{C: 1}, core.Config{}); err == nil {
			t.Errorf("%s Tree: core.New accepted its cursor, want an error", name)
		}
		s := tree.Solve(tr)
		if v := s.Value(0); !math.IsNaN(v) {
			t.Errorf("%s Tree: Solve(..).Value(0) = %v, want NaN", name, v)
		}
		if s.Optimal(0) != nil || s.IsOptimal(0, 0) {
			t.Errorf("%s Tree: Solve(..) has optimal children, want none", name)
		}
	}
	var nilCursor *tree.Cursor
	nilCursor.Reset()
	if nilCursor.Arrays() != nil || nilCursor.Kind() != core.Terminal || nilCursor.NumMoves() != 0 || nilCursor.Reward() != 0 {
		t.Errorf("nil Cursor: not a terminal of reward 0 with no arrays")
	}
	if _, err := props.CheckGame(context.Background(), core.UCT{C: 1}, nilCursor, props.TreeOracle(tree.MustParse("(max 1 0)")), props.GameOptions{}); err == nil {
		t.Errorf("props.CheckGame(typed-nil *Cursor) accepted it, want an error")
	}
	_, err := core.New(nilCursor, core.UCT{C: 1}, core.Config{})
	if err == nil || !strings.Contains(err.Error(), "empty GameArrays") {
		t.Errorf("core.New(typed-nil *Cursor) = %v, want an error about empty GameArrays", err)
	}
	in, err := rules.Parse("rave")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := core.New(nilCursor, in.Rule, core.Config{}); err == nil {
		t.Errorf("core.New(typed-nil *Cursor, rave) accepted it, want an error")
	}
	s := tree.Solve(tree.MustParse("(max 1 0)"))
	if v := s.Value(-1) + s.Value(3); !math.IsNaN(v) {
		t.Errorf("Value of nodes outside the tree = %v, want NaN", v)
	}
}
