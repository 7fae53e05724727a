package gen

import (
	"fmt"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// Trap is a named, parameterised tree from the literature on which some
// selection rules fail.
type Trap struct {
	Name   string // e.g. "eps-deep:l=8"
	Source string // where the construction comes from
	Binary bool   // deterministic with rewards in {0,1}
	Tree   *tree.Tree
}

// trapList collects the traps of a list; a trap's error is a bug of the
// list's parameters, and panics.
type trapList []Trap

func (l *trapList) add(t Trap, err error) {
	if err != nil {
		panic(err)
	}
	*l = append(*l, t)
}

// Traps returns the trap families at the sizes the checker tries by default:
// every family of this file over a small grid of its parameters, chosen to
// span the family rather than to suit any rule's defaults (the bias trap's
// reward r from 1/512 to 1/8 catches exploration rates from about 0.2% to
// about 50%). All are small enough to be searched to 2^14 simulations in
// milliseconds.
func Traps() []Trap {
	var out trapList
	add := out.add
	add(GreedyFirstLossTrap(), nil)
	add(RaveZeroTrap(1))
	add(RaveZeroTrap(3))
	add(NegativeHeuristicTrap(), nil)
	add(EpsilonDeepTrap(4))
	add(EpsilonDeepTrap(8))
	for _, k := range []int{2, 4} {
		for _, gap := range []float64{1, 1.0 / 4} {
			for _, r := range []float64{1.0 / 512, 1.0 / 128, 1.0 / 32, 1.0 / 8} {
				add(BiasTrap(k, gap, r))
			}
		}
	}
	for _, r := range []float64{1.0 / 128, 1.0 / 32} {
		add(BiasTrapAt(4, 1.0/8, r, 1.0/2))
	}
	for _, r := range []float64{1.0 / 4, 1.0 / 2, 3.0 / 4} {
		add(FirstLossTrap(r))
	}
	add(CoquelinMunosChain(4))
	add(CoquelinMunosChain(8))
	// The paper's thresholds (0.3 and 0.7), and any V above 1/8 and V'
	// below 7/8 (at most 8 children, as the fuzz encoding allows).
	add(AbsorbingRandomTrap(4, 3))
	add(AbsorbingRandomTrap(7, 7))
	return out
}

// FirstLossTrap is GreedyFirstLossTrap with a sure reward r as the bad move
// and a good move that loses its first simulations more often:
//
//	(max (max 0 0 0 1) r)
//
// A rule whose exploration of a child with mean 0 behind one with mean r
// fades fast enough (Boltzmann with τ = c/ln n and c < r) starves the good
// move after it loses its first simulations. r must be a multiple of 1/1024
// in (0,1).
func FirstLossTrap(r float64) (Trap, error) {
	if !(r > 0 && r < 1 && r*1024 == float64(int(r*1024))) {
		return Trap{}, fmt.Errorf("gen: FirstLossTrap(%v), want a multiple of 1/1024 in (0,1)", r)
	}
	b := tree.NewBuilder()
	t, err := b.Build(b.Max(b.Max(b.Leaf(0), b.Leaf(0), b.Leaf(0), b.Leaf(1)), b.Leaf(r)))
	return Trap{Name: fmt.Sprintf("first-loss:r=%v", r), Source: "Berthier et al. 2010, §3 Tricks (graded)", Tree: t}, err
}

// GreedyFirstLossTrap is the paper's counterexample for the greedy rule with
// first-play urgency and K1 = K2 = 0 (§3, "Tricks for consistency"): the only
// good move (child 0, a max node worth 1) loses its first simulation, so its
// mean is 0 for ever; the bad move (child 1, a min node worth 0) wins its
// first simulation, so its mean stays above 0 and it is chosen for ever.
//
//	(max (max 0 1) (min 1 0))
func GreedyFirstLossTrap() Trap {
	return Trap{Name: "greedy-first-loss", Source: "Berthier et al. 2010, §3 Tricks", Binary: true,
		Tree: tree.MustParse("(max (max 0 1) (min 1 0))")}
}

// RaveZeroTrap is the paper's counterexample for the RAVE blend of Eq. 13
// (§3, after Brian Sheppard): the only good move (the last child, a leaf worth
// 1, with a move identity played nowhere else) has AMAF value 0, so its score
// stays 0 while it is unvisited; bad moves (min nodes worth 0 whose first
// reply wins for max) get a positive score at their first simulation and keep
// it. bad ≥ 1 is the number of bad moves.
func RaveZeroTrap(bad int) (Trap, error) {
	if bad < 1 || bad > 64 {
		return Trap{}, fmt.Errorf("gen: RaveZeroTrap(%d), want 1 to 64 bad moves", bad)
	}
	b := tree.NewBuilder()
	var kids []tree.Ref
	for range bad {
		kids = append(kids, b.Min(b.Leaf(1), b.Leaf(0)))
	}
	kids = append(kids, b.Leaf(1)) // its move identity, its index, appears nowhere else
	t, err := b.Build(b.Max(kids...))
	return Trap{Name: fmt.Sprintf("rave-zero:bad=%d", bad), Source: "Berthier et al. 2010, §3 (Eq. 13)", Binary: true, Tree: t}, err
}

// NegativeHeuristicTrap is the paper's counterexample for MoGo-style scores
// whose pattern value H can be negative (§3, "Unconsistency of negative
// heuristics"): the only good move (child 1, a leaf worth 1) has prior −1, an
// "empty triangle"; the bad move (child 0, a min node worth 0 whose first
// reply wins for max) has prior 0 and, once simulated, a positive score the
// good move's negative one never reaches.
//
//	(max (min 1 0)~0 1~-1)
func NegativeHeuristicTrap() Trap {
	return Trap{Name: "negative-heuristic", Source: "Berthier et al. 2010, §3 (MoGo vs Fan Hui)", Binary: true,
		Tree: tree.MustParse("(max (min 1 0)~0 1~-1)")}
}

// EpsilonDeepTrap is the paper's Fig. 1 counterexample for ε-greedy with a
// constant ε: the left child is a chain of l min nodes in which min must
// refuse a win for max at every level (value 0), the right child a chain of
// l max nodes in which max must avoid a loss at every level (value 1). Under
// ε-exploration the left chain's mean tends to 1 − (1−ε/2)^l and the right
// one's to (1−ε/2)^l, so for l large enough the search prefers the losing
// left side for ever.
func EpsilonDeepTrap(l int) (Trap, error) {
	if l < 1 || l > 1<<12 {
		return Trap{}, fmt.Errorf("gen: EpsilonDeepTrap(%d), want depth 1 to 4096", l)
	}
	b := tree.NewBuilder()
	left, right := b.Leaf(0), b.Leaf(1)
	for range l {
		left = b.Min(b.Leaf(1), left)
		right = b.Max(b.Leaf(0), right)
	}
	t, err := b.Build(b.Max(left, right))
	return Trap{Name: fmt.Sprintf("eps-deep:l=%d", l), Source: "Berthier et al. 2010, Fig. 1", Binary: true, Tree: t}, err
}

// BiasTrap is the exploration-bias trap of the slides on ε-greedy and
// Boltzmann exploration (Keller 2016: "not greedy in the limit"): child 0 is
// a min node over k−1 leaves worth gap and one leaf worth 0 (value 0); child
// 1 is a leaf worth r > 0, the optimal move. A rule whose exploration at the
// min node does not vanish picks a gap leaf at some constant rate p, so the
// min node's mean tends to p·gap; when that exceeds r, the search prefers the
// min node for ever. gap and r must be multiples of 1/1024 in (0,1].
func BiasTrap(k int, gap, r float64) (Trap, error) { return BiasTrapAt(k, gap, r, 0) }

// BiasTrapAt is BiasTrap with every reward raised by base:
//
//	(max (min base+gap … base+gap base) base+r)
//
// With base ≥ 1/2 the root's mean stays above Algorithm 2's threshold, so
// the threshold does not hide an inner rule's bias. base + gap and base + r
// must not exceed 1; all are multiples of 1/1024.
func BiasTrapAt(k int, gap, r, base float64) (Trap, error) {
	dyadic := func(x float64) bool { return x >= 0 && x <= 1 && x*1024 == float64(int(x*1024)) }
	if k < 2 || k > 8 || !dyadic(gap) || !dyadic(r) || gap == 0 || r == 0 || !dyadic(base) || base+gap > 1 || base+r > 1 {
		return Trap{}, fmt.Errorf("gen: BiasTrapAt(%d, %v, %v, %v), want 2 ≤ k ≤ 8, gap and r in (0,1], base in [0,1), "+
			"base+gap and base+r ≤ 1, all multiples of 1/1024", k, gap, r, base)
	}
	b := tree.NewBuilder()
	var leaves []tree.Ref
	for range k - 1 {
		leaves = append(leaves, b.Leaf(base+gap))
	}
	leaves = append(leaves, b.Leaf(base))
	t, err := b.Build(b.Max(b.Min(leaves...), b.Leaf(base+r)))
	name := fmt.Sprintf("bias:k=%d,gap=%v,r=%v", k, gap, r)
	if base != 0 {
		name += fmt.Sprintf(",base=%v", base)
	}
	return Trap{Name: name, Source: "Keller 2016, slides on ε-greedy and Boltzmann", Tree: t}, err
}

// CoquelinMunosChain is the slow case of UCT from Coquelin and Munos (2007):
// a chain of d max nodes (d a power of two, 2 to 64) where node i may stop
// with reward (d−1−i)/d or go on, and only going on to the end wins 1. Every
// node's value is 1 and going on is always optimal, but the early means of
// the chain lie below the first stop's (d−1)/d, so UCT needs a number of
// simulations that explodes with d before it decides right. It is consistent
// rules' test of an honest "inconclusive".
func CoquelinMunosChain(d int) (Trap, error) {
	if d < 2 || d > 64 || d&(d-1) != 0 {
		return Trap{}, fmt.Errorf("gen: CoquelinMunosChain(%d), want a power of two from 2 to 64", d)
	}
	b := tree.NewBuilder()
	node := b.Leaf(1)
	for i := d - 1; i >= 0; i-- {
		node = b.Max(b.Leaf(float64(d-1-i)/float64(d)), node)
	}
	t, err := b.Build(node)
	return Trap{Name: fmt.Sprintf("coquelin-munos:d=%d", d), Source: "Coquelin & Munos 2007; Grand Challenge §3.4", Tree: t}, err
}

// LostPosition is the paper's §4 situation in miniature (MoGo against Fan
// Hui): a position lost for max (value 0) in which max believes it wins.
// Each of the root's moves leads to a min node with replies good for max
// (max nodes over a win and a loss: value 1, roll-outs win half the time) and
// one refutation (a max node over two losses) whose pattern value for min is
// bad (prior −1/2, the "empty triangle"), so a MoGo-like rule whose score
// adds the prior never simulates it. moves ≥ 1 root moves, replies ≥ 2
// replies each.
func LostPosition(moves, replies int) (*tree.Tree, error) {
	if moves < 1 || moves > 16 || replies < 2 || replies > 16 {
		return nil, fmt.Errorf("gen: LostPosition(%d, %d), want 1 to 16 moves and 2 to 16 replies", moves, replies)
	}
	b := tree.NewBuilder()
	var roots []tree.Ref
	for range moves {
		var edges []tree.Edge
		for range replies - 1 {
			edges = append(edges, tree.E(b.Max(b.Leaf(1), b.Leaf(0))).WithPrior(0))
		}
		edges = append(edges, tree.E(b.Max(b.Leaf(0), b.Leaf(0))).WithPrior(-0.5))
		roots = append(roots, b.Node(core.Min, edges...))
	}
	return b.Build(b.Max(roots...))
}
