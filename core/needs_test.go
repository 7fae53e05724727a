package core_test

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// squaresProbe declares Needs.Squares, picks children at random and, at
// every site, checks what the search keeps against what the site's other
// statistics imply, recording the first few mismatches.
type squaresProbe struct{ log *probeLog }

type probeLog struct {
	mu    sync.Mutex
	calls int
	bad   []string
	root  float64 // the root's Σr² as its last site showed it
}

func (p *probeLog) errorf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.bad) < 5 {
		p.bad = append(p.bad, fmt.Sprintf(format, args...))
	}
}

func (squaresProbe) Needs() core.Needs { return core.Needs{Squares: true} }

// Select checks that the node's sum of squares, n·(var + mean²) from the
// chooser's side, is its children's sum (every simulation through the node
// goes on to a child in paper mode), and that the derived quantities are
// the site's own, not a previous site's.
func (r squaresProbe) Select(s *core.Site) int {
	r.log.mu.Lock()
	r.log.calls++
	r.log.mu.Unlock()
	secondMoment := func(n, v, m float64) float64 { return n * (v + m*m) }
	var sum, childN float64
	for i := range s.Len() {
		childN += s.N(i)
		v, ok := s.Variance(i)
		if !ok {
			if s.Visits(i) > 0 {
				r.log.errorf("child %d has %d visits and no variance", i, s.Visits(i))
			}
			continue
		}
		m, _ := s.Mean(i)
		sum += secondMoment(s.N(i), v, m)
	}
	if v, ok := s.ParentVariance(); ok {
		m, _ := s.ParentMean()
		got := secondMoment(s.ParentN(), v, m)
		if math.Abs(got-sum) > 1e-9*max(1, got) {
			r.log.errorf("depth %d: node's Σr² %v, children's %v", s.Depth(), got, sum)
		}
		if s.Depth() == 0 {
			r.log.mu.Lock()
			r.log.root = got
			r.log.mu.Unlock()
		}
	}
	if got := s.ChildN(); got != childN {
		r.log.errorf("ChildN %v, want %v", got, childN)
	}
	return s.Rand().IntN(s.Len())
}

// squaresTree has graded rewards at min and max nodes, so that variances
// are neither 0 nor the Bernoulli bound.
const squaresTree = "(max (min 0.25 1 (max 0.5 0.875)) (max 0.5 0.75 0.0625) 0.125)"

func TestSquaresKeptBySearch(t *testing.T) {
	tr, err := tree.Parse(squaresTree)
	if err != nil {
		t.Fatal(err)
	}
	log := &probeLog{}
	s := newSearch(t, tr.Game(), squaresProbe{log}, core.Config{Seed: 3})
	run(t, s, 2000)
	if log.calls == 0 || len(log.bad) > 0 {
		t.Errorf("%d calls; mismatches: %v", log.calls, log.bad)
	}
	checkRootSquares(t, s, log)
	if got := s.BytesPerNode(); got != 24 {
		t.Errorf("BytesPerNode with squares = %d, want 16 + 8", got)
	}
	plain := newSearch(t, tr.Game(), core.UCT{C: 1}, core.Config{})
	if got := plain.BytesPerNode(); got != 16 {
		t.Errorf("BytesPerNode of UCT = %d, want 16", got)
	}
}

// checkRootSquares checks the root's Σr² against the leaves' Σ n·r² (every
// leaf's reward is fixed), as the root's site shows it in one more
// simulation.
func checkRootSquares(t *testing.T, s *core.Search, log *probeLog) {
	t.Helper()
	want := 0.0
	s.Walk(func(n core.NodeInfo) bool {
		if n.Kind == core.Terminal && n.Visits > 0 {
			r := n.W / float64(n.Visits)
			want += float64(n.Visits) * r * r
		}
		return true
	})
	run(t, s, 1)
	if math.Abs(log.root-want) > 1e-9*want {
		t.Errorf("root's Σr² = %v, want the leaves' %v", log.root, want)
	}
}

func TestSquaresKeptByTreeParallelSearch(t *testing.T) {
	tr, err := tree.Parse(squaresTree)
	if err != nil {
		t.Fatal(err)
	}
	log := &probeLog{}
	gs := []core.Game{tr.Game(), tr.Game(), tr.Game()}
	s, err := core.NewTreeParallel(gs, squaresProbe{log}, core.Config{Seed: 5, Lockstep: true})
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, 1500)
	if log.calls == 0 || len(log.bad) > 0 {
		t.Errorf("%d calls; mismatches: %v", log.calls, log.bad)
	}
	checkRootSquares(t, s, log)
}

func TestSiteVariance(t *testing.T) {
	// Child 0: rewards 0.5 and 1 (Σr² = 1.25); child 1: one reward 1; the
	// node: those three.
	self := core.Stats{Visits: 3, W: 2.5, Squares: 2.25, HasSquares: true}
	kids := []core.Stats{{Visits: 2, W: 1.5, Squares: 1.25, HasSquares: true}, {Visits: 1, W: 1, Squares: 1, HasSquares: true}, {HasSquares: true}}
	for _, kind := range []core.Kind{core.Max, core.Min} {
		s, err := core.NewSite(kind, self, kids, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []float64{0.0625, 0} {
			if got, ok := s.Variance(i); !ok || math.Abs(got-want) > 1e-15 {
				t.Errorf("%v: Variance(%d) = %v, %v, want %v", kind, i, got, ok, want)
			}
		}
		if _, ok := s.Variance(2); ok {
			t.Errorf("%v: an unvisited child has a variance", kind)
		}
		want := 2.25/3 - (2.5/3)*(2.5/3)
		if got, ok := s.ParentVariance(); !ok || math.Abs(got-want) > 1e-15 {
			t.Errorf("%v: ParentVariance = %v, %v, want %v", kind, got, ok, want)
		}
	}
	s, err := core.NewSite(core.Max, core.Stats{Visits: 1, W: 1}, []core.Stats{{Visits: 1, W: 1}}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Variance(0); ok {
		t.Error("a site without squares has a variance")
	}
}

func TestSiteVarianceWide(t *testing.T) {
	const big = 1 << 40 // beyond a node's uint32 count
	// Child 0: rewards all 1/2; child 1: half 0, half 1.
	self := core.Stats{Visits: 2 * big, W: big, Squares: big * 3 / 4, HasSquares: true}
	kids := []core.Stats{{Visits: big, W: big / 2, Squares: big / 4, HasSquares: true}, {Visits: big, W: big / 2, Squares: big / 2, HasSquares: true}}
	s, err := core.NewSite(core.Min, self, kids, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{0, 0.25} {
		if got, ok := s.Variance(i); !ok || got != want {
			t.Errorf("Variance(%d) = %v, %v, want %v", i, got, ok, want)
		}
	}
	if got, ok := s.ParentVariance(); !ok || got != 0.125 {
		t.Errorf("ParentVariance = %v, %v, want 3/8 − 1/4", got, ok)
	}
}

func TestNewSiteRejectsSquares(t *testing.T) {
	for _, k := range []core.Stats{
		{Visits: 2, W: 1, Squares: 1.5, HasSquares: true},  // above W: a reward above 1
		{Visits: 2, W: 1, Squares: 0.25, HasSquares: true}, // below W²/n = 0.5
		{Visits: 0, Squares: 0.5, HasSquares: true},
		{Visits: 2, W: 1, Squares: 0.5}, // squares without HasSquares
		{Visits: 2, W: 1, Squares: math.NaN(), HasSquares: true},
	} {
		if _, err := core.NewSite(core.Max, core.Stats{HasSquares: true}, []core.Stats{k}, 0, nil); err == nil {
			t.Errorf("NewSite with child %+v: no error", k)
		}
	}
	// Squares on some nodes only: no search keeps them so.
	with := core.Stats{Visits: 1, W: 1, Squares: 1, HasSquares: true}
	for _, c := range []struct{ self, kid0, kid1 core.Stats }{
		{with, with, core.Stats{}},
		{core.Stats{Visits: 2, W: 2}, with, with},
	} {
		if _, err := core.NewSite(core.Max, c.self, []core.Stats{c.kid0, c.kid1}, 0, nil); err == nil {
			t.Errorf("NewSite with squares on some nodes (%+v): no error", c)
		}
	}
}

func TestSitePolicy(t *testing.T) {
	kids := []core.Stats{
		{Visits: 3, W: 1, Prior: 0.5, HasPrior: true},
		{Visits: 1, W: 1, Prior: 0.25, HasPrior: true},
		{Prior: 0.25, HasPrior: true},
		{Prior: -1, HasPrior: true}, // counted as 0
		{},                          // no prior: 0
	}
	s, err := core.NewSite(core.Max, core.Stats{Visits: 4, W: 2}, kids, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(temp float64, want []float64, visited float64) {
		t.Helper()
		got := s.Policy(temp)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-15 {
				t.Errorf("Policy(%v) = %v, want %v", temp, got, want)
				break
			}
		}
		if v := s.VisitedPolicy(temp); math.Abs(v-visited) > 1e-15 {
			t.Errorf("VisitedPolicy(%v) = %v, want %v", temp, v, visited)
		}
	}
	check(1, []float64{0.5, 0.25, 0.25, 0, 0}, 0.75)
	// Temperature 1/2 squares the priors: 0.25, 0.0625, 0.0625 over 0.375.
	check(0.5, []float64{2.0 / 3, 1.0 / 6, 1.0 / 6, 0, 0}, 5.0/6)
	check(1, []float64{0.5, 0.25, 0.25, 0, 0}, 0.75) // the cache follows the temperature

	if got := s.ChildN(); got != 4 {
		t.Errorf("ChildN = %v, want 4", got)
	}
	if lo, hi, ok := s.MeanRange(); !ok || lo != 1.0/3 || hi != 1 {
		t.Errorf("MeanRange = %v, %v, %v, want 1/3, 1, true", lo, hi, ok)
	}

	none, err := core.NewSite(core.Min, core.Stats{}, []core.Stats{{}, {Prior: -0.5, HasPrior: true}}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := none.Policy(1); got[0] != 0.5 || got[1] != 0.5 {
		t.Errorf("Policy without a positive prior = %v, want uniform", got)
	}
	if _, _, ok := none.MeanRange(); ok {
		t.Error("MeanRange of unvisited children reported present")
	}
	for _, temp := range []float64{0, -1, math.Inf(1), math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Policy(%v) did not panic", temp)
				}
			}()
			none.Policy(temp)
		}()
	}
}

// ExampleSite_Policy shows a PUCT score that reads the node's policy and
// the visited children's share of it, as lc0's first-play urgency does.
func ExampleSite_Policy() {
	kids := []core.Stats{
		{Visits: 3, W: 2, Prior: 0.6, HasPrior: true},
		{Prior: 0.3, HasPrior: true},
		{Prior: 0.1, HasPrior: true},
	}
	s, _ := core.NewSite(core.Max, core.Stats{Visits: 3, W: 2}, kids, 0, nil)
	p := s.Policy(1)
	parent, _ := s.ParentMean()
	fpu := parent - 0.25*math.Sqrt(s.VisitedPolicy(1))
	for i := range s.Len() {
		q, ok := s.Mean(i)
		if !ok {
			q = fpu
		}
		fmt.Printf("child %d: P %.2f, score %.3f\n", i, p[i], q+1.5*p[i]*math.Sqrt(s.ChildN())/(1+s.N(i)))
	}
	// Output:
	// child 0: P 0.60, score 1.056
	// child 1: P 0.30, score 1.252
	// child 2: P 0.10, score 0.733
}
