package rules_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

const (
	mx = core.Max
	mn = core.Min
)

func TestUCTScore(t *testing.T) {
	l10 := math.Log(10)
	b4, b2 := math.Sqrt(l10/4), math.Sqrt(l10/2)
	checkScores(t, rules.UCT{C: 1}, []scoreCase{
		{"unvisited first", mx, self10, []core.Stats{quarter, allWins, unvisited, twoLosses},
			[]float64{0.25 + b4, 1 + b4, rules.Unvisited, b2}},
		{"visited", mx, self10, []core.Stats{quarter, allWins, twoLosses}, []float64{0.25 + b4, 1 + b4, b2}},
		{"visited", mn, self10, []core.Stats{quarter, allWins, twoLosses}, []float64{0.75 + b4, b4, 1 + b2}},
		{"parent n=0", mx, core.Stats{}, []core.Stats{quarter, allWins}, []float64{0.25, 1}},
		{"huge n", mx, core.Stats{Visits: math.MaxUint32}, []core.Stats{huge, quarter},
			[]float64{hugeW/maxN + math.Sqrt(math.Log(maxN)/maxN), 0.25 + math.Sqrt(math.Log(maxN)/4)}},
	})
	checkScores(t, rules.UCT{C: 0}, []scoreCase{
		{"c=0 is greedy", mx, self10, []core.Stats{quarter, allWins, twoLosses}, []float64{0.25, 1, 0}},
		{"c=0 is greedy", mn, self10, []core.Stats{quarter, allWins, twoLosses}, []float64{0.75, 0, 1}},
		{"c=0 unvisited", mn, self10, []core.Stats{allWins, unvisited, unvisited}, []float64{0, rules.Unvisited, rules.Unvisited}},
	})
}

func TestGreedyFPUScore(t *testing.T) {
	checkScores(t, rules.GreedyFPU{FPU: 0.5}, []scoreCase{
		{"fpu 0.5", mx, self10, []core.Stats{unvisited, quarter, allWins, twoLosses}, []float64{0.5, 0.25, 1, 0}},
		{"fpu 0.5", mn, self10, []core.Stats{unvisited, quarter, allWins, twoLosses}, []float64{0.5, 0.75, 0, 1}},
		{"all unvisited", mn, core.Stats{}, []core.Stats{unvisited, unvisited}, []float64{0.5, 0.5}},
		{"huge n", mx, self10, []core.Stats{huge, unvisited}, []float64{hugeW / maxN, 0.5}},
	})
	checkScores(t, rules.GreedyFPU{FPU: 1}, []scoreCase{
		// A visited child with mean 1 ties an unvisited one: the lower index wins.
		{"fpu 1 ties", mx, self10, []core.Stats{allWins, unvisited}, []float64{1, 1}},
	})
	checkScores(t, rules.GreedyFPU{}, []scoreCase{
		{"zero value: fpu 0", mx, self10, []core.Stats{unvisited, twoLosses, quarter}, []float64{0, 0, 0.25}},
	})
}

func TestSmoothedScore(t *testing.T) {
	kids := []core.Stats{unvisited, quarter, allWins, twoLosses}
	checkScores(t, rules.Smoothed{K: 1}, []scoreCase{
		{"k=1", mx, self10, kids, []float64{0.5, 2.0 / 6, 5.0 / 6, 1.0 / 4}},
		{"k=1", mn, self10, kids, []float64{0.5, 4.0 / 6, 1.0 / 6, 3.0 / 4}},
		{"parent n=0", mx, core.Stats{}, []core.Stats{unvisited}, []float64{0.5}},
		{"huge n", mn, self10, []core.Stats{huge}, []float64{(maxN - hugeW + 1) / (maxN + 2)}},
	})
	checkScores(t, rules.Smoothed{K: 3}, []scoreCase{
		{"k=3", mx, self10, kids, []float64{0.5, 4.0 / 10, 7.0 / 10, 3.0 / 8}},
	})
	checkScores(t, rules.Smoothed{}, []scoreCase{
		{"zero value: k=1", mx, self10, kids, []float64{0.5, 2.0 / 6, 5.0 / 6, 1.0 / 4}},
	})
	checkScores(t, rules.Smoothed{K: 1e9}, []scoreCase{
		{"huge k", mx, self10, []core.Stats{allWins}, []float64{(4 + 1e9) / (4 + 2e9)}},
	})
}

func TestRAVEScore(t *testing.T) {
	// Children with AMAF statistics (count, reward sum in max's perspective).
	kids := []core.Stats{
		{}, // no data at all: V' = 0
		{Visits: 4, W: 1, AMAFVisits: 10, AMAFW: 8}, // V̂ 1/4, V' 0.8 for max
		{AMAFVisits: 5, AMAFW: 5},                   // unvisited, V' 1 for max, 0 for min
		{Visits: 2, W: 0, AMAFVisits: 4, AMAFW: 1},  // V̂ 0, V' 1/4 for max
	}
	checkScores(t, rules.RAVE{K: 10}, []scoreCase{
		{"eq13", mx, self10, kids, []float64{0, 9.0 / 14, 1, 2.5 / 12}},
		{"eq13", mn, self10, kids, []float64{0, 5.0 / 14, 0, 9.5 / 12}},
		{"w=n, no AMAF", mx, self10, []core.Stats{allWins}, []float64{4.0 / 14}},
	})
	checkScores(t, rules.RAVE{K: 10, Floor: 0.1}, []scoreCase{
		{"floor", mx, self10, kids, []float64{0.1, 9.0 / 14, 1, 2.5 / 12}},
		{"floor", mn, self10, kids, []float64{0.1, 5.0 / 14, 0.1, 9.5 / 12}},
	})
	checkScores(t, rules.RAVE{K: 10, Floor: 0.5}, []scoreCase{
		{"floor 0.5", mx, self10, kids, []float64{0.5, 9.0 / 14, 1, 5.0 / 12}},
	})
	checkScores(t, rules.RAVE{}, []scoreCase{
		{"zero value: k=100", mx, self10, kids[:2], []float64{0, 81.0 / 104}},
	})
	checkScores(t, rules.RAVE{K: 100}, []scoreCase{
		{"huge n", mx, self10, []core.Stats{{Visits: math.MaxUint32, W: 0, AMAFVisits: math.MaxUint32, AMAFW: math.MaxUint32}},
			[]float64{100 / (maxN + 100)}},
	})
}

func TestMCRAVEScore(t *testing.T) {
	kids := []core.Stats{
		{},
		{Visits: 4, W: 1, AMAFVisits: 10, AMAFW: 8},
		{AMAFVisits: 5, AMAFW: 5},
		{Visits: 2, W: 0, AMAFVisits: 4, AMAFW: 1},
	}
	b4, b2 := math.Sqrt(10.0/22), math.Sqrt(10.0/16)
	checkScores(t, rules.MCRAVE{K: 10}, []scoreCase{
		{"eq1", mx, self10, kids, []float64{0, (1-b4)*0.25 + b4*0.8, 1, b2 * 0.25}},
		{"eq1", mn, self10, kids, []float64{0, (1-b4)*0.75 + b4*0.2, 0, (1 - b2) + b2*0.75}},
		{"no AMAF", mx, self10, []core.Stats{allWins}, []float64{1 - math.Sqrt(10.0/22)}},
	})
	bh := math.Sqrt(100 / (3*maxN + 100))
	checkScores(t, rules.MCRAVE{}, []scoreCase{
		{"zero value: k=100, huge n", mx, self10, []core.Stats{{Visits: math.MaxUint32, W: math.MaxUint32, AMAFVisits: 1}},
			[]float64{1 - bh}},
	})
}

func TestPriorScore(t *testing.T) {
	self := core.Stats{Visits: 10, W: 4, K1: 10, K2: 5} // n(F) = 20
	kids := []core.Stats{
		{K1: 10, K2: 8},                  // unvisited, prior 0.8
		{Visits: 4, W: 1, K1: 10, K2: 5}, // prior 0.5
		{},                               // no virtual experience at all
	}
	sl := math.Sqrt(math.Log(20))
	checkScores(t, rules.Prior{C: 1, N0: 10}, []scoreCase{
		{"virtual", mx, self, kids, []float64{0.8 + sl/math.Sqrt(10), 6.0/14 + sl/math.Sqrt(14), rules.Unvisited}},
		{"virtual", mn, self, kids, []float64{0.2 + sl/math.Sqrt(10), 8.0/14 + sl/math.Sqrt(14), rules.Unvisited}},
		{"visited", mx, self, kids[:2], []float64{0.8 + sl/math.Sqrt(10), 6.0/14 + sl/math.Sqrt(14)}},
		{"tiny virtual", mx, core.Stats{Visits: math.MaxUint32}, []core.Stats{{K1: 5e-324, K2: 0}},
			[]float64{math.Sqrt(math.Log(maxN)) / math.Sqrt(5e-324)}},
	})
	checkScores(t, rules.Prior{N0: 10}, []scoreCase{
		{"c=0", mx, self, kids[:2], []float64{0.8, 6.0 / 14}},
	})
}

func TestPriorVirtual(t *testing.T) {
	square := func(h float64, ok bool) float64 {
		if !ok {
			return 0.25
		}
		return h * h
	}
	for _, c := range []struct {
		p        rules.Prior
		h        float64
		ok       bool
		k1, k2   float64
		describe string
	}{
		{rules.Prior{N0: 10}, 0.8, true, 10, 8, "prior in [0,1]"},
		{rules.Prior{N0: 10}, -0.2, true, 10, 0, "negative prior clamped to 0"},
		{rules.Prior{N0: 10}, 1.7, true, 10, 10, "prior above 1 clamped to 1"},
		{rules.Prior{N0: 10}, -1e300, true, 10, 0, "huge negative prior"},
		{rules.Prior{N0: 10}, math.NaN(), false, 10, 5, "no prior: H = 1/2"},
		{rules.Prior{N0: 4, H: square}, 0.5, true, 4, 1, "user H"},
		{rules.Prior{N0: 4, H: square}, 0, false, 4, 1, "user H without prior"},
		{rules.Prior{N0: 4, H: square}, 3, true, 4, 4, "user H clamped"},
		{rules.Prior{N0: 4, H: func(float64, bool) float64 { return math.NaN() }}, 0.9, true, 4, 2, "user H NaN: 1/2"},
		{rules.Prior{N0: -3}, 0.9, true, 0, 0, "negative N0 is 0"},
	} {
		k1, k2 := c.p.Virtual(c.h, c.ok)
		if k1 != c.k1 || k2 != c.k2 {
			t.Errorf("%s: Virtual(%v, %v) = %v, %v, want %v, %v", c.describe, c.h, c.ok, k1, k2, c.k1, c.k2)
		}
	}
	if got := (rules.Prior{N0: 10}).Needs(); got.Virtual == nil || got.AMAF || got.Priors {
		t.Errorf("Prior{N0: 10}.Needs() = %+v, want virtual experience only", got)
	}
	if got := (rules.Prior{}).Needs(); got != (core.Needs{}) {
		t.Errorf("Prior{}.Needs() = %+v, want nothing", got)
	}
}

func TestNegativeHeuristicScore(t *testing.T) {
	kids := []core.Stats{
		{HasPrior: true, Prior: -0.5},                 // unvisited, negative pattern
		{Visits: 4, W: 1, HasPrior: true, Prior: 0.3}, // V̂ 1/4 (max)
		allWins,                    // no prior: h = 0
		{HasPrior: true, Prior: 2}, // unvisited, h above 1
	}
	checkScores(t, rules.NegativeHeuristic{K: 10}, []scoreCase{
		{"mogo", mx, self10, kids, []float64{-0.5, 0.25 + 0.3*10/14, 1, 2}},
		{"mogo", mn, self10, kids, []float64{-0.5, 0.75 + 0.3*10/14, 0, 2}},
		{"negative stays below", mx, self10, []core.Stats{kids[0], twoLosses}, []float64{-0.5, 0}},
		{"huge prior", mx, self10, []core.Stats{
			{Visits: math.MaxUint32, W: 0, HasPrior: true, Prior: -1e300},
			{HasPrior: true, Prior: math.MaxFloat64},
		}, []float64{-1e300 * (10 / (maxN + 10)), math.MaxFloat64}},
	})
	checkScores(t, rules.NegativeHeuristic{}, []scoreCase{
		{"zero value: k=10", mx, self10, kids[:2], []float64{-0.5, 0.25 + 0.3*10/14}},
	})
}

func TestNeeds(t *testing.T) {
	for _, c := range []struct {
		r    core.Rule
		want core.Needs
	}{
		{rules.UCT{C: 1}, core.Needs{}},
		{rules.GreedyFPU{}, core.Needs{}},
		{rules.Smoothed{}, core.Needs{}},
		{rules.RAVE{}, core.Needs{AMAF: true}},
		{rules.MCRAVE{}, core.Needs{AMAF: true}},
		{rules.NegativeHeuristic{}, core.Needs{Priors: true}},
		{rules.EpsGreedy{}, core.Needs{}},
		{rules.Boltzmann{}, core.Needs{}},
		{rules.Threshold(rules.RAVE{}), core.Needs{AMAF: true}},
	} {
		if diff := cmp.Diff(c.want, core.NeedsOf(c.r)); diff != "" {
			t.Errorf("NeedsOf(%T) (-want +got):\n%s", c.r, diff)
		}
	}
}
