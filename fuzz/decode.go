package fuzz

import (
	"cmp"
	"fmt"
	"math"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// The tree code is described in the package doc ("Tree codes"). Within it,
// a node below the depth limit, or whose children would cross the node
// limit, becomes a terminal with the reward its header byte gives; a node
// with room for fewer children than it asks for gets as many as fit, and
// none gets more than limits.maxKids. With limits.rootMax the root is a max
// node with at least two children whatever its byte says. With
// limits.noChance a chance header makes a max node, and with limits.binary
// also a reward of 1/2 or more reads as 1 and one below as 0.

// limits bound the trees decode makes.
type limits struct {
	maxNodes int  // at least 3
	maxDepth int  // at least 1
	maxKids  int  // 2 to 8; 0 means 8
	rootMax  bool // the root is a max node with ≥ 2 children
	noChance bool // no chance nodes
	binary   bool // no chance nodes, rewards in {0,1}
}

// spec is a decoded tree before it is built: its nodes in breadth-first
// order, each with the attributes of the edges to its children. It is the
// fuzz targets' own view of the tree, independent of tree.Tree.
type spec struct {
	nodes []specNode
}

type specNode struct {
	kind   core.Kind
	reward float64 // terminals
	depth  int
	parent int32       // position in spec.nodes; −1 at the root
	kids   []int32     // positions in spec.nodes
	edges  []tree.Edge // the edges to kids; Node is filled in by build
}

// reader hands out the bytes of a fuzz input, and zeros once they run out.
type reader struct{ b []byte }

func (r *reader) next() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// decode reads a tree code. It never fails.
func decode(data []byte, lim limits) *spec {
	r := reader{data}
	sp := &spec{nodes: []specNode{{parent: -1}}}
	for i := 0; i < len(sp.nodes); i++ {
		h := r.next()
		nd := &sp.nodes[i]
		kind := core.Kind(h & 3)
		if kind == core.Chance && (lim.noChance || lim.binary) {
			kind = core.Max
		}
		k := 1 + int(h>>2)&7
		if i == 0 && lim.rootMax {
			kind, k = core.Max, max(k, 2)
		}
		if lim.maxKids > 0 {
			k = min(k, lim.maxKids)
		}
		k = min(k, lim.maxNodes-len(sp.nodes))
		if kind == core.Terminal || nd.depth >= lim.maxDepth || k < 1 {
			nd.kind = core.Terminal
			nd.reward = float64((h>>2)%17) / 16
			if lim.binary {
				nd.reward = math.Round(nd.reward) // 1/2 rounds to 1
			}
			continue
		}
		nd.kind = kind
		edges := make([]tree.Edge, k)
		if kind == core.Chance {
			eighths := make([]int, k)
			for j := range eighths {
				eighths[j] = 1
			}
			for range 8 - k {
				eighths[int(r.next())%k]++
			}
			for j := range edges {
				edges[j].Prob = float64(eighths[j]) / 8
			}
		}
		if h&0x20 != 0 {
			var taken [16]bool // a max or min node's children have distinct moves
			for j := range edges {
				m := int(r.next() & 15)
				for kind != core.Chance && taken[m] {
					m = (m + 1) & 15
				}
				taken[m] = true
				edges[j] = edges[j].WithMove(m)
			}
		}
		if h&0x40 != 0 {
			for j := range edges {
				edges[j] = edges[j].WithPrior(float64(int8(r.next())) / 8)
			}
		}
		nd.edges = edges
		depth := nd.depth
		for range k {
			nd.kids = append(nd.kids, int32(len(sp.nodes)))
			sp.nodes = append(sp.nodes, specNode{depth: depth + 1, parent: int32(i)})
			nd = &sp.nodes[i] // append may have moved the slice
		}
	}
	return sp
}

// build makes the tree.Tree of sp, bottom-up, without recursion.
func (sp *spec) build() (*tree.Tree, error) {
	b := tree.NewBuilder()
	refs := make([]tree.Ref, len(sp.nodes))
	for i := len(sp.nodes) - 1; i >= 0; i-- {
		nd := sp.nodes[i]
		if nd.kind == core.Terminal {
			refs[i] = b.Leaf(nd.reward)
			continue
		}
		edges := make([]tree.Edge, len(nd.edges))
		for j, e := range nd.edges {
			e.Node = refs[nd.kids[j]]
			edges[j] = e
		}
		refs[i] = b.Node(nd.kind, edges...)
	}
	return b.Build(refs[0])
}

// decodeTree decodes a tree code and builds it. A decoded tree is valid by
// construction, so an error from tree.Builder is a bug that the fuzz target
// reports.
func decodeTree(data []byte, lim limits) (*tree.Tree, *spec, error) {
	sp := decode(data, lim)
	t, err := sp.build()
	if err != nil {
		return nil, sp, fmt.Errorf("tree.Builder refused a decoded tree: %v", err)
	}
	return t, sp, nil
}

// encode returns a tree code that decodes to t under lim, or an error if t is
// not one the code can express: rewards off the 1/16 grid, probabilities off
// the 1/8 grid, more than 8 children, move identities above 15, priors off
// the 1/8 grid in [−16, 15.875] or on only some children of a node, or a tree
// beyond lim.
func encode(t *tree.Tree, lim limits) ([]byte, error) {
	if t.Len() > lim.maxNodes || t.Depth() > lim.maxDepth {
		return nil, fmt.Errorf("tree of %d nodes and depth %d, limits %d and %d", t.Len(), t.Depth(), lim.maxNodes, lim.maxDepth)
	}
	if lim.rootMax && (t.Kind(0) != core.Max || t.NumChildren(0) < 2) {
		return nil, fmt.Errorf("root is not a max node with 2 or more children")
	}
	var out []byte
	for i := range int32(t.Len()) {
		path := tree.FormatPath(t.Path(i))
		kind := t.Kind(i)
		if kind == core.Terminal {
			r := t.Reward(i) * 16
			if r != float64(int(r)) || lim.binary && r != 0 && r != 16 {
				return nil, fmt.Errorf("node %s: reward %v off the grid", path, t.Reward(i))
			}
			out = append(out, byte(int(r)<<2))
			continue
		}
		if kind == core.Chance && (lim.noChance || lim.binary) {
			return nil, fmt.Errorf("node %s: a chance node, none allowed", path)
		}
		k := t.NumChildren(i)
		if maxKids := cmp.Or(lim.maxKids, 8); k > maxKids {
			return nil, fmt.Errorf("node %s: %d children, at most %d", path, k, maxKids)
		}
		first := t.First(i)
		h := byte(kind) | byte(k-1)<<2
		var edges []byte
		if kind == core.Chance {
			for j := range k {
				e := t.Prob(first+int32(j))*8 - 1
				if e != float64(int(e)) {
					return nil, fmt.Errorf("node %s: probability %v off the 1/8 grid", path, t.Prob(first+int32(j)))
				}
				for range int(e) {
					edges = append(edges, byte(j))
				}
			}
		}
		var moves, priors []byte
		explicit, withPriors := 0, 0
		for j := range k {
			c := first + int32(j)
			m := t.Move(c)
			if m != j {
				explicit++
			}
			if m > 15 {
				return nil, fmt.Errorf("node %s: move identity %d above 15", path, m)
			}
			moves = append(moves, byte(m))
			if pr, ok := t.Prior(c); ok {
				withPriors++
				p := pr * 8
				if p != float64(int(p)) || p < -128 || p > 127 {
					return nil, fmt.Errorf("node %s: prior %v off the 1/8 grid in [-16, 15.875]", path, pr)
				}
				priors = append(priors, byte(int8(p)))
			}
		}
		if explicit > 0 {
			h |= 0x20
			edges = append(edges, moves...)
		}
		switch withPriors {
		case 0:
		case k:
			h |= 0x40
			edges = append(edges, priors...)
		default:
			return nil, fmt.Errorf("node %s: priors on %d of %d children", path, withPriors, k)
		}
		out = append(out, h)
		out = append(out, edges...)
	}
	// Trailing zero bytes decode as the defaults, so they can go.
	for len(out) > 0 && out[len(out)-1] == 0 {
		out = out[:len(out)-1]
	}
	return out, nil
}
