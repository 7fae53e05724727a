package props

import (
	"errors"
	"fmt"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
)

// errNilContext is the error of a check given a nil context.
var errNilContext = errors.New("props: nil context (use context.Background())")

// Options configure a check. The zero value means the defaults, listed with
// each field; they are the scale at which props' package doc states the
// criterion's error rates.
type Options struct {
	// Trees is the number of random trees Run draws; 0 means 100. Check
	// draws as many as rapid's -rapid.checks flag says (default 100).
	Trees int
	// Shape bounds the random trees; the zero Shape means DefaultShape.
	Shape gen.Shape
	// BinaryOnly restricts every tree, generated or trap, to deterministic
	// trees with rewards in {0,1}: the class on which Algorithm 2 and the
	// max(V', 0.1) fix are proved consistent.
	BinaryOnly bool
	// Traps are trap trees to check before gen.Traps, such as
	// gen.EngineTraps for the presets of real engines.
	Traps []gen.Trap
	// NoTraps skips the trap families of gen.Traps (not Traps).
	NoTraps bool
	// Seeds is the number of searches per tree, each with its own seed and,
	// but for the first, its own child order drawn from the seed; 0 means 4
	// (CheckTree: 16, one tree being cheap to search in many orders).
	Seeds int
	// KeepOrder searches every seed with the children in the tree's own
	// order, as a replay of a witness does.
	KeepOrder bool
	// Seed is the first search seed (the others follow it) and the seed of
	// Run's tree generator; 0 means 1.
	Seed uint64
	// MinBudget and MaxBudget bound the doubling checkpoints, in simulations;
	// 0 means 64 and 16384. MaxBudget/MinBudget must be a power of two.
	MinBudget, MaxBudget int
	// Window is the number of final doublings the criterion reads; 0 means 4.
	Window int
	// Growth, Backup and Decision configure the engine; the zero values are
	// paper mode (Algorithm 1 literally), average backups, most visited.
	Growth   core.Growth
	Backup   core.Backup
	Decision core.Decision
	// Workers, when 2 or more, searches every tree tree-parallel with that
	// many workers and VirtualLoss (core.NewTreeParallel) in lockstep
	// (core.Config.Lockstep): batches of Workers simulations descend
	// together, each seeing the others in flight through the virtual loss,
	// before any is backed up. The check is then deterministic for a given
	// Workers, as a serial one is: same options, same report, on any
	// machine. It asks whether the rule stays consistent when the
	// statistics it reads lag behind by the simulations in flight. 0 or 1
	// means the serial search. mctscheck check's -tree-workers, -virtual-loss
	// and -virtual-value set them, and replay lines carry them.
	Workers     int
	VirtualLoss core.VirtualLoss
	// Jobs is the number of searches run at once, each in its own
	// goroutine: trees judged at once, and the seeds of a tree when there
	// are fewer trees than Jobs (a single tree's check runs up to Jobs of
	// its seeds at once); 0 or 1 means one at a time. The report is the
	// same for every Jobs (trees and seeds are taken in turn, and the
	// first witness stops the check as it does serially), but the rule's
	// Select is then called from several goroutines at once, which the
	// catalogue's rules allow.
	Jobs int
	// Horizon is H, the count up to which the limit probe follows a
	// mechanism, in simulations of the node it is found at: a decision
	// that stays wrong through H, its limit not shown, is Stuck. 0 means
	// DefaultHorizon (2^62); at most 2^62, at least MaxBudget.
	Horizon uint64
	// AllowStuck lets Check pass a stuck verdict, logging it, instead of
	// failing the test. Run and the other entry points report it alike.
	AllowStuck bool
	// Criterion sets the thresholds with which checkpoints are read; the
	// zero Criterion means DefaultCriterion.
	Criterion Criterion
	// RuleSpec names the rule in replay lines, e.g. "greedy-fpu" for
	// `mctscheck check -rule greedy-fpu`; empty means no mctscheck line.
	RuleSpec string
	// Shard, if not zero, runs one part of the check (Run, CheckTree,
	// RunSearch, RunSearchTree): the searches that Shard deals to it. Its
	// report carries the evidence Merge needs to rebuild the whole
	// check's report from the reports of all its shards.
	Shard Shard
	// Progress, if set, is called after each tree with the trees done and the
	// trees to do.
	Progress func(done, total int)
	// handles is the class of trees a whole search declared it handles
	// (RestrictedSearcher); the zero value, every tree.
	handles Handles
	// Status, if set, is called as a check goes, for a progress line: at
	// its start with the work planned, after each tree taken up and each
	// search done, as the simulations run (at most every 100 ms for them
	// alone), and at each step of a witness's shrinker. It may be called
	// from a goroutine other than the caller's, never from two at once.
	Status func(Status)

	// meter counts the work for Status while a check runs (meter.go).
	meter *meter
}

// Status is where a check is (Options.Status).
type Status struct {
	// Phase is PhaseTrees (Done trees taken up, in order, of Total) or
	// PhaseShrinking (Done edits kept after Total candidate trees judged).
	Phase       string
	Done, Total int
	// In PhaseTrees, the work that moves while later trees and seeds are
	// judged ahead of their turn: Searches done (each seed of each tree,
	// in any order) of SearchesPlanned, and Sims run of SimsPlanned
	// (every search runs to the last budget; a check that ends at a
	// witness or a fault runs fewer). The limit probe's and the
	// shrinker's work is not counted.
	Searches, SearchesPlanned int
	Sims, SimsPlanned         int64
	// Slowest is the time that the running search furthest from its end
	// needs at its own pace over the last half or more of its time (since
	// its first count while too little has run since), of those an eighth
	// done: the check lasts that long at least, whatever the others do (a
	// deep tree's search, nine sites a simulation, runs alone at the end
	// of a check of a slow program). 0 when no running search is an
	// eighth done.
	Slowest time.Duration
}

// The phases of Status.
const (
	PhaseTrees     = "trees"
	PhaseShrinking = "shrinking"
)

// status reports a phase's step to o.Status, if set, through the check's
// meter when it has one, so that no two reports overlap.
func (o Options) status(phase string, done, total int) {
	switch {
	case o.meter != nil:
		o.meter.phase(phase, done, total)
	case o.Status != nil:
		o.Status(Status{Phase: phase, Done: done, Total: total})
	}
}

// DefaultShape is the random tree shape of a check: depth ≤ 3, branching ≤ 3,
// ≤ 30 nodes, alternating max and min with chance nodes allowed, rewards on
// the 1/64 grid, move identities from six shared moves (so AMAF statistics mean
// something) and priors on every edge (so heuristic rules meet bad ones).
var DefaultShape = gen.Shape{MaxDepth: 3, MaxBranching: 3, MaxNodes: 30, Chance: true, Grid: 64, Moves: 6, Priors: true}

// Limits of the option values.
const (
	maxSeeds   = 1 << 10
	maxTrees   = 1 << 20
	maxBudget  = 1 << 26
	maxWorkers = 64
)

// withDefaults fills in zero fields and checks ranges.
func (o Options) withDefaults() (Options, error) {
	if o.Trees == 0 {
		o.Trees = 100
	}
	if o.Shape == (gen.Shape{}) {
		o.Shape = DefaultShape
	}
	if o.BinaryOnly {
		o.Shape.Binary, o.Shape.Chance = true, false
	}
	if o.Seeds == 0 {
		o.Seeds = 4
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.MinBudget == 0 {
		o.MinBudget = 64
	}
	if o.MaxBudget == 0 {
		o.MaxBudget = 16384
	}
	if o.Window == 0 {
		o.Window = 4
	}
	if o.Horizon == 0 {
		o.Horizon = DefaultHorizon
	}
	for i, t := range o.Traps {
		if t.Tree == nil || t.Tree.Len() == 0 {
			return o, fmt.Errorf("props: Options.Traps[%d] (%q) has no tree", i, t.Name)
		}
	}
	if err := o.Shape.Check(); err != nil {
		return o, fmt.Errorf("props: Options.Shape: %w", err)
	}
	if o.Criterion == (Criterion{}) {
		o.Criterion = DefaultCriterion
	}
	o.Criterion = o.Criterion.withDefaults()
	if err := o.Criterion.check(); err != nil {
		return o, err
	}
	if err := o.Shard.check(); err != nil {
		return o, fmt.Errorf("props: Options.Shard: %w", err)
	}
	switch {
	case o.Workers < 0 || o.Workers > maxWorkers:
		return o, fmt.Errorf("props: Workers %d, want 0 to %d", o.Workers, maxWorkers)
	case o.Workers < 2 && o.VirtualLoss != (core.VirtualLoss{}):
		return o, fmt.Errorf("props: %v needs Workers ≥ 2", o.VirtualLoss)
	case o.Jobs < 0:
		return o, fmt.Errorf("props: Jobs %d, want ≥ 0", o.Jobs)
	case o.Trees < 0 || o.Trees > maxTrees:
		return o, fmt.Errorf("props: Trees %d, want 1 to %d", o.Trees, maxTrees)
	case o.Seeds < 0 || o.Seeds > maxSeeds:
		return o, fmt.Errorf("props: Seeds %d, want 1 to %d", o.Seeds, maxSeeds)
	case o.MinBudget < 1 || o.MaxBudget > maxBudget || o.MinBudget > o.MaxBudget:
		return o, fmt.Errorf("props: budgets %d to %d, want 1 ≤ MinBudget ≤ MaxBudget ≤ %d", o.MinBudget, o.MaxBudget, maxBudget)
	case o.MaxBudget%o.MinBudget != 0 || !powerOfTwo(o.MaxBudget/o.MinBudget):
		return o, fmt.Errorf("props: MaxBudget %d is not MinBudget %d times a power of two", o.MaxBudget, o.MinBudget)
	case o.Window < 2:
		return o, fmt.Errorf("props: Window %d, want ≥ 2 doublings", o.Window)
	case o.Horizon > DefaultHorizon || o.Horizon < uint64(o.MaxBudget):
		return o, fmt.Errorf("props: Horizon %d, want MaxBudget %d to 2^62", o.Horizon, o.MaxBudget)
	case o.Window > len(o.budgets())-1:
		return o, fmt.Errorf("props: %d checkpoints from %d to %d, want at least Window+1 = %d", len(o.budgets()), o.MinBudget, o.MaxBudget, o.Window+1)
	case o.Growth > core.GrowPractical || o.Backup > core.BackupMinimax || o.Decision > core.Secure:
		return o, fmt.Errorf("props: unknown growth %d, backup %d or decision %d", o.Growth, o.Backup, o.Decision)
	}
	return o, nil
}

// budgets returns the checkpoints: MinBudget doubled up to MaxBudget.
func (o Options) budgets() []int64 {
	var out []int64
	for b := int64(o.MinBudget); b <= int64(o.MaxBudget); b *= 2 {
		out = append(out, b)
	}
	return out
}

func powerOfTwo(n int) bool { return n > 0 && n&(n-1) == 0 }
