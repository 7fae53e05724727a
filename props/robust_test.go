package props_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// Bad and extreme inputs that the checker must survive: each is an error or a
// finding, never a crash or a hang.

// TestWindowMaxInt: a Window beyond any checkpoint is an error, not an
// overflow.
func TestWindowMaxInt(t *testing.T) {
	_, err := props.Run(bg, greedy{}, props.Options{Window: math.MaxInt})
	if err == nil || !strings.Contains(err.Error(), "Window") {
		t.Errorf("Window MaxInt: %v, want an error about Window", err)
	}
}

// panicOracle panics on every question.
type panicOracle struct{}

func (panicOracle) Value(context.Context, []int32) (float64, bool, error) { panic("oracle broke") }

// TestOraclePanic: an oracle that panics is an ErrOracle error of
// CheckGame, not a panic out of it.
func TestOraclePanic(t *testing.T) {
	tr := tree.MustParse("(max (min 1 0) (min 1 1))")
	_, err := props.CheckGame(bg, greedy{}, tr.Game(), panicOracle{}, props.GameOptions{})
	if !errors.Is(err, props.ErrOracle) || !strings.Contains(err.Error(), "oracle broke") {
		t.Errorf("error %v, want ErrOracle with the panic", err)
	}
}

// badProbs is ε-greedy whose Probs returns what it is told.
type badProbs struct{ probs func(k int) []float64 }

func (b badProbs) Select(s *core.Site) int { return epsGreedy{0.1}.Select(s) }
func (b badProbs) Probs(s *core.Site, dst []float64) []float64 {
	return append(dst[:0], b.probs(s.Len())...)
}

// TestBadProbsAreFaults: probabilities that are NaN, above 1 or missing
// are a fault of the rule, reported as a witness.
func TestBadProbsAreFaults(t *testing.T) {
	tr := tree.MustParse("(max (min 1 0) 0.5)")
	for name, probs := range map[string]func(k int) []float64{
		"NaN":   func(k int) []float64 { p := make([]float64, k); p[0] = math.NaN(); return p },
		"five":  func(k int) []float64 { p := make([]float64, k); p[0] = 5; return p },
		"empty": func(int) []float64 { return []float64{} },
	} {
		rep, err := props.CheckTree(bg, badProbs{probs}, tr, props.Options{Seeds: 1})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep.Verdict != props.Faulted || rep.Witness.Fault.Kind != props.FaultRange || !strings.Contains(rep.Witness.Fault.Message, "Probs") {
			t.Errorf("%s: %s, want a fault of Probs", name, rep.Summary)
		}
	}
}

// TestRunHonoursDeadline: with as many trees as Options allow, props.Run
// returns soon after its context's deadline, having drawn the trees one at
// a time.
func TestRunHonoursDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(bg, 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := props.Run(ctx, core.UCT{C: 1}, props.Options{Trees: 1 << 20, NoTraps: true})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the deadline", err)
	}
	// Soon after the deadline, with room for a loaded machine: the check
	// of every tree would take hours.
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("returned after %v", d)
	}
	if _, err := props.Run(bg, core.UCT{C: 1}, props.Options{Trees: 1 << 30}); err == nil {
		t.Error("Trees 2^30 accepted")
	}
}

// blocked is a rule whose Select never returns once it is past its first
// simulations.
type blocked struct{}

func (blocked) Select(s *core.Site) int {
	if s.T() > 100 {
		select {}
	}
	return 0
}

// TestRunReturnsWhileSelectBlocks: a check returns at its context's end
// even while the rule's Select blocks, serially and with several jobs.
func TestRunReturnsWhileSelectBlocks(t *testing.T) {
	for _, jobs := range []int{1, 4} {
		ctx, cancel := context.WithTimeout(bg, 200*time.Millisecond)
		start := time.Now()
		_, err := props.Run(ctx, blocked{}, props.Options{Trees: 3, Jobs: jobs})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("jobs %d: error %v, want the deadline", jobs, err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("jobs %d: returned after %v", jobs, d)
		}
	}
}

// TestCancelWhileShrinking: a check cancelled while it shrinks a witness
// returns the context's error, never a half-shrunk witness.
func TestCancelWhileShrinking(t *testing.T) {
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	o := props.Options{Seeds: 1, Status: func(s props.Status) {
		if s.Phase == props.PhaseShrinking && s.Total > 0 {
			cancel()
		}
	}}
	tr := tree.MustParse("(max (max 0 1 (min 0 0)) (min 0.5 (max 0.5 0.5) 0.75) (max 0.25 (min 0 0.25) 0))")
	rep, err := props.CheckTree(ctx, greedy{}, tr, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("CheckTree: %v (%v), want context.Canceled", err, rep)
	}
}

// TestStatusPhases: a check of one tree reports the work it plans, its
// searches and their simulations as they run, the tree taken up, then the
// steps of its shrinker, never from two goroutines at once.
func TestStatusPhases(t *testing.T) {
	for _, jobs := range []int{0, 3} {
		var last props.Status
		shrinks := 0
		var busy atomic.Bool
		o := props.Options{Seeds: 4, Jobs: jobs, Status: func(s props.Status) {
			if busy.Swap(true) {
				t.Errorf("jobs %d: two Status calls at once", jobs)
			}
			defer busy.Store(false)
			switch s.Phase {
			case props.PhaseTrees:
				if s.Sims < last.Sims || s.Searches < last.Searches || s.Sims > s.SimsPlanned {
					t.Errorf("jobs %d: status %+v after %+v", jobs, s, last)
				}
				last = s
			case props.PhaseShrinking:
				shrinks++
			}
		}}
		if _, err := props.CheckTree(bg, greedy{}, tree.MustParse("(max (max 0 1 (min 0 0)) 0.5)"), o); err != nil {
			t.Fatal(err)
		}
		want := props.Status{Phase: props.PhaseTrees, Done: 1, Total: 1, Searches: 4, SearchesPlanned: 4, Sims: 4 * 16384, SimsPlanned: 4 * 16384}
		if last != want || shrinks < 1 {
			t.Errorf("jobs %d: last status %+v and %d shrinking steps, want %+v and a step", jobs, last, shrinks, want)
		}
	}
}

// sleepy is UCT that sleeps at each site: a slow program's pace.
type sleepy struct{ d time.Duration }

func (s sleepy) Select(site *core.Site) int {
	time.Sleep(s.d)
	return core.UCT{C: 1.4}.Select(site)
}

// TestStatusSlowest: while a slow rule's searches run, the status gives
// the time the slowest of them needs at its own pace; done, none runs.
func TestStatusSlowest(t *testing.T) {
	var most, last time.Duration
	o := props.Options{Seeds: 2, Jobs: 2, MinBudget: 32, MaxBudget: 512, Status: func(s props.Status) {
		if s.Phase == props.PhaseTrees {
			most, last = max(most, s.Slowest), s.Slowest
		}
	}}
	if _, err := props.CheckTree(bg, sleepy{50 * time.Microsecond}, tree.MustParse("(max (min 1 0) 0.5)"), o); err != nil {
		t.Fatal(err)
	}
	if most <= 0 || most > time.Minute || last != 0 {
		t.Errorf("the slowest search's time left: at most %v (want some, under a minute), last %v (want 0)", most, last)
	}
}

// hiddenTrap is the trap of greedy first-play urgency, (max (max 0 1)
// 0.5), with a bushy subtree of at least n nodes beside the good move's
// leaves, where the trap's search never goes: leaves 0 and 1 in turn,
// gathered ten at a time under min and max nodes in turn up to one node.
func hiddenTrap(n int) *tree.Tree {
	b := tree.NewBuilder()
	var level []tree.Ref
	for k := range n * 9 / 10 {
		level = append(level, b.Leaf(float64(k%2)))
	}
	kind := core.Min
	for len(level) > 1 {
		var up []tree.Ref
		for k := 0; k < len(level); k += 10 {
			up = append(up, b.Node(kind, edges(level[k:min(k+10, len(level))])...))
		}
		level, kind = up, core.Max+core.Min-kind
	}
	good := b.Max(b.Leaf(0), b.Leaf(1), level[0])
	tr, err := b.Build(b.Max(good, b.Leaf(0.5)))
	if err != nil {
		panic(err)
	}
	return tr
}

// edges are plain edges to refs.
func edges(refs []tree.Ref) []tree.Edge {
	out := make([]tree.Edge, len(refs))
	for k, r := range refs {
		out[k] = tree.E(r)
	}
	return out
}

// TestShrinkHiddenTrap: a 5-node witness inside a larger tree is shrunk to
// itself after as many judgements whatever the tree's size: the subtree
// the witness's search never entered goes at the first cut.
func TestShrinkHiddenTrap(t *testing.T) {
	shrinks := map[int]int{}
	for _, n := range []int{100, 1000, 10000} {
		tr := hiddenTrap(n)
		rep, err := props.CheckTree(bg, greedy{}, tr, props.Options{Seeds: 2})
		if err != nil {
			t.Fatal(err)
		}
		w := rep.Witness
		if rep.Verdict != props.Inconsistent || w.Nodes > 5 {
			t.Fatalf("%d nodes: %s; want a witness of 5 nodes", tr.Len(), rep.Summary)
		}
		shrinks[n] = w.Shrinks
	}
	if shrinks[1000] != shrinks[100] || shrinks[10000] != shrinks[100] {
		t.Errorf("judgements of the shrinker by tree size %v, want the same at every size", shrinks)
	}
}

// BenchmarkRunPlan measures what a check of as many trees as Options
// allow costs before its first search: its plan, with a context that has
// ended (TestRunHonoursDeadline's Run returns after it).
func BenchmarkRunPlan(b *testing.B) {
	ctx, cancel := context.WithCancel(bg)
	cancel()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := props.Run(ctx, core.UCT{C: 1}, props.Options{Trees: 1 << 20, NoTraps: true}); !errors.Is(err, context.Canceled) {
			b.Fatal(err)
		}
	}
}
