package props

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
	"pgregory.net/rapid"
)

// RunSearch checks a whole search on the trap families and on opts.Trees
// random trees, as Run checks a rule, and returns the report. Each tree is
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
	return runSearchTrees(ctx, s, o, o.trees(), "")
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
		w := rep.Witness
		t.Fatalf("%s\non the tree %v with seed %d\nreplay: %s\n%v", rep.Summary, w.Tree, w.Seeds[0], w.Run.TestLine(), w.Fault)
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
	if trees == nil {
		trees = o.trees()
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

// runSearchTrees searches every tree with every seed, in order (with Jobs
// ≥ 2 ahead, in that many goroutines), until a tree is stuck or a search
// faults, and settles the report.
func runSearchTrees(ctx context.Context, s Searcher, o Options, trees []namedTree, testName string) (*Report, error) {
	start := time.Now()
	o = o.metered(len(trees))
	rep := &Report{Rule: o.RuleSpec, Seeds: o.Seeds, MaxBudget: int64(o.MaxBudget)}
	made := make([]searchTree, len(trees))
	get := func(t int) *tree.Tree {
		m := &made[t]
		m.once.Do(func() { m.tr = trees[t].get() })
		return m.tr
	}
	var res TreeResult // the tree being taken up
	var from int64
	converged, nodes, read := true, true, false
	var stuck, faulted *TreeResult
	budgets := o.budgets()
	err := inOrder(ctx, len(trees)*o.Seeds, o.Jobs, func(ctx context.Context, i int) searchOutcome {
		return runSearch(ctx, s, o, get(i/o.Seeds), i%o.Seeds) // its checkpoints count its simulations
	}, func(i int, out searchOutcome) (bool, error) {
		t, j := i/o.Seeds, i%o.Seeds
		if j == 0 {
			res, from, converged = TreeResult{Name: trees[t].name, Tree: get(t)}, 0, true
		}
		if out.err != nil {
			return true, out.err
		}
		rep.Sims += out.sims
		if f := out.fault; f != nil {
			res.Verdict, res.Fault, res.Seed, res.order, res.Tree = Faulted, f, out.seed, out.order, out.tr
			res.Findings = []Finding{{Condition: RuleFault, Node: f.Node, Child: -1, Text: f.Message}}
			rep.add(res)
			faulted = &res
			return true, nil
		}
		rep.addCurve(out.curve)
		nodes, read = nodes && out.nodes, true
		n := float64(j + 1)
		res.Visited += (out.r.Visited - res.Visited) / n
		res.Recent += (out.r.Recent - res.Recent) / n
		res.RootError = max(res.RootError, out.r.RootError)
		if out.stuck {
			res.Verdict, res.StuckSeeds, res.Findings, res.Seed, res.order, res.Tree = Stuck, 1, out.findings, out.seed, out.order, out.tr
			rep.add(res)
			stuck = &res
			return true, nil
		}
		if r := out.r; r.OptimalFrom < 0 || r.OptimalFrom > len(budgets)-1-o.Window {
			converged = false
		} else {
			from = max(from, budgets[r.OptimalFrom])
		}
		if j < o.Seeds-1 {
			return false, nil
		}
		res.Verdict = Inconclusive
		if converged {
			res.Verdict, res.OptimalFrom = NoCounterexample, from
		}
		rep.add(res)
		made[t].tr = nil // taken up: no search needs it any more
		if o.Progress != nil {
			o.Progress(t+1, len(trees))
		}
		o.meter.treeDone(t + 1)
		return false, nil
	})
	o.meter.close()
	stopped := err != nil && ctx.Err() != nil // what finished is reported
	if err != nil && !stopped {
		return nil, err
	}
	switch {
	case faulted != nil:
		rep.Witness = faultWitness(o, *faulted, testName)
	case stuck != nil && !stopped:
		w, f, sims := shrinkSearch(ctx, s, o, *stuck, testName)
		rep.Sims += sims
		rep.Witness = w
		switch {
		case f != nil: // a fault met while shrinking: the program broke its contract
			rep.Witness = faultWitness(o, *f, testName)
		case ctx.Err() != nil:
			stopped = true
		}
	}
	if stopped && stuck != nil && (rep.Witness == nil || rep.Witness.Verdict == Stuck) {
		rep.Witness = foundWitness(o, *stuck, uint64(o.MaxBudget))
		o.Seeds, o.Seed, o.KeepOrder = 1, stuck.Seed, true
		rep.Witness.setReplay(o, testName)
	}
	if read {
		rep.NodesReported = &nodes
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
	if stopped {
		return rep, ctx.Err()
	}
	return rep, nil
}

// faultWitness is the witness of a fault: the tree, in the order it was
// searched, and the seed, unshrunk.
func faultWitness(o Options, res TreeResult, testName string) *Witness {
	o.Seeds, o.Seed, o.KeepOrder = 1, res.Seed, true
	w := &Witness{Verdict: Faulted, Rule: o.RuleSpec, Horizon: uint64(o.MaxBudget), Tree: res.Tree, Nodes: res.Tree.Len(),
		Condition: RuleFault, From: res.Name, Original: res.Tree, Findings: res.Findings, Fault: res.Fault,
		Seeds: []uint64{res.Seed}, Budgets: o.budgets()}
	w.setReplay(o, testName)
	return w
}

// setReplay sets the witness's replay: its tree searched with o (the
// failed seed alone, in the tree's order) by the whole search.
func (w *Witness) setReplay(o Options, testName string) {
	w.setRuleReplay(o, testName)
	w.Run.Search = true
}

// shrinkSearch shrinks a stuck tree by searching smaller trees with the
// failed seed alone, in their own order, keeping a candidate that is stuck
// for the same condition. It returns the witness, or the result of a
// fault met on the way, and the simulations it ran.
func shrinkSearch(ctx context.Context, s Searcher, o Options, res TreeResult, testName string) (*Witness, *TreeResult, int64) {
	o.Seeds, o.Seed, o.KeepOrder = 1, res.Seed, true
	cond := condition(res.Findings)
	faultOf := func(t *tree.Tree, out searchOutcome) *TreeResult {
		return &TreeResult{Name: "a candidate of the shrinker", Tree: t, Verdict: Faulted, Fault: out.fault, Seed: out.seed,
			Findings: []Finding{{Condition: RuleFault, Node: out.fault.Node, Child: -1, Text: out.fault.Message}}}
	}
	judge := func(t *tree.Tree) trial {
		if o.BinaryOnly && !t.BinaryDeterministic() {
			return trial{}
		}
		if k := t.Kind(0); k != core.Max && k != core.Min {
			return trial{}
		}
		out := runSearch(ctx, s, o, t, 0)
		if out.fault != nil {
			return trial{sims: out.sims, fault: faultOf(t, out)}
		}
		return trial{sims: out.sims, keep: out.stuck && condition(out.findings) == cond}
	}
	run := shrink(ctx, res.Tree, judge, shrinkBudget, o.Jobs, nil, o)
	sims, small, evals := run.sims, run.tree, run.evals
	if run.fault != nil {
		return nil, run.fault, sims
	}
	findings := res.Findings
	var seen *searchOutcome // the search of the witness tree, as its replay runs it
	if !small.Equal(res.Tree) {
		out := runSearch(ctx, s, o, small, 0)
		sims += out.sims
		switch {
		case out.fault != nil:
			return nil, faultOf(small, out), sims
		case out.stuck:
			findings, seen = out.findings, &out
		default: // the shrunk tree did not fail again: keep the original
			small = res.Tree
		}
	}
	if seen == nil {
		out := runSearch(ctx, s, o, small, 0)
		sims += out.sims
		seen = &out
	}
	w := &Witness{Verdict: Stuck, Rule: o.RuleSpec, Horizon: uint64(o.MaxBudget), Tree: small, Nodes: small.Len(), From: res.Name,
		Original: res.Tree, Findings: findings, Shrinks: evals, Budgets: o.budgets(), Seeds: []uint64{res.Seed}}
	w.Condition = condition(findings)
	if seen.last != nil {
		w.Search = seen.witnessSearch()
	}
	w.setReplay(o, testName)
	return w, nil, sims
}
