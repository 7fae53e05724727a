package core

import (
	"context"
	"errors"
	"sync"
)

// RootSearch is root parallelism (Grand Challenge paper §4.3; Cazenave and
// Jouandeau 2007): k independent searches of the same game, each with its
// own tree, its own goroutine and its own seed (WorkerSeed of the search's
// seed), whose root statistics are summed for the decision. Run divides
// every budget among the searches in a fixed way, so a root-parallel search
// is deterministic for a given k: same games, rule, configuration, seed and
// k give the same statistics on any machine and any GOMAXPROCS. With k = 1
// it is the serial search.
type RootSearch struct {
	searches []*Search
	errs     []error
	wg       sync.WaitGroup
	buf, sum []rootStat
}

// NewRoot returns a root-parallel search with one search per game; every
// game must be a fresh cursor on the same game. The rule's Select must be
// safe to call from several goroutines at once, as the catalogue's rules
// are.
//
// The games should share no cache line (64 bytes): a search writes its
// game on every move, and two games on one line make the line move between
// the cores on every move (false sharing). Small games allocated one after
// another do share lines, and then two workers run little faster than one
// (docs/speed.md has the measurement). The games of package games fill
// whole lines; a game of your own can end with a blank field that pads it
// to a multiple of 64 bytes.
func NewRoot(games []Game, rule Rule, cfg Config) (*RootSearch, error) {
	if len(games) == 0 {
		return nil, errors.New("core: NewRoot with no games")
	}
	r := &RootSearch{searches: make([]*Search, len(games)), errs: make([]error, len(games))}
	for j, g := range games {
		c := cfg
		c.Seed = WorkerSeed(cfg.Seed, j)
		s, err := New(g, rule, c)
		if err != nil {
			return nil, err
		}
		r.searches[j] = s
	}
	return r, nil
}

// Workers is k, the number of searches.
func (r *RootSearch) Workers() int { return len(r.searches) }

// Worker returns search j, for inspection between runs.
func (r *RootSearch) Worker(j int) *Search { return r.searches[j] }

// Reset empties every tree and reseeds search j with WorkerSeed(seed, j).
func (r *RootSearch) Reset(seed uint64) {
	for j, s := range r.searches {
		s.Reset(WorkerSeed(seed, j))
	}
}

// share is search j's part of a budget of sims: sims/k, and one more for
// the first sims%k searches.
func (r *RootSearch) share(sims, j int) int {
	k := len(r.searches)
	n := sims / k
	if j < sims%k {
		n++
	}
	return n
}

// Run performs sims more simulations in all, each search its share in its
// own goroutine (search 0 in the caller's). It returns the error of the
// first search, in worker order, that failed; a search that failed is
// spoiled as a serial one is.
func (r *RootSearch) Run(ctx context.Context, sims int) error {
	if sims <= 0 {
		return errBudget(sims)
	}
	for j := range r.searches {
		r.errs[j] = nil
	}
	for j := 1; j < len(r.searches); j++ {
		if n := r.share(sims, j); n > 0 {
			r.wg.Add(1)
			go r.run(ctx, j, n)
		}
	}
	if n := r.share(sims, 0); n > 0 {
		r.wg.Add(1)
		r.run(ctx, 0, n)
	}
	r.wg.Wait()
	for _, err := range r.errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *RootSearch) run(ctx context.Context, j, sims int) {
	defer r.wg.Done()
	r.errs[j] = r.searches[j].Run(ctx, sims)
}

// Sims is the number of simulations of all searches since New or Reset.
func (r *RootSearch) Sims() int64 {
	var n int64
	for _, s := range r.searches {
		n += s.sims
	}
	return n
}

// Nodes is the number of nodes stored by all searches.
func (r *RootSearch) Nodes() int {
	n := 0
	for _, s := range r.searches {
		n += s.count
	}
	return n
}

// Decide returns the root child that d picks from the root children's
// statistics summed over the searches: visits and reward sums added (with
// minimax backups, the values averaged by visits). It returns -1, and
// panics on an unknown d, as Search.Decide does.
func (r *RootSearch) Decide(d Decision) int {
	var kind Kind
	r.sum = r.sum[:0]
	for _, s := range r.searches {
		kind, r.buf = s.rootStats(r.buf)
		switch {
		case len(r.buf) == 0: // this search has not expanded the root
		case len(r.sum) == 0:
			r.sum = append(r.sum, r.buf...)
		default:
			for i, c := range r.buf {
				r.sum[i] = r.sum[i].plus(c)
			}
		}
	}
	return decide(d, kind, r.sum)
}
