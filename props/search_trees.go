package props

import (
	"fmt"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/tree"
)

// Handles is the class of trees a whole search handles, as it declares
// (a program in its handshake: docs/protocol.md). A check sends it no
// other tree, and its report says so. The zero value handles every tree.
type Handles struct {
	// NoChance: the search handles no chance nodes.
	NoChance bool `json:"no_chance,omitempty"`
	// BinaryRewards: the search handles rewards in {0, 1} only.
	BinaryRewards bool `json:"binary_rewards,omitempty"`
	// Alternating: the search assumes that the players alternate: no
	// player moves twice in a row, with chance nodes between them or not.
	Alternating bool `json:"alternating,omitempty"`
}

// A RestrictedSearcher is a Searcher that handles only some trees and says
// which. RunSearch, RunSearchTree and CheckSearch ask it once, before the
// first search, and send it no other tree. An error (a program that does
// not start) leaves the check with every tree, where the first search
// meets the error again and reports it as a fault.
type RestrictedSearcher interface {
	Searcher
	Handles() (Handles, error)
}

// String says which trees h handles, e.g. "no chance nodes, rewards in
// {0, 1}"; "every tree" for the zero Handles.
func (h Handles) String() string {
	var out []string
	if h.NoChance {
		out = append(out, "no chance nodes")
	}
	if h.BinaryRewards {
		out = append(out, "rewards in {0, 1}")
	}
	if h.Alternating {
		out = append(out, "players that alternate")
	}
	if out == nil {
		return "every tree"
	}
	return strings.Join(out, ", ")
}

// Allows returns nil if the search handles tr, or an error that names the
// first node it does not handle. Its cost is linear in the tree's size.
func (h Handles) Allows(tr *tree.Tree) error {
	if h == (Handles{}) {
		return nil
	}
	// mover[i]: the player who moved last on the way to i, i included
	// (core.Terminal above the root's first move). Nodes are numbered
	// breadth first, a parent before its children.
	mover := make([]core.Kind, tr.Len())
	for i := range int32(tr.Len()) {
		kind, last := tr.Kind(i), core.Terminal
		if p := tr.Parent(i); p >= 0 {
			last = mover[p]
		}
		mover[i] = last
		path := tree.FormatPath(tr.Path(i))
		switch {
		case kind == core.Chance && h.NoChance:
			return fmt.Errorf("node %s is a chance node, and the search handles none", path)
		case kind == core.Terminal && h.BinaryRewards && tr.Reward(i) != 0 && tr.Reward(i) != 1:
			return fmt.Errorf("terminal %s has the reward %v, and the search handles rewards in {0, 1} only", path, tr.Reward(i))
		case (kind == core.Max || kind == core.Min) && h.Alternating && kind == last:
			return fmt.Errorf("node %s: %v moves twice in a row, and the search handles players that alternate only", path, kind)
		case kind == core.Max || kind == core.Min:
			mover[i] = kind
		}
	}
	return nil
}

// shape restricts sh to the trees h handles.
func (h Handles) shape(sh gen.Shape) gen.Shape {
	if h.NoChance {
		sh.Chance = false
	}
	if h.BinaryRewards {
		sh.Binary = true
	}
	if h.Alternating {
		sh.Arbitrary = false // the generator alternates max and min, through chance nodes too
	}
	return sh
}

// handling returns o with the trees s declares it handles, if s is a
// RestrictedSearcher.
func (o Options) handling(s Searcher) Options {
	if r, ok := s.(RestrictedSearcher); ok {
		if h, err := r.Handles(); err == nil { // else the first search meets the error
			o.handles = h
			o.Shape = h.shape(o.Shape)
		}
	}
	return o
}

// searchTrees returns the trees RunSearch checks: the trap families and
// the whole-search families (gen.SearchTraps) that the options and the
// search allow, smallest first, then Options.Trees random trees.
func (o Options) searchTrees() []namedTree {
	var extra []gen.Trap
	if !o.NoTraps {
		extra = gen.SearchTraps()
	}
	return o.trees(extra...)
}
