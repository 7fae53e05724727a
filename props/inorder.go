package props

import (
	"context"
	"sync"
	"sync/atomic"
)

// inOrder runs work(i) for i = 0, 1, …, n−1 in up to jobs goroutines and
// hands each result to use in index order, so that the outcome is the
// serial one, until use stops (stop true, or an error). Work runs at most
// 4·jobs items ahead of use; the items begun past the last one used finish
// and are dropped, and inOrder returns only when every work call has
// returned, or once ctx has ended, at most the check's grace after that
// (await), leaving the work calls still running behind. With jobs < 2 it
// is the plain loop, each work call awaited so.
func inOrder[T any](ctx context.Context, n, jobs int, work func(ctx context.Context, i int) T, use func(i int, r T) (stop bool, err error)) error {
	if jobs < 2 {
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			var r T
			if err := returnAtEnd(ctx, func() { r = work(ctx, i) }); err != nil {
				return err
			}
			if stop, err := use(i, r); stop || err != nil {
				return err
			}
		}
		return nil
	}
	type slot struct {
		r    T
		done chan struct{}
	}
	ahead := min(4*jobs, n)
	ring := make([]slot, ahead)
	for i := range ring {
		ring[i].done = make(chan struct{})
	}
	tokens := make(chan struct{}, ahead) // one per item begun and not yet used
	var next atomic.Int64
	var stopped atomic.Bool
	quit := make(chan struct{})
	var wg sync.WaitGroup
	defer waitUnlessDone(ctx, &wg)
	defer close(quit)
	defer stopped.Store(true)
	for range min(jobs, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case tokens <- struct{}{}:
				case <-quit:
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n || stopped.Load() {
					return
				}
				s := &ring[i%ahead]
				s.r = work(ctx, i)
				close(s.done)
			}
		}()
	}
	for i := range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		s := &ring[i%ahead]
		select {
		case <-s.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		r := s.r
		var zero T
		s.r, s.done = zero, make(chan struct{})
		<-tokens // the slot is free for item i + ahead
		if stop, err := use(i, r); stop || err != nil {
			return err
		}
	}
	return nil
}
