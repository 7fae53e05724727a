package gtp_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/games/goboard"
	"github.com/mctscheck/mctscheck/gtp"
	"github.com/mctscheck/mctscheck/match"
	"github.com/mctscheck/mctscheck/rules"
)

// engine returns an engine with rule spec and budget on a board of size.
func engine(t *testing.T, spec string, budget, size int) *gtp.Engine {
	t.Helper()
	in := rules.MustParse(spec)
	e, err := gtp.NewEngine(gtp.Config{Player: match.Player{Name: in.Spec, Rule: in.Rule, Backup: in.Backup}, Budget: budget, Size: size, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// session starts e in the test's process and returns a client for it and
// a function that waits for the end of Serve.
func session(t *testing.T, e *gtp.Engine) (*gtp.Client, func() error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := e.Serve(context.Background(), inR, outW)
		outW.Close()
		done <- err
	}()
	return gtp.NewClient(outR, inW), func() error { inW.Close(); return <-done }
}

// TestGenmoveAfterTheEnd: once two passes have ended the game, genmove
// answers pass for either color, whoever is to move, as the help says.
func TestGenmoveAfterTheEnd(t *testing.T) {
	for _, script := range [][]string{
		{"play b pass", "play w pass", "genmove w", "genmove b", "genmove white"},
		{"play b C3", "play w pass", "play b pass", "genmove b", "genmove w"},
	} {
		e := engine(t, "uct", 20, 5)
		for _, cmd := range script {
			reply, _ := e.Do(context.Background(), cmd)
			if strings.HasPrefix(cmd, "genmove") && reply != "= pass\n\n" {
				t.Errorf("%q after %q: %q, want = pass", cmd, script[:2], reply)
			}
		}
	}
	// A genmove for the player not to move after one pass: its opponent's
	// pass ends the game, so it passes too.
	e := engine(t, "uct", 20, 5)
	e.Do(context.Background(), "play b pass")
	if reply, _ := e.Do(context.Background(), "genmove b"); reply != "= pass\n\n" {
		t.Errorf("genmove b after b pass: %q, want = pass", reply)
	}
}

// TestSelfPlay: an engine asked for moves of both colors in turn, 400
// times, on 5×5 — as a controller that goes on after the end does —
// answers every genmove with a move or a pass, never an error.
func TestSelfPlay(t *testing.T) {
	e := engine(t, "uct", 30, 5)
	passes := 0
	for i := range 400 {
		cmd := []string{"genmove b", "genmove w"}[i%2]
		reply, _ := e.Do(context.Background(), cmd)
		if !strings.HasPrefix(reply, "= ") {
			t.Fatalf("reply %d to %s: %q", i, cmd, reply)
		}
		if reply == "= pass\n\n" {
			passes++
		}
	}
	if passes < 300 {
		t.Errorf("%d passes in 400 replies: the game should end early on 5×5", passes)
	}
}

// TestNewEngineErrors: a budget too small to decide a move, a missing rule
// and a bad board are errors.
func TestNewEngineErrors(t *testing.T) {
	in := rules.MustParse("uct")
	p := match.Player{Name: in.Spec, Rule: in.Rule}
	for _, tt := range []struct {
		cfg  gtp.Config
		want string
	}{
		{gtp.Config{Player: p, Budget: 1}, "budget 1, want 2 to"},
		{gtp.Config{Player: p, Budget: match.MaxBudget + 1}, "budget"},
		{gtp.Config{Budget: 10}, "no rule"},
		{gtp.Config{Player: p, Budget: 10, Size: 4}, "size 4"},
		{gtp.Config{Player: p, Budget: 10, Komi: 0.3}, "komi 0.3"},
		{gtp.Config{Player: p, Budget: 10, Komi: 1, NoKomi: true}, "NoKomi"},
	} {
		if _, err := gtp.NewEngine(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewEngine(%+v): %v, want an error about %q", tt.cfg, err, tt.want)
		}
	}
}

// TestClient: the client reads success and failure replies, and Close
// sends quit and ends the session.
func TestClient(t *testing.T) {
	c, wait := session(t, engine(t, "uct", 20, 5))
	if v, err := c.Send("play b C3"); v != "" || err != nil {
		t.Errorf("play: %q, %v", v, err)
	}
	if v, err := c.Send("list_commands"); err != nil || !strings.HasPrefix(v, "protocol_version\nname\n") || strings.Join(gtp.Commands(), "\n") != v {
		t.Errorf("list_commands: %q, %v", v, err)
	}
	_, err := c.Send("frob")
	if ge, ok := err.(*gtp.Error); !ok || ge.Message != "unknown command" || err.Error() != `gtp "frob": unknown command` {
		t.Errorf("a failure reply: %v", err)
	}
	if v, err := c.Send("final_score"); err != nil || v != goboard.ScoreText(25-7.5) {
		t.Errorf("final_score: %q, %v", v, err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := wait(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestServeEndsOnCancel: Serve returns the context's error as soon as the
// context is done, while it waits for a line that never comes (an idle
// engine at Ctrl-C) as well as after a command.
func TestServeEndsOnCancel(t *testing.T) {
	e := engine(t, "uct", 20, 5)
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out strings.Builder
	go func() { done <- e.Serve(ctx, inR, &out) }()
	if _, err := io.WriteString(inW, "name\n"); err != nil {
		t.Fatal(err)
	}
	cancel() // idle, or at the latest once name is answered
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Serve after cancel: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve still waits for input 10 s after its context was cancelled")
	}
}

// TestServeNilStreams: Serve with a nil reader, writer or context is an
// error, not a panic.
func TestServeNilStreams(t *testing.T) {
	e := engine(t, "uct", 20, 5)
	ctx := context.Background()
	var noContext context.Context // nil, the point of the test
	for name, err := range map[string]error{
		"reader":  e.Serve(ctx, nil, io.Discard),
		"writer":  e.Serve(ctx, strings.NewReader("name\n"), nil),
		"context": e.Serve(noContext, strings.NewReader("name\n"), io.Discard),
	} {
		if err == nil || !strings.Contains(err.Error(), "nil") {
			t.Errorf("Serve with a nil %s: %v, want an error", name, err)
		}
	}
}

// TestClientMalformed: a first reply line that is neither "=" nor "?"
// fails at once, without waiting for the blank line that ends a reply (a
// program that echoes its input, as cat does, never writes one).
func TestClientMalformed(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go func() { _, _ = io.WriteString(w, "boardsize 19\n") }()
	done := make(chan error, 1)
	go func() {
		_, err := gtp.NewClient(r, io.Discard).Send("boardsize 19")
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), `malformed reply "boardsize 19"`) {
			t.Errorf("error %v, want a malformed reply", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Send waits for the end of a reply that is not one")
	}
}
