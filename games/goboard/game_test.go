package goboard

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/core"
)

func TestVertex(t *testing.T) {
	for _, tc := range []struct {
		s    string
		size int
		want int
		err  string // substring of the error, "" for none
	}{
		{"A1", 9, 0, ""},
		{"B1", 9, 1, ""},
		{"A2", 9, 9, ""},
		{"D4", 9, 30, ""},
		{"d4", 9, 30, ""},
		{"J9", 9, 80, ""},
		{"H9", 9, 79, ""},
		{"T19", 19, 360, ""},
		{"E5", 5, 24, ""},
		{"pass", 9, 81, ""},
		{"PASS", 13, 169, ""},
		{"I5", 9, 0, "no column I"},
		{"K5", 9, 0, "want A to J"},
		{"F1", 5, 0, "want A to E"},
		{"A0", 9, 0, "row 0, want 1 to 9"},
		{"A10", 9, 0, "row 10, want 1 to 9"},
		{"A-1", 9, 0, "not a number"},
		{"A+1", 9, 0, "not a number"},
		{"AA", 9, 0, "not a number"},
		{"", 9, 0, "want a column letter"},
		{"D", 9, 0, "want a column letter"},
		{"4D", 9, 0, "column"},
		{"D4", 4, 0, "board size 4"},
		{"D4", 20, 0, "board size 20"},
	} {
		got, err := ParseVertex(tc.s, tc.size)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ParseVertex(%q, %d): %v", tc.s, tc.size, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseVertex(%q, %d) = %d, %v; want an error with %q", tc.s, tc.size, got, err, tc.err)
		case tc.err == "" && got != tc.want:
			t.Errorf("ParseVertex(%q, %d) = %d, want %d", tc.s, tc.size, got, tc.want)
		}
	}
	for size := MinSize; size <= MaxSize; size++ {
		for m := range size*size + 1 {
			v := Vertex(m, size)
			if got, err := ParseVertex(v, size); err != nil || got != m {
				t.Fatalf("size %d: ParseVertex(Vertex(%d) = %q) = %d, %v", size, m, v, got, err)
			}
		}
	}
	if got := Vertex(82, 9); got != "(move 82 on size 9)" {
		t.Errorf("Vertex(82, 9) = %q", got)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg Config
		err string
	}{
		{Config{Size: 4}, "board size 4, want 5 to 19"},
		{Config{Size: 20}, "board size 20, want 5 to 19"},
		{Config{Size: -9}, "board size -9"},
		{Config{Komi: 7.25}, "komi 7.25, want a multiple of 0.5 between -81 and 81"},
		{Config{Komi: math.NaN()}, "komi NaN"},
		{Config{Komi: math.Inf(1)}, "komi +Inf"},
		{Config{Size: 5, Komi: 25.5}, "komi 25.5"},
		{Config{Komi: 6.5, NoKomi: true}, "komi 6.5 with NoKomi set"},
		{Config{MaxMoves: -1}, "MaxMoves -1, want 1 to 8100"},
		{Config{MaxMoves: 8101}, "MaxMoves 8101"},
	} {
		if _, err := NewBoard(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("NewBoard(%+v) = %v, want an error with %q", tc.cfg, err, tc.err)
		}
		if _, err := NewGame(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("NewGame(%+v) = %v, want an error with %q", tc.cfg, err, tc.err)
		}
	}
	b, err := NewBoard(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Size() != 9 || b.Komi() != 7.5 || b.MaxMoves() != 243 || b.ToMove() != Black || b.Score() != -7.5 {
		t.Errorf("zero Config: size %d komi %v cap %d to move %v score %v", b.Size(), b.Komi(), b.MaxMoves(), b.ToMove(), b.Score())
	}
}

func TestPlayMovesErrors(t *testing.T) {
	for _, tc := range []struct {
		moves []string
		err   string
		is    error
	}{
		{[]string{"D4", "D4"}, "goboard: move 2: D4: point is occupied", ErrOccupied},
		{[]string{"D4", "I4"}, `goboard: move 2: vertex "I4": GTP has no column I`, nil},
		{[]string{"x D4"}, `goboard: move 1: "x D4": color "x", want b, black, w or white`, nil},
		{[]string{"b D4 E4"}, `move 1: "b D4 E4": want a vertex or a color and a vertex`, nil},
		{[]string{"B2", "A2", "pass", "B1", "A1"}, "goboard: move 5: A1: suicide", ErrSuicide},
		{[]string{"pass", "pass", "D4"}, "goboard: move 3: D4: the game is over (two passes)", ErrOver},
		{[]string{"C3", "B3", "B4", "A4", "B2", "A2", "A3"}, "", nil}, // Black takes a ko-like stone: legal
	} {
		_, err := NewBoard(Config{Size: 5}, tc.moves...)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.moves, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: %v, want %q", tc.moves, err, tc.err)
		case tc.is != nil && !errors.Is(err, tc.is):
			t.Errorf("%q: %v does not wrap %v", tc.moves, err, tc.is)
		}
	}
}

// doubleKo has two kos: Black takes the upper one at C6, White the lower one
// at C2. After B C6, W C2, B pass, W B6, Black's retake at B2 is allowed by
// simple ko but recreates the start position.
const doubleKo = `. X O . . . .
                  X O . O . . .
                  . X O . . . .
                  . . . . . . .
                  . O X . . . .
                  O X . X . . .
                  . O X . . . .`

func TestPositionalSuperko(t *testing.T) {
	setup := setupMoves(t, 7, Black, doubleKo)
	cycle := []string{"C6", "C2", "pass", "B6"}
	g, err := NewGame(Config{Size: 7}, append(setup, cycle...)...)
	if err != nil {
		t.Fatal(err)
	}
	b2 := mustVertex(t, "B2", 7)
	b := g.Board()
	if err := b.Legal(b2); err != nil {
		t.Fatalf("simple ko allows B2: Legal(B2) = %v\n%s", err, b)
	}
	for i := range g.NumMoves() {
		if g.Move(i) == b2 {
			t.Errorf("the Game lists B2, which repeats the start position")
		}
	}
	if g.NumMoves() < 2 {
		t.Errorf("NumMoves() = %d", g.NumMoves())
	}
	_, err = NewGame(Config{Size: 7}, append(append(setup, cycle...), "B2")...)
	if !errors.Is(err, ErrSuperko) || !strings.Contains(err.Error(), "move 19: B2: positional superko") {
		t.Errorf("NewGame with the repetition: %v, want move 19 and ErrSuperko", err)
	}
	// Board alone knows only simple ko.
	if _, err := NewBoard(Config{Size: 7}, append(append(setup, cycle...), "B2")...); err != nil {
		t.Errorf("NewBoard with the repetition: %v, want nil (simple ko only)", err)
	}
	// The tree refuses it too after Reset and a replay by index.
	g, err = NewGame(Config{Size: 7}, setup...)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range cycle {
		m := mustVertex(t, v, 7)
		i := index(g, m)
		if i < 0 {
			t.Fatalf("%s not listed", v)
		}
		g.Play(i)
	}
	if index(g, b2) >= 0 {
		t.Errorf("B2 listed after replaying the cycle")
	}
	g.Reset()
	if index(g, mustVertex(t, "C6", 7)) < 0 {
		t.Errorf("after Reset, C6 not listed")
	}
}

// index returns the index of move identity m in g's list, or -1.
func index(g *Game, m int) int {
	for i := range g.NumMoves() {
		if g.Move(i) == m {
			return i
		}
	}
	return -1
}

func TestGameListsAndPriors(t *testing.T) {
	g, err := NewGame(Config{Size: 5}, setupMoves(t, 5, Black, sekiDiagram)...)
	if err != nil {
		t.Fatal(err)
	}
	moves := func() []string {
		var out []string
		for i := range g.NumMoves() {
			out = append(out, Vertex(g.Move(i), 5))
		}
		return out
	}
	// Black: A5, A1, C1, E1 are its eyes, E5 is suicide.
	if diff := cmp.Diff([]string{"C5", "pass"}, moves()); diff != "" {
		t.Errorf("Black's moves (-want +got):\n%s", diff)
	}
	if g.Kind() != core.Max || g.MoveLimit() != 26 {
		t.Errorf("Kind() = %v, MoveLimit() = %d", g.Kind(), g.MoveLimit())
	}
	if h, ok := g.Prior(0); h != PriorSelfAtari || !ok {
		t.Errorf("Prior(C5) = %v, %v, want %v", h, ok, PriorSelfAtari)
	}
	if h, ok := g.Prior(1); h != PriorNone || !ok {
		t.Errorf("Prior(pass) = %v, %v, want 0", h, ok)
	}
	g.Play(1) // Black passes
	if g.Kind() != core.Min {
		t.Errorf("Kind() = %v with White to move", g.Kind())
	}
	if diff := cmp.Diff([]string{"C5", "pass"}, moves()); diff != "" {
		t.Errorf("White's moves (-want +got):\n%s", diff)
	}
	g.Play(1) // White passes: seki, Black wins by 0.5
	if g.Kind() != core.Terminal || g.NumMoves() != 0 || g.Reward() != 1 {
		t.Errorf("after two passes: Kind() = %v, NumMoves() = %d, Reward() = %v", g.Kind(), g.NumMoves(), g.Reward())
	}
	g.Reset()
	g.Play(0) // Black plays into the seki: White captures with A5
	if i := index(g, mustVertex(t, "A5", 5)); i < 0 {
		t.Errorf("White cannot capture at A5")
	} else if h, _ := g.Prior(i); h != PriorCapture {
		t.Errorf("Prior(A5) = %v, want %v", h, PriorCapture)
	}
}

func TestPriors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		toMove  Color
		diagram string
		v       string
		want    float64
	}{
		{"escape: C3 in atari gets three liberties", Black, `. . . . .
		                                                     . . . . .
		                                                     . O X O .
		                                                     . . O . .
		                                                     X . . . .`, "C4", PriorEscape},
		{"no capture, two liberties", Black, `. . . . .
		                                      . . . . .
		                                      . O X O .
		                                      . . O . .
		                                      X . . . .`, "B2", PriorNone},
		{"connection", Black, `. . . . .
		                       . . . . .
		                       . O X O .
		                       . . O . .
		                       X . . . .`, "B1", PriorNone},
		{"pass", Black, `. . . . .
		                 . . . . .
		                 . O X O .
		                 . . O . .
		                 X . . . .`, "pass", PriorNone},
		{"capture", Black, `. . . . .
		                    . X . . .
		                    X O X . .
		                    . . . . .
		                    . . . . .`, "B2", PriorCapture},
		{"white captures", White, `. . . . .
		                           . . . . .
		                           . O . . .
		                           O X O . .
		                           . . . . .`, "B1", PriorCapture},
		{"self-atari", Black, `. . . . .
		                       . . . . .
		                       . O . . .
		                       O . O . .
		                       . . . . .`, "B2", PriorSelfAtari},
		{"self-atari joining a chain", White, `. . . . .
		                                       . . . . .
		                                       X X X . .
		                                       O O . X .
		                                       X . X . .`, "C2", PriorSelfAtari},
		{"escape into atari is a self-atari", White, `. . . . .
		                                              . X . . .
		                                              X O X . .
		                                              . . X . .
		                                              . X . . .`, "B2", PriorSelfAtari},
		{"own eye", Black, `. X . . .
		                    X X . . .
		                    . . . . .
		                    . . . . O
		                    . . . O .`, "A5", PriorEyeFill},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := position(t, 5, tc.toMove, tc.diagram)
			m := mustVertex(t, tc.v, 5)
			if err := b.Legal(m); err != nil {
				t.Fatal(err)
			}
			if got := b.Prior(m); got != tc.want {
				t.Errorf("Prior(%s) = %v, want %v", tc.v, got, tc.want)
			}
		})
	}
}

func TestMoveCap(t *testing.T) {
	g, err := NewGame(Config{Size: 5, MaxMoves: 4, NoKomi: true}, "C3", "D3")
	if err != nil {
		t.Fatal(err)
	}
	g.Play(index(g, mustVertex(t, "B3", 5)))
	if g.Kind() == core.Terminal {
		t.Fatalf("terminal after 3 moves of 4")
	}
	g.Play(g.NumMoves() - 1) // White passes: the fourth move
	b := g.Board()
	if g.Kind() != core.Terminal || b.Status() != MoveCap || b.Status().String() != "move cap" {
		t.Fatalf("after 4 moves: Kind() = %v, Status() = %v", g.Kind(), b.Status())
	}
	if g.Reward() != 1 || b.Score() != 1 { // 2 black stones, 1 white, the rest neutral
		t.Errorf("Reward() = %v, Score() = %v, want 1 and 1", g.Reward(), b.Score())
	}
	if err := b.Play(0); !errors.Is(err, ErrOver) || !strings.Contains(err.Error(), "move cap") {
		t.Errorf("Play after the cap = %v", err)
	}
	// Playouts stop at the cap too.
	b, _ = NewBoard(Config{MaxMoves: 10})
	b.Playout(core.NewRNG(1))
	if b.MovesPlayed() != 10 || b.Status() != MoveCap {
		t.Errorf("playout with a cap of 10: %d moves, %v", b.MovesPlayed(), b.Status())
	}
}

func TestPlayoutEndsSettled(t *testing.T) {
	rng := core.NewRNG(3)
	for _, size := range []int{5, 9, 13, 19} {
		start, err := NewBoard(Config{Size: size})
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			b := *start
			r := b.Playout(rng)
			if b.Status() != TwoPasses {
				t.Errorf("size %d: playout ended with %v after %d moves", size, b.Status(), b.moves)
			}
			if err := b.check(); err != nil {
				t.Fatal(err)
			}
			// Settled: neither player has a move but eye fills.
			for m := range size * size {
				p := b.index(m)
				if b.color[p] == Empty && (b.playable(Black, p) || b.playable(White, p)) {
					t.Errorf("size %d: %s still playable at the end\n%s", size, Vertex(m, size), &b)
				}
			}
			if want := b.Reward(); r != want {
				t.Errorf("Playout returned %v, Reward() %v", r, want)
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	start, err := NewBoard(Config{})
	if err != nil {
		t.Fatal(err)
	}
	rng := core.NewRNG(1)
	var b Board
	if a := testing.AllocsPerRun(100, func() {
		b = *start
		b.Playout(rng)
		b.Area()
	}); a != 0 {
		t.Errorf("Playout: %v allocations, want 0", a)
	}
	if a := testing.AllocsPerRun(100, func() {
		b = *start
		for m := 0; b.Status() == Playing; m = (m + 7) % 82 {
			if b.IsLegal(m) {
				if err := b.Play(m); err != nil {
					panic(err)
				}
			}
		}
	}); a != 0 {
		t.Errorf("Play: %v allocations per game, want 0", a)
	}
	g, err := NewGame(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(20, func() {
		g.Reset()
		for g.Kind() != core.Terminal {
			k := g.NumMoves()
			g.Prior(k - 1)
			g.Play(Light{}.Choose(g, rng))
		}
		g.Reward()
	}); a != 0 {
		t.Errorf("Game: %v allocations per game, want 0", a)
	}
}

// TestSearch runs a practical-mode UCT search with light roll-outs on a 5×5
// position: it must not allocate once its arena is big enough, and it must
// be deterministic.
func TestSearch(t *testing.T) {
	g, err := NewGame(Config{Size: 5, Komi: 0.5}, setupMoves(t, 5, White, `. . . . .
	                                                                      . . . . .
	                                                                      O O O . .
	                                                                      X X X O .
	                                                                      O . . X .`)...)
	if err != nil {
		t.Fatal(err)
	}
	var decided []int
	for range 2 {
		s, err := core.New(g, core.UCT{C: math.Sqrt2}, core.Config{Seed: 5, Growth: core.GrowPractical, Rollout: Light{}, Capacity: 1 << 16})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(context.Background(), 100); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(2, func() {
			if err := s.Run(context.Background(), 200); err != nil {
				t.Fatal(err)
			}
		}); a != 0 && s.Nodes() < 1<<16 {
			t.Errorf("%v allocations per 200 simulations, want 0", a)
		}
		g.Reset()
		decided = append(decided, g.Move(s.Decide(core.MostVisited)))
	}
	if decided[0] != decided[1] {
		t.Errorf("same seed, different decisions: %v", decided)
	}
}
