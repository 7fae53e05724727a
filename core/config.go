package core

import (
	"fmt"
	"math"
	"runtime/debug"
)

// DefaultMaxDepth is the MaxDepth of a Config that leaves it 0: 2^20 moves,
// more than any finite game the project plays (Go's move cap is at most
// 100·size², 36,100 on 19×19; package tree's deepest tested chain is 10^6
// nodes), and a roll-out of that length takes milliseconds.
const DefaultMaxDepth = 1 << 20

// MaxCapacity is the largest Config.Capacity: the arena numbers its nodes
// with int32, so no tree holds more than 2^31 − 1 nodes, which is already
// 32 GiB at the smallest 16 bytes a node.
const MaxCapacity = math.MaxInt32

// checkLimits reports a Capacity, MaxNodes or MaxDepth out of range, for a
// search whose arena costs bytesPerNode bytes a node, and sets MaxDepth's
// default.
func (c *Config) checkLimits(bytesPerNode int) error {
	switch {
	case c.Capacity < 0:
		return fmt.Errorf("core: Capacity %d is negative", c.Capacity)
	case c.Capacity > MaxCapacity:
		return fmt.Errorf("core: Capacity %d, want at most MaxCapacity = 2^31 − 1 nodes (the arena's int32 index space)", c.Capacity)
	case c.MaxNodes < 0:
		return fmt.Errorf("core: MaxNodes %d is negative", c.MaxNodes)
	case c.MaxDepth < 0 || c.MaxDepth > math.MaxInt32:
		return fmt.Errorf("core: MaxDepth %d, want 0 (the default, %d) to 2^31 − 1 moves", c.MaxDepth, DefaultMaxDepth)
	}
	if err := checkMemory(int64(c.Capacity), int64(bytesPerNode), "Capacity", "a node"); err != nil {
		return err
	}
	if c.MaxDepth == 0 {
		c.MaxDepth = DefaultMaxDepth
	}
	return nil
}

// Growth says which nodes a simulation adds to the stored tree.
type Growth uint8

const (
	// GrowPaper runs Algorithm 1 literally: every node of a simulated path is
	// stored and updated, and every simulation descends by the rule down to
	// a terminal node. There are no roll-outs.
	GrowPaper Growth = iota
	// GrowPractical is the Grand Challenge paper's §3.3 loop: descent in the
	// stored tree; a stored leaf with fewer than Config.ExpandAfter real
	// visits is evaluated by a roll-out; otherwise its children are added and
	// the descent goes on through one of them. Each simulation thus gives
	// statistics to exactly one new node.
	GrowPractical
)

// String returns "paper" or "practical".
func (g Growth) String() string {
	switch g {
	case GrowPaper:
		return "paper"
	case GrowPractical:
		return "practical"
	}
	return "Growth(?)"
}

// Backup says how a node's value estimate is formed from its simulations.
type Backup uint8

const (
	// BackupAverage is the paper's V̂ = w/n, the mean of all rewards.
	BackupAverage Backup = iota
	// BackupMinimax backs up, at each node of the path, the max (min) over
	// its visited children's values at max (min) nodes and their visit-weighted
	// mean at chance nodes; a stored leaf's value is its mean. Rules then see
	// W = n × value. This is the "minimax backups" of the slides, which make
	// ε-greedy and Boltzmann consistent.
	BackupMinimax
)

// String returns "average" or "minimax".
func (b Backup) String() string {
	switch b {
	case BackupAverage:
		return "average"
	case BackupMinimax:
		return "minimax"
	}
	return "Backup(?)"
}

// Policy is a roll-out (default) policy for GrowPractical. Choose is called
// at max and min positions outside the stored tree and returns a move index
// in [0, g.NumMoves()); chance positions are sampled by the search.
type Policy interface {
	Choose(g Game, rng *RNG) int
}

// Config sets up a Search. Its zero value is a paper-mode search with
// average backups, uniform roll-outs, seed 0 and an arena that grows on demand.
type Config struct {
	// Seed fixes every random choice of the search.
	Seed uint64
	// Growth is GrowPaper (default) or GrowPractical.
	Growth Growth
	// ExpandAfter is, in practical mode, the number of real visits a stored
	// leaf gets (each a roll-out) before its children are added; 0 means 1:
	// roll out on the first visit, expand on the second.
	ExpandAfter int
	// Backup is BackupAverage (default) or BackupMinimax.
	Backup Backup
	// Rollout is the default policy of practical mode; nil means uniformly
	// random moves.
	Rollout Policy
	// Capacity is the number of nodes to allocate up front. A search whose
	// tree stays within it allocates nothing while it runs. It costs
	// Capacity × Search.BytesPerNode bytes at once (16 to 88 a node), so it
	// is at most MaxCapacity, and New refuses a Capacity whose arena would
	// exceed the Go memory limit (GOMEMLIMIT, debug.SetMemoryLimit), the
	// address-space limit (ulimit -v) or the machine's memory.
	Capacity int
	// MaxNodes bounds the stored tree; 0 means no bound. In practical mode a
	// leaf that would cross it is rolled out instead of expanded; in paper
	// mode crossing it is an error.
	MaxNodes int
	// MaxDepth bounds a simulation, stored path and roll-out together: a
	// position MaxDepth moves below the root that is not terminal ends the
	// search with a *GameError, so that a game that never ends cannot hang
	// a search or fill the memory. 0 means DefaultMaxDepth. In paper mode a
	// simulation stores up to MaxDepth × (number of moves) nodes before the
	// bound is met; MaxNodes bounds that too.
	MaxDepth int
	// VirtualLoss is the virtual loss of a tree-parallel search (NewTreeParallel);
	// the zero value means none. Other searches ignore it.
	VirtualLoss VirtualLoss
	// Lockstep makes a tree-parallel search (NewTreeParallel) deterministic: its
	// workers take turns in the calling goroutine, each batch descending
	// one simulation per worker, every one seeing the others in flight
	// through their virtual loss, and then backing them all up. It gives
	// the statistics of k simulations always in flight together, as a
	// batched engine (lc0's batches of leaves) has them, without thread
	// timing; same seed, same statistics. Other searches ignore it.
	Lockstep bool
}

// VirtualLoss makes the workers of a tree-parallel search spread out (Grand
// Challenge paper §4.3; Chaslot, Winands and van den Herik 2008): while a
// simulation is in flight through a node, the rule of every other worker
// sees the node with N more simulations, each with reward Value from the
// perspective of the player who chose the node. Value 0 is the classic
// virtual loss, 0.5 a "virtual draw". The statistics themselves are never
// touched: the rule sees the in-flight simulations as virtual experience
// (Site.N and Site.W include them, Site.Visits does not), and a worker
// never sees its own simulation, so a tree-parallel search with one worker
// is the serial search.
type VirtualLoss struct {
	// N is the number of virtual simulations per simulation in flight; 0
	// means no virtual loss.
	N float64
	// Value is the reward of each, in [0,1], from the chooser's side.
	Value float64
}

// check reports a VirtualLoss out of range.
func (v VirtualLoss) check() error {
	if !(v.N >= 0 && v.N <= 1<<20) || !(v.Value >= 0 && v.Value <= 1) {
		return fmt.Errorf("core: virtual loss N=%v Value=%v, want 0 ≤ N ≤ 2^20 and 0 ≤ Value ≤ 1", v.N, v.Value)
	}
	return nil
}

// checkMemory reports an allocation of count × size bytes, made up front
// for what (a search's Capacity, AMAF's marks; size bytes per unit), that the process cannot
// make: more than the Go memory limit (GOMEMLIMIT, debug.SetMemoryLimit),
// the address-space limit (ulimit -v) or the machine's memory. Go's
// runtime would end the process on it with a fatal error, which no caller
// can recover from.
func checkMemory(count, size int64, what, unit string) error {
	if count <= 0 {
		return nil
	}
	if count > math.MaxInt64/size {
		return fmt.Errorf("core: %s %d needs more than 2^63 bytes (%d %s)", what, count, size, unit)
	}
	need := count * size
	if limit := debug.SetMemoryLimit(-1); limit < math.MaxInt64 && need > limit {
		return fmt.Errorf("core: %s %d needs %d bytes up front (%d %s), more than the Go memory limit of %d bytes (GOMEMLIMIT)",
			what, count, need, size, unit, limit)
	}
	ram, as := machineMemory()
	if as > 0 && uint64(need) > as {
		return fmt.Errorf("core: %s %d needs %d bytes up front (%d %s), more than the address-space limit of %d bytes (ulimit -v)",
			what, count, need, size, unit, as)
	}
	if ram > 0 && uint64(need) > ram {
		return fmt.Errorf("core: %s %d needs %d bytes up front (%d %s), more than this machine's %d bytes of memory",
			what, count, need, size, unit, ram)
	}
	return nil
}
