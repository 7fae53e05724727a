package main

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/mctscheck/mctscheck/engine"
)

// TestRAVECandidate makes one candidate of posgen -rave's default zone
// (seed 201, candidate 21, which it keeps), reads it back from the
// positions file format and re-solves it: a win for the player to move by
// the single move the file states, not the pass; the same seed and number
// give the same board.
func TestRAVECandidate(t *testing.T) {
	g := raveGen{zone: zone{8, 11, 3}, grow: 5, playouts: 2000, nodes: 40_000}
	draw := func() *engine.Position {
		p, outcome := g.candidate(rand.New(rand.NewPCG(201, 21)), "rave-s201-21")
		if outcome != "kept" {
			t.Fatalf("candidate 21 of seed 201: %s, want kept", outcome)
		}
		return p
	}
	p := draw()
	if q := draw(); q.Stones != p.Stones || q.ToMove != p.ToMove {
		t.Fatal("the same seed and number gave two boards")
	}
	var buf bytes.Buffer
	p.Format(&buf)
	ps, err := engine.ParsePositions(&buf)
	if err != nil || len(ps) != 1 {
		t.Fatalf("reading the candidate back: %d positions, %v\n%s", len(ps), err, buf.String())
	}
	sol, err := ps[0].Solve(engine.SolveLimits{Nodes: g.nodes})
	if err != nil {
		t.Fatal(err)
	}
	pass := engine.Size * engine.Size
	if sol.Value != 1 || len(sol.Optimal) != 1 || sol.Optimal[0] == pass || len(ps[0].Optimal) != 1 || ps[0].Optimal[0] != sol.Optimal[0] {
		t.Errorf("solved: value %v, optimal %v; the file states %s %v", sol.Value, sol.Optimal, ps[0].Value, ps[0].Optimal)
	}
}
