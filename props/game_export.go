package props

import (
	"errors"
	"fmt"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// ErrTooBig is the error, possibly wrapped, of an ExportTree whose game tree
// has more nodes than it may build.
var ErrTooBig = errors.New("props: game tree too big to export")

// ExportTree returns the whole tree of g, from its root, as an explicit tree
// with the game's move identities (core.Mover), priors (core.Heuristic) and
// chance probabilities on its edges: searching it is searching g, the same
// seed giving the same statistics, and the tree text format, the exact
// solver and the shrinker apply to it. It returns an error wrapping ErrTooBig
// when the tree has more than maxNodes nodes, having built no more than
// that, and an error for what tree.Builder refuses (a reward outside [0,1],
// a position with no moves that is not terminal).
//
// It drives g to each position from the root, so it costs O(depth) moves per
// node; a game with transpositions is unfolded into a tree.
func ExportTree(g core.Game, maxNodes int) (*tree.Tree, error) {
	if maxNodes < 1 {
		return nil, fmt.Errorf("props: ExportTree with maxNodes %d, want ≥ 1", maxNodes)
	}
	mover, _ := g.(core.Mover)
	heur, _ := g.(core.Heuristic)
	b := tree.NewBuilder()
	nodes := 0
	var path []int32
	var build func() (tree.Ref, error)
	build = func() (tree.Ref, error) {
		if nodes++; nodes > maxNodes {
			return 0, fmt.Errorf("%w: more than %d nodes", ErrTooBig, maxNodes)
		}
		replay(g, path)
		kind := g.Kind()
		if kind == core.Terminal {
			return b.Leaf(g.Reward()), nil
		}
		edges := make([]tree.Edge, g.NumMoves())
		for i := range edges {
			e := &edges[i]
			if kind == core.Chance {
				e.Prob = g.Prob(i)
			}
			if mover != nil {
				*e = e.WithMove(mover.Move(i))
			}
			if heur != nil && kind != core.Chance {
				if h, ok := heur.Prior(i); ok {
					*e = e.WithPrior(h)
				}
			}
		}
		for i := range edges {
			path = append(path, int32(i))
			r, err := build()
			path = path[:len(path)-1]
			if err != nil {
				return 0, err
			}
			edges[i].Node = r
		}
		return b.Node(kind, edges...), nil
	}
	root, err := build()
	if err != nil {
		return nil, err
	}
	return b.Build(root)
}

// replay drives g from its root along path.
func replay(g core.Game, path []int32) {
	g.Reset()
	for _, i := range path {
		g.Play(int(i))
	}
}
