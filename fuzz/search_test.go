package fuzz

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// searchLimits bound the trees of FuzzSearch. The root may be of any kind.
var searchLimits = limits{maxNodes: 48, maxDepth: 10}

// maxSims bounds the budget of one FuzzSearch input.
const maxSims = 4096

// FuzzSearch decodes a tree code, a rule (see pickRule), a seed, a budget of
// 1 to 4096 simulations and an engine mode, and runs the search. The engine
// must not fail or panic, must keep the invariants of checkSearch, and must
// be deterministic: a fresh search with the same seed whose budget is split
// over two Run calls, and the same search after Reset, end with equal
// statistics.
//
// mode's bits: 1 practical growth, 6 ExpandAfter (0 to 3), 8 minimax backups
// (rules of the catalogue use their own), 16 MaxNodes (practical growth
// only), and the top three bits give the split point in eighths of the
// budget.
func FuzzSearch(f *testing.F) {
	f.Fuzz(func(t *testing.T, seed uint64, sims uint16, mode uint8, ruleCode, treeCode []byte) {
		tr, _, err := decodeTree(treeCode, searchLimits)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := pickRule(&reader{ruleCode})
		if err != nil {
			t.Fatalf("rule %s from the catalogue's own ranges: %v", fr.name, err)
		}
		cfg := core.Config{Seed: seed}
		if mode&1 != 0 {
			cfg.Growth = core.GrowPractical
			cfg.ExpandAfter = int(mode>>1) & 3
			if mode&16 != 0 {
				cfg.MaxNodes = 2 + tr.Len()/2
			}
		}
		if mode&8 != 0 {
			cfg.Backup = core.BackupMinimax
		}
		if fr.fixed {
			cfg.Backup = fr.backup
		}
		budget := 1 + int(sims)%maxSims
		split := budget * int(mode>>5) / 8
		desc := fmt.Sprintf("tree %s, rule %s, %d simulations, config %+v", tr, fr.name, budget, cfg)

		s, err := core.New(tr.Game(), fr.rule, cfg)
		if err != nil {
			t.Fatalf("%s: New: %v", desc, err)
		}
		if err := s.Run(context.Background(), budget); err != nil {
			t.Fatalf("%s: Run: %v", desc, err)
		}
		want := dump(s)
		if err := checkSearch(tr, s, want, fr.rule, cfg); err != nil {
			t.Fatalf("%s: %v", desc, err)
		}

		again, err := core.New(tr.Game(), fr.rule, cfg)
		if err != nil {
			t.Fatalf("%s: New: %v", desc, err)
		}
		for _, n := range []int{split, budget - split} {
			if n == 0 {
				continue
			}
			if err := again.Run(context.Background(), n); err != nil {
				t.Fatalf("%s: Run(%d) of a split budget: %v", desc, n, err)
			}
		}
		if diff := cmp.Diff(want, dump(again), cmp.Comparer(sameFloat)); diff != "" {
			t.Fatalf("%s: same seed, budget split at %d, different statistics (-whole +split):\n%s", desc, split, diff)
		}
		again.Reset(seed)
		if err := again.Run(context.Background(), budget); err != nil {
			t.Fatalf("%s: Run after Reset: %v", desc, err)
		}
		if diff := cmp.Diff(want, dump(again), cmp.Comparer(sameFloat)); diff != "" {
			t.Fatalf("%s: same seed after Reset, different statistics (-fresh +reset):\n%s", desc, diff)
		}
	})
}

// dump returns every stored node of s, in Walk's order.
func dump(s *core.Search) []core.NodeInfo {
	var out []core.NodeInfo
	s.Walk(func(n core.NodeInfo) bool {
		n.Path = append([]int32(nil), n.Path...)
		out = append(out, n)
		return true
	})
	return out
}

// childPath is the FormatPath of child k of n.
func childPath(n core.NodeInfo, k int) string {
	return tree.FormatPath(append(n.Path[:len(n.Path):len(n.Path)], int32(k)))
}

// sameFloat compares floats exactly, NaN equal to NaN.
func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// chanceSigmas is the x of the Bernstein bound checkSearch puts on the visit
// counts of a chance node's children: a child of probability p among m
// samples strays from mp by more than sqrt(2·x·mp(1−p)) + 2x/3 with
// probability below 2e^−x per count. With x = 40 that is 10^−17: no fuzzing
// campaign will see a false alarm, and a sampler that swaps two
// probabilities 1/8 apart is still caught from 400 samples on.
const chanceX = 40

// checkSearch returns an error unless the stored tree of s, dumped in nodes,
// is one that the engine's loop can produce on tree with rule and cfg:
//
//   - the root has s.Sims() visits, and every stored node lies in tree, with
//     its kind and, once expanded, all its children;
//   - paper growth: an expanded node's visits are the sum of its children's,
//     and an unexpanded inner node has none; practical growth: an expanded
//     node has exactly ExpandAfter visits more than its children (the
//     roll-outs before it was expanded), an unexpanded one at most
//     ExpandAfter unless MaxNodes stopped its expansion, and the tree stays
//     within MaxNodes;
//   - W lies in [0, visits], Value in [0,1] (NaN without visits), terminals
//     hold visits × reward, and Value is W/visits at stored leaves and with
//     average backups, or the max, min or visit-weighted mean of the
//     children's values at expanded nodes with minimax backups;
//   - virtual experience has 0 ≤ K2 ≤ K1; AMAF statistics have AMAFW in
//     [0, AMAFVisits], and a child of a max or min node has at least its own
//     visits and at most its parent's; others have none;
//   - the children of a chance node with 400 samples or more have visit
//     frequencies near their probabilities (chanceX);
//   - every decision rule picks a visited root child, the most visited one
//     for MostVisited, or −1 when there is none;
//   - Lookup agrees with Walk.
func checkSearch(tr *tree.Tree, s *core.Search, nodes []core.NodeInfo, rule core.Rule, cfg core.Config) error {
	fail := fmt.Errorf
	needs := core.NeedsOf(rule)
	expandAfter := int64(max(cfg.ExpandAfter, 1))
	practical := cfg.Growth == core.GrowPractical
	if len(nodes) != s.Nodes() || len(nodes) == 0 {
		return fail("Walk saw %d nodes, Nodes() = %d", len(nodes), s.Nodes())
	}
	if len(nodes) > tr.Len() || practical && cfg.MaxNodes > 0 && len(nodes) > max(cfg.MaxNodes, 1) {
		return fail("%d stored nodes, tree of %d, MaxNodes %d", len(nodes), tr.Len(), cfg.MaxNodes)
	}
	if root := nodes[0]; len(root.Path) != 0 || root.Visits != s.Sims() || root.AMAFVisits != 0 {
		return fail("root %+v after %d simulations", root, s.Sims())
	}
	byPath := make(map[string]int, len(nodes))
	for i, n := range nodes {
		byPath[tree.FormatPath(n.Path)] = i
	}
	// Every expanded node's children are stored: child can then index.
	for _, n := range nodes {
		for k := range n.Children {
			if _, ok := byPath[childPath(n, k)]; !ok {
				return fail("node %s is expanded but its child %d is not stored", tree.FormatPath(n.Path), k)
			}
		}
	}
	child := func(n core.NodeInfo, k int) core.NodeInfo { return nodes[byPath[childPath(n, k)]] }
	for _, n := range nodes {
		at := tree.FormatPath(n.Path)
		id, err := tr.Follow(n.Path)
		if err != nil {
			return fail("stored node %s is not in the tree: %v", at, err)
		}
		if n.Kind != tr.Kind(id) || n.Children != 0 && n.Children != tr.NumChildren(id) {
			return fail("node %s: %v with %d children stored, the tree has %v with %d", at, n.Kind, n.Children, tr.Kind(id), tr.NumChildren(id))
		}
		if !(n.W >= 0 && n.W <= float64(n.Visits)) {
			return fail("node %s: W %v outside [0, %d]", at, n.W, n.Visits)
		}
		if n.Visits == 0 {
			if n.W != 0 || !math.IsNaN(n.Value) || n.Children != 0 {
				return fail("unvisited node %s: %+v", at, n)
			}
		} else if !(n.Value >= 0 && n.Value <= 1) {
			return fail("node %s: value %v outside [0,1]", at, n.Value)
		}
		if !(n.K1 >= 0 && n.K2 >= 0 && n.K2 <= n.K1) || needs.Virtual == nil && (n.K1 != 0 || n.K2 != 0) {
			return fail("node %s: virtual experience K1 = %v, K2 = %v", at, n.K1, n.K2)
		}
		if !(n.AMAFW >= 0 && n.AMAFW <= float64(n.AMAFVisits)) || !needs.AMAF && n.AMAFVisits != 0 {
			return fail("node %s: AMAF W %v of %d", at, n.AMAFW, n.AMAFVisits)
		}

		if n.Kind == core.Terminal {
			r := tr.Reward(id)
			if n.Children != 0 || n.W != float64(n.Visits)*r || n.Visits > 0 && n.Value != r {
				return fail("terminal %s of reward %v: %+v", at, r, n)
			}
			continue
		}
		if n.Children == 0 {
			switch {
			case !practical && n.Visits != 0:
				return fail("paper growth: node %s has %d visits but no children", at, n.Visits)
			case practical && cfg.MaxNodes == 0 && n.Visits > expandAfter:
				return fail("practical growth: node %s has %d visits, ExpandAfter %d, but no children", at, n.Visits, expandAfter)
			case n.Visits > 0 && n.Value != n.W/float64(n.Visits):
				return fail("stored leaf %s: value %v, mean %v", at, n.Value, n.W/float64(n.Visits))
			}
			continue
		}
		var sum, weighted int64
		var wsum float64
		best := math.NaN()
		for k := range n.Children {
			c := child(n, k)
			sum += c.Visits
			if n.Kind == core.Chance {
				if c.AMAFVisits != 0 {
					return fail("node %s, child of a %s node, has AMAF visits %d", tree.FormatPath(c.Path), n.Kind, c.AMAFVisits)
				}
			} else if needs.AMAF && (c.AMAFVisits < c.Visits || c.AMAFVisits > n.Visits) {
				return fail("node %s: AMAF visits %d outside [own visits %d, parent's %d]", tree.FormatPath(c.Path), c.AMAFVisits, c.Visits, n.Visits)
			}
			if c.Visits == 0 {
				continue
			}
			weighted += c.Visits
			wsum += float64(c.Visits) * c.Value
			switch {
			case math.IsNaN(best), n.Kind == core.Max && c.Value > best, n.Kind == core.Min && c.Value < best:
				best = c.Value
			}
		}
		if n.Kind == core.Chance {
			best = wsum / float64(weighted)
		}
		rollouts := int64(0)
		if practical {
			rollouts = expandAfter
		}
		if n.Visits != sum+rollouts {
			return fail("node %s: %d visits, its children %d, roll-outs before expansion %d", at, n.Visits, sum, rollouts)
		}
		switch cfg.Backup {
		case core.BackupAverage:
			if n.Value != n.W/float64(n.Visits) {
				return fail("node %s: value %v, mean %v", at, n.Value, n.W/float64(n.Visits))
			}
		case core.BackupMinimax:
			if math.Abs(n.Value-best) > 1e-12 {
				return fail("node %s (%v): minimax value %v, its children's give %v", at, n.Kind, n.Value, best)
			}
		}
		if n.Kind == core.Chance && sum >= 400 {
			first := tr.First(id)
			for k := range n.Children {
				p := tr.Prob(first + int32(k))
				mean := float64(sum) * p
				dev := math.Sqrt(2*chanceX*mean*(1-p)) + 2*chanceX/3
				if got := float64(child(n, k).Visits); math.Abs(got-mean) > dev {
					return fail("chance node %s: child %d of probability %v has %v of %d samples, want %.1f ± %.1f", at, k, p, got, sum, mean, dev)
				}
			}
		}
	}
	root := nodes[0]
	var most int64
	for k := range root.Children {
		most = max(most, child(root, k).Visits)
	}
	none := root.Kind != core.Max && root.Kind != core.Min || most == 0
	for _, d := range []core.Decision{core.MostVisited, core.HighestMean, core.Secure} {
		c := s.Decide(d)
		switch {
		case none && c != -1:
			return fail("Decide(%v) = %d, want -1 at a %v root with %d visited children", d, c, root.Kind, most)
		case none:
		case c < 0 || c >= root.Children:
			return fail("Decide(%v) = %d, root has %d children", d, c, root.Children)
		case child(root, c).Visits == 0:
			return fail("Decide(%v) = %d, an unvisited child", d, c)
		case d == core.MostVisited && child(root, c).Visits != most:
			return fail("Decide(%v) = %d with %d visits, the most is %d", d, c, child(root, c).Visits, most)
		}
	}
	for _, n := range nodes {
		if got, ok := s.Lookup(n.Path); !ok || !cmp.Equal(got, n, cmp.Comparer(sameFloat)) {
			return fail("Lookup(%s) = %+v, %v; Walk gave %+v", tree.FormatPath(n.Path), got, ok, n)
		}
	}
	return nil
}
