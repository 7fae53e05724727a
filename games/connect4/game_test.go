package connect4

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/core"
)

// state is what a core.Game cursor shows of its current position.
type state struct {
	Kind    core.Kind
	Columns []int   // Move(i) for each i < NumMoves()
	Reward  float64 // at terminal positions only
}

// stateOf reads the cursor's current position.
func stateOf(g *Game) state {
	s := state{Kind: g.Kind()}
	for i := range g.NumMoves() {
		s.Columns = append(s.Columns, g.Move(i))
	}
	if s.Kind == core.Terminal {
		s.Reward = g.Reward()
	}
	return s
}

func TestGame(t *testing.T) {
	all := []int{0, 1, 2, 3, 4, 5, 6}
	tests := []struct {
		start string
		play  []int // move indices, from the start position
		want  state
	}{
		{"", nil, state{core.Max, all, 0}},
		{"", []int{3}, state{core.Min, all, 0}},
		{"4", nil, state{core.Max, all, 0}},
		{"444444", nil, state{core.Max, []int{0, 1, 2, 4, 5, 6}, 0}},
		{"44444", []int{3}, state{core.Min, []int{0, 1, 2, 4, 5, 6}, 0}},
		{"444444111111", nil, state{core.Max, []int{1, 2, 4, 5, 6}, 0}},
		{"121212", []int{0}, state{core.Terminal, nil, 1}},   // max wins
		{"12121", []int{1, 0}, state{core.Terminal, nil, 0}}, // min wins
		{"1212121", nil, state{core.Terminal, nil, 0}},       // the player to move has lost
		{fullDraw[:40], []int{1, 0}, state{core.Terminal, nil, 0.5}},
		{fullDraw, nil, state{core.Terminal, nil, 0.5}},
	}
	for _, tt := range tests {
		g := NewGame(MustParse(tt.start))
		for _, i := range tt.play {
			g.Play(i)
		}
		if diff := cmp.Diff(tt.want, stateOf(g)); diff != "" {
			t.Errorf("%q then %v (-want +got):\n%s", tt.start, tt.play, diff)
		}
		if g.MoveLimit() != Width || g.Prob(0) != 0 {
			t.Errorf("MoveLimit %d, Prob %v", g.MoveLimit(), g.Prob(0))
		}
		g.Reset()
		if got := g.Position().String(); got != tt.start {
			t.Errorf("%q then %v: after Reset the position is %q", tt.start, tt.play, got)
		}
	}
}

// TestGameRandom plays random games from the empty board and from the sets'
// positions, checking every position the cursor shows against the grid.
func TestGameRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	starts := []string{""}
	for _, name := range setNames {
		for _, sp := range readSet(t, name)[:50] {
			starts = append(starts, sp.moves)
		}
	}
	for _, start := range starts {
		g := NewGame(MustParse(start))
		for range 20 {
			g.Reset()
			ref := gridOf(t, start)
			for {
				want := state{Kind: core.Terminal}
				if !ref.won {
					for c := range Width {
						if ref.height[c] < Height {
							want.Columns = append(want.Columns, c)
						}
					}
				}
				switch {
				case want.Columns != nil && (ref.n-len(start))%2 == 0:
					want.Kind = core.Max
				case want.Columns != nil:
					want.Kind = core.Min
				case !ref.won:
					want.Reward = 0.5
				case (ref.n-len(start))%2 == 1: // max made the winning move
					want.Reward = 1
				}
				if diff := cmp.Diff(want, stateOf(g)); diff != "" {
					t.Fatalf("%q (-want +got):\n%s", g.Position(), diff)
				}
				if want.Kind == core.Terminal {
					break
				}
				i := r.IntN(len(want.Columns))
				g.Play(i)
				ref.won = ref.play(want.Columns[i])
			}
		}
	}
}

// playout plays random moves to the end of the game and returns the number
// of moves played.
func playout(g *Game, r *rand.Rand) int {
	g.Reset()
	n := 0
	for g.Kind() != core.Terminal {
		g.Play(r.IntN(g.NumMoves()))
		n++
	}
	return n
}

func TestGameAllocs(t *testing.T) {
	g := NewGame(Position{})
	r := rand.New(rand.NewPCG(1, 1))
	moves := 0
	allocs := testing.AllocsPerRun(100, func() {
		moves += playout(g, r)
		_ = g.Reward()
		_ = g.Move(0)
	})
	if allocs != 0 {
		t.Errorf("a playout allocates %v times", allocs)
	}
	if moves < 100*7 {
		t.Errorf("101 playouts played only %d moves", moves)
	}
}
