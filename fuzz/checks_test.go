package fuzz

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// Tests of the fuzz targets' own machinery: the tree code, and that each
// check catches what it is there to catch.

func TestEncodeDecode(t *testing.T) {
	for _, tr := range gen.Traps() {
		code, err := encode(tr.Tree, solveLimits)
		if err != nil {
			if strings.Contains(err.Error(), "off the grid") && !onGrid16(tr.Tree) {
				continue // rewards finer than the code's 1/16 grid
			}
			t.Errorf("encode(%s): %v", tr.Name, err)
			continue
		}
		got, _, err := decodeTree(code, solveLimits)
		if err != nil || !got.Equal(tr.Tree) {
			t.Errorf("%s: decode(encode) = %v, %v, want %s", tr.Name, got, err, tr.Tree)
		}
	}
	// Any bytes decode to a tree within the limits, and its code decodes to
	// the same tree.
	rng := rand.New(rand.NewPCG(1, 2))
	lims := []limits{solveLimits, searchLimits, ruleLimits(props.Options{}), ruleLimits(props.Options{BinaryOnly: true})}
	for i := range 2000 {
		lim := lims[i%len(lims)]
		data := make([]byte, rng.IntN(64))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		tr, _, err := decodeTree(data, lim)
		if err != nil {
			t.Fatalf("decode(%q): %v", data, err)
		}
		if tr.Len() > lim.maxNodes || tr.Depth() > lim.maxDepth || lim.rootMax && tr.Kind(0) != core.Max {
			t.Fatalf("decode(%q) = %s, beyond %+v", data, tr, lim)
		}
		code, err := encode(tr, lim)
		if err != nil {
			t.Fatalf("encode(%s): %v", tr, err)
		}
		if back, _, _ := decodeTree(code, lim); !back.Equal(tr) {
			t.Fatalf("decode(encode(%s)) = %s", tr, back)
		}
	}
}

func TestEncodeRefuses(t *testing.T) {
	for _, tc := range []struct {
		tr   string
		lim  limits
		want string
	}{
		{"(max 0.1 1)", solveLimits, "off the grid"},
		{"(max 0.5 1)", limits{maxNodes: 9, maxDepth: 3, binary: true}, "off the grid"},
		{"(max (chance 0.5:1 0.5:0) 1)", limits{maxNodes: 9, maxDepth: 3, noChance: true}, "chance"},
		{"(max 0 0 0 0)", limits{maxNodes: 9, maxDepth: 3, maxKids: 3}, "at most 3"},
		{"(max 0 1@16)", solveLimits, "above 15"},
		{"(max 0~0.1 1~0)", solveLimits, "prior"},
		{"(max 0~1 1)", solveLimits, "priors on 1 of 2"},
		{"(max (max (max 0 1) 0) 1)", limits{maxNodes: 9, maxDepth: 2}, "depth"},
		{"(min 0 1)", limits{maxNodes: 9, maxDepth: 2, rootMax: true}, "root"},
	} {
		if _, err := encode(tree.MustParse(tc.tr), tc.lim); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("encode(%s, %+v) = %v, want an error containing %q", tc.tr, tc.lim, err, tc.want)
		}
	}
}

func TestBruteForce(t *testing.T) {
	code := mustEncode(t, "(max (chance 0.25:1 0.75:(min 0.5 1)) (min 0.25 (max 0 0.5)))", solveLimits)
	sp := decode(code, solveLimits)
	if v := sp.value(0); v != 0.625 {
		t.Errorf("root value %v, want 0.625", v)
	}
	if got := sp.optimal(0); len(got) != 1 || got[0] != 0 {
		t.Errorf("optimal root children %v, want [0]", got)
	}
}

// tamperTree is searched by tamperedSearch: a chance node with children of
// probability 1/8 and 7/8 that gets most of the simulations.
const tamperTree = "(max (chance 0.125:1 0.875:0) 0)"

// tamperedSearch searches tamperTree and returns the dump of the search,
// after tamper changed it, with what checkSearch says about it.
func tamperedSearch(t *testing.T, cfg core.Config, tamper func(nodes []core.NodeInfo)) error {
	t.Helper()
	tr := tree.MustParse(tamperTree)
	s, err := core.New(tr.Game(), core.UCT{C: 1}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(context.Background(), 2000); err != nil {
		t.Fatal(err)
	}
	nodes := dump(s)
	tamper(nodes)
	return checkSearch(tr, s, nodes, core.UCT{C: 1}, cfg)
}

func TestCheckSearchCatches(t *testing.T) {
	// Walk order: 0, 0.0 (chance), 0.0.0 (1/8), 0.0.1 (7/8), 0.1.
	for _, tc := range []struct {
		name   string
		cfg    core.Config
		tamper func(n []core.NodeInfo)
		want   string
	}{
		{"untouched", core.Config{}, func([]core.NodeInfo) {}, ""},
		{"untouched practical", core.Config{Growth: core.GrowPractical, ExpandAfter: 2}, func([]core.NodeInfo) {}, ""},
		{"untouched minimax", core.Config{Backup: core.BackupMinimax}, func([]core.NodeInfo) {}, ""},
		{"visits", core.Config{}, func(n []core.NodeInfo) { n[4].Visits++; n[4].W++ }, "0: 2000 visits, its children 2001"},
		{"roll-outs", core.Config{Growth: core.GrowPractical, ExpandAfter: 2}, func(n []core.NodeInfo) { n[1].Visits-- },
			"roll-outs before expansion 2"},
		{"W", core.Config{}, func(n []core.NodeInfo) { n[1].W = float64(n[1].Visits) + 1 }, "W"},
		{"terminal", core.Config{}, func(n []core.NodeInfo) { n[3].W = 1; n[3].Value = 1.0 / float64(n[3].Visits) }, "terminal 0.0.1"},
		{"value", core.Config{}, func(n []core.NodeInfo) { n[1].Value = 0.5 }, "value 0.5"},
		{"minimax", core.Config{Backup: core.BackupMinimax}, func(n []core.NodeInfo) { n[0].Value = n[4].Value }, "minimax value"},
		{"swapped probabilities", core.Config{}, func(n []core.NodeInfo) {
			n[2].Visits, n[3].Visits = n[3].Visits, n[2].Visits
			n[2].W = float64(n[2].Visits)
		}, "probability 0.125"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tamperedSearch(t, tc.cfg, tc.tamper)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("untouched search: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("checkSearch = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// Rules that break the contracts FuzzScore checks.
type (
	nanScorer    struct{}
	outOfRange   struct{}
	panicky      struct{}
	disagreeing  struct{}
	badStochasic struct{}
)

func (nanScorer) Select(*core.Site) int               { return 0 }
func (nanScorer) Score(*core.Site, int) float64       { return math.NaN() }
func (outOfRange) Select(s *core.Site) int            { return s.Len() }
func (panicky) Select(*core.Site) int                 { panic("boom") }
func (disagreeing) Select(*core.Site) int             { return 1 }
func (disagreeing) Score(_ *core.Site, i int) float64 { return float64(-i) }
func (badStochasic) Select(*core.Site) int            { return 0 }
func (badStochasic) Probs(_ *core.Site, dst []float64) []float64 {
	return append(dst[:0], 0, 1)
}

func TestCheckSiteCatches(t *testing.T) {
	site, err := core.NewSite(core.Max, core.Stats{Visits: 3, W: 2}, []core.Stats{{Visits: 1, W: 1}, {Visits: 2, W: 1}}, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rule core.Rule
		want string
	}{
		{core.UCT{C: 1}, ""},
		{rules.MustParse("eps-greedy").Rule, ""},
		{nanScorer{}, "Score(0) = NaN"},
		{outOfRange{}, "Select = 2"},
		{panicky{}, "panicked: boom"},
		{disagreeing{}, "ArgmaxScore = 0"},
		{badStochasic{}, "probability 0"},
	} {
		got := checkSite(fuzzRule{rule: tc.rule}, site)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("checkSite(%T) = %q, want %q", tc.rule, got, tc.want)
		}
	}
}

// TestPickRule: every selector byte gives a rule, and the selectors reach
// every entry of the catalogue.
func TestPickRule(t *testing.T) {
	seen := map[string]bool{}
	for sel := range 256 {
		for _, params := range [][]byte{{0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 200, 3, 7, 3, 250}} {
			fr, err := pickRule(&reader{append([]byte{byte(sel)}, params...)})
			if err != nil {
				t.Fatalf("selector %d, parameters %v: %v", sel, params, err)
			}
			seen[strings.SplitN(fr.name, ":", 2)[0]] = true
		}
	}
	for _, e := range rules.All() {
		if !seen[e.Name] {
			t.Errorf("no selector picks %s", e.Name)
		}
	}
}

// TestStartersJudge: the trees Rule adds to every corpus give no witness
// against a consistent rule, and catch the plainly inconsistent ones before
// the fuzzer has mutated anything (the checker tries each starter in 16
// child orders).
func TestStartersJudge(t *testing.T) {
	for _, c := range []struct {
		spec   string
		caught bool
	}{{"uct", false}, {"greedy-fpu", true}, {"rave", true}} {
		in := rules.MustParse(c.spec)
		caught := false
		for _, s := range starters {
			rep, err := props.CheckTree(context.Background(), in.Rule, tree.MustParse(s), props.Options{Backup: in.Backup})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict == props.Inconsistent {
				caught = true
				if !c.caught {
					t.Errorf("%s is inconsistent on the starter %s:\n%s", c.spec, s, rep.Witness)
				}
			}
		}
		if c.caught && !caught {
			t.Errorf("%s: no starter gives a witness", c.spec)
		}
	}
}

// onGrid16 reports whether every reward of t is a multiple of 1/16.
func onGrid16(t *tree.Tree) bool {
	for i := range int32(t.Len()) {
		if r := t.Reward(i) * 16; r != float64(int(r)) {
			return false
		}
	}
	return true
}
