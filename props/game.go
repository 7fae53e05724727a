package props

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// Oracle gives the exact value V of positions of an implicit game, against
// which CheckGame judges a search: Opt at the root, V at the stored nodes
// where Eq. 5 is judged. Package games/connect4's Oracle is one, backed by
// its solver; TreeOracle is one for explicit trees.
type Oracle interface {
	// Value returns V, for max, of the position that path (move indices, as
	// core.Game.Play takes them, in the game's own order) reaches from the
	// game's root, with ok true. With ok false the position is beyond the
	// oracle's budget: the checker leaves the nodes that need it unjudged,
	// and fails when they include the root's children. An error ends the
	// check.
	Value(ctx context.Context, path []int32) (v float64, ok bool, err error)
}

// Errors of CheckGame that say what is wrong with the oracle or the
// position, possibly wrapped: bad input, as opposed to errors of the check.
var (
	// ErrBeyondOracle: the root's children are beyond the oracle's budget.
	ErrBeyondOracle = errors.New("props: position too deep for the oracle's budget")
	// ErrOracle: the oracle contradicts the game (a terminal reward) or
	// itself (the root's value and its children's), or gives a value
	// outside [0,1].
	ErrOracle = errors.New("props: bad oracle")
)

// TreeOracle returns an exact oracle for the explicit tree tr, by its
// solution: the oracle that makes CheckGame on tr.Game() judge as CheckTree
// does.
func TreeOracle(tr *tree.Tree) Oracle { return treeOracle{tr, tree.Solve(tr)} }

type treeOracle struct {
	tr  *tree.Tree
	sol *tree.Solution
}

func (o treeOracle) Value(_ context.Context, path []int32) (float64, bool, error) {
	i := int32(0)
	for d, k := range path {
		if k < 0 || int(k) >= o.tr.NumChildren(i) {
			return 0, false, fmt.Errorf("props: TreeOracle: path %s: node %s has no child %d", core.PathString(path), tree.FormatPath(path[:d]), k)
		}
		i = o.tr.Child(i, int(k))
	}
	return o.sol.Value(i), true, nil
}

// GameOptions configure CheckGame: the checker's Options (Trees, Shape,
// BinaryOnly, NoTraps are not used: the game is the one tree) and what a
// game check adds. The zero value means the defaults. Options.Growth's zero
// value is paper mode, as everywhere; GrowPractical (roll-outs) is the
// natural mode on real games, whose trees no search stores whole.
type GameOptions struct {
	Options
	// Game and Position name the game and its start position in reports
	// and replay lines, e.g. "connect4" and the move string "4453"; the
	// replay line `mctscheck check -game GAME -moves POSITION …` needs both.
	Game, Position string
	// Order, if not 0, searches every seed with the moves of every position
	// in the order drawn from Order, as the replay of a witness found in
	// that order does. Otherwise the first seed searches the game in its own
	// order and each other seed in an order drawn from the seed, unless
	// Options.KeepOrder keeps the game's own for all.
	Order uint64
	// ExportNodes bounds the explicit tree into which the position of a
	// witness is exported (ExportTree), to be shrunk and printed in the tree
	// format; 0 means DefaultExportNodes, a negative value never exports.
	ExportNodes int
}

// DefaultExportNodes is the largest game tree a witness is exported to by
// default.
const DefaultExportNodes = 1 << 15

// CheckGame checks rule on one position of an implicit game: g from its
// root (the position), with the exact values of oracle. Each seed searches
// the game (in its own move order for the first seed, in one drawn from the
// seed for the others; see GameOptions.Order) and is observed at doubling
// budgets, as Run observes a tree. Eq. 6 is judged at the root against the
// oracle's Opt; Eq. 5 and Eq. 4 at the stored nodes with MinParentVisits
// simulations at the window's start, where the oracle values every child;
// a seed whose decision stays wrong with such a mechanism behind it is
// projected to the limit as on explicit trees (see the package doc), and
// fails if the mechanism persists. A failed seed makes the position a
// witness, exported as an explicit tree and shrunk when it is small enough
// (GameOptions.ExportNodes).
//
// It returns an error for bad options, a nil rule, game or oracle, a root
// that is not a max or min position, an oracle that disagrees with a
// terminal reward or with the values of the root's children, a root whose
// children are beyond the oracle's budget, and the context's error. A rule
// that panics or scores NaN is a witness, not an error.
func CheckGame(ctx context.Context, rule core.Rule, g core.Game, oracle Oracle, opts GameOptions) (*Report, error) {
	start := time.Now()
	o, err := opts.Options.withDefaults()
	if err == nil {
		err = o.whole("CheckGame")
	}
	if err != nil {
		return nil, err
	}
	o = o.metered(1, o.Seeds)
	opts.Options = o
	switch {
	case ctx == nil:
		return nil, errNilContext
	case rule == nil:
		return nil, errors.New("props: nil rule")
	case g == nil:
		return nil, errors.New("props: nil game")
	case oracle == nil:
		return nil, errors.New("props: nil oracle")
	case opts.ExportNodes == 0:
		opts.ExportNodes = DefaultExportNodes
	}
	g.Reset()
	if k := g.Kind(); k != core.Max && k != core.Min {
		return nil, fmt.Errorf("props: the game's root is a %v position, want max or min (is the game over?)", k)
	}
	c := &gameChecker{rule: rule, game: g, oracle: oracle, opts: opts,
		inner: &checker{rule: rule, opts: o}, values: make(map[string]float64), curve: &Report{}}
	rep := &Report{Rule: o.RuleSpec, PositionReport: &PositionReport{Game: opts.Game, Position: opts.Position},
		Seeds: o.Seeds, MaxBudget: int64(o.MaxBudget)}
	if err := c.root(ctx, rep.PositionReport); err != nil {
		return nil, err
	}
	if err := c.seeds(ctx, rep); err != nil {
		return nil, err
	}
	rep.Curve, rep.Overconfidence = c.curve.Curve, c.curve.Overconfidence
	rep.Sims = c.inner.sims
	rep.finish(start)
	return rep, nil
}

// gameChecker checks one rule on one position.
type gameChecker struct {
	rule   core.Rule
	game   core.Game
	oracle Oracle
	opts   GameOptions
	inner  *checker           // the explicit checker: limit probes, witnesses
	values map[string]float64 // oracle values by path in the game's own order; NaN beyond its budget
	curve  *Report            // accumulates the curve
}

// root fills in the root's value, moves and optimal children.
func (c *gameChecker) root(ctx context.Context, rep *PositionReport) error {
	g := c.game
	g.Reset()
	kind, k := g.Kind(), g.NumMoves()
	mover, _ := g.(core.Mover)
	best := math.Inf(-1)
	vals := make([]float64, k)
	for i := range k {
		v, ok, err := c.value(ctx, []int32{int32(i)})
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%w: position %s: its child %d is beyond it", ErrBeyondOracle, c.name(), i)
		}
		vals[i] = v
		best = math.Max(best, chooser(kind, v))
	}
	rep.Value = chooser(kind, best)
	rep.Optimal, rep.Moves = []int{}, []int{}
	g.Reset()
	for i, v := range vals {
		if chooser(kind, v) == best {
			rep.Optimal = append(rep.Optimal, i)
		}
		m := i
		if mover != nil {
			m = mover.Move(i)
		}
		rep.Moves = append(rep.Moves, m)
	}
	v, ok, err := c.value(ctx, nil)
	switch {
	case err != nil:
		return err
	case ok && math.Abs(v-rep.Value) > 1e-9:
		return fmt.Errorf("%w: it disagrees with itself at the root of %s: V = %v, but its children's values give %v", ErrOracle, c.name(), v, rep.Value)
	}
	return nil
}

// name names the position in errors.
func (c *gameChecker) name() string {
	if c.opts.Position != "" {
		return fmt.Sprintf("%q", c.opts.Position)
	}
	return "(the game's root)"
}

// pathKey is a map key for a path.
func pathKey(path []int32) string {
	b := make([]byte, 0, 2*len(path))
	for _, m := range path {
		b = binary.AppendUvarint(b, uint64(uint32(m)))
	}
	return string(b)
}

// askOracle calls the oracle, turning a panic into an ErrOracle error.
func (c *gameChecker) askOracle(ctx context.Context, path []int32) (v float64, ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, ok, err = 0, false, fmt.Errorf("%w: it panicked: %v", ErrOracle, r)
		}
	}()
	return c.oracle.Value(ctx, path)
}

// value asks the oracle for the value of the position at path, in the
// game's own order, remembering it; ok is false beyond its budget.
func (c *gameChecker) value(ctx context.Context, path []int32) (float64, bool, error) {
	key := pathKey(path)
	if v, seen := c.values[key]; seen {
		return v, !math.IsNaN(v), nil
	}
	v, ok, err := c.askOracle(ctx, path)
	switch {
	case err != nil:
		return 0, false, fmt.Errorf("props: oracle at node %s: %w", core.PathString(path), err)
	case !ok:
		v = math.NaN()
	case !(v >= 0 && v <= 1):
		return 0, false, fmt.Errorf("%w: at node %s: value %v, want one in [0,1]", ErrOracle, core.PathString(path), v)
	}
	c.values[key] = v
	return v, ok, nil
}

// seeds runs the seeds through the checker's one pipeline (checker.seeds,
// with the game as its subject) and counts the position in the report,
// as one tree.
func (c *gameChecker) seeds(ctx context.Context, rep *Report) error {
	o := c.opts
	in := c.inner
	in.curve, in.seedDone = c.curve, o.Progress
	res, err := in.seeds(ctx, c.name(), gameSubject{c}, "")
	in.curve, in.seedDone = nil, nil
	o.meter.treeDone(1)
	o.meter.close() // the witness's searches are no part of the plan
	if err != nil {
		return err
	}
	p := rep.PositionReport
	p.FailedSeeds, p.StuckSeeds = res.FailedSeeds, res.StuckSeeds
	p.Judged, p.Beyond, p.RootError = res.judged, res.beyond, res.RootError
	rep.Recoveries = append([]string{}, res.Recoveries...)
	rep.Trees, rep.OptimalFrom = 1, res.OptimalFrom
	switch res.Verdict {
	case NoCounterexample:
		rep.Converged = 1
	case Inconclusive:
		rep.Inconclusive, rep.Unconverged = 1, []TreeRef{{Name: c.name()}}
	case Stuck:
		rep.Stuck = 1
	}
	if res.Verdict == Inconsistent || res.Verdict == Stuck || res.Verdict == Faulted {
		rep.Witness, err = c.witness(ctx, res.Seed, res.order, res.Findings, res.Fault, res.Verdict)
	}
	return err
}

// gameSubject is a game position checked through the checker's pipeline.
type gameSubject struct{ c *gameChecker }

func (g gameSubject) order(c *checker, i int, seed uint64) uint64 {
	switch {
	case g.c.opts.Order != 0:
		return g.c.opts.Order
	case i == 0 || c.opts.KeepOrder:
		return 0
	}
	return seed
}

// nodeStat is one stored node at a checkpoint.
type nodeStat struct {
	visits   int64
	value    float64
	children int
	kind     core.Kind
}

// gameSnap is a search at one checkpoint: the stored nodes that the
// criterion may read, by path (pathKey) in the search's order.
type gameSnap struct {
	budget   int64
	decision int
	nodes    map[string]nodeStat
}

// observe searches the game with one seed in one order and maps the
// stored tree's judged part to an explicit skeleton (leaves valued by the
// oracle), with the snapshots on it.
func (g gameSubject) observe(ctx context.Context, in *checker, seed, order uint64) (*observation, error) {
	c := g.c
	var view core.Game = c.game
	var ordered *orderedGame
	if order != 0 {
		ordered = newOrderedGame(c.game, order)
		view = ordered
	}
	o := c.opts
	rule := guard(c.rule)
	s, err := core.New(view, rule, core.Config{Seed: seed, Growth: o.Growth, Backup: o.Backup})
	if err != nil {
		return nil, err
	}
	var snaps []gameSnap
	var chunk int64
	r := in.opts.meter.begin()
	defer func() { r.end(len(snaps) == len(o.budgets())) }()
	for _, b := range o.budgets() {
		ran, err := runTo(ctx, s, b, r, false, &chunk)
		in.sims += ran
		if err != nil {
			if f, ok := faultOf(err); ok {
				return nil, f
			}
			return nil, err
		}
		snaps = append(snaps, c.record(s, b))
	}
	if f := auditOf(rule); f != nil {
		return nil, f
	}
	original := func(path []int32) []int32 {
		if ordered == nil {
			return path
		}
		return ordered.original(path)
	}
	sk, err := c.skeleton(ctx, view, original, snaps[len(snaps)-1-o.Window])
	if err != nil {
		return nil, err
	}
	cps := make([]checkpoint, len(snaps))
	for k, sn := range snaps {
		cps[k] = checkpoint{budget: sn.budget, decision: sn.decision}
		for id := range int32(sk.tr.Len()) {
			if st := sn.nodes[pathKey(sk.tr.Path(id))]; st.visits > 0 {
				cps[k].nodes = append(cps[k].nodes, visitedNode{id: id, visits: st.visits, value: st.value})
			}
		}
	}
	return &observation{tr: sk.tr, sol: tree.Solve(sk.tr), snaps: snapshotsOf(cps, nil), search: s, judged: sk.judged, beyond: sk.beyond}, nil
}

// record reads the stored nodes the criterion may need: the root's
// children, and the children of every expanded node with MinParentVisits
// simulations, recursively.
func (c *gameChecker) record(s *core.Search, budget int64) gameSnap {
	sn := gameSnap{budget: budget, decision: s.Decide(c.opts.Decision), nodes: make(map[string]nodeStat)}
	minVisits := c.opts.Criterion.MinParentVisits
	queue := [][]int32{nil}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		info, ok := s.Lookup(path)
		if !ok {
			continue
		}
		sn.nodes[pathKey(path)] = nodeStat{visits: info.Visits, value: info.Value, children: info.Children, kind: info.Kind}
		if len(path) > 0 && info.Visits < minVisits {
			continue
		}
		for k := range int32(info.Children) {
			queue = append(queue, append(path[:len(path):len(path)], k))
		}
	}
	return sn
}

// skel is the explicit skeleton of a search's judged part.
type skel struct {
	tr             *tree.Tree
	judged, beyond int
}

// skeleton builds, from the checkpoint at the window's start, the explicit
// tree of the stored nodes the criterion judges: the root and every
// expanded node with MinParentVisits simulations are inner nodes with all
// their children, the other nodes are leaves whose reward is the oracle's
// value (a terminal's own reward, which the oracle must agree with). Its
// child indices are the search's, so that its paths name the search's
// nodes; its exact solution is V wherever the oracle is exact. A node with
// a child beyond the oracle's budget becomes a leaf with its own value,
// unjudged; its parent in turn if that too is beyond it.
func (c *gameChecker) skeleton(ctx context.Context, view core.Game, original func([]int32) []int32, at gameSnap) (skel, error) {
	heur, _ := view.(core.Heuristic)
	priors := heur != nil && core.NeedsOf(c.rule).Priors
	minVisits := c.opts.Criterion.MinParentVisits
	b := tree.NewBuilder()
	var sk skel
	// build returns the node at path, or ok false when its value is beyond
	// the oracle.
	var build func(path []int32) (tree.Ref, bool, error)
	build = func(path []int32) (tree.Ref, bool, error) {
		st := at.nodes[pathKey(path)]
		leaf := func() (tree.Ref, bool, error) {
			orig := original(path)
			v, ok, err := c.value(ctx, orig)
			if err != nil || !ok {
				return 0, false, err
			}
			replay(view, path)
			if view.Kind() == core.Terminal {
				if r := view.Reward(); math.Abs(r-v) > 1e-9 {
					return 0, false, fmt.Errorf("%w: it disagrees with a terminal reward: V = %v at node %s (the game's own order), whose reward is %v",
						ErrOracle, v, core.PathString(orig), r)
				}
			}
			return b.Leaf(v), true, nil
		}
		inner := st.children > 0 && (len(path) == 0 || st.visits >= minVisits) && (st.kind == core.Max || st.kind == core.Min || st.kind == core.Chance)
		if !inner {
			return leaf()
		}
		edges := make([]tree.Edge, st.children)
		replay(view, path)
		for k := range edges {
			if st.kind == core.Chance {
				edges[k].Prob = view.Prob(k)
			} else if priors {
				if h, ok := heur.Prior(k); ok {
					edges[k] = edges[k].WithPrior(h)
				}
			}
		}
		for k := range edges {
			r, ok, err := build(append(path[:len(path):len(path)], int32(k)))
			if err != nil {
				return 0, false, err
			}
			if !ok {
				sk.beyond++
				return leaf()
			}
			edges[k].Node = r
		}
		if st.kind != core.Chance && len(path) > 0 {
			sk.judged++
		}
		return b.Node(st.kind, edges...), true, nil
	}
	root, ok, err := build(nil)
	switch {
	case err != nil:
		return sk, err
	case !ok:
		return sk, fmt.Errorf("%w: position %s", ErrBeyondOracle, c.name())
	}
	sk.tr, err = b.Build(root)
	if err == nil && sk.tr.NumChildren(0) == 0 {
		err = fmt.Errorf("props: position %s: the root has no stored children at the window's start", c.name())
	}
	return sk, err
}

// witness describes a failed seed: the findings, the replay line, and the
// witness on the exported explicit tree, shrunk, when the tree is small
// enough.
func (c *gameChecker) witness(ctx context.Context, seed, order uint64, fs []Finding, f *Fault, v Verdict) (*Witness, error) {
	o := c.opts
	w := &Witness{Verdict: v, Horizon: o.Horizon, Rule: o.RuleSpec, Condition: condition(fs), Findings: fs, Fault: f,
		Budgets: o.budgets(), Replay: []string{},
		PositionWitness: &PositionWitness{Game: o.Game, Position: o.Position, Seed: seed, Order: order,
			Growth: o.Growth.String(), Backup: o.Backup.String()}}
	w.Run = Replay{Rule: o.RuleSpec, Game: o.Game, Moves: o.Position, Seed: seed, Seeds: 1, Budget: int64(o.MaxBudget),
		KeepOrder: order == 0, Order: order, Growth: o.Growth.String(), Backup: o.Backup.String()}
	switch {
	case v == Faulted:
		w.NotExported = "a fault of the rule, replayed on the position itself"
		return w, nil
	case o.ExportNodes < 0:
		w.NotExported = "export turned off"
		return w, nil
	}
	var view core.Game = c.game
	if order != 0 {
		view = newOrderedGame(c.game, order)
	}
	tr, err := ExportTree(view, o.ExportNodes)
	if errors.Is(err, ErrTooBig) {
		w.NotExported = fmt.Sprintf("the position's tree has more than %d nodes", o.ExportNodes)
		return w, nil
	}
	if err != nil {
		return nil, err
	}
	eo := o.Options
	eo.BinaryOnly = tr.BinaryDeterministic()
	ex := &checker{rule: c.rule, opts: eo}
	res := TreeResult{Name: fmt.Sprintf("%s position %s", o.Game, o.Position), Tree: tr, Verdict: v,
		Findings: fs, Fault: f, Seed: seed}
	if v == Inconsistent {
		res.FailedSeeds = 1
	} else {
		res.StuckSeeds = 1
	}
	w.Explicit, err = ex.witness(ctx, res, "")
	c.inner.sims += ex.sims
	return w, err
}
