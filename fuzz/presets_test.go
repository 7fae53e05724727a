package fuzz

import (
	"context"
	"fmt"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/rules"
)

// maxPresetSims bounds the budget of one FuzzPresets input: the presets
// cost up to some 20 µs a simulation, and every site is checked.
const maxPresetSims = 1024

// FuzzPresets decodes a preset of rules.Engines (at its default
// parameters), a tree code (priors included), a seed and a budget of 1 to
// 1024 simulations, and runs the preset's search on the tree in paper
// mode. Every site the search shows the preset goes through FuzzScore's
// fault checks (checkSite: no panic, an index in range, finite scores that
// Select maximises, or probabilities summing to 1), on the live statistics,
// squares and policy included; the search must not fail and must keep
// checkSearch's invariants.
func FuzzPresets(f *testing.F) {
	// Seeds: every preset on every engine trap that fits the limits (priors
	// of 0, 1/64 and 1/1024, first-play decoys, a wide node).
	var traps [][]byte
	for _, tr := range gen.EngineTraps() {
		if code, err := encode(tr.Tree, searchLimits); err == nil {
			traps = append(traps, code)
		}
	}
	if len(traps) == 0 {
		f.Fatal("no engine trap fits FuzzPresets' limits")
	}
	for i := range rules.Engines() {
		for j, code := range traps {
			f.Add(uint8(i), uint64(j), uint16(300), code)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, seed uint64, sims uint16, treeCode []byte) {
		engines := rules.Engines()
		in := rules.MustParse(engines[int(which)%len(engines)].Name)
		tr, _, err := decodeTree(treeCode, searchLimits)
		if err != nil {
			t.Fatal(err)
		}
		probe := &siteProbe{fr: fuzzRule{name: in.Spec, rule: in.Rule, backup: in.Backup, fixed: true}}
		cfg := core.Config{Seed: seed, Backup: in.Backup}
		budget := 1 + int(sims)%maxPresetSims
		desc := fmt.Sprintf("tree %s, preset %s, seed %d, %d simulations", tr, in.Spec, seed, budget)
		s, err := core.New(tr.Game(), probe, cfg)
		if err != nil {
			t.Fatalf("%s: New: %v", desc, err)
		}
		if err := s.Run(context.Background(), budget); err != nil {
			t.Fatalf("%s: Run: %v", desc, err)
		}
		if probe.msg != "" {
			t.Fatalf("%s: at simulation %d, depth %d: %s", desc, probe.t, probe.depth, probe.msg)
		}
		if probe.sites == 0 && tr.NumChildren(0) > 0 && tr.Kind(0) != core.Chance {
			t.Fatalf("%s: the preset was never asked", desc)
		}
		if err := checkSearch(tr, s, dump(s), probe, cfg); err != nil {
			t.Fatalf("%s: %v", desc, err)
		}
	})
}

// siteProbe is a rule that puts every site through checkSite before its
// rule selects there, keeping the first fault. It declares its rule's
// needs, so that the sites hold what the rule reads.
type siteProbe struct {
	fr    fuzzRule
	sites int
	msg   string
	t     int64
	depth int
}

func (p *siteProbe) Needs() core.Needs { return core.NeedsOf(p.fr.rule) }

func (p *siteProbe) Select(s *core.Site) int {
	p.sites++
	if p.msg == "" {
		if msg := checkSite(p.fr, s); msg != "" {
			p.msg, p.t, p.depth = msg, s.T(), s.Depth()
		}
	}
	return p.fr.rule.Select(s)
}
