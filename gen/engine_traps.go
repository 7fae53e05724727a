package gen

import (
	"fmt"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// The trap families of real engines' rules: policy priors (PUCT engines
// read a node's priors as its policy, core.Site.Policy), the first-play urgency
// they give unvisited children, and wide nodes. They are parameterised so
// that a preset meets both sides of its threshold: a policy of 0 (no
// exploration term at all), a small one (a recovery far beyond a run, as
// in lc0 #644 with 0.0135), and rewards on either side of an absolute
// first-play value (1/2 for OpenSpiel's PUCT, 0.665 for lc0's absolute
// FPU). EngineTraps lists a grid of them.

// dyadic1024 reports whether x is a multiple of 1/1024 in [0,1).
func dyadic1024(x float64) bool { return x >= 0 && x < 1 && x*1024 == float64(int(x*1024)) }

// PriorTrap is a max node with k children: k−1 bad leaves worth v, each
// with prior (1−p)/(k−1), and the only good move, a leaf worth 1, last,
// with prior p. Its policy (the normalised priors) gives the good move p.
// With p = 0 a PUCT rule gives the good move no exploration term, so it is
// simulated only if its first-play value beats a bad leaf's; with p > 0 it
// is found once the term c·p·sqrt(N) outgrows the gap. v = 0 makes the
// tree binary; v above 1/2 defeats a first-play value of a draw. k from 2
// to 64, p in [0,1), v a multiple of 1/1024 in [0,1).
func PriorTrap(k int, p, v float64) (Trap, error) {
	if k < 2 || k > 64 || !(p >= 0 && p < 1) || !dyadic1024(v) {
		return Trap{}, fmt.Errorf("gen: PriorTrap(%d, %v, %v), want 2 ≤ k ≤ 64, p in [0,1), v a multiple of 1/1024 in [0,1)", k, p, v)
	}
	b := tree.NewBuilder()
	t, err := b.Build(onlyGoodMove(b, k, p, v))
	return Trap{Name: fmt.Sprintf("prior:k=%d,p=%v,v=%v", k, p, v), Source: "lc0 #644; Leela Zero PR #1623 (low-prior moves)",
		Binary: v == 0, Tree: t}, err
}

// onlyGoodMove builds a max node with k−1 leaves worth v, prior (1−p)/(k−1)
// each, and last a leaf worth 1 with prior p.
func onlyGoodMove(b *tree.Builder, k int, p, v float64) tree.Ref {
	var edges []tree.Edge
	for range k - 1 {
		edges = append(edges, tree.E(b.Leaf(v)).WithPrior((1-p)/float64(k-1)))
	}
	edges = append(edges, tree.E(b.Leaf(1)).WithPrior(p))
	return b.Node(core.Max, edges...)
}

// WideTrap is PriorTrap at a node with more than 16 children, the number of
// actions Gumbel MuZero's root considers: k from 17 to 64.
func WideTrap(k int, p, v float64) (Trap, error) {
	if k < 17 || k > 64 {
		return Trap{}, fmt.Errorf("gen: WideTrap(%d, %v, %v), want 17 ≤ k ≤ 64 children", k, p, v)
	}
	t, err := PriorTrap(k, p, v)
	t.Name = "wide:" + t.Name[len("prior:"):]
	t.Source = "mctx Gumbel MuZero (max_num_considered_actions 16)"
	return t, err
}

// FPUTrap is the only-winning-move situation of lc0 #1410 one level down,
// where the FPU reduction decides: the root (max) chooses between a decoy
// leaf worth v and a max node G whose k−1 replies lose (leaves worth 0,
// prior (1−p)/(k−1) each) and whose last reply, with prior p, wins (a leaf
// worth 1). G's value is 1, so G is the only good move; root priors are 1/2
// each. While G's winning reply is unvisited, G's mean is 0 and an FPU
// reduction puts the reply's first-play value below the losing replies',
// so G must be simulated about (gap/(c·p))² times before the reply is
// tried, while the root, seeing G at 0, gives G few simulations: the two
// delays compound. k from 2 to 64, p in [0,1), v a multiple of 1/1024 in
// [0,1); v = 0 makes the tree binary.
func FPUTrap(k int, p, v float64) (Trap, error) {
	if k < 2 || k > 64 || !(p >= 0 && p < 1) || !dyadic1024(v) {
		return Trap{}, fmt.Errorf("gen: FPUTrap(%d, %v, %v), want 2 ≤ k ≤ 64, p in [0,1), v a multiple of 1/1024 in [0,1)", k, p, v)
	}
	b := tree.NewBuilder()
	g := onlyGoodMove(b, k, p, 0)
	t, err := b.Build(b.Node(core.Max, tree.E(b.Leaf(v)).WithPrior(0.5), tree.E(g).WithPrior(0.5)))
	return Trap{Name: fmt.Sprintf("fpu:k=%d,p=%v,v=%v", k, p, v), Source: "lc0 #1410 (an only winning move starved); Leela Zero PR #238",
		Binary: v == 0, Tree: t}, err
}

// HeuristicTrap is a max node over a sure loss and the only good move, a
// leaf worth v in (0,1) whose heuristic value (prior) is h < 0:
//
//	(max 0 v~h)
//
// A rule that adds a heuristic bias fading like 1/n to a UCB1 term, as
// Ludii's progressive bias does with weight 10, leaves the good move after
// its first simulation until the UCB1 term c·sqrt(ln N) repays the bias
// 10·|h| less the value gap: with h = −1 after about e^45 ≈ 2^65
// simulations, beyond any run and beyond the checker's limit probe (2^62);
// with h = −1/2 after about 2^15. h in [-1,0), v a multiple of 1/1024.
func HeuristicTrap(h, v float64) (Trap, error) {
	if !(h >= -1 && h < 0) || !dyadic1024(v) || v == 0 {
		return Trap{}, fmt.Errorf("gen: HeuristicTrap(%v, %v), want h in [-1,0) and v a multiple of 1/1024 in (0,1)", h, v)
	}
	b := tree.NewBuilder()
	t, err := b.Build(b.Node(core.Max, tree.E(b.Leaf(0)), tree.E(b.Leaf(v)).WithPrior(h)))
	return Trap{Name: fmt.Sprintf("heuristic:h=%v,v=%v", h, v), Source: "Ludii ProgressiveBias (weight 10); Berthier et al. 2010, §3 (negative heuristics)",
		Tree: t}, err
}

// EngineTraps returns the engine trap families over a small grid of their
// parameters: policies of 0 and 1/64 (and 1/1024 for the wide node),
// binary and graded rewards on both sides of 1/2 and of lc0's absolute
// first-play value, and heuristics of −1 and −1/2. They are not in Traps,
// the checker's default list: props' TestEngines checks the presets of
// package rules on them and on Traps. Appending them to Traps would give
// every check thirteen more small trees, and more CPU time for a default
// props.Run of consistent rules (uct, prior, eps-greedy-decay), and would
// change the tree counts and, for
// inconsistent rules, the first witness in reports; rules that ignore
// priors are unaffected by their priors.
func EngineTraps() []Trap {
	var out trapList
	add := out.add
	for _, p := range []float64{0, 1.0 / 64} {
		for _, v := range []float64{0, 3.0 / 4} {
			add(PriorTrap(2, p, v))
			add(FPUTrap(4, p, v))
		}
	}
	add(PriorTrap(2, 0, 7.0/8))
	add(WideTrap(20, 1.0/1024, 0))
	add(WideTrap(20, 0, 3.0/4))
	add(HeuristicTrap(-1, 1.0/4))
	add(HeuristicTrap(-1.0/2, 1.0/4))
	return out
}
