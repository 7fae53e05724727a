package gen

import (
	"fmt"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// The trap families of whole searches: shapes on which a search's own
// machinery (its statistics' keys, its idea of whose turn it is, its
// handling of rewards, depths and wide nodes) goes wrong where a selection
// rule inside a correct search could not. Random trees of a small shape
// rarely have them: a chance node above decision nodes whose best moves
// differ by outcome, cousins with the same moves and different values, a
// player moving twice, terminals at mixed depths, rewards strictly between
// 0 and 1 on both sides of 1/2, nodes with more than four children.
//
// Each family takes the player at its root: for core.Min the tree is the
// max-rooted one with max and min swapped and every reward r replaced by
// 1 − r, the same game seen from the other side.

// SearchTraps returns the families of whole searches at the sizes a check
// of a whole search (props.RunSearch) adds to Traps: each family with a
// root of either player and, where a parameter sets how far off a bug's
// values are, at two settings. All have at most 9 nodes.
func SearchTraps() []Trap {
	var out trapList
	add := out.add
	for _, root := range []core.Kind{core.Max, core.Min} {
		add(OpenLoopTrap(root, 1.0/2, 5.0/8))
		add(CousinsTrap(root, 1.0/4))
		add(DoubleMoveTrap(root, 1.0/2, false))
		add(MixedDepthTrap(root, 2, 7.0/8))
		add(ManyMovesTrap(root, 5))
	}
	add(OpenLoopTrap(core.Max, 1.0/4, 7.0/8))
	add(CousinsTrap(core.Max, 3.0/8))
	add(DoubleMoveTrap(core.Max, 1.0/2, true))
	add(MixedDepthTrap(core.Max, 3, 3.0/4))
	add(ManyMovesTrap(core.Max, 8))
	add(ThresholdTrap(core.Max, 3.0/8, 1.0/4, 1, 0))
	add(ThresholdTrap(core.Max, 5.0/8, 3.0/4, 1, 0))
	add(ThresholdTrap(core.Max, 7.0/16, 1.0/4, 3.0/4, 1.0/8))
	add(ThresholdTrap(core.Max, 9.0/16, 3.0/4, 7.0/8, 1.0/4))
	return out
}

// OpenLoopTrap is a chance node above two max nodes whose best moves differ
// by outcome, against a sure reward r:
//
//	(max (chance p:(max 1 0) 1−p:(max 0 1)) r)
//
// The chance node is worth 1: after either outcome max has a win. An
// open-loop search keeps its statistics per sequence of moves, not per
// node, so the move it makes after the chance node cannot depend on the
// outcome: to it the chance node is worth max(p, 1−p) at most, and with r
// above that it plays the sure reward for ever. p is a multiple of 1/8 in
// (0,1); r a multiple of 1/1024 in (0,1).
func OpenLoopTrap(root core.Kind, p, r float64) (Trap, error) {
	s, err := sideOf("OpenLoopTrap", root)
	if err != nil || !eighth(p) || !dyadicOpen(r) {
		return Trap{}, fmt.Errorf("gen: OpenLoopTrap(%v, %v, %v), want a max or min root, p a multiple of 1/8 in (0,1), r a multiple of 1/1024 in (0,1)", root, p, r)
	}
	b := s.b
	c := b.Chance(tree.P(p, s.me(s.leaf(1), s.leaf(0))), tree.P(1-p, s.me(s.leaf(0), s.leaf(1))))
	return s.trap(fmt.Sprintf("open-loop:p=%v,r=%v", p, r), "open-loop search, statistics per sequence of moves (Perez Liebana et al. 2015)",
		s.me(c, s.leaf(r)))
}

// CousinsTrap is two opponent nodes whose children are cousins with the
// same moves (0 and 1) and opposite values, against a sure reward r:
//
//	(max (min 0 1) (min 1 0) r)
//
// Both min nodes are worth 0, so r is the only good move. A search that
// keys its statistics by move, by depth and move, or by any hash that
// ignores the path, gives each shared entry a 0 and a 1 to average and
// values both min nodes near 1/2: with r below that it plays a min node.
// r is a multiple of 1/1024 in (0,1).
func CousinsTrap(root core.Kind, r float64) (Trap, error) {
	s, err := sideOf("CousinsTrap", root)
	if err != nil || !dyadicOpen(r) {
		return Trap{}, fmt.Errorf("gen: CousinsTrap(%v, %v), want a max or min root, r a multiple of 1/1024 in (0,1)", root, r)
	}
	return s.trap(fmt.Sprintf("cousins:r=%v", r), "transpositions keyed by a hash that ignores the path (Childs, Brodeur & Kocsis 2008)",
		s.me(s.you(s.leaf(0), s.leaf(1)), s.you(s.leaf(1), s.leaf(0)), s.leaf(r)))
}

// DoubleMoveTrap is a player moving twice in a row, against a sure reward
// r:
//
//	(max (max 0 1) r)                                   viaChance false
//	(max (chance 0.5:(max 0 1) 0.5:(max 0 1)) r)        viaChance true
//
// The inner max nodes are worth 1. A search that takes the players to
// alternate (negamax by depth, or a turn that flips at every decision)
// plays them for min, values them at 0, and plays r. r is a multiple of
// 1/1024 in (0,1).
func DoubleMoveTrap(root core.Kind, r float64, viaChance bool) (Trap, error) {
	s, err := sideOf("DoubleMoveTrap", root)
	if err != nil || !dyadicOpen(r) {
		return Trap{}, fmt.Errorf("gen: DoubleMoveTrap(%v, %v, %v), want a max or min root, r a multiple of 1/1024 in (0,1)", root, r, viaChance)
	}
	b := s.b
	again := s.me(s.leaf(0), s.leaf(1))
	name := fmt.Sprintf("double-move:r=%v", r)
	if viaChance {
		again = b.Chance(tree.P(0.5, again), tree.P(0.5, s.me(s.leaf(0), s.leaf(1))))
		name += ",chance"
	}
	return s.trap(name, "this checker: searches that assume the players alternate", s.me(again, s.leaf(r)))
}

// MixedDepthTrap is a sure reward r one move away against a win d moves
// away, through forced moves of alternating players:
//
//	(max r (min 1))                d = 2
//	(max r (min (max 1)))          d = 3
//
// A search that weighs rewards by their depth (preferring quick wins, a
// roll-out horizon, a reward's side read from the depth of the deepest
// terminal) is right while every terminal is at the same depth and may
// take r here. d from 2 to 64, r a multiple of 1/1024 in (0,1).
func MixedDepthTrap(root core.Kind, d int, r float64) (Trap, error) {
	s, err := sideOf("MixedDepthTrap", root)
	if err != nil || d < 2 || d > 64 || !dyadicOpen(r) {
		return Trap{}, fmt.Errorf("gen: MixedDepthTrap(%v, %d, %v), want a max or min root, depth 2 to 64, r a multiple of 1/1024 in (0,1)", root, d, r)
	}
	win := s.leaf(1)
	for i := d - 1; i >= 1; i-- {
		if i%2 == 1 {
			win = s.you(win)
		} else {
			win = s.me(win)
		}
	}
	return s.trap(fmt.Sprintf("mixed-depth:d=%d,r=%v", d, r), "this checker: searches that weigh rewards by depth", s.me(s.leaf(r), win))
}

// ThresholdTrap is a sure reward r against a chance node between hi and
// lo:
//
//	(max r (chance p:hi 1−p:lo))
//
// with r, hi and lo on both sides of 1/2, so that a search that reads
// rewards as a win (above 1/2), a loss (below) or a draw, as an adapter to
// a library that knows only those may, misorders the chance node and r:
// it compares p with 0 or 1, not p·hi + (1−p)·lo with r. In a
// deterministic tree such a threshold only ties moves that differ
// (minimax commutes with a monotone map of the rewards), which a search
// may break either way; under a chance node it reverses their order. p
// is a multiple of 1/8 in (0,1); r, hi and lo multiples of 1/1024 in
// [0,1].
func ThresholdTrap(root core.Kind, r, p, hi, lo float64) (Trap, error) {
	s, err := sideOf("ThresholdTrap", root)
	if err != nil || !eighth(p) || !dyadicClosed(r) || !dyadicClosed(hi) || !dyadicClosed(lo) {
		return Trap{}, fmt.Errorf("gen: ThresholdTrap(%v, %v, %v, %v, %v), want a max or min root, p a multiple of 1/8 in (0,1), r, hi and lo multiples of 1/1024 in [0,1]",
			root, r, p, hi, lo)
	}
	c := s.b.Chance(tree.P(p, s.leaf(hi)), tree.P(1-p, s.leaf(lo)))
	return s.trap(fmt.Sprintf("threshold:r=%v,p=%v,hi=%v,lo=%v", r, p, hi, lo), "this checker: rewards read as wins and losses", s.me(s.leaf(r), c))
}

// ManyMovesTrap is a node with k children, the only good move last:
//
//	(max 0 … 0 1)
//
// A search that never tries more than some number of a node's children
// below k (a fixed child array, progressive widening that stops: Coulom
// 2007, Chaslot et al. 2008) never finds it. k from 2 to 64. (WideTrap is
// the engine traps' wide node, with priors, for PUCT rules.)
func ManyMovesTrap(root core.Kind, k int) (Trap, error) {
	s, err := sideOf("ManyMovesTrap", root)
	if err != nil || k < 2 || k > 64 {
		return Trap{}, fmt.Errorf("gen: ManyMovesTrap(%v, %d), want a max or min root and 2 to 64 children", root, k)
	}
	kids := make([]tree.Ref, 0, k)
	for range k - 1 {
		kids = append(kids, s.leaf(0))
	}
	kids = append(kids, s.leaf(1))
	return s.trap(fmt.Sprintf("many-moves:k=%d", k), "progressive widening (Coulom 2007; Chaslot et al. 2008)", s.me(kids...))
}

// side builds a family's tree for the player at its root: with flip (a min
// root) max and min swap and every reward r becomes 1 − r.
type side struct {
	b    *tree.Builder
	flip bool
}

func sideOf(family string, root core.Kind) (side, error) {
	if root != core.Max && root != core.Min {
		return side{}, fmt.Errorf("gen: %s: root %v, want max or min", family, root)
	}
	return side{b: tree.NewBuilder(), flip: root == core.Min}, nil
}

// leaf is a terminal worth r to the root's player.
func (s side) leaf(r float64) tree.Ref {
	if s.flip {
		r = 1 - r
	}
	return s.b.Leaf(r)
}

// me is a node of the root's player, you one of the other.
func (s side) me(kids ...tree.Ref) tree.Ref {
	if s.flip {
		return s.b.Min(kids...)
	}
	return s.b.Max(kids...)
}

func (s side) you(kids ...tree.Ref) tree.Ref {
	if s.flip {
		return s.b.Max(kids...)
	}
	return s.b.Min(kids...)
}

// trap builds the tree under root and names it, with ",root=min" for a
// min root.
func (s side) trap(name, source string, root tree.Ref) (Trap, error) {
	t, err := s.b.Build(root)
	if err != nil {
		return Trap{}, err
	}
	if s.flip {
		name += ",root=min"
	}
	return Trap{Name: name, Source: source, Binary: t.BinaryDeterministic(), Tree: t}, nil
}

// eighth reports whether p is a multiple of 1/8 in (0,1).
func eighth(p float64) bool { return p > 0 && p < 1 && p*8 == float64(int(p*8)) }

// dyadicOpen and dyadicClosed report whether x is a multiple of 1/1024 in
// (0,1) and in [0,1].
func dyadicOpen(x float64) bool   { return x > 0 && dyadic1024(x) }
func dyadicClosed(x float64) bool { return x == 1 || dyadic1024(x) }
