package match

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/games/goboard"
)

// scripted is an engine that answers genmove with its moves, in order,
// final_score with W+1 and every other command with success, and records
// the commands it gets.
type scripted struct {
	moves []string
	got   []string
}

func (e *scripted) Send(cmd string) (string, error) {
	e.got = append(e.got, cmd)
	switch {
	case strings.HasPrefix(cmd, "genmove"):
		m := e.moves[0]
		e.moves = e.moves[1:]
		return m, nil
	case cmd == "final_score":
		return "W+1", nil
	}
	return "", nil
}

func TestReferee(t *testing.T) {
	ctx := context.Background()
	cfg := RefereeConfig{Go: goboard.Config{Size: 5}, Black: "bb", White: "ww"}
	black := &scripted{moves: []string{"C3", "c2", "pass"}}
	white := &scripted{moves: []string{"D3", "pass"}}
	bcmds, wcmds := &black.got, &white.got
	var seen []string
	cfg.Move = func(n int, color, vertex string) { seen = append(seen, fmt.Sprintf("%d%s %s", n, color, vertex)) }
	g, err := Referee(ctx, black, white, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"b C3", "w D3", "b C2", "w pass", "b pass"}, g.Moves); diff != "" {
		t.Errorf("moves (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"1b C3", "2w D3", "3b C2", "4w pass", "5b pass"}, seen); diff != "" {
		t.Errorf("Move calls (-want +got):\n%s", diff)
	}
	// Black: C3 C2 and the area around them; White: D3 and the points
	// only it reaches; komi 7.5.
	b, _ := goboard.NewBoard(goboard.Config{Size: 5}, "C3", "D3", "C2", "pass", "pass")
	if g.End != "two passes" || g.Score != b.Score() || g.Winner != "w" || g.BlackScore != "W+1" || g.WhiteScore != "W+1" {
		t.Errorf("end %q, score %v (want %v), winner %q, final scores %q %q", g.End, g.Score, b.Score(), g.Winner, g.BlackScore, g.WhiteScore)
	}
	if !strings.Contains(g.SGF, "PB[bb]PW[ww]RE[") || !strings.Contains(g.SGF, ";B[cc];W[dc];B[cd];W[];B[])") {
		t.Errorf("SGF:\n%s", g.SGF)
	}
	wantB := []string{"boardsize 5", "komi 7.5", "clear_board", "genmove b", "play w D3", "genmove b", "play w pass", "genmove b", "final_score"}
	if diff := cmp.Diff(wantB, *bcmds); diff != "" {
		t.Errorf("black's commands (-want +got):\n%s", diff)
	}
	if (*wcmds)[len(*wcmds)-1] != "final_score" || (*wcmds)[3] != "play b C3" {
		t.Errorf("white's commands: %q", *wcmds)
	}

	// An illegal move, a resignation, a failure reply.
	black, white = &scripted{moves: []string{"C3"}}, &scripted{moves: []string{"c3"}}
	if _, err := Referee(ctx, black, white, cfg); err == nil || !strings.Contains(err.Error(), `move 2: w played "c3"`) || !strings.Contains(err.Error(), "occupied") {
		t.Errorf("an illegal move: %v", err)
	}
	black, white = &scripted{moves: []string{"C3"}}, &scripted{moves: []string{"Resign"}}
	if g, err := Referee(ctx, black, white, cfg); err != nil || g.End != "w resigned" || g.Winner != "b" || len(g.Moves) != 1 {
		t.Errorf("a resignation: %+v, %v", g, err)
	}
}
