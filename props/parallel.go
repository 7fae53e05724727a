package props

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// newSearch returns the search a check runs on tr: serial, or with
// Options.Workers ≥ 2 tree-parallel in lockstep with Options.VirtualLoss,
// one cursor on tr per worker.
func newSearch(tr *tree.Tree, rule core.Rule, opts Options) (*core.Search, error) {
	// An explicit tree ends: its depth, not core's default, bounds a path.
	// Its search stores the nodes it reaches, few of a large tree's, in an
	// arena allocated up front up to presized nodes, grown beyond, and
	// large enough for the root and its widest node's children, which a
	// search stores all at once.
	cfg := core.Config{Growth: opts.Growth, Backup: opts.Backup, Capacity: min(tr.Len(), max(presized, 1+widest(tr))),
		MaxDepth: max(tr.Depth()+1, core.DefaultMaxDepth)}
	if opts.Workers < 2 {
		return core.New(tr.Game(), rule, cfg)
	}
	games := make([]core.Game, opts.Workers)
	for j := range games {
		games[j] = tr.Game()
	}
	cfg.VirtualLoss, cfg.Lockstep = opts.VirtualLoss, true
	return core.NewTreeParallel(games, rule, cfg)
}

// presized bounds the nodes for which a search of an explicit tree
// allocates its arena before it starts.
const presized = 1 << 16

// widest is the most children a node of tr has.
func widest(tr *tree.Tree) int {
	most := 0
	for i := range int32(tr.Len()) {
		most = max(most, tr.NumChildren(i))
	}
	return most
}

// curveEntry is one search's contribution to a report's curve, one point
// a checkpoint, kept until its tree's turn, so that the curve sums in the
// serial order. It holds what the curve reads, not the snapshots, whose
// size grows with the tree.
type curveEntry []curveSample

// curveSample is one checkpoint of one search, as the curve reads it.
type curveSample struct {
	budget int64
	wrong  float64 // 1 if the decision was outside Opt(root), else 0
	share  float64 // the optimal root children's share of the root's simulations
	// lost says that the tree is lost for the player to move at its root,
	// and confidence is then the decided child's mean for that player
	// (NaN: none): the paper's §4 figure (Overconfidence).
	lost       bool
	confidence float64
}

// judged is the outcome of one tree judged ahead of its turn.
type judged struct {
	res    TreeResult
	err    error
	sims   int64
	curves []curveEntry
	done   chan struct{}
}

// judgeTrees judges the trees in order and hands each result to use, up
// to the first inconsistent or faulted tree, or until use fails. With
// Options.Jobs ≥ 2 that many searches run at once, the seeds of a tree
// side by side and the trees ahead of their turn; each result, its
// simulations and its curve entries are taken up in tree order, so the
// check's outcome is the serial one, and the trees judged beyond the last
// one used are dropped.
func (c *checker) judgeTrees(ctx context.Context, trees []namedTree, use func(i int, res TreeResult) error) error {
	if c.opts.Jobs < 2 || len(trees) == 0 { // (a shard may have no tree)
		for i, nt := range trees {
			if err := ctx.Err(); err != nil {
				return err
			}
			c.tree = nt.index
			res, err := c.judge(ctx, nt.name, nt.get())
			if err != nil {
				return err
			}
			if err := use(i, res); err != nil || res.Verdict.ends() {
				return err
			}
		}
		return nil
	}
	out := make([]judged, len(trees))
	for i := range out {
		out[i].done = make(chan struct{})
	}
	jobCtx, cancel := context.WithCancel(ctx)
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	defer waitUnlessDone(ctx, &wg)
	defer cancel()
	defer stop.Store(true)
	// The seeds of a tree run at once, Jobs searches in all, so that the
	// last trees' seeds run side by side, not one after the other (a check
	// of trees of many sizes would end with its largest tree's seeds
	// alone). When the seeds do not fill the slots evenly, one tree more
	// is under way, its seeds waiting for a slot, so that none is idle
	// while a tree is left; when they do, none waits (a waiting seed may
	// be a deep tree's, the check's longest).
	share := min(c.opts.Jobs, c.opts.Seeds)
	workers := c.opts.Jobs / share
	if c.opts.Jobs%share != 0 || c.opts.Seeds%share != 0 {
		workers++
	}
	workers = min(workers, len(trees))
	slots := make(chan struct{}, c.opts.Jobs)
	var first []int
	if workers >= 2 {
		first = deepestFirst(trees)
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(trees) || stop.Load() {
					return
				}
				if i < len(first) {
					i = first[i]
				}
				j := &out[i]
				job := &checker{rule: c.rule, opts: c.opts, pending: &j.curves, seedShare: share, slots: slots, seedDone: c.seedDone,
					shard: c.shard, tree: trees[i].index}
				if j.err = jobCtx.Err(); j.err == nil {
					j.res, j.err = job.judge(jobCtx, trees[i].name, trees[i].get())
				}
				j.sims = job.sims
				close(j.done)
			}
		}()
	}
	for i := range out {
		j := &out[i]
		if err := await(ctx, j.done); err != nil {
			return err
		}
		if j.err != nil {
			return j.err
		}
		c.sims += j.sims
		if c.curve != nil {
			for _, e := range j.curves {
				c.curve.addCurve(e)
			}
		}
		if j.res.Verdict.ends() { // the last tree: the jobs ahead stop
			stop.Store(true)
			cancel()
		}
		if err := use(i, j.res); err != nil || j.res.Verdict.ends() {
			return err
		}
	}
	return nil
}

// deepestFirst is the order in which judgeTrees, judging several trees
// at once, starts the trees given whole (the trap families, which come
// first): those at least twice as deep as most (the median) first, the
// deepest first, then the others in order. A search lasts in proportion
// to its paths, nine sites a simulation on a tree of depth 9 against one
// or two on most, and a check lasts as long as its longest tree: a slow
// program's check ended with the deepest trap's seeds alone, started in
// turn. The others keep their order, so that the first trees, the
// smallest, where a witness is found soonest, start at once too; the
// trees drawn when their turn comes follow. Results are still taken up in
// order.
func deepestFirst(trees []namedTree) []int {
	n := 0
	for n < len(trees) && trees[n].tr != nil {
		n++
	}
	if n < 2 {
		return nil
	}
	depths := make([]int, n)
	for i := range depths {
		depths[i] = trees[i].tr.Depth()
	}
	median := slices.Clone(depths)
	slices.Sort(median)
	deep := 2 * median[n/2]
	var first, rest []int
	for i, d := range depths {
		if d >= deep {
			first = append(first, i)
		} else {
			rest = append(rest, i)
		}
	}
	slices.SortStableFunc(first, func(a, b int) int { return depths[b] - depths[a] })
	return append(first, rest...)
}

// seedJobs is how many seeds of sub seeds searches at once: with
// Options.Jobs ≥ 2, up to Jobs (or the tree's seedShare) of an explicit
// tree's; a game's seeds share its oracle's memo and run in turn.
func (c *checker) seedJobs(sub subject) int {
	if _, ok := sub.(treeSubject); !ok || c.opts.Jobs < 2 {
		return 1
	}
	jobs := c.opts.Jobs
	if c.seedShare > 0 {
		jobs = c.seedShare
	}
	return min(jobs, c.opts.Seeds)
}

// acquire takes a slot for a search (checker.slots), waiting for one
// until ctx ends, and then returns its error.
func (c *checker) acquire(ctx context.Context) error {
	if c.slots == nil {
		return nil
	}
	select {
	case c.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release frees the slot of a search done.
func (c *checker) release() {
	if c.slots != nil {
		<-c.slots
	}
}

// seedRun is one seed searched ahead of its turn.
type seedRun struct {
	i           int // the seed's index
	seed, order uint64
	r           seedResult
	rec         limitResult
	ob          *observation
	err         error
	sims        int64
	curves      []curveEntry
	done        chan struct{}
}

// seedsAhead searches the seeds of sub whose indices idx lists in jobs
// goroutines, each seed with its own checker, and hands each outcome to
// take in seed order with its simulations and curve entries, as the serial
// loop of seeds does, until take ends the seeds; the seeds searched beyond
// that one are dropped, so the outcome is the serial one. end is take's.
func (c *checker) seedsAhead(ctx context.Context, sub subject, idx []int, jobs int,
	take func(i int, seed, order uint64, r seedResult, rec limitResult, ob *observation, sims int64, err error) (bool, error)) (end bool, err error) {
	out := make([]seedRun, len(idx))
	for k, i := range idx {
		out[k].i = i
		out[k].seed = c.opts.Seed + uint64(i)
		out[k].order = sub.order(c, i, out[k].seed)
		out[k].done = make(chan struct{})
	}
	keepCurves := c.curve != nil || c.pending != nil
	jobCtx, cancel := context.WithCancel(ctx)
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	defer waitUnlessDone(ctx, &wg) // no search calls the rule once seeds returns, but for a Select that blocks past ctx's end
	defer cancel()
	defer stop.Store(true)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(out) || stop.Load() {
					return
				}
				s := &out[i]
				if s.err = jobCtx.Err(); s.err != nil { // no seed begins once the check ends: laying out its tree would delay the end
					close(s.done)
					continue
				}
				job := &checker{rule: c.rule, opts: c.opts, failed: c.failed, prune: c.prune}
				if keepCurves {
					job.pending = &s.curves
				}
				if s.err = c.acquire(jobCtx); s.err == nil {
					s.r, s.rec, s.ob, s.err = job.runSeed(jobCtx, sub, s.seed, s.order)
					c.release()
				}
				s.sims = job.sims
				close(s.done)
			}
		}()
	}
	for i := range out {
		s := &out[i]
		if err := await(ctx, s.done); err != nil {
			return true, err
		}
		c.sims += s.sims
		for _, e := range s.curves {
			switch {
			case c.curve != nil:
				c.curve.addCurve(e)
			case c.pending != nil:
				*c.pending = append(*c.pending, e)
			}
		}
		end, err := take(s.i, s.seed, s.order, s.r, s.rec, s.ob, s.sims, s.err)
		out[i] = seedRun{} // its search is garbage now
		if end {
			return true, err
		}
	}
	return false, nil
}

// await waits until done is closed; once ctx has ended it waits at most
// until the grace after ctx's end (graceOf), and returns ctx's error if
// done is still open: a check returns at its context's end even while a
// rule's Select blocks, leaving that search's goroutine behind.
func await(ctx context.Context, done <-chan struct{}) error {
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		select {
		case <-done:
			return nil
		case <-graceOf(ctx):
			return ctx.Err()
		}
	}
}

// returnAtEnd runs f in a goroutine and waits for it as await does: once
// ctx has ended it returns ctx's error if f has not returned by the end
// of the grace, leaving f running behind. Without a ctx that can end it
// is f().
func returnAtEnd(ctx context.Context, f func()) error {
	if ctx.Done() == nil {
		f()
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	return await(ctx, done)
}

// waitUnlessDone waits for wg as await waits for a channel, and returns
// ctx's error if it stopped waiting before wg was done.
func waitUnlessDone(ctx context.Context, wg *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	return await(ctx, done)
}

// blockedGrace is how long a check that ends waits for a search whose
// rule's Select does not return.
const blockedGrace = 500 * time.Millisecond

// graceKey is the key of a check's grace (withGrace) in its context.
type graceKey struct{}

// grace is the end of a check's grace: closed blockedGrace after ctx ends.
type grace struct {
	ctx context.Context
	end chan struct{}
}

// withGrace returns ctx with the grace of a check whose context it is:
// once ctx ends, the check's waits for its searches, however they nest,
// end blockedGrace after ctx's end in all, not blockedGrace each. stop
// releases it.
func withGrace(ctx context.Context) (_ context.Context, stop func()) {
	g := grace{ctx: ctx, end: make(chan struct{})}
	release := context.AfterFunc(ctx, func() { time.AfterFunc(blockedGrace, func() { close(g.end) }) })
	return context.WithValue(ctx, graceKey{}, g), func() { release() }
}

// graceOf is what a wait that ctx's end interrupted waits for at most: the
// check's grace if it is the check's context that ended, else (a
// context of the check's own jobs that ended) blockedGrace from now.
func graceOf(ctx context.Context) <-chan struct{} {
	if g, ok := ctx.Value(graceKey{}).(grace); ok && g.ctx.Err() != nil {
		return g.end
	}
	end := make(chan struct{})
	time.AfterFunc(blockedGrace, func() { close(end) })
	return end
}
