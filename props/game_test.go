package props_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games/connect4"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// checkGameTree checks rule on the explicit tree tr as an implicit game,
// with the exact oracle of its solution.
func checkGameTree(t *testing.T, rule core.Rule, tr *tree.Tree, o props.GameOptions) *props.Report {
	t.Helper()
	rep, err := props.CheckGame(bg, rule, tr.Game(), props.TreeOracle(tr), o)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCheckGameAgreesWithCheckTree: on explicit trees searched as games,
// with their exact oracle, CheckGame gives CheckTree's verdicts, in paper
// and practical mode.
func TestCheckGameAgreesWithCheckTree(t *testing.T) {
	tests := []struct {
		rule core.Rule
		tree string
		want props.Verdict
	}{
		{greedy{}, "(max (max 0 1) 0.5)", props.Inconsistent},
		{greedy{}, "(max (min 1 0) 1)", props.NoCounterexample},
		{core.UCT{C: 1}, "(max (max 0 1) 0.5)", props.NoCounterexample},
		{epsGreedy{0.2}, "(max (min 1 1 1 0) 0.03125)", props.Inconsistent},
		{nanRule{}, "(max 1 0)", props.Faulted},
	}
	for _, tt := range tests {
		for _, g := range []core.Growth{core.GrowPaper, core.GrowPractical} {
			tr := tree.MustParse(tt.tree)
			o := props.Options{Seeds: 4, KeepOrder: true, Growth: g}
			want, err := props.CheckTree(bg, tt.rule, tr, o)
			if err != nil {
				t.Fatal(err)
			}
			got := checkGameTree(t, tt.rule, tr, props.GameOptions{Options: o})
			if got.Verdict != want.Verdict || got.Verdict != tt.want {
				t.Errorf("%T on %s, %v: CheckGame %s, CheckTree %s, want %s\n%s", tt.rule, tt.tree, g, got.Summary, want.Summary, tt.want, got.Witness)
				continue
			}
			if got.Witness == nil {
				continue
			}
			if got.Witness.Condition != want.Witness.Condition {
				t.Errorf("%T on %s, %v: condition %s, CheckTree's %s", tt.rule, tt.tree, g, got.Witness.Condition, want.Witness.Condition)
			}
			if got.Verdict == props.Faulted {
				if got.Witness.Fault == nil || got.Witness.Fault.Kind != want.Witness.Fault.Kind {
					t.Errorf("%T on %s, %v: fault %+v, CheckTree's %+v", tt.rule, tt.tree, g, got.Witness.Fault, want.Witness.Fault)
				}
				continue
			}
			if got.Witness.Explicit == nil || got.Witness.Explicit.Tree.Len() > want.Witness.Tree.Len() {
				t.Errorf("%T on %s, %v: explicit witness %v, CheckTree's %v", tt.rule, tt.tree, g, got.Witness.Explicit, want.Witness.Tree)
			}
		}
	}
}

// TestCheckGameOrders: greedy's trap in the game's own order is found
// in another order too, and the witness names it; its replay on the
// exported tree gives it again.
func TestCheckGameOrders(t *testing.T) {
	tr := tree.MustParse("(max 0.5 (max 0 1) 0.25 (max 0 0 1))")
	rep := checkGameTree(t, greedy{}, tr, props.GameOptions{Options: props.Options{Seeds: 8, RuleSpec: "greedy-fpu:fpu=1"},
		Game: "tree", Position: "root"})
	if rep.Verdict != props.Inconsistent {
		t.Fatalf("verdict %s, want inconsistent", rep.Summary)
	}
	w := rep.Witness
	if r := w.Run; r.Game != "tree" || r.Moves != "root" || r.Seed != w.Seed || r.Order != w.Order || r.Rule != "greedy-fpu:fpu=1" {
		t.Errorf("replay %+v", r)
	}
	again, err := props.CheckTree(bg, greedy{}, w.Explicit.Tree, props.Options{Seeds: 1, Seed: w.Seed, KeepOrder: true})
	if err != nil || again.Verdict != props.Inconsistent {
		t.Errorf("the explicit witness %v does not replay: %v %v", w.Explicit.Tree, again.Summary, err)
	}
	// Replayed with the order it names, the game gives the same witness.
	one := checkGameTree(t, greedy{}, tr, props.GameOptions{Options: props.Options{Seeds: 1, Seed: w.Seed}, Order: w.Order})
	if one.Verdict != props.Inconsistent || one.Witness.Seed != w.Seed || one.Witness.Order != w.Order {
		t.Errorf("replay of seed %d order %d: %s", w.Seed, w.Order, one.Summary)
	}
}

// TestExportTree: a game exported and searched gives the game's own
// statistics.
func TestExportTree(t *testing.T) {
	p := connect4.MustParse("2252576253462244111563365343671351441")
	g := connect4.NewGame(p)
	tr, err := props.ExportTree(g, 10000)
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []core.Config{{Growth: core.GrowPaper, Seed: 3}, {Growth: core.GrowPractical, Seed: 4}} {
		a, _ := core.New(g, core.UCT{C: 0.5}, cfg)
		b, _ := core.New(tr.Game(), core.UCT{C: 0.5}, cfg)
		if err := errors.Join(a.Run(bg, 3000), b.Run(bg, 3000)); err != nil {
			t.Fatal(err)
		}
		var sa, sb []core.NodeInfo
		a.Walk(func(n core.NodeInfo) bool { n.Path = nil; sa = append(sa, n); return true })
		b.Walk(func(n core.NodeInfo) bool { n.Path = nil; sb = append(sb, n); return true })
		if diff := cmp.Diff(sa, sb, cmp.Comparer(func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) })); diff != "" {
			t.Errorf("%v: the exported tree's search differs (-game +tree):\n%s", cfg.Growth, diff)
		}
	}
	if _, err := props.ExportTree(connect4.NewGame(connect4.MustParse("4453")), 1000); !errors.Is(err, props.ErrTooBig) {
		t.Errorf("ExportTree of an opening: %v, want ErrTooBig", err)
	}
}

// badOracle perturbs a tree oracle.
type badOracle struct {
	props.Oracle
	at   int // path length perturbed
	v    float64
	deep int // beyond the budget from this path length on, if > 0
	err  error
}

func (o badOracle) Value(ctx context.Context, path []int32) (float64, bool, error) {
	if o.err != nil {
		return 0, false, o.err
	}
	if o.deep > 0 && len(path) >= o.deep {
		return 0, false, nil
	}
	v, ok, err := o.Oracle.Value(ctx, path)
	if len(path) == o.at {
		v = o.v
	}
	return v, ok, err
}

func TestCheckGameErrors(t *testing.T) {
	tr := tree.MustParse("(max (min 1 0) (min 1 1))")
	exact := props.TreeOracle(tr)
	tests := []struct {
		name   string
		game   core.Game
		oracle props.Oracle
		want   string
		is     error
	}{
		{"terminal", tr.Game(), badOracle{Oracle: exact, at: 2, v: 0.5, err: nil}, "disagrees with a terminal reward", props.ErrOracle},
		{"root", tr.Game(), badOracle{Oracle: exact, at: 0, v: 0}, "disagrees with itself at the root", props.ErrOracle},
		{"range", tr.Game(), badOracle{Oracle: exact, at: 1, v: 2}, "value 2, want one in [0,1]", props.ErrOracle},
		{"too deep", tr.Game(), badOracle{Oracle: exact, at: -1, deep: 1}, "too deep for the oracle's budget", props.ErrBeyondOracle},
		{"error", tr.Game(), badOracle{Oracle: exact, at: -1, err: errors.New("boom")}, "boom", nil},
		{"over", tree.MustParse("1").Game(), exact, "root is a terminal position", nil},
		{"nil", tr.Game(), nil, "nil oracle", nil},
	}
	for _, tt := range tests {
		_, err := props.CheckGame(bg, greedy{}, tt.game, tt.oracle, props.GameOptions{})
		if err == nil || !strings.Contains(err.Error(), tt.want) || tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: error %v, want %q (%v)", tt.name, err, tt.want, tt.is)
		}
	}
	// Nodes beyond the budget below the root's children are left unjudged.
	deep := tree.MustParse("(max (min (max 1 0) (max 0 0)) (min (max 1 1) 0.5))")
	rep, err := props.CheckGame(bg, core.UCT{C: 1}, deep.Game(), badOracle{Oracle: props.TreeOracle(deep), at: -1, deep: 2}, props.GameOptions{})
	if err != nil || rep.Beyond == 0 || rep.Judged != 0 {
		t.Errorf("beyond the budget: %v; judged %d, beyond %d, want 0 and some", err, rep.Judged, rep.Beyond)
	}
}

// TestCheckGameConnect4: UCT converges on an end-game position of Pons'
// L3 set; greedy is trapped on one, with an explicit witness.
func TestCheckGameConnect4(t *testing.T) {
	check := func(rule core.Rule, spec, moves string, o props.Options, order uint64) *props.Report {
		t.Helper()
		o.Growth, o.RuleSpec = core.GrowPractical, spec
		p := connect4.MustParse(moves)
		or, err := connect4.NewOracle(p, connect4.Config{TableBits: 16})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := props.CheckGame(bg, rule, connect4.NewGame(p), or, props.GameOptions{
			Options: o, Game: "connect4", Position: moves, Order: order})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := check(core.UCT{C: math.Sqrt2}, "uct", "7422341735647741166133573473242566" /* line 2 */, props.Options{}, 0)
	if rep.Verdict != props.NoCounterexample || rep.Judged == 0 {
		t.Errorf("uct: %s, judged %d nodes", rep.Summary, rep.Judged)
	}
	// Line 9 of Test_L3_R1: the first move that loses its first roll-out
	// is never tried again, in seed 3's order; the explicit tree of the
	// position (109 nodes) shrinks to the paper's trap.
	rep = check(greedy{}, "greedy-fpu:fpu=1", "233377345754465174223731671122611552", props.Options{Seeds: 1, Seed: 3}, 3)
	if rep.Verdict != props.Inconsistent {
		t.Fatalf("greedy: %s", rep.Summary)
	}
	w := rep.Witness
	if w.Condition != props.Eq5 || w.Explicit == nil || w.Explicit.Tree.String() != "(max (max 0 1) 0.5)" {
		t.Errorf("greedy's witness:\n%s", w)
	}
}

// TestCheckGameStatus: a check of a game position reports its searches
// and simulations, planned and done, as a check of trees does, and stops
// counting before the witness's searches.
func TestCheckGameStatus(t *testing.T) {
	for _, c := range []struct {
		rule core.Rule
		tree string
	}{{core.UCT{C: 1}, "(max (max 0 1) 0.5)"}, {greedy{}, "(max (max 0 1) 0.5)"}} {
		tr := tree.MustParse(c.tree)
		var last props.Status
		o := props.Options{Seeds: 4, Status: func(s props.Status) {
			if s.Phase == props.PhaseTrees {
				last = s
			}
		}}
		rep := checkGameTree(t, c.rule, tr, props.GameOptions{Options: o})
		want := props.Status{Phase: props.PhaseTrees, Done: 1, Total: 1, Searches: 4, SearchesPlanned: 4, Sims: 4 * 16384, SimsPlanned: 4 * 16384}
		if last != want {
			t.Errorf("%T: %s; last status %+v, want %+v", c.rule, rep.Summary, last, want)
		}
	}
}
