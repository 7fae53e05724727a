package props_test

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// ExampleRunSearch checks a whole search written from scratch, below: on a
// tree it converges on, and, with its first-play urgency broken, on the
// traps and random trees, where the witness is the smallest tree on which
// it never tries the good move.
func ExampleRunSearch() {
	ctx := context.Background()
	rep, err := props.RunSearchTree(ctx, textbookMCTS{}, tree.MustParse("(max (min 1 0.5) (min 0 1))"), props.Options{Seeds: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Summary)
	rep, err = props.RunSearch(ctx, textbookMCTS{Bug: "fpu-never"}, props.Options{Trees: 10, RuleSpec: "textbook --bug fpu-never"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Verdict, rep.Witness.Condition, rep.Witness.Tree)
	fmt.Println(rep.Witness.Findings[1].Text)
	// Output:
	// no counterexample: 1 tree × 4 seeds up to budget 16384, all decisions optimal from budget 64 on
	// stuck Eq. 5 (max 0 1)
	// max node 0: child 1 (V=1) stays at 0 simulations while the node goes from 1024 to 16384 simulations, and the node's mean stays ≤ 0.000, short of the child's value (by 1.000 at 16384, where 16384 simulations explain at most 0.022)
}

// textbookMCTS is a Monte-Carlo tree search written from scratch, without
// package core, as an engine's author would write one: UCT with C = √2,
// one node added to the tree per simulation, uniformly random roll-outs
// (chance nodes drawn by their probabilities), averaged rewards, and the
// most visited root child decided. Bug, if not "", plants one of the bugs
// of examples/mcts.py (whose doc says which are inconsistent):
//
//	fpu-never         a node with a child in the tree never adds another
//	negamax-sign      the backup takes sides by depth parity, not by who moves
//	virtual-loss-kept the virtual loss of the descent is never taken back
//	terminal-rollout  a terminal is valued by a roll-out from its parent
//	final-by-mean     the root child with the highest mean is decided
//	seed-ignored      the generator is seeded from the clock (nondeterministic)
//	mover-means       means are reported for the player who moves (perspective)
//	chance-as-max     a chance node picks its child by UCT, as max (chance)
//
// and two of the tests' own:
//
//	greedy            no exploration term: the best mean, unvisited children first
//	root-frozen       the backup never reaches the root's children: their
//	                  visits count, their rewards do not
type textbookMCTS struct{ Bug string }

// mctsState is one search's statistics, by node number of the SearchTree.
type mctsState struct {
	t      *props.SearchTree
	bug    string
	rng    uint64
	in     []bool    // the node is in the search's tree
	n      []int64   // simulations through the node
	w      []float64 // their rewards, from the side of the player who moved into the node
	vl     []int64   // virtual losses not yet taken back
	depth  []int
	parent []int
	maxes  []bool // the player who moves into the node maximises
}

// Search implements props.Searcher.
func (m textbookMCTS) Search(ctx context.Context, t *props.SearchTree, seed uint64, checkpoints []int64, report func(props.Checkpoint) error) error {
	n := len(t.Nodes)
	s := &mctsState{t: t, bug: m.Bug, rng: seed, in: make([]bool, n), n: make([]int64, n), w: make([]float64, n),
		vl: make([]int64, n), depth: make([]int, n), parent: make([]int, n), maxes: make([]bool, n)}
	if m.Bug == "seed-ignored" {
		s.rng = uint64(time.Now().UnixNano())
	}
	s.parent[0] = -1
	for i, node := range t.Nodes {
		for _, c := range node.Children {
			s.parent[c], s.depth[c] = i, s.depth[i]+1
			switch {
			case m.Bug == "negamax-sign":
				s.maxes[c] = s.depth[i]%2 == 0 // max moves at even depths, as if turns alternated
			case node.Kind == "chance":
				s.maxes[c] = true // no one chooses: any side will do
			default:
				s.maxes[c] = node.Kind == "max"
			}
		}
	}
	s.in[0] = true
	sims := int64(0)
	for _, cp := range checkpoints {
		for ; sims < cp; sims++ {
			if sims%1024 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			s.simulate()
		}
		if err := report(s.checkpoint(sims)); err != nil {
			return err
		}
	}
	return nil
}

// next is splitmix64.
func (s *mctsState) next() uint64 {
	s.rng += 0x9E3779B97F4A7C15
	z := s.rng
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// draw returns a child of node i: by probability at a chance node,
// uniformly elsewhere.
func (s *mctsState) draw(i int) int {
	kids := s.t.Nodes[i].Children
	if s.t.Nodes[i].Kind == "chance" {
		u := float64(s.next()>>11) * 0x1p-53
		for _, c := range kids {
			if u -= s.t.Nodes[c].Prob; u < 0 {
				return c
			}
		}
		return kids[len(kids)-1]
	}
	return kids[(s.next()>>32)*uint64(len(kids))>>32]
}

// rollout plays uniformly at random from node i to a terminal and returns
// its reward for max.
func (s *mctsState) rollout(i int) float64 {
	for s.t.Nodes[i].Kind != "terminal" {
		i = s.draw(i)
	}
	return s.t.Nodes[i].Reward
}

// uct returns node i's child with the best UCT score for the player who
// moves there, all its children being in the tree.
func (s *mctsState) uct(i int) int {
	best, bestScore := -1, math.Inf(-1)
	parentN := float64(s.n[i] + s.vl[i])
	for _, c := range s.t.Nodes[i].Children {
		n := float64(s.n[c] + s.vl[c])
		c2 := math.Sqrt2
		if s.bug == "greedy" {
			c2 = 0
		}
		if score := s.w[c]/n + c2*math.Sqrt(math.Log(parentN)/n); score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// simulate runs one simulation: down the tree by UCT, one node added, a
// roll-out, and the reward backed up along the path.
func (s *mctsState) simulate() {
	path := []int{0}
	i := 0
	for s.t.Nodes[i].Kind != "terminal" {
		next := -1
		if s.t.Nodes[i].Kind == "chance" && s.bug != "chance-as-max" {
			next = s.draw(i)
		} else {
			next = s.untried(i)
			if next < 0 {
				next = s.uct(i)
			}
		}
		s.vl[next]++ // virtual loss: counted as a simulation of no reward until backed up
		path = append(path, next)
		i = next
		if !s.in[i] {
			s.in[i] = true
			break
		}
	}
	var r float64
	switch {
	case s.t.Nodes[i].Kind != "terminal":
		r = s.rollout(i)
	case s.bug == "terminal-rollout":
		r = s.rollout(s.parent[i])
	default:
		r = s.t.Nodes[i].Reward
	}
	s.n[0]++
	for _, j := range path[1:] {
		if s.bug != "virtual-loss-kept" {
			s.vl[j]--
		}
		s.n[j]++
		if s.bug == "root-frozen" && s.parent[j] == 0 {
			continue
		}
		if s.maxes[j] {
			s.w[j] += r
		} else {
			s.w[j] += 1 - r
		}
	}
}

// untried returns the first child of node i not yet in the tree, or -1.
// With fpu-never, a node that has a child in the tree tries no other.
func (s *mctsState) untried(i int) int {
	first := -1
	for _, c := range s.t.Nodes[i].Children {
		if s.in[c] && s.bug == "fpu-never" {
			return -1
		}
		if !s.in[c] && first < 0 {
			first = c
		}
	}
	return first
}

// mean is node i's mean reward for max.
func (s *mctsState) mean(i int) float64 {
	m := s.w[i] / float64(s.n[i])
	if i > 0 && !s.maxes[i] && s.bug != "mover-means" {
		m = 1 - m
	}
	return m
}

// checkpoint reports the root decision and every node's statistics.
func (s *mctsState) checkpoint(sims int64) props.Checkpoint {
	cp := props.Checkpoint{Sims: sims, NodeVisits: make([]int64, len(s.n)), NodeMeans: make([]float64, len(s.n))}
	var sum float64
	for i := range s.n {
		cp.NodeVisits[i], cp.NodeMeans[i] = s.n[i], math.NaN()
		if i > 0 && s.n[i] > 0 {
			cp.NodeMeans[i] = s.mean(i)
		}
	}
	best, bestKey := 0, math.Inf(-1)
	for k, c := range s.t.Nodes[0].Children {
		cp.Visits = append(cp.Visits, s.n[c])
		cp.Means = append(cp.Means, cp.NodeMeans[c])
		if s.n[c] > 0 {
			sum += float64(s.n[c]) * cp.NodeMeans[c]
		}
		key := float64(s.n[c])
		if s.bug == "final-by-mean" {
			key = math.Inf(-1)
			if s.n[c] > 0 {
				key = s.w[c] / float64(s.n[c])
			}
		}
		if key > bestKey {
			best, bestKey = k, key
		}
	}
	cp.Decision = best
	cp.NodeMeans[0] = sum / float64(sims)
	return cp
}
