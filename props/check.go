package props

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/tree"
)

// shrinkBudget bounds the candidate trees the shrinker evaluates.
const shrinkBudget = 1000

// checker runs the criterion with one rule and one set of options.
type checker struct {
	rule  core.Rule
	opts  Options
	sims  int64
	curve *Report // if set, every search's snapshots go into its curve
	// pending, if set, keeps every search's snapshots instead, for a
	// tree judged ahead of its turn (judgeTrees).
	pending *[]curveEntry
	// seedDone, if set, is called after each seed with the seeds done and
	// to do (CheckGame's progress).
	seedDone func(done, total int)
	// seedShare, if > 0, caps the seeds of one tree searched at once: a
	// tree's share of Options.Jobs when judgeTrees judges several at once.
	seedShare int
	// slots, if set, holds a token for each search running: judgeTrees's
	// Options.Jobs, shared by the seeds of the trees it judges at once.
	slots chan struct{}
	// prune ends a search once it decides optimally at a checkpoint of the
	// window, where the seed can no longer fail: for the shrinker's
	// candidates, whose only question is whether they fail.
	prune bool
	// failed, if set, holds the smallest seed of an explicit tree known to
	// fail (0: none yet): a later seed's limit probe would judge nothing
	// that the tree's result shows (its evidence is the first failed
	// seed's), so it is skipped.
	failed *atomic.Uint64
	// shard, if set, is the part of the check that this process runs
	// (Options.Shard), and tree the index of the tree being judged in the
	// check's order.
	shard *shardRun
	tree  int
}

// orderSalt separates the generator of a seed's child order from the
// search's own stream, which starts from the seed itself.
const orderSalt = 0x6f72646572 // "order"

// subject is what the checker searches: an explicit tree (treeSubject)
// or a position of an implicit game with an oracle (gameSubject). One
// pipeline, seeds and runSeed, checks both: each seed's search is read as
// snapshots of an explicit tree, the tree itself or the game's skeleton.
type subject interface {
	// order is the child order of the i-th seed: 0 for the subject's own.
	order(c *checker, i int, seed uint64) uint64
	// observe searches with seed in order through every checkpoint. It
	// returns the observation with as much as it has on an error (a rule
	// fault comes back as a *Fault error).
	observe(ctx context.Context, c *checker, seed, order uint64) (*observation, error)
}

// observation is one seed's search read on an explicit tree.
type observation struct {
	tr     *tree.Tree // the tree in the seed's order, or the game's skeleton
	sol    *tree.Solution
	snaps  []snapshot
	search *core.Search
	seat   *seat // tr's seat, for an explicit tree (seats.go)
	// judged and beyond count a game's stored nodes judged, and left
	// unjudged beyond the oracle's budget.
	judged, beyond int
	// pruned: the search stopped early (checker.prune), deciding optimally.
	pruned bool
	// curve is the search's contribution to the report's curve, when the
	// check keeps one.
	curve curveEntry
}

// seeds runs the seeds of one subject, each (but the first, and all with
// Options.KeepOrder) in a child order drawn from the seed. A seed fails
// when its decision is wrong over the window and the Eq. 5 or Eq. 4
// mechanism behind it persists in the limit (limit.go); one failed seed
// makes the subject a witness of inconsistency, in that seed's order. A
// seed whose mechanism holds through the horizon without its limit shown
// is stuck; a stuck seed, and none failed, makes the subject stuck. A rule
// fault ends the seeds: the subject is Faulted. With stopAt Inconsistent it stops at the
// first failed seed, with stopAt Stuck at the first failed or stuck one,
// and a subject that is neither comes back Inconclusive with no other
// figure: the shrinker asks no more. With Options.Jobs ≥ 2 an explicit
// tree's seeds are searched several at once (seedsAhead) and taken up in
// this order, to the same outcome.
func (c *checker) seeds(ctx context.Context, name string, sub subject, stopAt Verdict) (TreeResult, error) {
	var tr *tree.Tree
	if t, ok := sub.(treeSubject); ok {
		tr = t.tr
		c.failed = new(atomic.Uint64)
		defer func() { c.failed = nil }()
	}
	fold := newTreeFold(name, tr, c.shard != nil)
	res := &fold.res
	idx := c.shard.seedsOf(c.tree, c.opts.Seeds)
	done := 0
	// take folds the i-th seed's outcome, which took sims simulations,
	// into res, in seed order; end says that the seeds end there, with res
	// and err the outcome.
	take := func(i int, seed, order uint64, r seedResult, rec limitResult, ob *observation, sims int64, err error) (end bool, _ error) {
		var f *Fault
		if errors.As(err, &f) && ctx.Err() != nil {
			return true, ctx.Err() // a rule cut short by the end of the check, not a fault of it
		}
		s := SearchRecord{SearchRef: SearchRef{Tree: c.tree, Seed: seed}, Name: name, OptimalFrom: -1, Sims: sims}
		if errors.As(err, &f) {
			s.Outcome = outcomeFault
			fold.add(s, c.opts, false)
			res.Fault, res.order = f, order
			if ob != nil && res.Tree != nil {
				res.Tree = ob.tr
			}
			res.Findings = []Finding{{Condition: RuleFault, Node: f.Node, Child: -1, Text: f.Message}}
			return true, nil
		}
		if err != nil {
			return true, err
		}
		if done++; c.seedDone != nil {
			c.seedDone(done, len(idx))
		}
		s.OptimalFrom, s.Visited, s.Recent = r.OptimalFrom, r.Visited, r.Recent
		switch {
		case rec.persists:
			s.Outcome = outcomeFailed
		case rec.stuck:
			s.Outcome = outcomeStuck
		default:
			s.Recovery = rec.text
		}
		if fold.keep {
			s.setCurve(ob.curve)
		}
		if _, evidence := fold.add(s, c.opts, false); evidence { // this seed's evidence, in its order, is the subject's
			res.Findings, res.order = r.findings(), order
			if res.Tree != nil {
				res.Tree = ob.tr
			}
		}
		res.RootError = math.Max(res.RootError, r.RootError)
		res.judged += ob.judged
		res.beyond += ob.beyond
		switch {
		case rec.persists:
			if c.failed != nil && (c.failed.Load() == 0 || seed < c.failed.Load()) {
				c.failed.Store(seed) // take runs in seed order: the first store is the smallest
			}
			if stopAt != "" {
				res.Verdict = Inconsistent
				return true, nil
			}
		case rec.stuck:
			if stopAt == Stuck {
				res.Verdict = Stuck
				return true, nil
			}
		}
		return false, nil
	}
	if jobs := c.seedJobs(sub); jobs >= 2 {
		if end, err := c.seedsAhead(ctx, sub, idx, jobs, take); end {
			return *res, err
		}
	} else {
		for _, i := range idx {
			seed := c.opts.Seed + uint64(i)
			order := sub.order(c, i, seed)
			if err := c.acquire(ctx); err != nil {
				return *res, err
			}
			before := c.sims
			r, rec, ob, err := c.runSeedCtx(ctx, sub, seed, order)
			c.release()
			if end, err := take(i, seed, order, r, rec, ob, c.sims-before, err); end {
				return *res, err
			}
		}
	}
	if res.FailedSeeds == 0 && stopAt != "" {
		return TreeResult{Name: name, Tree: res.Tree, Verdict: Inconclusive}, nil
	}
	fold.settle()
	return *res, nil
}

// runSeedCtx is runSeed that returns at ctx's end even while the rule's
// Select blocks (the search's goroutine is left behind).
func (c *checker) runSeedCtx(ctx context.Context, sub subject, seed, order uint64) (seedResult, limitResult, *observation, error) {
	type outcome struct {
		r   seedResult
		rec limitResult
		ob  *observation
		err error
	}
	var o outcome
	one := &checker{rule: c.rule, opts: c.opts, curve: c.curve, pending: c.pending, failed: c.failed, prune: c.prune}
	if err := returnAtEnd(ctx, func() { o.r, o.rec, o.ob, o.err = one.runSeed(ctx, sub, seed, order) }); err != nil {
		return seedResult{}, limitResult{}, nil, err
	}
	c.sims += one.sims
	return o.r, o.rec, o.ob, o.err
}

// runSeed searches the subject with one seed in one order, applies the
// criterion to its snapshots and, for a seed whose decision is wrong with
// a mechanism behind it, projects the mechanism to the limit while the
// search's statistics are at hand.
func (c *checker) runSeed(ctx context.Context, sub subject, seed, order uint64) (r seedResult, rec limitResult, ob *observation, err error) {
	ob, err = sub.observe(ctx, c, seed, order)
	defer func() { ob.leave(err == nil, rec.persists || rec.stuck) }()
	if err != nil {
		return seedResult{}, limitResult{}, ob, err
	}
	if ob.pruned {
		return seedResult{OptimalFrom: -1}, limitResult{}, ob, nil // decided optimally in the window: it cannot fail
	}
	sol := ob.sol
	if c.curve != nil || c.pending != nil {
		ob.curve = curveOf(ob.tr, sol, ob.snaps)
		if c.curve != nil {
			c.curve.addCurve(ob.curve)
		} else {
			*c.pending = append(*c.pending, ob.curve)
		}
	}
	r = c.opts.Criterion.judgeSeed(ob.tr, sol, ob.snaps, c.opts.Window)
	if c.opts.Backup == core.BackupMinimax {
		r.Eq4 = nil // minimax values converge whatever the shares: Eq. 4 is the average's condition
	}
	if r.Wrong == nil || (r.Eq5 == nil && r.Eq4 == nil) {
		return r, limitResult{}, ob, nil
	}
	if c.failed != nil && c.failed.Load() != 0 && c.failed.Load() < seed {
		return r, limitResult{}, ob, nil // an earlier seed failed: this one's evidence is not read
	}
	rec, err = c.project(ctx, ob.search, ob.tr, &r)
	return r, rec, ob, err
}

// project judges the seed's mechanisms in the limit, Eq. 5 first. It keeps
// in r only the finding behind the outcome, with the limit's evidence
// appended: one that persists (inconsistent), else one that is stuck
// through the horizon; with neither, both findings go and the evidence
// comes back as a note.
func (c *checker) project(ctx context.Context, s *core.Search, tr *tree.Tree, r *seedResult) (limitResult, error) {
	var notes []string
	var stuck limitResult
	var stuckAt **Finding
	for _, m := range []struct {
		f  **Finding
		at int32
	}{{&r.Eq5, r.eq5At}, {&r.Eq4, r.eq4At}} {
		f := *m.f
		if f == nil {
			continue
		}
		b, err := observe(s, tr, m.at, core.NeedsOf(c.rule), c.opts.Backup == core.BackupMinimax)
		if err != nil {
			return limitResult{}, err
		}
		b.horizon, b.kept = float64(c.opts.Horizon), c.opts.Criterion.ShareKept
		pr, err := newProber(c.rule, b)
		if err != nil {
			return limitResult{}, err
		}
		pr.ctx = ctx
		var lr limitResult
		if f.Condition == Eq5 {
			lr, err = pr.starvation(f.Child, r.eq5Frozen)
		} else {
			lr, err = pr.share(f.Child)
		}
		if err == nil {
			err = ctx.Err() // a probe cut short by the context judges nothing
		}
		if f := pr.lie(); err == nil && f != nil {
			err = f // a verdict never rests on what the rule's choices contradict
		}
		if err != nil {
			return limitResult{}, err
		}
		switch {
		case lr.persists:
			f.Text += "; in the limit, " + lr.text
			r.Eq4, r.Eq5 = nil, nil
			*m.f = f
			return lr, nil
		case lr.stuck && stuckAt == nil:
			stuck, stuckAt = lr, m.f
		default:
			notes = append(notes, fmt.Sprintf("%s at node %s: %s", f.Condition, f.Node, lr.text))
		}
	}
	if stuckAt != nil {
		f := *stuckAt
		f.Text += "; " + stuck.text
		r.Eq4, r.Eq5 = nil, nil
		*stuckAt = f
		return stuck, nil
	}
	r.Eq4, r.Eq5 = nil, nil
	return limitResult{text: strings.Join(notes, "; ")}, nil
}

// judge checks one tree: its verdict, with the witness's order and seed.
func (c *checker) judge(ctx context.Context, name string, tr *tree.Tree) (TreeResult, error) {
	if k := tr.Kind(0); k != core.Max && k != core.Min {
		return TreeResult{Name: name, Tree: tr}, fmt.Errorf("props: tree %s: the root is a %v node, want max or min", name, k)
	}
	return c.seeds(ctx, name, newTreeSubject(tr), "")
}

// witness shrinks an inconsistent or stuck tree and describes the result,
// which keeps the tree's verdict. The shrinker replays the failed seed
// alone, in its child order, so every candidate is judged as the final
// witness will be replayed; with BinaryOnly it keeps to binary
// deterministic trees. A candidate on which the rule faults ends the
// shrinking with that fault's witness. A check cancelled while it shrinks
// returns ctx's error, never a half-shrunk witness.
func (c *checker) witness(ctx context.Context, res TreeResult, testName string) (*Witness, error) {
	if res.Verdict == Faulted {
		return c.faultWitness(ctx, res, testName)
	}
	o := c.opts
	o.Seeds, o.Seed, o.KeepOrder = 1, res.Seed, true
	cond := condition(res.Findings)
	try := func(t *tree.Tree) trial {
		if o.BinaryOnly && !t.BinaryDeterministic() {
			return trial{}
		}
		if k := t.Kind(0); k != core.Max && k != core.Min {
			return trial{}
		}
		one := &checker{rule: c.rule, opts: o, prune: true}
		r, err := one.seeds(ctx, "candidate", newTreeSubject(t), res.Verdict)
		tr := trial{sims: one.sims, keep: err == nil && r.Verdict == res.Verdict && condition(r.Findings) == cond}
		if err == nil && r.Verdict == Faulted {
			r.Name = res.Name + ", shrunk"
			tr.fault = &r
		}
		return tr
	}
	run := shrink(ctx, res.Tree, try, shrinkBudget, o.Jobs, nil, o)
	c.sims += run.sims
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if run.fault != nil {
		return c.faultWitness(ctx, *run.fault, testName)
	}
	small := run.tree
	one := &checker{rule: c.rule, opts: o}
	final, err := one.judge(ctx, "witness", small)
	c.sims += one.sims
	if err != nil {
		return nil, err
	}
	if final.Verdict == Faulted {
		return c.faultWitness(ctx, final, testName)
	}
	if final.Verdict != res.Verdict { // the shrunk tree did not fail again: keep the original
		small, final = res.Tree, res
	}
	w := &Witness{Verdict: res.Verdict, Rule: c.opts.RuleSpec, Horizon: c.opts.Horizon, Tree: small, Nodes: small.Len(), From: res.Name, Original: res.Tree,
		Findings: final.Findings, Fault: final.Fault, Shrinks: run.evals, Budgets: c.opts.budgets(),
		Seeds: []uint64{res.Seed}}
	w.Condition = condition(final.Findings)
	if w.Search, err = one.witnessSearch(ctx, small); err != nil {
		return nil, err
	}
	w.setRuleReplay(o, testName)
	return w, nil
}

// setRuleReplay sets the witness's replay: its tree checked with o (the
// failed seed alone, in the tree's order) with the rule.
func (w *Witness) setRuleReplay(o Options, testName string) {
	w.Run = replayOf(w.Tree.String(), o, testName)
	w.Replay = []string{}
	if line := w.Run.TestLine(); line != "" {
		w.Replay = append(w.Replay, line)
	}
}

// Fault witnesses: a fault is replayed on its tree with its seed alone;
// one that comes back there is shrunk, with a small budget, to a tree of
// at most smallFault nodes if it can be; one that does not come back (it
// depends on the program's history) is reported on the tree where it
// happened, saying so.
const (
	smallFault       = 7
	faultShrinkLimit = 200
)

// faultWitness describes the fault of res: reproduced or not, shrunk if
// that helps.
func (c *checker) faultWitness(ctx context.Context, res TreeResult, testName string) (*Witness, error) {
	o := c.opts
	o.Seeds, o.Seed, o.KeepOrder = 1, res.Seed, true
	same := func(r TreeResult) bool { return r.Verdict == Faulted && r.Fault.Kind == res.Fault.Kind }
	small, final, evals := res.Tree, res, 0
	one := &checker{rule: c.rule, opts: o}
	before := countFaults(c.rule)
	again, err := one.judge(ctx, "again", res.Tree)
	c.sims += one.sims
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// A rule that counts its failures must have failed anew: one that
	// refuses to start its program again only repeats the old fault.
	_, counts := c.rule.(FaultCounter)
	reproduced := err == nil && same(again) && (!counts || countFaults(c.rule) > before)
	if reproduced && !(counts && res.Fault.Kind == FaultHang) { // each hang costs a timeout: not shrunk
		final = again
		try := func(t *tree.Tree) trial {
			if k := t.Kind(0); k != core.Max && k != core.Min {
				return trial{}
			}
			one := &checker{rule: c.rule, opts: o}
			before := countFaults(c.rule)
			r, err := one.seeds(ctx, "candidate", newTreeSubject(t), Faulted)
			return trial{sims: one.sims, keep: err == nil && same(r) && (!counts || countFaults(c.rule) > before)}
		}
		jobs := o.Jobs
		if counts {
			jobs = 1 // each candidate's failures are its own
		}
		run := shrink(ctx, res.Tree, try, faultShrinkLimit, jobs, func(t *tree.Tree) bool { return t.Len() <= smallFault }, o)
		c.sims += run.sims
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if run.tree != res.Tree {
			one := &checker{rule: c.rule, opts: o}
			r, err := one.judge(ctx, "witness", run.tree)
			c.sims += one.sims
			if err == nil && same(r) {
				small, final, evals = run.tree, r, run.evals
			}
		}
	}
	f := *final.Fault
	f.Reproduced = reproduced
	w := &Witness{Verdict: Faulted, Rule: c.opts.RuleSpec, Horizon: c.opts.Horizon, Tree: small, Nodes: small.Len(), From: res.Name,
		Original: res.Tree, Condition: RuleFault, Findings: final.Findings, Fault: &f, Shrinks: evals, Budgets: c.opts.budgets(),
		Seeds: []uint64{res.Seed}}
	w.setRuleReplay(o, testName)
	return w, nil
}

// condition is the condition a witness's findings show: the mechanism
// behind Eq. 6 (Eq. 5 before Eq. 4), or a fault.
func condition(fs []Finding) Condition {
	if len(fs) > 1 {
		return fs[1].Condition
	}
	return fs[0].Condition
}

// namedTree is a tree to check with the name reports give it: tr, or
// the tree make draws when its turn comes (so that a check of many random
// trees holds one at a time and stops promptly when cancelled).
type namedTree struct {
	name string
	tr   *tree.Tree
	make func() *tree.Tree
	// index is the tree's place in the check's order (shardRun.trees).
	index int
}

// get returns the tree.
func (nt namedTree) get() *tree.Tree {
	if nt.tr == nil && nt.make != nil {
		return nt.make()
	}
	return nt.tr
}

// traps returns the trap families the options allow, with extra ones
// (a search check's families).
func (o Options) traps(extra ...gen.Trap) []namedTree {
	all := o.Traps
	if !o.NoTraps {
		all = append(slices.Clip(all), gen.Traps()...)
	}
	all = append(slices.Clip(all), extra...)
	var out []namedTree
	for _, t := range all {
		if (!o.BinaryOnly || t.Binary) && o.handles.Allows(t.Tree) == nil {
			out = append(out, namedTree{name: "trap " + t.Name, tr: t.Tree})
		}
	}
	// Smallest first, so that the first witness found is small already.
	slices.SortStableFunc(out, func(a, b namedTree) int { return a.tr.Len() - b.tr.Len() })
	return out
}

// trees returns the trees Run checks: the trap families the options allow
// (with extra ones), then Options.Trees random trees, each drawn when its
// turn comes.
func (o Options) trees(extra ...gen.Trap) []namedTree {
	traps := o.traps(extra...)
	trees := append(make([]namedTree, 0, len(traps)+o.Trees), traps...)
	g := gen.Trees(o.Shape)
	for i := range o.Trees {
		seed := int(o.Seed) + i
		trees = append(trees, namedTree{name: fmt.Sprintf("random %d", i), make: func() *tree.Tree { return g.Example(seed) }})
	}
	return trees
}

// Run checks rule on the trap families and on opts.Trees random trees, and
// returns the report: at the first inconsistent tree it stops and shrinks it
// to a minimal witness. It returns an error for bad options or a game
// error; a rule that panics or scores NaN is a witness, not an error. When
// ctx ends first (Ctrl-C, a deadline), it returns ctx's error and, with
// it, the report of what finished (Report.Stopped).
func Run(ctx context.Context, rule core.Rule, opts Options) (*Report, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if rule == nil {
		return nil, errors.New("props: nil rule")
	}
	return runTrees(ctx, rule, o, o.trees(), "")
}

// CheckTree checks rule on one tree, as the replay of a witness does. With
// Seeds 0 it searches 16 seeds, each in its own child order. When ctx
// ends first, it returns ctx's error with the report of what finished, as
// Run does.
func CheckTree(ctx context.Context, rule core.Rule, tr *tree.Tree, opts Options) (*Report, error) {
	if opts.Seeds == 0 {
		opts.Seeds = 16
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if rule == nil {
		return nil, errors.New("props: nil rule")
	}
	if tr == nil || tr.Len() == 0 {
		return nil, errors.New("props: no tree (nil, or a zero tree.Tree: make trees with tree.Parse or tree.Builder)")
	}
	return runTrees(ctx, rule, o, []namedTree{{name: "given", tr: tr}}, "")
}

func runTrees(ctx context.Context, rule core.Rule, o Options, trees []namedTree, testName string) (*Report, error) {
	if ctx == nil {
		return nil, errNilContext
	}
	ctx, stop := withGrace(ctx)
	defer stop()
	start := time.Now()
	failures := countFaults(rule)
	sh := newShardRun(&o, trees, false)
	trees = sh.trees(trees)
	rep := &Report{Rule: o.RuleSpec, Seeds: o.Seeds, MaxBudget: int64(o.MaxBudget)}
	o = o.metered(len(trees), sh.searches(trees, o.Seeds))
	c := &checker{rule: rule, opts: o, curve: rep, shard: sh}
	var stuck *TreeResult // the first stuck tree, shrunk if no tree is inconsistent
	stuckAt := 0          // its index
	var ends *TreeResult  // the tree that ends the check
	// witness shrinks the witness from res, the tree of index t.
	witness := func(t int, res TreeResult) (err error) {
		c.curve = nil // the shrinker's candidates are not part of the curve
		before := c.sims
		rep.Witness, err = c.witness(ctx, res, testName)
		sh.witnessFrom(t, res, c.sims-before)
		return err
	}
	err := c.judgeTrees(ctx, trees, func(i int, res TreeResult) (err error) {
		rep.add(res)
		sh.took(res)
		if o.Progress != nil {
			o.Progress(i+1, len(trees))
		}
		o.meter.treeDone(i + 1)
		switch {
		case res.Verdict.ends():
			o.meter.close()
			ends = &res
			err = witness(trees[i].index, res)
		case res.Verdict == Stuck && stuck == nil:
			stuck, stuckAt = &res, trees[i].index
		}
		return err
	})
	o.meter.close()
	if err == nil && rep.Witness == nil && stuck != nil {
		err = witness(stuckAt, *stuck)
	}
	rep.Sims = c.sims
	if err != nil && ctx.Err() != nil { // stopped: what finished is reported
		if found := cmp.Or(ends, stuck); found != nil {
			rep.Witness = c.foundWitness(*found, testName)
		}
		rep.stop(ctx, start, len(trees))
		sh.finish(rep) // a shard's, which merge refuses: it stopped
		return rep, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	rep.finish(start)
	rep.counted(rule, failures, o)
	sh.finish(rep)
	return rep, nil
}

// foundWitness is the witness of res as found, for a check that stopped
// before it could shrink it.
func (c *checker) foundWitness(res TreeResult, testName string) *Witness {
	w := foundWitness(c.opts, res, c.opts.Horizon)
	o := c.opts
	o.Seeds, o.Seed, o.KeepOrder = 1, res.Seed, true
	w.setRuleReplay(o, testName)
	return w
}

// countFaults is the count of failures rule has had so far, if it is a
// FaultCounter.
func countFaults(rule core.Rule) int64 {
	if fc, ok := rule.(FaultCounter); ok {
		n, _ := fc.FaultCount()
		return n
	}
	return 0
}

// counted makes the report a fault's if rule, a FaultCounter, failed
// during the check (more than before failures) and no search met the
// failure: a program that crashed now and then is never given a clean
// verdict.
func (r *Report) counted(rule core.Rule, before int64, o Options) {
	fc, ok := rule.(FaultCounter)
	if !ok || r.Verdict == Faulted {
		return
	}
	n, last := fc.FaultCount()
	if n <= before {
		return
	}
	f := &Fault{Kind: FaultCrash, Message: fmt.Sprintf("the rule failed %d times during the check, though no search the check kept met the failure; the last time: %v", n-before, last)}
	if k, ok := last.(Kinded); ok {
		f.Kind, f.Stderr = FaultKind(k.FaultKind()), k.Stderr()
	}
	r.Witness = &Witness{Verdict: Faulted, Rule: o.RuleSpec, Horizon: o.Horizon, Condition: RuleFault, Fault: f,
		Findings: []Finding{{Condition: RuleFault, Child: -1, Text: f.Message}}, Budgets: o.budgets(), Replay: []string{}}
	r.Verdict = Faulted
	r.Summary = r.summary()
}
