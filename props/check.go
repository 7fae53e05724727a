package props

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
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
}

// orderSalt separates the generator of a seed's child order from the
// search's own stream, which starts from the seed itself.
const orderSalt = 0x6f72646572 // "order"

// seeds runs the seeds of one tree, each (but the first, and all with
// Options.KeepOrder) on the tree with its children in an order drawn from
// the seed. A seed fails when its decision is wrong over the window and the
// Eq. 5 or Eq. 4 mechanism behind it persists in the limit (limit.go); one
// failed seed makes the tree a witness, in that seed's order. With
// onlyWitness it stops at the first failed seed, and a tree that is not a
// witness comes back Inconclusive with no other figure: the shrinker asks
// no more.
func (c *checker) seeds(ctx context.Context, name string, tr *tree.Tree, onlyWitness bool) (TreeResult, error) {
	res := TreeResult{Name: name, Tree: tr}
	if k := tr.Kind(0); k != core.Max && k != core.Min {
		return res, fmt.Errorf("props: tree %s: the root is a %v node, want max or min", name, k)
	}
	converged := true
	var from int64
	budgets := c.opts.budgets()
	for i := range c.opts.Seeds {
		seed := c.opts.Seed + uint64(i)
		ordered := tr
		if i > 0 && !c.opts.KeepOrder {
			ordered = tr.Shuffled(core.NewRNG(seed ^ orderSalt))
		}
		r, rec, err := c.runSeed(ctx, ordered, seed)
		var f *Fault
		if errors.As(err, &f) {
			res.Verdict, res.Fault, res.FailedSeeds, res.Tree, res.Seed = Inconsistent, f, 1, ordered, seed
			res.Findings = []Finding{{Condition: RuleFault, Node: f.Node, Child: -1, Text: f.Message}}
			return res, nil
		}
		if err != nil {
			return res, err
		}
		n := float64(i + 1)
		res.Visited += (r.Visited - res.Visited) / n
		res.Recent += (r.Recent - res.Recent) / n
		res.RootError = math.Max(res.RootError, r.RootError)
		switch {
		case rec.persists:
			res.FailedSeeds++
			if res.Findings == nil {
				res.Findings = r.findings()
				res.Tree, res.Seed = ordered, seed
			}
			if onlyWitness {
				res.Verdict = Inconsistent
				return res, nil
			}
		case rec.text != "":
			res.Recoveries = append(res.Recoveries, fmt.Sprintf("seed %d: %s", seed, rec.text))
		}
		if r.OptimalFrom < 0 || r.OptimalFrom > len(budgets)-1-c.opts.Window {
			converged = false
		} else {
			from = max(from, budgets[r.OptimalFrom])
		}
	}
	switch {
	case res.FailedSeeds > 0:
		res.Verdict = Inconsistent
	case onlyWitness:
		return TreeResult{Name: name, Tree: tr, Verdict: Inconclusive}, nil
	case converged:
		res.Verdict, res.OptimalFrom = NoCounterexample, from
	default:
		res.Verdict = Inconclusive
	}
	return res, nil
}

// runSeed searches one ordering of a tree with one seed, applies the
// criterion and, for a seed whose decision is wrong with a mechanism behind
// it, projects the mechanism to the limit while the search's statistics are
// at hand.
func (c *checker) runSeed(ctx context.Context, tr *tree.Tree, seed uint64) (seedResult, limitResult, error) {
	obs, err := newObserver(tr, c.rule, c.opts)
	if err != nil {
		return seedResult{}, limitResult{}, err
	}
	snaps, err := obs.run(ctx, seed)
	c.sims += obs.sims
	if err != nil {
		return seedResult{}, limitResult{}, err
	}
	sol := tree.Solve(tr)
	switch {
	case c.curve != nil:
		c.curve.addCurve(tr, sol, snaps)
	case c.pending != nil:
		*c.pending = append(*c.pending, curveEntry{tr, sol, snaps})
	}
	r := c.opts.Criterion.judgeSeed(tr, sol, snaps, c.opts.Window)
	if c.opts.Backup == core.BackupMinimax {
		r.Eq4 = nil // minimax values converge whatever the shares: Eq. 4 is the average's condition
	}
	if r.Wrong == nil || (r.Eq5 == nil && r.Eq4 == nil) {
		return r, limitResult{}, nil
	}
	rec, err := c.project(obs.search, tr, &r)
	return r, rec, err
}

// project judges the seed's mechanisms in the limit, Eq. 5 first; it keeps
// in r only the finding that persists, with the limit's evidence appended.
func (c *checker) project(s *core.Search, tr *tree.Tree, r *seedResult) (limitResult, error) {
	var notes []string
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
		pr, err := newProber(c.rule, b)
		if err != nil {
			return limitResult{}, err
		}
		var lr limitResult
		if f.Condition == Eq5 {
			lr, err = pr.starvation(f.Child, r.eq5Frozen)
		} else {
			lr, err = pr.share(f.Child)
		}
		if err != nil {
			return limitResult{}, err
		}
		if lr.persists {
			f.Text += "; in the limit, " + lr.text
			if f.Condition == Eq5 {
				r.Eq4 = nil
			} else {
				r.Eq5 = nil
			}
			return lr, nil
		}
		notes = append(notes, fmt.Sprintf("%s at node %s: %s", f.Condition, f.Node, lr.text))
		*m.f = nil
	}
	return limitResult{text: strings.Join(notes, "; ")}, nil
}

// judge checks one tree: its verdict, with the witness's order and seed.
func (c *checker) judge(ctx context.Context, name string, tr *tree.Tree) (TreeResult, error) {
	return c.seeds(ctx, name, tr, false)
}

// witness shrinks an inconsistent tree and describes the result. The
// shrinker replays the failed seed alone, in its child order, so every
// candidate is judged as the final witness will be replayed; with
// BinaryOnly it keeps to binary deterministic trees.
func (c *checker) witness(ctx context.Context, res TreeResult, testName string) (*Witness, error) {
	o := c.opts
	o.Seeds, o.Seed, o.KeepOrder = 1, res.Seed, true
	one := &checker{rule: c.rule, opts: o}
	defer func() { c.sims += one.sims }()
	cond := condition(res.Findings)
	keep := func(t *tree.Tree) bool {
		if o.BinaryOnly && !t.BinaryDeterministic() {
			return false
		}
		r, err := one.seeds(ctx, "candidate", t, true)
		return err == nil && r.Verdict == Inconsistent && condition(r.Findings) == cond
	}
	small, evals := shrink(ctx, res.Tree, keep, shrinkBudget)
	final, err := one.judge(ctx, "witness", small)
	if err != nil {
		return nil, err
	}
	if final.Verdict != Inconsistent { // the shrunk tree did not fail again: keep the original
		small, final = res.Tree, res
	}
	w := &Witness{Rule: c.opts.RuleSpec, Tree: small, Nodes: small.Len(), From: res.Name, Original: res.Tree,
		Findings: final.Findings, Fault: final.Fault, Shrinks: evals, Budgets: c.opts.budgets(),
		Seeds: []uint64{res.Seed}}
	w.Condition = condition(final.Findings)
	w.Replay = replayLines(small, o, testName)
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
	all := o.Traps
	if !o.NoTraps {
		all = append(slices.Clip(all), gen.Traps()...)
	}
	var out []namedTree
	for _, t := range all {
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

// CheckTree checks rule on one tree, as the replay of a witness does. With
// Seeds 0 it searches 16 seeds, each in its own child order.
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
	return runTrees(ctx, rule, o, []namedTree{{"given", tr}}, "")
}

func runTrees(ctx context.Context, rule core.Rule, o Options, trees []namedTree, testName string) (*Report, error) {
	start := time.Now()
	rep := &Report{Rule: o.RuleSpec, Seeds: o.Seeds, MaxBudget: int64(o.MaxBudget)}
	c := &checker{rule: rule, opts: o, curve: rep}
	err := c.judgeTrees(ctx, trees, func(i int, res TreeResult) (err error) {
		rep.add(res)
		if o.Progress != nil {
			o.Progress(i+1, len(trees))
		}
		if res.Verdict == Inconsistent {
			c.curve = nil // the shrinker's candidates are not part of the curve
			rep.Witness, err = c.witness(ctx, res, testName)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	rep.Sims = c.sims
	rep.finish(start)
	return rep, nil
}
