package props

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
	"pgregory.net/rapid"
)

// RunSearch checks a whole search on the trap families, the families of
// whole searches (gen.SearchTraps) and opts.Trees random trees, as Run
// checks a rule, and returns the report; a RestrictedSearcher gets only
// the trees it handles. Each tree is
// searched with opts.Seeds seeds (each but the first in a child order drawn
// from the seed), and each search is read at its checkpoints, doubling from
// MinBudget to MaxBudget, by the criterion: its root decision against the
// exact solution, and the mechanism behind a wrong one (Eq. 5 and Eq. 4 at
// the root, and below it, with Eq. 7 at terminals, for a searcher that
// reports every node). A whole search offers no limit probe, so the
// strongest finding is Stuck: a decision wrong over the window with a
// mechanism behind it, through the largest budget run. The first stuck
// tree ends the check and is shrunk, by searching smaller trees with the
// failed seed, to a minimal witness. A searcher that breaks its contract
// (a panic, an error, a report whose counts do not add up, a decision that
// is no root move, or a program that crashes, hangs or answers garbage)
// ends the check with the verdict Faulted, its witness the tree and seed
// it happened on, unshrunk.
//
// The options that configure core's engine (Growth, Backup, Decision,
// Workers, VirtualLoss) and the limit probe (Horizon) must be zero: the
// search is the searcher's own. RuleSpec names the searcher in replay
// lines. With Jobs ≥ 2 that many searches run at once. When ctx ends
// first (Ctrl-C, a deadline), it returns ctx's error and, with it, the
// report of what finished (Report.Stopped), as Run does.
func RunSearch(ctx context.Context, s Searcher, opts Options) (*Report, error) {
	o, err := opts.forSearch()
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errors.New("props: nil Searcher")
	}
	o = o.handling(s)
	return runSearchTrees(ctx, s, o, o.searchTrees(), "")
}

// RunSearchTree checks a whole search on one tree, as CheckTree checks a
// rule and as the replay of a witness does. With Seeds 0 it searches 16
// seeds, each in its own child order. When ctx ends first, it returns
// ctx's error with the report of what finished.
func RunSearchTree(ctx context.Context, s Searcher, tr *tree.Tree, opts Options) (*Report, error) {
	if opts.Seeds == 0 {
		opts.Seeds = 16
	}
	o, err := opts.forSearch()
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errors.New("props: nil Searcher")
	}
	if tr == nil || tr.Len() == 0 {
		return nil, errors.New("props: no tree (nil, or a zero tree.Tree: make trees with tree.Parse or tree.Builder)")
	}
	if k := tr.Kind(0); k != core.Max && k != core.Min {
		return nil, fmt.Errorf("props: the root is a %v node, want max or min", k)
	}
	o = o.handling(s)
	if err := o.handles.Allows(tr); err != nil {
		return nil, fmt.Errorf("props: the search handles %v, and not this tree: %w", o.handles, err)
	}
	return runSearchTrees(ctx, s, o, []namedTree{{name: "given", tr: tr}}, "")
}

// CheckSearch fails t when the whole search s is stuck (unless
// Options.AllowStuck) or faults, with a minimal witness and the line that
// replays it, and logs the summary otherwise: Check for a Searcher. It
// checks the trap families and Options.Trees random trees (RunSearch);
// with MCTSCHECK_TREE set (and MCTSCHECK_SEED), that tree alone, as the
// replay line does. It also fails t when the check cannot be done.
func CheckSearch(t rapid.TB, s Searcher, opts Options) {
	t.Helper()
	rep, o, err := checkSearch(t, s, opts)
	if err != nil {
		t.Fatalf("props.CheckSearch: %v", err)
		return
	}
	switch {
	case rep.Verdict == Faulted:
		t.Fatalf("%s\n%v", rep.Summary, rep.Witness)
	case rep.Verdict == Stuck && !o.AllowStuck:
		t.Fatalf("%s\n%s", rep.Summary, failure(rep.Witness))
	case rep.Witness != nil:
		t.Logf("%s (allowed by Options.AllowStuck)\n%s", rep.Summary, failure(rep.Witness))
	default:
		t.Logf("%s", rep.Summary)
	}
}

// checkSearch is CheckSearch's check, returning its report.
func checkSearch(t rapid.TB, s Searcher, opts Options) (*Report, Options, error) {
	if s == nil {
		return nil, opts, errors.New("nil Searcher")
	}
	trees := []namedTree(nil)
	if text := os.Getenv(TreeEnv); text != "" {
		tr, err := tree.Parse(text)
		if err != nil {
			return nil, opts, fmt.Errorf("%s: %v", TreeEnv, err)
		}
		if v := os.Getenv(SeedEnv); v != "" {
			seed, err := strconv.ParseUint(v, 10, 64)
			if err != nil || seed == 0 {
				return nil, opts, fmt.Errorf("%s=%q: want a seed, a positive integer", SeedEnv, v)
			}
			opts.Seed, opts.Seeds, opts.KeepOrder = seed, 1, true
		}
		trees = []namedTree{{name: "given", tr: tr}}
	}
	o, err := opts.forSearch()
	if err != nil {
		return nil, opts, err
	}
	o = o.handling(s)
	if trees == nil {
		trees = o.searchTrees()
	} else if err := o.handles.Allows(trees[0].tr); err != nil {
		return nil, o, fmt.Errorf("%s: the search handles %v, and not this tree: %w", TreeEnv, o.handles, err)
	}
	rep, err := runSearchTrees(context.Background(), s, o, trees, t.Name())
	return rep, o, err
}

// searchTree is one tree of a search check, made once by whichever search
// needs it first.
type searchTree struct {
	once sync.Once
	tr   *tree.Tree
}

// searchCheck is one check of a whole search: the searcher, the options
// and the answers of every search the check made, which any search of
// the same tree and seed must repeat.
type searchCheck struct {
	s    Searcher
	o    Options
	log  *answerLog
	test string // the go test that runs the check (CheckSearch), or ""
}

// alone returns the check of seed searched alone, in the tree's own
// order, as a witness's replay searches it, with the same answer log.
func (c *searchCheck) alone(seed uint64) *searchCheck {
	o := c.o
	o.Seeds, o.Seed, o.KeepOrder = 1, seed, true
	return &searchCheck{s: c.s, o: o, log: c.log, test: c.test}
}

// searchOutcome is one search of one tree, read: its verdict on that
// search (stuck or not), a fault, or an error of the check.
type searchOutcome struct {
	seed, order uint64
	tr          *tree.Tree // the tree in the seed's order
	r           seedResult
	findings    []Finding // Eq. 6 and the mechanisms behind it, when stuck
	stuck       bool
	// everySeed, when the decision is wrong at every checkpoint of the
	// window (leading or not) with a mechanism in view, is Eq. 6 and the
	// mechanisms: the tree is stuck if every seed's decision is so wrong.
	everySeed []Finding
	wrongAll  bool
	nodes     bool // the searcher reported every node
	fault     *Fault
	curve     curveEntry
	snaps     []snapshot // the reports, read
	sims      int64      // the simulations it ran (done)
	err       error
}

// search searches tr (in its own order) with the i-th seed of the check,
// in that seed's child order, and reads the reports: against the answers
// of any earlier search of the same tree and seed, against the promises
// of the protocol, and by the criterion. A whole search has no limit
// probe: it is stuck when its decision is wrong over the window (Eq. 6)
// with a mechanism behind it that the theory names (Eq. 5, Eq. 4, or
// Eq. 7 at a terminal), or when it decides against its own statistics (a
// decision rule that overrules an optimal most visited child with a
// clearly better mean). With one seed, a decision wrong at every
// checkpoint of the window needs no lead when a mechanism is in view.
func (c *searchCheck) search(ctx context.Context, tr *tree.Tree, i int) searchOutcome {
	o := c.o
	out, run := c.answers(ctx, tr, i, o.budgets())
	if out.err != nil || out.fault != nil {
		return out
	}
	if out.fault = o.Criterion.promises(run, o.Seeds); out.fault != nil {
		return out
	}
	sol := tree.Solve(out.tr)
	out.curve = curveOf(out.tr, sol, run.snaps)
	out.nodes, out.snaps = run.nodes, run.snaps
	j := o.Criterion.judgeSearch(out.tr, sol, run.snaps, o.Window, run.nodes, o.Seeds)
	out.r, out.wrongAll = j.seedResult, j.wrongAll
	if j.wrongAll && len(j.flat) > 0 {
		out.everySeed = append([]Finding{j.wrongAllText}, j.flat...)
	}
	switch {
	case j.Wrong != nil && len(j.mechanisms) > 0:
		out.findings = append([]Finding{*j.Wrong}, j.mechanisms...)
	case j.against != nil:
		out.findings = append(j.against, j.mechanisms...)
	case o.Seeds == 1 && out.everySeed != nil:
		out.findings = out.everySeed
	}
	if out.stuck = out.findings != nil; out.stuck {
		out.findings = stuckThrough(out.findings, o.MaxBudget)
	}
	return out
}

// answers searches tr with the i-th seed of the check to the checkpoints,
// checks each answer and compares them with those of any earlier search of
// the same tree and seed (the answer log). The outcome has the search's
// seed, order, tree and simulations, and its fault or the check's error
// if it has one; the run has its reports.
func (c *searchCheck) answers(ctx context.Context, tr *tree.Tree, i int, checkpoints []int64) (out searchOutcome, run *searchRun) {
	out.seed = c.o.Seed + uint64(i)
	out.tr = tr
	if out.err = ctx.Err(); out.err != nil { // the check ended: no tree of millions of nodes is copied for nothing
		return out, &searchRun{tr: tr}
	}
	if i > 0 && !c.o.KeepOrder {
		out.order = out.seed
		out.tr = tr.Shuffled(core.NewRNG(out.order ^ orderSalt))
	}
	st, pre, err := newSearchTree(ctx, out.tr)
	if err != nil {
		out.err = err
		return out, &searchRun{tr: out.tr}
	}
	run = &searchRun{tr: out.tr, st: st, pre: pre, seed: out.seed, budgets: checkpoints, asks: c.o.budgets(), metered: c.o.meter.begin()}
	err = searchSafely(ctx, c.s, run)
	run.metered.end(err == nil && len(run.snaps) == len(run.budgets))
	out.sims = run.done()
	if ctx.Err() != nil {
		out.err = ctx.Err()
		return out, run
	}
	var f *Fault
	switch {
	case errors.As(err, &f):
		f = run.complete(f)
	case err != nil:
		f = run.fault(FaultCrash, "", "Search: %v", err)
	case len(run.snaps) < len(run.budgets):
		f = run.fault(FaultGarbage, "", "returned after %d of %d checkpoints", len(run.snaps), len(run.budgets))
	}
	if g := c.log.record(run); g != nil { // the answers themselves disagree: that comes first
		f = g
	}
	out.fault = f
	return out, run
}

// spotCheck searches every tree again with its first seed, to the first
// spotCheckpoints checkpoints, and returns the first fault met (two
// searches that answer differently, or any other), with the tree it was
// met on, or nil; and the simulations it ran. It is what a check that
// found no witness does to test the protocol's promise that the same
// tree and seed give the same answers: a few hundred simulations per
// tree, a small part of the check's.
func (c *searchCheck) spotCheck(ctx context.Context, trees []namedTree, sh *shardRun) (found *TreeResult, at int, sims int64, err error) {
	checkpoints := c.o.budgets()
	checkpoints = checkpoints[:min(spotCheckpoints, len(checkpoints))]
	err = inOrder(ctx, len(trees), c.o.Jobs, func(ctx context.Context, t int) searchOutcome {
		out, _ := c.answers(ctx, trees[t].get(), 0, checkpoints)
		return out
	}, func(t int, out searchOutcome) (bool, error) {
		if out.err != nil {
			return true, out.err
		}
		sims += out.sims
		sh.spotted(SpotRecord{Tree: trees[t].index, Sims: out.sims, Fault: out.fault != nil})
		if out.fault != nil {
			found, at = &TreeResult{Name: trees[t].name, Tree: out.tr, Verdict: Faulted, Fault: out.fault, Seed: out.seed, Findings: faultFindings(out.fault)}, trees[t].index
			return true, nil
		}
		return false, nil
	})
	return found, at, sims, err
}

// spotCheckpoints is the checkpoints a spot check searches each tree to:
// 64, 128 and 256 simulations by default.
const spotCheckpoints = 3

// stuckThrough says, in a copy of the findings, what a stuck whole search
// shows and what it does not.
func stuckThrough(fs []Finding, budget int) []Finding {
	fs = slices.Clone(fs)
	fs[0].Text += fmt.Sprintf("; stuck through %d simulations, the largest budget run (a whole search has no limit probe: a return after it is not excluded)", budget)
	return fs
}

// runSearchTrees searches every tree with every seed, in order (with Jobs
// ≥ 2 ahead, in that many goroutines), until a tree is stuck or a search
// faults, and settles the report: a fault is searched again before it is
// reported, a stuck tree is shrunk and its witness searched again, and a
// check without a witness searches every tree again, with its first seed,
// to a few checkpoints (spotCheck).
func runSearchTrees(ctx context.Context, s Searcher, o Options, trees []namedTree, testName string) (*Report, error) {
	ctx, stop := withGrace(ctx)
	defer stop()
	start := time.Now()
	sh := newShardRun(&o, trees, true)
	trees = sh.trees(trees)
	o = o.metered(len(trees), sh.searches(trees, o.Seeds))
	c := &searchCheck{s: s, o: o, log: &answerLog{}, test: testName}
	rep := &Report{Rule: o.RuleSpec, Seeds: o.Seeds, MaxBudget: int64(o.MaxBudget)}
	if o.handles != (Handles{}) {
		rep.Handles = &o.handles
	}
	made := make([]searchTree, len(trees))
	get := func(t int) *tree.Tree {
		m := &made[t]
		m.once.Do(func() { m.tr = trees[t].get() })
		return m.tr
	}
	var fold *treeFold       // the tree being taken up
	var every *searchOutcome // its first seed wrong throughout with a mechanism in view
	nodes, read := true, false
	var stuck, faulted *TreeResult
	var endAt int // the index of the tree that ended the check
	err := inOrder(ctx, len(trees)*o.Seeds, o.Jobs, func(ctx context.Context, i int) searchOutcome {
		return c.search(ctx, get(i/o.Seeds), i%o.Seeds)
	}, func(i int, out searchOutcome) (bool, error) {
		t, j := i/o.Seeds, i%o.Seeds
		if j == 0 {
			fold, every = newTreeFold(trees[t].name, get(t), sh != nil), nil
		}
		if out.err != nil {
			return true, out.err
		}
		rep.Sims += out.sims
		rec := SearchRecord{SearchRef: SearchRef{Tree: trees[t].index, Seed: out.seed}, Name: trees[t].name, OptimalFrom: -1, Sims: out.sims}
		if out.fault != nil {
			rec.Outcome = outcomeFault
		} else {
			rep.addCurve(out.curve)
			nodes, read = nodes && out.nodes, true
			rec.OptimalFrom, rec.Visited, rec.Recent, rec.RootOnly = out.r.OptimalFrom, out.r.Visited, out.r.Recent, !out.nodes
			rec.WrongThroughout, rec.InView = out.wrongAll, out.everySeed != nil
			if out.stuck {
				rec.Outcome = outcomeStuck
			}
			if fold.keep {
				rec.setCurve(out.curve)
			}
			if every == nil && out.everySeed != nil {
				every = &out
			}
		}
		res := &fold.res
		end, _ := fold.add(rec, o, true)
		res.RootError = max(res.RootError, out.r.RootError)
		switch {
		case end && out.fault != nil:
			res.Fault, res.order, res.Tree = out.fault, out.order, out.tr
			res.Findings = faultFindings(out.fault)
			faulted = res
		case end:
			res.Findings, res.order, res.Tree = out.findings, out.order, out.tr
			stuck = res
		case j < o.Seeds-1:
			return false, nil
		default:
			if fold.settle(); res.Verdict == Stuck { // every seed wrong throughout, a mechanism in view: no lead needed
				res.Findings, res.order, res.Tree = stuckThrough(every.everySeed, o.MaxBudget), every.order, every.tr
				stuck, end = res, true
			}
		}
		rep.add(*res)
		sh.took(*res)
		if end {
			endAt = trees[t].index
			return true, nil
		}
		made[t].tr = nil // taken up: no search needs it any more
		if o.Progress != nil {
			o.Progress(t+1, len(trees))
		}
		o.meter.treeDone(t + 1)
		return false, nil
	})
	o.meter.close()                           // the spot check, the shrinker and the faults' searches are no part of the plan
	stopped := err != nil && ctx.Err() != nil // what finished is reported
	if err != nil && !stopped {
		return nil, err
	}
	if !stopped && faulted == nil && stuck == nil { // no witness: do the answers come again?
		f, at, sims, err := c.spotCheck(ctx, trees, sh)
		if err != nil && ctx.Err() == nil {
			return nil, err
		}
		rep.Sims += sims
		faulted, stopped, endAt = f, err != nil, at
	}
	switch {
	case faulted != nil:
		w, sims := c.faultWitness(ctx, *faulted)
		rep.Witness, rep.Sims = w, rep.Sims+sims
		sh.witnessFrom(endAt, *faulted, sims)
		stopped = stopped || w.Unfinished
	case stuck != nil && !stopped:
		w, f, sims := c.shrink(ctx, *stuck)
		rep.Sims += sims
		rep.Witness = w
		switch {
		case f != nil: // a fault met while shrinking: the program broke its contract
			w, more := c.faultWitness(ctx, *f)
			rep.Witness, rep.Sims, sims = w, rep.Sims+more, sims+more
			stopped = w.Unfinished
		case ctx.Err() != nil:
			stopped = true
		}
		sh.witnessFrom(endAt, *stuck, sims)
	}
	if stopped && stuck != nil && (rep.Witness == nil || rep.Witness.Verdict == Stuck) {
		rep.Witness = foundWitness(o, *stuck, uint64(o.MaxBudget))
		rep.Witness.setReplay(c.alone(stuck.Seed).o, testName)
	}
	if read {
		rep.NodesReported = &nodes
	}
	switch lf, late := s.(LateFaulter); {
	case !late || stopped:
	case rep.Witness == nil || rep.Witness.Verdict != Faulted:
		if w, sims := c.lateFault(ctx); w != nil && ctx.Err() == nil {
			rep.Witness, rep.Sims = w, rep.Sims+sims
			sh.lateWitness(sims)
		}
	default: // the fault reported comes first; what came late is read and dropped
		lf.LateFault()
	}
	if !nodes { // the root's children alone say nothing about the tree's frugality
		rep.Visited, rep.Recent = 0, 0
	}
	if stopped {
		rep.stop(ctx, start, len(trees))
	} else {
		rep.finish(start)
	}
	rep.Summary = searchSummary(rep) + rep.unfinishedNote()
	sh.finish(rep) // a stopped shard's too, which Merge refuses
	if stopped {
		return rep, ctx.Err()
	}
	return rep, nil
}

// faultFindings are the findings of a fault: the fault itself.
func faultFindings(f *Fault) []Finding {
	return []Finding{{Condition: RuleFault, Node: f.Node, Child: -1, Text: f.Message}}
}

// faultWitness is the witness of a fault: the tree, in the order it was
// searched, and the seed, unshrunk, searched again before it is reported.
// A fault that comes back there is reproduced; answers that differ from
// the first search's are the fault of two searches that disagree. A check
// stopped first (ctx) leaves the witness Unfinished, as found. It returns
// the simulations of the search again.
func (c *searchCheck) faultWitness(ctx context.Context, res TreeResult) (*Witness, int64) {
	f := *res.Fault
	one := c.alone(res.Seed)
	sims, unfinished := int64(0), false
	if f.Kind != FaultNondeterministic { // that fault is two searches already
		again := one.search(ctx, res.Tree, 0)
		sims = again.sims
		switch g := again.fault; {
		case again.err != nil:
			unfinished = true
		case g != nil && g.Kind == FaultNondeterministic:
			f = *g
			res.Findings = faultFindings(g)
		default:
			f.Reproduced = g != nil && g.Kind == f.Kind
		}
	}
	return one.witnessOfFault(res, &f, unfinished), sims
}

// witnessOfFault is the witness of the fault f on res's tree and seed,
// searched alone (c is the check of that seed alone).
func (c *searchCheck) witnessOfFault(res TreeResult, f *Fault, unfinished bool) *Witness {
	o := c.o
	w := &Witness{Verdict: Faulted, Rule: o.RuleSpec, Horizon: uint64(o.MaxBudget), Tree: res.Tree, Nodes: res.Tree.Len(),
		Condition: RuleFault, From: res.Name, Original: res.Tree, Findings: res.Findings, Fault: f,
		Seeds: []uint64{res.Seed}, Budgets: o.budgets(), Unfinished: unfinished}
	w.setReplay(o, c.test)
	return w
}

// lateFault asks a LateFaulter for a fault found after its searches
// returned, and makes it the witness: on the tree as that search was sent
// (its order) and its seed, at its last checkpoint. That tree is searched
// again alone and the searcher asked once more: the fault is reproduced
// when it comes back. Nil when c's searcher is no LateFaulter or found
// none. It returns the simulations of the search again.
func (c *searchCheck) lateFault(ctx context.Context) (*Witness, int64) {
	lf, ok := c.s.(LateFaulter)
	if !ok {
		return nil, 0
	}
	f, st, seed := lf.LateFault()
	if f == nil || st == nil {
		return nil, 0
	}
	tr, err := tree.Parse(st.Text)
	if err != nil {
		return nil, 0 // never: the checker wrote the text
	}
	one := c.alone(seed)
	budgets := one.o.budgets()
	f.Node, f.Sim, f.Inputs = "", budgets[len(budgets)-1], searchAsked(st.Text, seed, budgets)
	again := one.search(ctx, tr, 0)
	g, _, _ := lf.LateFault()
	unfinished := again.err != nil
	f.Reproduced = !unfinished && (g != nil && g.Kind == f.Kind || again.fault != nil && again.fault.Kind == f.Kind)
	res := TreeResult{Name: "a search followed by stray output", Tree: tr, Verdict: Faulted, Fault: f, Seed: seed, Findings: faultFindings(f)}
	return one.witnessOfFault(res, f, unfinished), again.sims
}

// setReplay sets the witness's replay: its tree searched with o (the
// failed seed alone, in the tree's order) by the whole search, as the
// go test line of CheckSearch, or else as the Go call of RunSearchTree.
func (w *Witness) setReplay(o Options, testName string) {
	w.setRuleReplay(o, testName)
	w.Run.Search = true
	if len(w.Replay) == 0 {
		w.Replay = []string{w.Run.GoCall()}
	}
}

// shrink searches a stuck tree again with the failed seed alone, in its
// order, then shrinks it by searching smaller trees so, keeping a
// candidate that is stuck for the same condition, and searches the
// smallest again: the witness is what that last search shows, the same
// answers as before. It returns the witness, or the result of a fault met
// on the way, and the simulations it ran.
func (c *searchCheck) shrink(ctx context.Context, res TreeResult) (*Witness, *TreeResult, int64) {
	one := c.alone(res.Seed)
	o := one.o
	faultOf := func(t *tree.Tree, out searchOutcome) *TreeResult {
		return &TreeResult{Name: "a candidate of the shrinker", Tree: t, Verdict: Faulted, Fault: out.fault, Seed: out.seed,
			Findings: faultFindings(out.fault)}
	}
	final := one.search(ctx, res.Tree, 0)
	sims := final.sims
	switch {
	case final.err != nil:
		return nil, nil, sims
	case final.fault != nil:
		f := faultOf(res.Tree, final)
		f.Name = res.Name
		return nil, f, sims
	}
	findings := res.Findings
	if final.stuck { // alone, its findings are read at one seed's error rate
		findings = final.findings
	}
	cond := condition(findings)
	judge := func(t *tree.Tree) trial {
		if o.BinaryOnly && !t.BinaryDeterministic() || o.handles.Allows(t) != nil {
			return trial{}
		}
		if k := t.Kind(0); k != core.Max && k != core.Min {
			return trial{}
		}
		out := one.search(ctx, t, 0)
		if out.fault != nil {
			return trial{sims: out.sims, fault: faultOf(t, out)}
		}
		return trial{sims: out.sims, keep: out.stuck && condition(out.findings) == cond}
	}
	run := shrink(ctx, res.Tree, judge, shrinkBudget, o.Jobs, nil, o)
	sims += run.sims
	if run.fault != nil {
		return nil, run.fault, sims
	}
	small := res.Tree
	if !run.tree.Equal(res.Tree) {
		out := one.search(ctx, run.tree, 0)
		sims += out.sims
		switch {
		case out.err != nil:
			return nil, nil, sims
		case out.fault != nil:
			return nil, faultOf(run.tree, out), sims
		case out.stuck: // else the shrunk tree did not fail again: keep the original
			small, final, findings = run.tree, out, out.findings
		}
	}
	w := &Witness{Verdict: Stuck, Rule: o.RuleSpec, Horizon: uint64(o.MaxBudget), Tree: small, Nodes: small.Len(), From: res.Name,
		Original: res.Tree, Findings: findings, Shrinks: run.evals, Budgets: o.budgets(), Seeds: []uint64{res.Seed}}
	w.Condition = condition(findings)
	w.Search = searchPicture(small, final.curve, final.snaps, final.nodes)
	w.setReplay(o, c.test)
	return w, nil, sims
}
