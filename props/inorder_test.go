package props

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// TestInOrder: whatever the jobs, the results are used in index order,
// each once, up to the stop, and no work is running when inOrder returns.
func TestInOrder(t *testing.T) {
	for _, jobs := range []int{1, 2, 3, 8} {
		for _, stopAt := range []int{-1, 0, 5, 49} {
			var running, most atomic.Int64
			var used []int
			work := func(_ context.Context, i int) int {
				n := running.Add(1)
				defer running.Add(-1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
				return i * i
			}
			err := inOrder(context.Background(), 50, jobs, work, func(i, r int) (bool, error) {
				if r != i*i {
					t.Errorf("jobs %d: result %d for item %d", jobs, r, i)
				}
				used = append(used, i)
				return i == stopAt, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := 50
			if stopAt >= 0 {
				want = stopAt + 1
			}
			if len(used) != want || !slices.IsSorted(used) || used[len(used)-1] != want-1 {
				t.Errorf("jobs %d, stop at %d: used %v", jobs, stopAt, used)
			}
			if running.Load() != 0 || most.Load() > int64(max(jobs, 1)) {
				t.Errorf("jobs %d: %d running at the end, %d at most", jobs, running.Load(), most.Load())
			}
		}
	}
}

// TestInOrderCancelled: a cancelled context ends inOrder with its error.
func TestInOrderCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	err := inOrder(ctx, 100, 3, func(ctx context.Context, i int) int {
		if i == 10 {
			cancel()
		}
		return i
	}, func(int, int) (bool, error) { return false, nil })
	if err != context.Canceled {
		t.Errorf("inOrder, cancelled: %v", err)
	}
}
