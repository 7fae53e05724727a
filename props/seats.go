package props

import (
	"context"
	"sync"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// treeSubject is an explicit tree, searched in orders drawn from the seeds.
type treeSubject struct {
	tr    *tree.Tree
	seats *seats
}

func newTreeSubject(tr *tree.Tree) treeSubject { return treeSubject{tr, &seats{tr: tr}} }

func (t treeSubject) order(c *checker, i int, seed uint64) uint64 {
	if i == 0 || c.opts.KeepOrder {
		return 0
	}
	return seed
}

func (t treeSubject) observe(ctx context.Context, c *checker, seed, order uint64) (*observation, error) {
	st, err := t.seats.take(c, order)
	if err != nil {
		return &observation{tr: t.tr}, err
	}
	ob := &observation{tr: st.tr, sol: st.sol, search: st.search, seat: st}
	obs := &observer{tr: st.tr, rule: st.rule, opts: c.opts, search: st.search, budgets: c.opts.budgets(), mem: &st.mem}
	if c.prune {
		from := len(obs.budgets) - 1 - c.opts.Window
		obs.stop = func(k, decision int) bool { return k >= from && optimal(st.sol, decision) }
	}
	ob.snaps, err = obs.run(ctx, seed)
	ob.pruned = obs.pruned
	c.sims += obs.sims
	return ob, err
}

// leave hands a seed's seat on to later seeds once the seed is done
// with it: if its search ended well and its tree is no evidence, which
// the subject keeps (failed or stuck). The observation keeps no part of a
// seat it left.
func (ob *observation) leave(ok, evidence bool) {
	if ob == nil || ob.seat == nil || !ok || evidence {
		return
	}
	st := ob.seat
	ob.seat, ob.search, ob.sol, ob.snaps, ob.tr = nil, nil, nil, nil, nil
	st.owner.put(st)
}

// seat is the memory that one seed's search of an explicit tree takes in
// proportion to the tree: the tree in the seed's child order, the search
// that reads it and the tree's solution, and the memory of its snapshots,
// in proportion to the nodes it visits. A seed whose tree nobody keeps
// hands its seat on to a later seed, which lays out its own order in the
// same arrays (tree.ShuffledInto, the tree's own order too) and resets
// the search over them, so that a check holds as many seats as it
// searches seeds at once, not one a seed, nor one an order.
type seat struct {
	tr     *tree.Tree
	rule   core.Rule // the rule, guarded, that search calls
	search *core.Search
	sol    *tree.Solution
	mem    snapMemory
	owner  *seats // the seats it returns to
}

// seats are the free seats of one tree's seeds, whose checkers share a
// rule and options (seedsAhead's jobs copy them), for which the seats'
// searches are made.
type seats struct {
	tr   *tree.Tree
	mu   sync.Mutex
	free []*seat
}

// take returns a seat with tr in the order drawn from order (0: the
// tree's own) and a search made for c's rule and options: a free seat, or
// a new one.
func (ss *seats) take(c *checker, order uint64) (*seat, error) {
	var rng *core.RNG // nil: the tree's own order
	if order != 0 {
		rng = core.NewRNG(order ^ orderSalt)
	}
	ss.mu.Lock()
	var st *seat
	if n := len(ss.free); n > 0 {
		st, ss.free = ss.free[n-1], ss.free[:n-1]
	}
	ss.mu.Unlock()
	if st == nil {
		st = &seat{tr: ss.tr.ShuffledInto(nil, rng), owner: ss}
		st.rule = guard(c.rule)
		s, err := newSearch(st.tr, st.rule, c.opts)
		if err != nil {
			return nil, err
		}
		st.search, st.sol = s, tree.Solve(st.tr)
		return st, nil
	}
	resetAudit(st.rule)
	ss.tr.ShuffledInto(st.tr, rng)
	st.sol = tree.SolveInto(st.sol, st.tr)
	return st, nil
}

// put frees st for a later seed.
func (ss *seats) put(st *seat) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.free = append(ss.free, st)
}
