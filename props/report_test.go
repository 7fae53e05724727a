package props_test

import (
	"encoding/json"
	"testing"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// TestReportJSON: one Report and one Witness serve trees and game
// positions. A tree's report has no game field, and [] for empty lists; a
// position's has the position's fields and no frugality; its witness has
// the position's fields and not the shrunk tree's.
func TestReportJSON(t *testing.T) {
	tr := tree.MustParse("(max 0.5 (max 0 1))")
	keys := func(v any) map[string]json.RawMessage {
		t.Helper()
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	expect := func(what string, m map[string]json.RawMessage, present, absent []string) {
		t.Helper()
		for _, k := range present {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: no %q", what, k)
			}
		}
		for _, k := range absent {
			if _, ok := m[k]; ok {
				t.Errorf("%s: %q, want it absent", what, k)
			}
		}
	}
	onTree, err := props.CheckTree(bg, greedy{}, tr, props.Options{Seeds: 2})
	if err != nil || onTree.Witness == nil {
		t.Fatalf("greedy on %v: %v, %v; want a witness", tr, onTree, err)
	}
	m := keys(onTree)
	expect("tree report", m, []string{"verdict", "summary", "witness", "trees", "visited", "unconverged", "curve"},
		[]string{"game", "position", "value", "judged_nodes"})
	if string(m["unconverged"]) != "[]" || string(m["summary"]) == `""` {
		t.Errorf("tree report: unconverged %s, summary %s; want [] and the summary", m["unconverged"], m["summary"])
	}
	expect("tree witness", keys(onTree.Witness), []string{"tree", "nodes", "from", "original", "seeds", "run"},
		[]string{"game", "seed", "explicit"})

	onGame := checkGameTree(t, greedy{}, tr, props.GameOptions{Options: props.Options{Seeds: 2}, Game: "tree", Position: "root"})
	if onGame.Witness == nil || onGame.PositionReport == nil || onGame.Witness.PositionWitness == nil {
		t.Fatalf("greedy on %v as a game: %s; want a witness on the position", tr, onGame.Summary)
	}
	expect("position report", keys(onGame), []string{"verdict", "summary", "game", "position", "value", "judged_nodes", "trees"},
		[]string{"visited", "recent"})
	expect("position witness", keys(onGame.Witness), []string{"horizon", "game", "position", "seed", "order", "explicit", "run"},
		[]string{"tree", "from", "original", "seeds"})
	if onGame.Trees != 1 || onGame.Converged+onGame.Inconclusive+onGame.Stuck != 0 {
		t.Errorf("position report: %d trees, %d converged, %d inconclusive, %d stuck; want the one position, inconsistent",
			onGame.Trees, onGame.Converged, onGame.Inconclusive, onGame.Stuck)
	}
}
