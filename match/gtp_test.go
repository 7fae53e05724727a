package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/gtp"
)

// scripted starts an engine in the test's process that answers genmove
// with the moves given, in order, and every other command with success,
// except "frob", which it does not know. It records the commands it gets.
func scripted(t *testing.T, moves ...string) (*gtp.Client, *[]string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var got []string
	go func() {
		defer outW.Close()
		sc := bufio.NewScanner(inR)
		for sc.Scan() {
			cmd := sc.Text()
			got = append(got, cmd)
			reply := "="
			switch {
			case strings.HasPrefix(cmd, "genmove"):
				reply = "= " + moves[0]
				moves = moves[1:]
			case cmd == "frob":
				reply = "? unknown command"
			case cmd == "final_score":
				reply = "= W+1"
			}
			fmt.Fprintf(outW, "%s\n\n", reply)
			if cmd == "quit" {
				return
			}
		}
	}()
	return gtp.NewClient(outR, inW), &got
}

func TestReferee(t *testing.T) {
	ctx := context.Background()
	cfg := RefereeConfig{Go: goboard.Config{Size: 5}, Black: "bb", White: "ww"}
	black, bcmds := scripted(t, "C3", "c2", "pass")
	white, wcmds := scripted(t, "D3", "pass")
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
	black, _ = scripted(t, "C3")
	white, _ = scripted(t, "c3")
	if _, err := Referee(ctx, black, white, cfg); err == nil || !strings.Contains(err.Error(), `move 2: w played "c3"`) || !strings.Contains(err.Error(), "occupied") {
		t.Errorf("an illegal move: %v", err)
	}
	black, _ = scripted(t, "C3")
	white, _ = scripted(t, "Resign")
	if g, err := Referee(ctx, black, white, cfg); err != nil || g.End != "w resigned" || g.Winner != "b" || len(g.Moves) != 1 {
		t.Errorf("a resignation: %+v, %v", g, err)
	}
	black, _ = scripted(t)
	if _, err := black.Send("frob"); err == nil || err.Error() != `gtp "frob": unknown command` {
		t.Errorf("a failure reply: %v", err)
	}
	if err := black.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}
