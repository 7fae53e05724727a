package props

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// holds is a judge of the shrinker that keeps a tree when its root, a
// max node, still has a leaf child of each reward in want: the smallest
// such tree is the root over those leaves. It counts its calls and the
// most it saw at once.
type holds struct {
	want      []float64
	slow      time.Duration // each judgement's time, so that a batch's overlap
	calls     atomic.Int64
	now, most atomic.Int64
}

func (h *holds) judge(t *tree.Tree) trial {
	h.calls.Add(1)
	n := h.now.Add(1)
	defer h.now.Add(-1)
	for m := h.most.Load(); n > m && !h.most.CompareAndSwap(m, n); m = h.most.Load() {
	}
	time.Sleep(h.slow)
	if t.Kind(0) != core.Max {
		return trial{}
	}
	for _, r := range h.want {
		found := false
		for k := range t.NumChildren(0) {
			c := t.Child(0, k)
			found = found || t.Kind(c) == core.Terminal && t.Reward(c) == r
		}
		if !found {
			return trial{}
		}
	}
	return trial{keep: true, sims: 1}
}

// wideRoot is a max root over n children, each a min node over two
// leaves, but for children a and b, leaves 0.25 and 0.75.
func wideRoot(n, a, b int) *tree.Tree {
	var s strings.Builder
	s.WriteString("(max")
	for k := range n {
		switch k {
		case a:
			s.WriteString(" 0.25")
		case b:
			s.WriteString(" 0.75")
		default:
			s.WriteString(" (min 0 1)")
		}
	}
	s.WriteString(")")
	return tree.MustParse(s.String())
}

// TestShrinkWideRootInGroups: on a root over n children of which two
// hold the property, the shrinker cuts and drops the others in groups:
// its judgements grow with log n, not with n, and it ends at the root
// over the two.
func TestShrinkWideRootInGroups(t *testing.T) {
	for _, n := range []int{10, 100, 1000, 10000} {
		h := &holds{want: []float64{0.25, 0.75}}
		run := shrink(context.Background(), wideRoot(n, n/3, n-1), h.judge, 1000, 1, nil, Options{})
		if want := tree.MustParse("(max 0.25 0.75)"); !run.tree.Equal(want) {
			t.Errorf("n=%d: shrunk to %v, want %v", n, run.tree, want)
		}
		// Per pass, two items to keep among n: about 2·2·log2(n) groups
		// judged, and a few more to adopt; the polish of a 3-node tree is a
		// constant.
		if limit := 8*int(math.Ceil(math.Log2(float64(n)))) + 40; run.evals > limit {
			t.Errorf("n=%d: %d judgements, want at most %d", n, run.evals, limit)
		}
		if int64(run.evals) != h.calls.Load() {
			t.Errorf("n=%d: %d judgements counted, the judge was called %d times", n, run.evals, h.calls.Load())
		}
		t.Logf("n=%d: %d judgements", n, run.evals)
	}
}

// TestShrinkSameForAnyJobs: with several jobs the shrinker judges
// candidates several at once, at most jobs, and ends where the serial one
// does, after the same judgements.
func TestShrinkSameForAnyJobs(t *testing.T) {
	tr := wideRoot(300, 7, 200)
	serial := shrink(context.Background(), tr, (&holds{want: []float64{0.25, 0.75}}).judge, 1000, 1, nil, Options{})
	for _, jobs := range []int{2, 4, 16} {
		h := &holds{want: []float64{0.25, 0.75}, slow: time.Millisecond}
		run := shrink(context.Background(), tr, h.judge, 1000, jobs, nil, Options{})
		if !run.tree.Equal(serial.tree) || run.evals != serial.evals || run.sims != serial.sims {
			t.Errorf("jobs %d: %v after %d judgements (%d sims), want %v after %d (%d)", jobs, run.tree, run.evals, run.sims,
				serial.tree, serial.evals, serial.sims)
		}
		if m := h.most.Load(); m > int64(jobs) || m < 2 {
			t.Errorf("jobs %d: at most %d candidates judged at once, want 2 to %d", jobs, m, jobs)
		}
	}
}

// TestShrinkBudgetAndSmall: the shrinker stops when its budget of
// judgements is spent, and once small says the tree is small enough.
func TestShrinkBudgetAndSmall(t *testing.T) {
	tr := wideRoot(1000, 1, 2)
	h := &holds{want: []float64{0.25, 0.75}}
	if run := shrink(context.Background(), tr, h.judge, 5, 1, nil, Options{}); run.evals != 5 || run.tree.Len() >= tr.Len() {
		t.Errorf("budget 5: %d judgements, %d nodes left of %d; want 5 judgements and a smaller tree", run.evals, run.tree.Len(), tr.Len())
	}
	small := func(t *tree.Tree) bool { return t.Len() <= 500 }
	if run := shrink(context.Background(), tr, h.judge, 1000, 1, small, Options{}); run.tree.Len() > 500 || run.tree.Len() < 3 {
		t.Errorf("small at 500 nodes: ended at %d nodes", run.tree.Len())
	}
}

// TestShrinkCancelled: a context that ends stops the shrinker at its next
// candidate, whatever the pass.
func TestShrinkCancelled(t *testing.T) {
	for _, after := range []int64{1, 10, 20} { // of 29 in all
		ctx, cancel := context.WithCancel(context.Background())
		h := &holds{want: []float64{0.25, 0.75}}
		judge := func(t *tree.Tree) trial {
			if h.calls.Load() == after-1 {
				cancel()
			}
			return h.judge(t)
		}
		run := shrink(ctx, wideRoot(1000, 1, 2), judge, 1000, 1, nil, Options{})
		if int64(run.evals) != after {
			t.Errorf("cancelled at judgement %d: %d judgements", after, run.evals)
		}
		cancel()
	}
}

// TestShrinkFaultStops: a candidate whose judgement faults ends the
// shrinking with that fault.
func TestShrinkFaultStops(t *testing.T) {
	h := &holds{want: []float64{0.25, 0.75}}
	judge := func(t *tree.Tree) trial {
		if h.calls.Load() == 3 {
			h.calls.Add(1)
			return trial{fault: &TreeResult{Name: fmt.Sprintf("%d nodes", t.Len()), Verdict: Faulted}}
		}
		return h.judge(t)
	}
	run := shrink(context.Background(), wideRoot(100, 1, 2), judge, 1000, 1, nil, Options{})
	if run.fault == nil || run.evals != 4 {
		t.Errorf("fault at the 4th judgement: fault %v after %d judgements", run.fault, run.evals)
	}
}
