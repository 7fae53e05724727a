package connect4

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fullDraw is a game that fills the board without four in a row.
const fullDraw = "613217456412754444775271515726353326231663"

func TestParse(t *testing.T) {
	tests := []struct {
		moves   string
		stones  int
		won     bool
		over    bool
		wantErr string // a substring of the error, "" for none
	}{
		{moves: "", stones: 0},
		{moves: "4453", stones: 4},
		{moves: "1212121", stones: 7, won: true, over: true},      // vertical
		{moves: "1122334", stones: 7, won: true, over: true},      // horizontal
		{moves: "12233434544", stones: 11, won: true, over: true}, // diagonal /
		{moves: "76655454344", stones: 11, won: true, over: true}, // diagonal \
		{moves: "121212", stones: 6},                              // three only
		{moves: "4444441", stones: 7},                             // alternating column
		{moves: fullDraw, stones: 42, over: true},                 //
		{moves: "0", wantErr: `offset 0: "0" is not a column, want 1 to 7`},
		{moves: "448", wantErr: `offset 2: "8" is not a column, want 1 to 7`},
		{moves: "44 5", wantErr: `offset 2: " " is not a column`},
		{moves: "4\xff", wantErr: `offset 1: "\xff" is not a column`},
		{moves: "4444444", wantErr: "offset 6: column 4 is full"},
		{moves: "12121213", wantErr: "offset 7: column 3 played after the game was won at offset 6"},
		{moves: "12121211", wantErr: "offset 7: column 1 played after the game was won"},
		{moves: fullDraw + "1", wantErr: "move string offset 42: move 43 of 43, but the board has 42 cells"},
		{moves: strings.Repeat("1", 1000), wantErr: "offset 42: move 43 of 1000,"},
	}
	for _, tt := range tests {
		p, err := Parse(tt.moves)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Parse(%q) error = %v, want one containing %q", tt.moves, err, tt.wantErr)
			}
			if p != (Position{}) {
				t.Errorf("Parse(%q) returned %q with its error, want the zero Position", tt.moves, p)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.moves, err)
			continue
		}
		type summary struct {
			Moves     string
			Stones    int
			Won, Over bool
		}
		want := summary{tt.moves, tt.stones, tt.won, tt.over}
		got := summary{p.String(), p.Stones(), p.Won(), p.Over()}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tt.moves, diff)
		}
	}
}

func TestParseSets(t *testing.T) {
	for _, name := range setNames {
		for _, sp := range readSet(t, name) {
			if got := sp.pos.String(); got != sp.moves {
				t.Errorf("%s:%d: String() = %q, want %q", name, sp.line, got, sp.moves)
			}
			if sp.pos.Over() {
				t.Errorf("%s:%d: %s is over", name, sp.line, sp.moves)
			}
		}
	}
}

func TestPlay(t *testing.T) {
	tests := []struct {
		moves   string
		col     int
		wantErr string
	}{
		{"", 3, ""},
		{"", 0, ""},
		{"", 6, ""},
		{"", -1, "connect4: column -1, want 0 to 6"},
		{"", 7, "connect4: column 7, want 0 to 6"},
		{"444444", 3, "connect4: column 3 is full"},
		{"1212121", 1, "connect4: column 1 played after the game was won"},
		{fullDraw, 0, "connect4: column 0 played after"},
	}
	for _, tt := range tests {
		p := MustParse(tt.moves)
		before := p
		can := p.CanPlay(tt.col)
		err := p.Play(tt.col)
		if tt.wantErr == "" {
			if err != nil || !can {
				t.Errorf("%q: Play(%d) = %v, CanPlay %v; want nil, true", tt.moves, tt.col, err, can)
			}
			if want := tt.moves + string(rune('1'+tt.col)); p.String() != want {
				t.Errorf("%q: Play(%d) gives %q, want %q", tt.moves, tt.col, p, want)
			}
			continue
		}
		if tt.moves == fullDraw {
			tt.wantErr = "connect4: column 0 is full"
		}
		if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) || can {
			t.Errorf("%q: Play(%d) = %v, CanPlay %v; want an error starting %q, false", tt.moves, tt.col, err, can, tt.wantErr)
		}
		if p != before {
			t.Errorf("%q: a failed Play(%d) changed the position to %q", tt.moves, tt.col, p)
		}
	}
}

func TestBoard(t *testing.T) {
	tests := []struct {
		moves string
		want  string
	}{
		{"", ".......\n.......\n.......\n.......\n.......\n.......\n"},
		{"4453", ".......\n.......\n.......\n.......\n...O...\n..OXX..\n"},
		{"445364", ".......\n.......\n.......\n...O...\n...O...\n..OXXX.\n"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, MustParse(tt.moves).Board()); diff != "" {
			t.Errorf("Board of %q (-want +got):\n%s", tt.moves, diff)
		}
	}
	// Against the grid on the sets' positions and a full board.
	moves := []string{fullDraw}
	for _, name := range setNames {
		for _, sp := range readSet(t, name)[:100] {
			moves = append(moves, sp.moves)
		}
	}
	for _, m := range moves {
		g := gridOf(t, m)
		var want strings.Builder
		for r := Height - 1; r >= 0; r-- {
			for c := range Width {
				want.WriteByte(".XO"[g.cells[c][r]])
			}
			want.WriteByte('\n')
		}
		if diff := cmp.Diff(want.String(), MustParse(m).Board()); diff != "" {
			t.Errorf("Board of %q (-want +got):\n%s", m, diff)
		}
	}
}

// TestWinDetection plays random games and checks, after every move, the
// bitboard's four-in-a-row test and its threats against the plain grid.
func TestWinDetection(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	wins := 0
	for range 2000 {
		var p Position
		g := &grid{}
		for !p.Over() {
			c := r.IntN(Width)
			if !p.CanPlay(c) {
				continue
			}
			// the threats of the player to move: the empty cells where a
			// stone of theirs would make four
			who := int8(1 + g.n%2)
			var want uint64
			for cc := range Width {
				for rr := g.height[cc]; rr < Height; rr++ {
					if g.four(cc, rr, who) {
						want |= 1 << (cc*stride + rr)
					}
				}
			}
			if got := winningCells(p.cur, p.mask); got != want {
				t.Fatalf("%q: winningCells = %#x, grid says %#x", p, got, want)
			}
			p.play(c)
			won := g.play(c)
			if p.Won() != won {
				t.Fatalf("%q: Won() = %v, grid says %v", p, p.Won(), won)
			}
			if won {
				wins++
			}
		}
	}
	if wins < 1000 {
		t.Errorf("only %d of 2000 random games won", wins)
	}
}
