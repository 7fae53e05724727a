package gen

import (
	"fmt"

	"github.com/mctscheck/mctscheck/tree"
)

// AbsorbingRandomTrap is a binary deterministic tree on which the paper's
// Algorithm 2 (§3, the consistency modification) is inconsistent whatever
// rule it wraps, found by this checker:
//
//	(max (max 0 … 0 1) (min 1 … 1 0))
//
// with zeros 0s beside the good move's one winning reply and ones 1s beside
// the bad move's one refutation. The good move (child 0, worth 1) is a max
// node where only 1 child in zeros+1 wins: while its mean is below
// V_threshold, Algorithm 2 picks its children uniformly, which keeps the
// mean near 1/(zeros+1), below V_threshold for ever once zeros+1 > 1/V_threshold.
// The bad move (child 1, worth 0) is a min node where ones children in ones+1
// lose for min: above V'_threshold it picks uniformly too, which keeps its
// mean near ones/(ones+1). At the root the bad move's mean stays above the
// good move's, so a rule satisfying Eq. 4 gives the good move a vanishing
// share, and one that starves the worse child never returns to it. The
// random mode is absorbing with positive probability: that is enough for
// inconsistency.
//
// zeros and ones must be in [1, 64].
func AbsorbingRandomTrap(zeros, ones int) (Trap, error) {
	if zeros < 1 || zeros > 64 || ones < 1 || ones > 64 {
		return Trap{}, fmt.Errorf("gen: AbsorbingRandomTrap(%d, %d), want 1 to 64 of each", zeros, ones)
	}
	b := tree.NewBuilder()
	good := make([]tree.Ref, 0, zeros+1)
	for range zeros {
		good = append(good, b.Leaf(0))
	}
	good = append(good, b.Leaf(1))
	bad := make([]tree.Ref, 0, ones+1)
	for range ones {
		bad = append(bad, b.Leaf(1))
	}
	bad = append(bad, b.Leaf(0))
	t, err := b.Build(b.Max(b.Max(good...), b.Min(bad...)))
	return Trap{
		Name:   fmt.Sprintf("absorbing-random:zeros=%d,ones=%d", zeros, ones),
		Source: "this checker, against Berthier et al. 2010, §3 Algorithm 2",
		Binary: true,
		Tree:   t,
	}, err
}
