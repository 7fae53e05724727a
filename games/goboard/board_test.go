package goboard

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/core"
)

// setupMoves returns the colored moves that put the stones of a diagram on
// the empty board so that toMove is to move afterwards: the diagram's rows
// top first, X black, O white, . empty, spaces ignored; the stones of the
// other color are placed last. The diagram must not contain a chain
// without liberties.
func setupMoves(t testing.TB, size int, toMove Color, diagram string) []string {
	t.Helper()
	rows := strings.Split(strings.TrimSpace(diagram), "\n")
	if len(rows) != size {
		t.Fatalf("diagram has %d rows, want %d", len(rows), size)
	}
	var black, white []string
	for i, row := range rows {
		row = strings.ReplaceAll(strings.TrimSpace(row), " ", "")
		if len(row) != size {
			t.Fatalf("diagram row %d %q has %d points, want %d", i+1, row, len(row), size)
		}
		y := size - 1 - i
		for x := range size {
			v := Vertex(y*size+x, size)
			switch row[x] {
			case 'X':
				black = append(black, "b "+v)
			case 'O':
				white = append(white, "w "+v)
			case '.':
			default:
				t.Fatalf("diagram row %d %q: %q", i+1, row, row[x])
			}
		}
	}
	if toMove == Black {
		return append(black, white...)
	}
	return append(white, black...)
}

// position returns the board of a diagram (see setupMoves) with komi 7.5.
func position(t testing.TB, size int, toMove Color, diagram string) *Board {
	t.Helper()
	b, err := NewBoard(Config{Size: size}, setupMoves(t, size, toMove, diagram)...)
	if err != nil {
		t.Fatal(err)
	}
	if b.ToMove() != toMove {
		t.Fatalf("diagram gives %v to move, want %v", b.ToMove(), toMove)
	}
	return b
}

// rows returns the diagram rows of a board: String without the letters and
// row numbers, one row a line.
func rows(b *Board) string {
	var s strings.Builder
	for y := b.size - 1; y >= 0; y-- {
		for x := range b.size {
			if x > 0 {
				s.WriteByte(' ')
			}
			s.WriteByte(".XO"[b.At(y*b.size+x)])
		}
		s.WriteByte('\n')
	}
	return s.String()
}

// trim removes the indentation of a diagram in a test table.
func trim(d string) string {
	var s strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(d), "\n") {
		s.WriteString(strings.TrimSpace(l))
		s.WriteByte('\n')
	}
	return s.String()
}

func mustVertex(t testing.TB, v string, size int) int {
	t.Helper()
	m, err := ParseVertex(v, size)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPlay(t *testing.T) {
	for _, tc := range []struct {
		name         string
		toMove       Color
		before, move string
		after        string // "" when the move is illegal
		err          error
		captured     int
	}{
		{
			name: "single stone", toMove: Black, move: "C2", captured: 1,
			before: `. . . . .
			         . . X . .
			         . X O X .
			         . . . . .
			         . . . . .`,
			after: `. . . . .
			        . . X . .
			        . X . X .
			        . . X . .
			        . . . . .`,
		},
		{
			name: "two-stone chain", toMove: Black, move: "C2", captured: 2,
			before: `. . X . .
			         . X O X .
			         . X O X .
			         . . . . .
			         . . . . .`,
			after: `. . X . .
			        . X . X .
			        . X . X .
			        . . X . .
			        . . . . .`,
		},
		{
			name: "corner", toMove: Black, move: "A2", captured: 1,
			before: `. . . . .
			         . . . . .
			         . . . . .
			         . . . . .
			         O X . . .`,
			after: `. . . . .
			        . . . . .
			        . . . . .
			        X . . . .
			        . X . . .`,
		},
		{
			name: "two chains at once, on a point surrounded by them", toMove: Black, move: "A1", captured: 2,
			before: `. . . . .
			         . . . . .
			         X . . . .
			         O X . . .
			         . O X . .`,
			after: `. . . . .
			        . . . . .
			        X . . . .
			        . X . . .
			        X . X . .`,
		},
		{
			name: "white captures a large chain", toMove: White, move: "E5", captured: 5,
			before: `X X X X .
			         O O O X O
			         . . . O .
			         . . . . .
			         . . . . .`,
			after: `. . . . O
			        O O O . O
			        . . . O .
			        . . . . .
			        . . . . .`,
		},
		{
			name: "occupied", toMove: Black, move: "C3", err: ErrOccupied,
			before: `. . . . .
			         . . . . .
			         . . O . .
			         . . . . .
			         . . . . .`,
		},
		{
			name: "single-stone suicide", toMove: Black, move: "A5", err: ErrSuicide,
			before: `. O . . .
			         O . . . .
			         . . . . .
			         . . . . .
			         . . . . .`,
		},
		{
			name: "multi-stone suicide", toMove: Black, move: "A5", err: ErrSuicide,
			before: `. X O . .
			         O X O . .
			         . O . . .
			         . . . . .
			         . . . . .`,
		},
		{
			name: "suicide into an eye of a chain with two eyes", toMove: White, move: "A2", err: ErrSuicide,
			before: `. . . . .
			         . . . . .
			         X X X X .
			         . X . X .
			         X X X X .`,
		},
		{
			name: "not suicide: it captures", toMove: White, move: "C2", captured: 8,
			before: `. . . . .
			         O O O O .
			         O X X X O
			         O X . X O
			         O X X X O`,
			after: `. . . . .
			        O O O O .
			        O . . . O
			        O . O . O
			        O . . . O`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := position(t, 5, tc.toMove, tc.before)
			m := mustVertex(t, tc.move, 5)
			before := *b
			err := b.Play(m)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("Play(%s) = %v, want %v", tc.move, err, tc.err)
				}
				if !errors.Is(b.Legal(m), tc.err) {
					t.Errorf("Legal(%s) = %v, want %v", tc.move, b.Legal(m), tc.err)
				}
				if *b != before {
					t.Errorf("an illegal move changed the board")
				}
				return
			}
			if err != nil {
				t.Fatalf("Play(%s) = %v", tc.move, err)
			}
			if diff := cmp.Diff(trim(tc.after), rows(b)); diff != "" {
				t.Errorf("after %s (-want +got):\n%s", tc.move, diff)
			}
			if got := before.nEmpty - b.nEmpty; got != 1-tc.captured {
				t.Errorf("empty points changed by %d, want %d", got, 1-tc.captured)
			}
			if err := b.check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// koDiagram has a ko on the left: Black to move takes at C3.
const koDiagram = `. . . . .
                   . X O . .
                   X O . O .
                   . X O . .
                   . . . . .`

func TestSimpleKo(t *testing.T) {
	b := position(t, 5, Black, koDiagram)
	play := func(v string) {
		t.Helper()
		if err := b.Play(mustVertex(t, v, 5)); err != nil {
			t.Fatal(err)
		}
	}
	play("C3") // takes B3
	b3 := mustVertex(t, "B3", 5)
	if got := b.Ko(); got != b3 {
		t.Fatalf("Ko() = %s, want B3", Vertex(got, 5))
	}
	if err := b.Legal(b3); !errors.Is(err, ErrKo) {
		t.Fatalf("White retakes at once: Legal(B3) = %v, want ErrKo", err)
	}
	if err := b.LegalAs(Black, b3); err != nil {
		t.Errorf("Black may fill the ko: LegalAs(Black, B3) = %v", err)
	}
	play("E5") // a ko threat
	if b.Ko() != -1 {
		t.Errorf("Ko() = %d after another move, want -1", b.Ko())
	}
	play("E4") // its answer
	play("B3") // White retakes, now legal
	if got, want := b.Ko(), mustVertex(t, "C3", 5); got != want {
		t.Errorf("Ko() = %s after the retake, want C3", Vertex(got, 5))
	}
	if err := b.Legal(mustVertex(t, "C3", 5)); !errors.Is(err, ErrKo) {
		t.Errorf("Black retakes at once: %v, want ErrKo", err)
	}
	play("pass")
	if err := b.Legal(mustVertex(t, "C3", 5)); !errors.Is(err, ErrKo) && err != nil {
		t.Errorf("after Black's pass: %v", err)
	}
	play("pass")
	if b.Status() != TwoPasses {
		t.Errorf("Status() = %v after two passes, want two passes", b.Status())
	}
	if err := b.Legal(mustVertex(t, "C3", 5)); !errors.Is(err, ErrOver) {
		t.Errorf("Legal after the end = %v, want ErrOver", err)
	}
}

func TestKoNotOnSnapbackOrMultiCapture(t *testing.T) {
	// Black's D3 captures two stones: no ko, White may play at once at a
	// captured point.
	b := position(t, 5, Black, `. . . . .
	                            . X O O X
	                            X O . . O
	                            . X O O X
	                            . . . . .`)
	if err := b.Play(mustVertex(t, "D3", 5)); err != nil {
		t.Fatal(err)
	}
	if b.Ko() != -1 {
		t.Errorf("Ko() = %s after a move that captures nothing, want -1", Vertex(b.Ko(), 5))
	}
}

// sekiDiagram is a seki in the upper left: Black's chain B5–C4 and White's
// chain D5–E4 each have one eye (A5 and E5) and share the liberty C5; the
// lower black chain lives with three eyes. Area: Black 16 (12 stones, 4
// eyes), White 8 (7 stones, 1 eye), C5 neutral.
const sekiDiagram = `. X . O .
                     X X X O O
                     O O O O X
                     X X X X X
                     . X . X .`

func TestSekiAreaScore(t *testing.T) {
	for _, tc := range []struct {
		cfg   Config
		score float64
	}{
		{Config{Size: 5}, 0.5},             // 16 − 8 − 7.5
		{Config{Size: 5, Komi: 8.5}, -0.5}, // White wins by komi
		{Config{Size: 5, NoKomi: true}, 8}, // no komi
		{Config{Size: 5, Komi: -2}, 10},    // reverse komi
		{Config{Size: 5, Komi: 8}, 0},      // jigo
	} {
		b, err := NewBoard(tc.cfg, setupMoves(t, 5, Black, sekiDiagram)...)
		if err != nil {
			t.Fatal(err)
		}
		black, white := b.Area()
		if black != 16 || white != 8 {
			t.Errorf("Area() = %d, %d, want 16, 8", black, white)
		}
		if got := b.Score(); got != tc.score {
			t.Errorf("komi %v: Score() = %v, want %v", b.Komi(), got, tc.score)
		}
		want := 0.5
		switch {
		case tc.score > 0:
			want = 1
		case tc.score < 0:
			want = 0
		}
		if got := b.Reward(); got != want {
			t.Errorf("komi %v: Reward() = %v, want %v", b.Komi(), got, want)
		}
	}
	b := position(t, 5, Black, sekiDiagram)
	for _, tc := range []struct {
		c     Color
		v     string
		err   error
		eye   bool
		prior float64
	}{
		{Black, "C5", nil, false, PriorSelfAtari},
		{White, "C5", nil, false, PriorSelfAtari},
		{Black, "A5", nil, true, PriorEyeFill},
		{White, "A5", ErrSuicide, false, 0},
		{White, "E5", nil, true, PriorEyeFill},
		{Black, "E5", ErrSuicide, false, 0},
		{Black, "C1", nil, true, PriorEyeFill},
		{White, "A1", ErrSuicide, false, 0},
	} {
		m := mustVertex(t, tc.v, 5)
		if err := b.LegalAs(tc.c, m); !errors.Is(err, tc.err) {
			t.Errorf("LegalAs(%v, %s) = %v, want %v", tc.c, tc.v, err, tc.err)
		}
		if got := b.eye(tc.c, b.index(m)); got != tc.eye {
			t.Errorf("%s eye of %v: %v, want %v", tc.v, tc.c, got, tc.eye)
		}
		if tc.err == nil {
			c := *b
			c.toMove = tc.c
			if got := c.Prior(m); got != tc.prior {
				t.Errorf("Prior(%s) for %v = %v, want %v", tc.v, tc.c, got, tc.prior)
			}
		}
	}
}

func TestEyes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		diagram string
		v       string
		c       Color
		want    bool
	}{
		{"middle", `. . . . .
		            . X X X .
		            . X . X .
		            . X X X .
		            . . . . .`, "C3", Black, true},
		{"not the opponent's", `. . . . .
		                        . X X X .
		                        . X . X .
		                        . X X X .
		                        . . . . .`, "C3", White, false},
		{"middle, one opponent diagonal", `. . . . .
		                                   . O X X .
		                                   . X . X .
		                                   . X X X .
		                                   . . . . .`, "C3", Black, true},
		{"middle, two opponent diagonals: false eye", `. . . . .
		                                               . O X X .
		                                               . X . X .
		                                               . X X O .
		                                               . . . . .`, "C3", Black, false},
		{"edge", `. . . . .
		          . . . . .
		          . . . . .
		          . X X X .
		          . X . X .`, "C1", Black, true},
		{"edge, one opponent diagonal: false eye", `. . . . .
		                                            . . . . .
		                                            . . . . .
		                                            . X X O .
		                                            . X . X .`, "C1", Black, false},
		{"corner", `. . . . .
		            . . . . .
		            . . . . .
		            O O . . .
		            . O . . .`, "A1", White, true},
		{"corner, opponent diagonal: false eye", `. . . . .
		                                          . . . . .
		                                          . . . . .
		                                          O X . . .
		                                          . O . . .`, "A1", White, false},
		{"an empty neighbour", `. . . . .
		                        . X X X .
		                        . X . . .
		                        . X X X .
		                        . . . . .`, "C3", Black, false},
		{"an opponent neighbour", `. . . . .
		                           . X X X .
		                           . X . O .
		                           . X X X .
		                           . . . . .`, "C3", Black, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := NewBoard(Config{Size: 5}, setupMoves(t, 5, Black, tc.diagram)...)
			if err != nil {
				t.Fatal(err)
			}
			m := mustVertex(t, tc.v, 5)
			if got := b.eye(tc.c, b.index(m)); got != tc.want {
				t.Errorf("%s is an eye of %v: %v, want %v", tc.v, tc.c, got, tc.want)
			}
		})
	}
}

// TestAreaMidGame: Area agrees with the oracle's flood of the grid on
// positions cut from light playouts after 0 to 60 moves, where empty
// regions of several points (which Area floods) and single points (which
// it counts from the neighbour counts) both occur.
func TestAreaMidGame(t *testing.T) {
	rng := core.NewRNG(11)
	regions := 0
	for game := range 200 {
		b, err := NewBoard(Config{Size: 7})
		if err != nil {
			t.Fatal(err)
		}
		for range rng.IntN(61) {
			if b.over() {
				break
			}
			b.playLight(rng)
		}
		for i := range b.nEmpty {
			if b.nb[b.empty[i]]>>8 != 0 {
				regions++
				break
			}
		}
		wb, ww := gridOf(b).area()
		if gb, gw := b.Area(); gb != wb || gw != ww {
			t.Fatalf("game %d: Area() = %d, %d, oracle %d, %d\n%s", game, gb, gw, wb, ww, b)
		}
	}
	if regions < 50 {
		t.Errorf("only %d of 200 positions with an empty region of several points", regions)
	}
}
