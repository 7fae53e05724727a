package goboard

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/core"
)

func TestSGF(t *testing.T) {
	h, err := NewHistory(Config{Size: 5, Komi: 0.5}, "b A1", "white E5")
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range []string{"B c3", "w pass", "b pass"} {
		c, v, _ := strings.Cut(mv, " ")
		if err := h.PlayAs(c, v); err != nil {
			t.Fatal(err)
		}
	}
	got := h.SGF(SGFInfo{Black: "x]y", White: `a\b`, Game: 3, Seed: 9})
	want := "(;GM[1]FF[4]CA[UTF-8]AP[mctscheck]SZ[5]KM[0.5]RU[Chinese]PB[x\\]y]PW[a\\\\b]RE[B+0.5]GN[game 3]" +
		"C[game 3, seed 9: two passes, Tromp-Taylor area score 0.5]\n;B[ae];W[ea];B[cc];W[];B[])\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SGF (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"b A1", "w E5", "b C3", "w pass", "b pass"}, h.Moves()); diff != "" {
		t.Errorf("moves (-want +got):\n%s", diff)
	}
	for _, tt := range []struct{ score float64 }{{3.5}, {-0.5}, {0}} {
		if got := ScoreText(tt.score); got != map[float64]string{3.5: "B+3.5", -0.5: "W+0.5", 0: "0"}[tt.score] {
			t.Errorf("ScoreText(%v) = %q", tt.score, got)
		}
	}
}

// TestHistory: illegal and malformed moves are errors that say why and
// leave the game as it was; the board survives a search that leaves the
// Game in a roll-out.
func TestHistory(t *testing.T) {
	h, err := NewHistory(Config{Size: 5}, "C3")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ color, vertex, want string }{
		{"w", "C3", "occupied"},
		{"w", "Z1", "column"},
		{"w", "C9", "row"},
		{"green", "A1", "color"},
		{"w", "", "vertex"},
	} {
		err := h.PlayAs(tt.color, tt.vertex)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("PlayAs(%q, %q) = %v, want an error about %s", tt.color, tt.vertex, err, tt.want)
		}
	}
	if len(h.Moves()) != 1 || h.Board().MovesPlayed() != 1 {
		t.Errorf("after refused moves: %v", h.Moves())
	}
	h.Game().Rollout(core.NewRNG(1))
	if h.Board().MovesPlayed() != 1 || h.Over() {
		t.Errorf("a roll-out of the Game moved the History's board:\n%s", h.Board())
	}
	if err := h.Play(25); err != nil { // a pass by White
		t.Fatal(err)
	}
	if err := h.Play(25); err != nil || !h.Over() {
		t.Fatalf("two passes: %v, over %v", err, h.Over())
	}
	if err := h.Play(0); !errors.Is(err, ErrOver) {
		t.Errorf("a move after the end: %v, want ErrOver", err)
	}
	for _, moves := range [][]string{{"C3", "C3"}, {"b C3 x"}, {"purple C3"}} {
		if _, err := NewHistory(Config{Size: 5}, moves...); err == nil || !strings.Contains(err.Error(), "move ") {
			t.Errorf("NewHistory(%q): %v, want an error that names the move", moves, err)
		}
	}
}
