package core_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/games"
	"github.com/mctscheck/mctscheck/tree"
)

// blockingRule picks child 0, but its first Select signals entered and
// waits for release: a Run held in the middle of a simulation.
type blockingRule struct {
	once             *sync.Once
	entered, release chan struct{}
}

func (r blockingRule) Select(*core.Site) int {
	r.once.Do(func() {
		close(r.entered)
		<-r.release
	})
	return 0
}

// TestConcurrentRunIsNamed: a Run while another Run of the same search is
// running, from another goroutine, is an error that says so, not an index
// error blamed on the game, and the search stays usable.
func TestConcurrentRunIsNamed(t *testing.T) {
	rule := blockingRule{new(sync.Once), make(chan struct{}), make(chan struct{})}
	s, err := core.New(games.NewTicTacToe(), rule, core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first := make(chan error, 1)
	go func() { first <- s.Run(ctx, 100) }()
	<-rule.entered
	err = s.Run(ctx, 100)
	close(rule.release)
	if err == nil || !strings.Contains(err.Error(), "not safe for concurrent use") {
		t.Errorf("a second Run during the first: %v, want the concurrent use named", err)
	}
	if err := <-first; err != nil {
		t.Errorf("the first Run: %v", err)
	}
	if err := s.Run(ctx, 100); err != nil || s.Sims() != 200 {
		t.Errorf("Run after the concurrent use: %v, %d simulations, want 200", err, s.Sims())
	}
}

// TestRunNilContext: Run with a nil context is an error, not a panic
// blamed on the game.
func TestRunNilContext(t *testing.T) {
	s, err := core.New(tree.MustParse("(max 1 0)").Game(), core.UCT{C: 1}, core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1012 the nil context is the point
	if err := s.Run(nil, 10); err == nil || !strings.Contains(err.Error(), "nil context") { //nolint:staticcheck
		t.Errorf("Run(nil, 10): %v, want an error about the nil context", err)
	}
	if err := s.Run(context.Background(), 10); err != nil {
		t.Errorf("Run after the nil context: %v", err)
	}
}

// TestDecideUnknown: a decision rule out of range panics with a message
// that names it, for a serial and a root-parallel search; it never picks
// a child.
func TestDecideUnknown(t *testing.T) {
	game := func() core.Game { return tree.MustParse("(max 1 0)").Game() }
	s, err := core.New(game(), core.UCT{C: 1}, core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := core.NewRoot([]core.Game{game(), game()}, core.UCT{C: 1}, core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.Run(ctx, 10); err != nil {
		t.Fatal(err)
	}
	if err := r.Run(ctx, 10); err != nil {
		t.Fatal(err)
	}
	for name, decide := range map[string]func(core.Decision) int{"Search": s.Decide, "RootSearch": r.Decide} {
		func() {
			defer func() {
				if p, _ := recover().(string); !strings.Contains(p, "Decide(Decision(99)): unknown decision rule") {
					t.Errorf("%s.Decide(99) panicked with %q, want the unknown rule named", name, p)
				}
			}()
			d := decide(core.Decision(99))
			t.Errorf("%s.Decide(99) = %d, want a panic", name, d)
		}()
	}
}

// BenchmarkRunEntry is Run's fixed cost: each op is one Run of one
// simulation on synth b=8 d=10, the case where the entry (the checks, the
// guard against concurrent use) weighs most.
func BenchmarkRunEntry(b *testing.B) {
	g, err := games.NewSynth(8, 10)
	if err != nil {
		b.Fatal(err)
	}
	s, err := core.New(g, core.UCT{C: 1.4}, core.Config{Growth: core.GrowPractical})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if n == 100_000 {
			s.Reset(1)
			n = 0
		}
		if err := s.Run(ctx, 1); err != nil {
			b.Fatal(err)
		}
		n++
	}
}
