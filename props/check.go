package props

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
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
	long  bool    // confirming: the criterion reads the longer window
}

// tree runs every seed on one tree and returns the tree's verdict.
func (c *checker) checkTree(ctx context.Context, name string, tr *tree.Tree) (TreeResult, error) {
	return c.seeds(ctx, name, tr, false)
}

// seeds runs the seeds of one tree. With onlyWitness it stops as soon as
// the tree can no longer be a witness, whose verdict is then Inconclusive
// with no other figure: the shrinker and the confirmation ask no more.
func (c *checker) seeds(ctx context.Context, name string, tr *tree.Tree, onlyWitness bool) (TreeResult, error) {
	res := TreeResult{Name: name, Tree: tr}
	if k := tr.Kind(0); k != core.Max && k != core.Min {
		return res, fmt.Errorf("props: tree %s: the root is a %v node, want max or min", name, k)
	}
	obs, err := newObserver(tr, c.rule, c.opts)
	if err != nil {
		return res, err
	}
	defer func() { c.sims += obs.sims }()
	sol := tree.Solve(tr)
	converged := true
	var from int64
	for i := range c.opts.Seeds {
		seed := c.opts.Seed + uint64(i)
		snaps, err := obs.run(ctx, seed)
		var f *Fault
		if errors.As(err, &f) {
			res.Verdict, res.Fault, res.FailedSeeds = Inconsistent, f, 1
			res.Findings = []Finding{{Condition: RuleFault, Node: f.Node, Child: -1, Text: f.Message}}
			return res, nil
		}
		if err != nil {
			return res, err
		}
		if c.curve != nil {
			c.curve.addCurve(tr, sol, snaps)
		}
		r := c.opts.Criterion.judgeSeed(tr, sol, snaps, c.opts.Window, c.long)
		n := float64(i + 1)
		res.Visited += (r.Visited - res.Visited) / n
		res.Recent += (r.Recent - res.Recent) / n
		res.RootError = math.Max(res.RootError, r.RootError)
		if c.opts.Backup == core.BackupMinimax {
			r.Eq4 = nil // minimax values converge whatever the shares: Eq. 4 is the average's condition
		}
		if r.Wrong != nil && (r.Eq5 != nil || r.Eq4 != nil) {
			res.FailedSeeds++
			if res.Findings == nil {
				res.Findings = []Finding{*r.Wrong}
				for _, f := range []*Finding{r.Eq5, r.Eq4} {
					if f != nil {
						res.Findings = append(res.Findings, *f)
					}
				}
			}
		}
		if onlyWitness && 2*(res.FailedSeeds+c.opts.Seeds-1-i) < c.opts.Seeds {
			return TreeResult{Name: name, Tree: tr, Verdict: Inconclusive}, nil
		}
		if r.OptimalFrom < 0 || r.OptimalFrom > len(snaps)-1-c.opts.Window {
			converged = false
		} else {
			from = max(from, snaps[r.OptimalFrom].budget)
		}
	}
	switch {
	case 2*res.FailedSeeds >= c.opts.Seeds:
		res.Verdict = Inconsistent
	case converged:
		res.Verdict, res.OptimalFrom = NoCounterexample, from
	default:
		res.Verdict = Inconclusive
		res.Findings = nil
	}
	if res.Verdict != Inconsistent {
		res.Findings = nil
	}
	return res, nil
}

// confirm reruns an inconsistent tree at Criterion.ConfirmFactor times the budget and
// reports whether it is still inconsistent for the same condition. It keeps
// a slowly vanishing share (n^-a with small a), or a decision that is slowly
// coming right, from passing for a witness. Faults need no confirmation.
func (c *checker) confirm(ctx context.Context, res TreeResult) (bool, error) {
	cond := condition(res.Findings)
	if cond == RuleFault {
		return true, nil
	}
	o := c.opts
	f := o.Criterion.ConfirmFactor
	o.MaxBudget *= f
	o.Window += bits.TrailingZeros(uint(f))
	long := &checker{rule: c.rule, opts: o, long: true}
	r, err := long.seeds(ctx, res.Name, res.Tree, true)
	c.sims += long.sims
	if err != nil {
		return false, err
	}
	return r.Verdict == Inconsistent && condition(r.Findings) == cond, nil
}

// judge is tree with confirmation: an inconsistent tree that does not
// confirm is inconclusive.
func (c *checker) judge(ctx context.Context, name string, tr *tree.Tree) (TreeResult, error) {
	res, err := c.checkTree(ctx, name, tr)
	if err != nil || res.Verdict != Inconsistent {
		return res, err
	}
	ok, err := c.confirm(ctx, res)
	if err != nil {
		return res, err
	}
	if !ok {
		res.Verdict, res.Findings, res.FailedSeeds = Inconclusive, nil, 0
	}
	return res, nil
}

// witness shrinks an inconsistent tree and describes the result.
func (c *checker) witness(ctx context.Context, res TreeResult, testName string) (*Witness, error) {
	cond := condition(res.Findings)
	keep := func(t *tree.Tree) bool {
		r, err := c.seeds(ctx, "candidate", t, true)
		return err == nil && r.Verdict == Inconsistent && condition(r.Findings) == cond
	}
	small, evals := shrink(ctx, res.Tree, keep, shrinkBudget)
	final, err := c.judge(ctx, "witness", small)
	if err != nil {
		return nil, err
	}
	if final.Verdict != Inconsistent { // the shrunk tree did not confirm: keep the confirmed original
		small, final = res.Tree, res
	}
	w := &Witness{Rule: c.opts.RuleSpec, Tree: small, Nodes: small.Len(), From: res.Name, Original: res.Tree,
		Findings: final.Findings, Fault: final.Fault, Shrinks: evals, Budgets: c.opts.budgets()}
	for i := range c.opts.Seeds {
		w.Seeds = append(w.Seeds, c.opts.Seed+uint64(i))
	}
	w.Condition = condition(final.Findings)
	w.Replay = replayLines(small, c.opts, testName)
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

// namedTree is a tree to check with the name reports give it.
type namedTree struct {
	name string
	tr   *tree.Tree
}

// traps returns the trap families the options allow.
func (o Options) traps() []namedTree {
	if o.NoTraps {
		return nil
	}
	var out []namedTree
	for _, t := range gen.Traps() {
		if !o.BinaryOnly || t.Binary {
			out = append(out, namedTree{"trap " + t.Name, t.Tree})
		}
	}
	// Smallest first, so that the first witness found is small already.
	slices.SortStableFunc(out, func(a, b namedTree) int { return a.tr.Len() - b.tr.Len() })
	return out
}

// Run checks rule on the trap families and on opts.Trees random trees, and
// returns the report: at the first inconsistent tree it stops and shrinks it
// to a minimal witness. It returns an error for bad options, a cancelled ctx,
// or a game error; a rule that panics or scores NaN is a witness, not an
// error.
func Run(ctx context.Context, rule core.Rule, opts Options) (*Report, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if rule == nil {
		return nil, errors.New("props: nil rule")
	}
	trees := o.traps()
	gen := gen.Trees(o.Shape)
	for i := range o.Trees {
		trees = append(trees, namedTree{fmt.Sprintf("random %d", i), gen.Example(int(o.Seed) + i)})
	}
	return runTrees(ctx, rule, o, trees, "")
}

// CheckTree checks rule on one tree, as the replay of a witness does.
func CheckTree(ctx context.Context, rule core.Rule, tr *tree.Tree, opts Options) (*Report, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if rule == nil {
		return nil, errors.New("props: nil rule")
	}
	return runTrees(ctx, rule, o, []namedTree{{"given", tr}}, "")
}

func runTrees(ctx context.Context, rule core.Rule, o Options, trees []namedTree, testName string) (*Report, error) {
	start := time.Now()
	rep := &Report{Rule: o.RuleSpec, Seeds: o.Seeds, MaxBudget: int64(o.MaxBudget)}
	c := &checker{rule: rule, opts: o, curve: rep}
	for i, nt := range trees {
		res, err := c.judge(ctx, nt.name, nt.tr)
		if err != nil {
			return nil, err
		}
		rep.add(res)
		if o.Progress != nil {
			o.Progress(i+1, len(trees))
		}
		if res.Verdict == Inconsistent {
			c.curve = nil // the shrinker's candidates are not part of the curve
			if rep.Witness, err = c.witness(ctx, res, testName); err != nil {
				return nil, err
			}
			break
		}
	}
	rep.Sims = c.sims
	rep.finish(start)
	return rep, nil
}
