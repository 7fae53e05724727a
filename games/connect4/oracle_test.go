package connect4

import (
	"context"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
)

// TestOracle: the oracle's values are the solver's, for the player to move
// at the start position, along lines of play given by move index.
func TestOracle(t *testing.T) {
	ctx := context.Background()
	start := MustParse("2252576253462244111563365343671351441")
	o, err := NewOracle(start, Config{TableBits: 12})
	if err != nil {
		t.Fatal(err)
	}
	s := newSolver(t, Config{TableBits: 12})
	g := NewGame(start)
	// Every line of play of up to three moves.
	var walk func(path []int32)
	walk = func(path []int32) {
		g.Reset()
		for _, i := range path {
			g.Play(int(i))
		}
		p := g.Position()
		want, err := s.Score(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		v := Value(want)
		if g.Kind() == core.Min {
			v = 1 - v
		}
		got, ok, err := o.Value(ctx, path)
		if err != nil || !ok || got != v {
			t.Errorf("Value(%v) at %s = %v, %v, %v; want %v", path, p, got, ok, err, v)
		}
		if g.Kind() == core.Terminal && got != g.Reward() {
			t.Errorf("Value(%v) at %s = %v, the terminal reward %v", path, p, got, g.Reward())
		}
		if len(path) == 3 {
			return
		}
		for i := range int32(g.NumMoves()) {
			walk(append(path[:len(path):len(path)], i))
			g.Reset()
			for _, j := range path {
				g.Play(int(j))
			}
		}
	}
	walk(nil)
}

func TestOracleErrors(t *testing.T) {
	ctx := context.Background()
	o, err := NewOracle(MustParse("4444"), Config{TableBits: 12, MaxNodes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := o.Value(ctx, nil); ok || err != nil {
		t.Errorf("an opening with a budget of 1,000 nodes: ok %v, err %v; want beyond the budget", ok, err)
	}
	for _, tt := range []struct {
		path []int32
		want string
	}{
		{[]int32{7}, "move 0 is index 7, but the position has 7 moves"},
		{[]int32{-1}, "move 0 is index -1"},
		{[]int32{3, 3, 6}, "move 2 is index 6, but the position has 6 moves"}, // column 4 is full
	} {
		_, _, err := o.Value(ctx, tt.path)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Value(%v): %v, want %q", tt.path, err, tt.want)
		}
	}
	won, _ := NewOracle(MustParse("1212121"), Config{TableBits: 12})
	if _, _, err := won.Value(ctx, []int32{0}); err == nil || !strings.Contains(err.Error(), "after the end of the game") {
		t.Errorf("a move after a win: %v", err)
	}
	cancelled, stop := context.WithCancel(ctx)
	stop()
	big, _ := NewOracle(Position{}, Config{TableBits: 12})
	if _, _, err := big.Value(cancelled, nil); err == nil {
		t.Error("a cancelled context: no error")
	}
	if _, err := NewOracle(Position{}, Config{TableBits: 3}); err == nil {
		t.Error("NewOracle with TableBits 3: no error")
	}
}
