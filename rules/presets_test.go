package rules_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// The engine site: a max node with 10 simulations and mean 0.6, two visited
// children (means 2/3 and 1/2) and two unvisited ones; priors 0.5, 0.25,
// 0.25 and −1, so the policy is 1/2, 1/4, 1/4, 0 and the visited mass 3/4.
var (
	engSelf = core.Stats{Visits: 10, W: 6}
	engKids = []core.Stats{
		{Visits: 6, W: 4, Prior: 0.5, HasPrior: true},
		{Visits: 4, W: 2, Prior: 0.25, HasPrior: true},
		{Prior: 0.25, HasPrior: true},
		{Prior: -1, HasPrior: true},
	}
	engP = []float64{0.5, 0.25, 0.25, 0}
	engQ = []float64{2.0 / 3, 0.5} // the visited children's means
	engN = []float64{6, 4, 0, 0}
)

// urgencies returns f(i) for every child of s.
func urgencies(s *core.Site, f func(*core.Site, int) float64) []float64 {
	out := make([]float64, s.Len())
	for i := range out {
		out[i] = f(s, i)
	}
	return out
}

func TestPresetScores(t *testing.T) {
	s := mustSite(t, mx, engSelf, engKids...)
	sqrtMass := math.Sqrt(0.75)
	sgn := func(v float64) float64 { return 2*v - 1 }

	// Leela Zero: N = 10, fpu = 0.6 − 0.25·sqrt(3/4).
	num := math.Sqrt(10 * math.Log(0.015*10+1.7))
	fpu := 0.6 - 0.25*sqrtMass
	lz := rules.MustParse("leela-zero").Rule.(rules.LeelaZero)
	want := []float64{engQ[0] + 0.5*0.5*num/7, engQ[1] + 0.5*0.25*num/5, fpu + 0.5*0.25*num, fpu}
	if diff := cmp.Diff(want, urgencies(s, lz.Urgency), approx); diff != "" {
		t.Errorf("leela-zero (-want +got):\n%s", diff)
	}

	// lc0 with T = 1: N = 11, sqrt(N − 1); reduction and absolute FPU.
	c := 1.745 + 3.894*math.Log((11+38739.0)/38739)
	mult := c * math.Sqrt(10)
	lc0 := rules.Lc0{CPuct: 1.745, CPuctBase: 38739, CPuctFactor: 3.894, FPU: 0.33, Softmax: 1}
	red := sgn(0.6) - 0.33*sqrtMass
	// Child 3's policy of 0 is stored as 2^-31 (Lc0StoredPolicy).
	want = []float64{sgn(engQ[0]) + mult*0.5/7, sgn(engQ[1]) + mult*0.25/5, red + mult*0.25, red + mult*0x1p-31}
	if diff := cmp.Diff(want, urgencies(s, lc0.Urgency), approx); diff != "" {
		t.Errorf("lc0 (-want +got):\n%s", diff)
	}
	lc0.Absolute = true
	want[2], want[3] = 0.33+mult*0.25, 0.33+mult*0x1p-31
	if diff := cmp.Diff(want, urgencies(s, lc0.Urgency), approx); diff != "" {
		t.Errorf("lc0 absolute (-want +got):\n%s", diff)
	}

	// KataGo at the root: only child 2 (best policy unvisited) is a candidate.
	kg := rules.MustParse("katago").Rule.(rules.KataGo)
	u := sgn(0.6)
	sigma := math.Sqrt(((u*u+0.16)*2+10)/(2+10-1) - u*u)
	f := 1 + 0.85*(sigma/0.4-1)
	scaling := (1 + 0.45*math.Log((10+500.0)/500)) * math.Sqrt(10.01) * f
	want = []float64{sgn(engQ[0]) + scaling*0.5/7, sgn(engQ[1]) + scaling*0.25/5, u - 0.1*sqrtMass + scaling*0.25, -math.MaxFloat64}
	if diff := cmp.Diff(want, urgencies(s, kg.Score), approx); diff != "" {
		t.Errorf("katago (-want +got):\n%s", diff)
	}

	// OpenSpiel: N(F) = 1 + 10.
	ou := rules.OpenSpielUCT{C: 2}
	want = []float64{sgn(engQ[0]) + 2*math.Sqrt(math.Log(11)/6), sgn(engQ[1]) + 2*math.Sqrt(math.Log(11)/4), rules.Unvisited, rules.Unvisited}
	if diff := cmp.Diff(want, urgencies(s, ou.Score), approx); diff != "" {
		t.Errorf("openspiel-uct (-want +got):\n%s", diff)
	}
	op := rules.OpenSpielPUCT{C: 2}
	for i := range want {
		q := 0.0
		if i < 2 {
			q = sgn(engQ[i])
		}
		want[i] = q + 2*engP[i]*math.Sqrt(11)/(engN[i]+1)
	}
	if diff := cmp.Diff(want, urgencies(s, op.Score), approx); diff != "" {
		t.Errorf("openspiel-puct (-want +got):\n%s", diff)
	}

	// mctx MuZero: lo = 1/2, hi = 2/3 (the node's 0.6 lies between).
	mz := rules.MctxMuZero{C: 1.25, Base: 19652}
	pb := math.Sqrt(11) * (1.25 + math.Log((11+19652+1.0)/19652))
	want = []float64{1 + pb*0.5/7, 0 + pb*0.25/5, pb * 0.25, 0}
	if diff := cmp.Diff(want, urgencies(s, mz.Score), approx); diff != "" {
		t.Errorf("mctx-muzero (-want +got):\n%s", diff)
	}

	// mctx Gumbel: mixed value (0.6 + 10·(0.5·2/3 + 0.25·0.5)/0.75)/11.
	gb := rules.MctxGumbel{Scale: 0.1, VisitInit: 50}
	mix := (0.6 + 10*(0.5*engQ[0]+0.25*engQ[1])/0.75) / 11
	comp := []float64{engQ[0], engQ[1], mix, mix}
	sc := (50 + 6) * 0.1
	var z float64
	e := make([]float64, 4)
	for i := range e {
		e[i] = engP[i] * math.Exp(sc*(comp[i]-0.5)/(engQ[0]-0.5))
		z += e[i]
	}
	for i := range want {
		want[i] = e[i]/z - engN[i]/11
	}
	if diff := cmp.Diff(want, urgencies(s, gb.Score), approx); diff != "" {
		t.Errorf("mctx-gumbel (-want +got):\n%s", diff)
	}

	// Ludii AG0: u = 2·0.6 − 1, sqrt(N) = sqrt(10).
	ag := rules.LudiiAG0{C: 2.5}
	p := ag.Probs(s, nil)
	best := 0
	for i := range want {
		q := u
		if i < 2 {
			q = sgn(engQ[i])
		}
		want[i] = q + 2.5*engP[i]*math.Sqrt(10)/(1+engN[i])
		if want[i] > want[best] {
			best = i
		}
	}
	wantP := make([]float64, 4)
	wantP[best] = 1
	if diff := cmp.Diff(wantP, p, approx); diff != "" {
		t.Errorf("ludii-ag0 Probs (-want +got):\n%s (scores %v)", diff, want)
	}
}

// TestPresetMinNode: at a min node every preset reads the children's means
// from min's side, so the same statistics flip the choice.
func TestPresetMinNode(t *testing.T) {
	kids := []core.Stats{{Visits: 50, W: 45, Prior: 0.5, HasPrior: true}, {Visits: 50, W: 5, Prior: 0.5, HasPrior: true}}
	for _, e := range rules.Engines() {
		in := rules.MustParse(e.Name)
		mxs := mustSite(t, mx, core.Stats{Visits: 100, W: 50}, kids...)
		mns := mustSite(t, mn, core.Stats{Visits: 100, W: 50}, kids...)
		if got := in.Rule.Select(mxs); got != 0 {
			t.Errorf("%s at a max node: Select = %d, want 0 (mean 0.9 against 0.1)", e.Name, got)
		}
		if got := in.Rule.Select(mns); got != 1 {
			t.Errorf("%s at a min node: Select = %d, want 1 (0.1 for max is 0.9 for min)", e.Name, got)
		}
	}
}

// TestPresetZeroPolicy: a PUCT preset does not pick an unvisited child
// whose policy is 0 (a negative or absent prior beside positive ones)
// behind a visited sibling below the root, at the counts probed: the
// mechanism of their witnesses. For lc0, whose stored policy is at least
// 2^-31, that holds only up to about 2^46 simulations. At the root,
// mctx-muzero's Dirichlet noise gives every child a policy, and the child
// comes back.
func TestPresetZeroPolicy(t *testing.T) {
	for _, name := range []string{"leela-zero", "lc0", "katago", "mctx-muzero", "mctx-gumbel", "ludii-ag0"} {
		in := rules.MustParse(name)
		for _, n := range []uint64{1, 100, 1 << 20, 1 << 40} {
			kids := []core.Stats{{Visits: n, W: 0, Prior: 1, HasPrior: true}, {Prior: -0.5, HasPrior: true}, {}}
			s, err := core.NewSiteAt(core.Max, 1, core.Stats{Visits: n}, kids, 0, core.NewRNG(1))
			if err != nil {
				t.Fatal(err)
			}
			if got := in.Rule.Select(s); got != 0 {
				t.Errorf("%s at n = %d: Select = %d, want 0 (children 1 and 2 have policy 0)", name, n, got)
			}
		}
	}
	mz := rules.MustParse("mctx-muzero").Rule
	kids := []core.Stats{{Visits: 100, W: 0, Prior: 1, HasPrior: true}, {Prior: -0.5, HasPrior: true}, {}}
	s := mustSite(t, core.Max, core.Stats{Visits: 100}, kids...)
	if got := mz.Select(s); got == 0 {
		t.Errorf("mctx-muzero at the root: Select = 0, want a child with policy 0 but noise 0.25/3")
	}
	if got := (rules.MctxMuZero{C: 1.25, Base: 19652}).Select(s); got != 0 {
		t.Errorf("mctx-muzero without noise at the root: Select = %d, want 0", got)
	}
}

// TestPresetTies: Leela Zero and lc0 break ties by policy; Ludii and Pachi
// uniformly at random; Fuego mixes in its RAVE-free choice.
func TestPresetTies(t *testing.T) {
	kids := []core.Stats{{Prior: 0.2, HasPrior: true}, {Prior: 0.7, HasPrior: true}, {Prior: 0.1, HasPrior: true}}
	s := mustSite(t, mx, core.Stats{}, kids...)
	for _, name := range []string{"leela-zero", "lc0", "katago", "mctx-muzero", "openspiel-puct"} {
		if got := rules.MustParse(name).Rule.Select(s); got != 1 {
			t.Errorf("%s with no visits: Select = %d, want 1 (the highest policy)", name, got)
		}
	}
	for _, name := range []string{"ludii-ucb1tuned", "ludii-progressive-bias", "ludii-progressive-history", "pachi-ucb1amaf"} {
		st := rules.MustParse(name).Rule.(core.Stochastic)
		if diff := cmp.Diff([]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, st.Probs(s, nil), approx); diff != "" {
			t.Errorf("%s: Probs with three equal children (-want +got):\n%s", name, diff)
		}
	}
	// Fuego-go: RAVE says child 1 (V' = 1), the mean says child 0 (V̂ = 1/2 > 0).
	fk := []core.Stats{{Visits: 2, W: 1, AMAFVisits: 2, AMAFW: 0}, {Visits: 2, W: 0, AMAFVisits: 100, AMAFW: 100}}
	fs := mustSite(t, mx, core.Stats{Visits: 4, W: 1}, fk...)
	fg := rules.MustParse("fuego-go").Rule.(core.Stochastic)
	if diff := cmp.Diff([]float64{0.05, 0.95}, fg.Probs(fs, nil), approx); diff != "" {
		t.Errorf("fuego-go Probs (-want +got):\n%s", diff)
	}
}

// TestEngineEntries: every preset cites its source commit, parses with its
// defaults, is found by Lookup, and is not in All (the papers' table).
func TestEngineEntries(t *testing.T) {
	papers := map[string]bool{}
	for _, e := range rules.All() {
		papers[e.Name] = true
	}
	if n := len(rules.Engines()); n < 14 {
		t.Errorf("%d presets, want at least 14", n)
	}
	for _, e := range rules.Engines() {
		if papers[e.Name] {
			t.Errorf("%s is in All", e.Name)
		}
		src := e.Predicted.Source
		if at := strings.Index(src, "@"); at < 0 || len(src) < at+41 || strings.Trim(src[at+1:at+41], "0123456789abcdef") != "" {
			t.Errorf("%s: source %q does not name a 40-hex commit", e.Name, src)
		}
		if e.Summary == "" || e.Predicted.Why == "" || len(e.Params) == 0 || e.Predicted.Consistent && e.Predicted.Frugal == rules.FrugalUnknown {
			t.Errorf("%s: incomplete entry %+v", e.Name, e)
		}
		in, err := rules.Parse(e.Name)
		if err != nil {
			t.Errorf("Parse(%q): %v", e.Name, err)
			continue
		}
		if again := rules.MustParse(in.Spec); again.Spec != in.Spec {
			t.Errorf("Parse(%q).Spec = %q", in.Spec, again.Spec)
		}
		if l, ok := rules.Lookup(e.Name); !ok || l.Name != e.Name {
			t.Errorf("Lookup(%q) = %v, %v", e.Name, l, ok)
		}
	}
	for spec, consistent := range map[string]bool{"openspiel-uct:c=0": false, "fuego:b=0": false, "fuego:b=0.1": true} {
		if got := rules.MustParse(spec).Predicted.Consistent; got != consistent {
			t.Errorf("%s: predicted consistent %v, want %v", spec, got, consistent)
		}
	}
}

// TestPresetsFinite: every preset's choice is an index and its scores or
// probabilities are finite at extreme statistics.
func TestPresetsFinite(t *testing.T) {
	sites := [][]core.Stats{
		{{}, {}},
		{{Visits: math.MaxUint32, W: 0}, {Visits: 1, W: 1, Prior: 1e300, HasPrior: true}},
		{{Visits: 1 << 62, W: 1 << 61, AMAFVisits: 1 << 62, AMAFW: 1}, {Prior: -1e300, HasPrior: true}, {Visits: 3, W: 3}},
	}
	for _, e := range rules.Engines() {
		in := rules.MustParse(e.Name)
		for k, kids := range sites {
			var n uint64
			for _, c := range kids {
				n += c.Visits
			}
			s, err := core.NewSite(core.Max, core.Stats{Visits: n}, kids, 0, core.NewRNG(1))
			if err != nil {
				t.Fatal(err)
			}
			if i := in.Rule.Select(s); i < 0 || i >= s.Len() {
				t.Errorf("%s site %d: Select = %d", e.Name, k, i)
			}
			var vals []float64
			switch r := in.Rule.(type) {
			case core.Scorer:
				vals = urgencies(s, r.Score)
			case core.Stochastic:
				vals = r.Probs(s, nil)
			case interface{ Urgency(*core.Site, int) float64 }:
				vals = urgencies(s, r.Urgency)
			}
			for i, v := range vals {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s site %d: child %d value %v", e.Name, k, i, v)
				}
			}
		}
	}
}

// TestLudiiProgressiveHistoryTrap keeps the witness of the preset's
// prediction: the inner node's winning move @1 wins every simulation, so
// its history weight stays W, and the inner node's other moves play @1
// below and lose, so @1's AMAF mean there is negative: the winning move is
// held at a UCB1 arm's O(ln n) visits, the inner node's mean stays near 0,
// and the root keeps the decoy worth 1/8.
func TestLudiiProgressiveHistoryTrap(t *testing.T) {
	const witness = "(max (max 1@1 (max 0@1)@2 (max 0@1)@6 (max 0@1)@7)@3 0.125@4)"
	in := rules.MustParse("ludii-progressive-history")
	if in.Predicted.Consistent || !strings.Contains(in.Predicted.Why, witness) {
		t.Fatalf("the prediction does not name the witness: %s: %s", in.Predicted, in.Predicted.Why)
	}
	s, err := in.NewSearch(tree.MustParse(witness).Game(), core.Config{Seed: 2})
	if err == nil {
		err = s.Run(context.Background(), 1<<20)
	}
	if err != nil {
		t.Fatal(err)
	}
	inner, _ := s.Lookup([]int32{0})
	win, _ := s.Lookup([]int32{0, 0})
	if d := s.Decide(core.MostVisited); d != 1 || inner.W/float64(inner.Visits) > 0.125 || win.Visits > 64 {
		t.Errorf("decision %d; inner node %d visits, mean %.3f; winning move %d visits: want the decoy, a mean below 1/8 and O(ln n) visits",
			d, inner.Visits, inner.W/float64(inner.Visits), win.Visits)
	}
}

// TestLudiiProgressiveBiasPrediction: consistent in the limit, stuck in
// practice, with the practical finding stated apart from the claim.
func TestLudiiProgressiveBiasPrediction(t *testing.T) {
	p := rules.MustParse("ludii-progressive-bias").Predicted
	if !p.Consistent || !p.Stuck || !strings.Contains(p.Practical, "stuck through 2^62") || !strings.Contains(p.Practical, "2^65") {
		t.Errorf("prediction %s, practical %q", p, p.Practical)
	}
}

// TestLc0StoredPolicy: lc0's 16-bit policy (Edge::SetP and GetP, node.cc):
// 11 bits of significand rounded to nearest, and every p below 2^-31, 0
// included, rounded up to 2^-31, so that no stored policy is 0.
func TestLc0StoredPolicy(t *testing.T) {
	for _, c := range []struct{ p, want float64 }{
		{0, 0x1p-31},
		{1e-300, 0x1p-31},
		{0x1p-40, 0x1p-31},
		{0x1p-32, 0x1p-31},
		{0x1p-31, 0x1p-31},
		{4.6e-10, 0x1p-31}, // just below 2^-31 ≈ 4.6566e-10
		{0x1p-30, 0x1p-30},
		{0.5, 0.5},
		{1, 1},
		{0.3, 1.2001953125 / 4},                // 0.3 = 1.2·2^-2: 0.2·2^11 = 409.6 rounds to 410
		{1 + 0x1p-12, 1 + 0x1p-11},             // a tie in the 12th bit rounds up
		{0.25 * (1 + 0x1p-12 - 0x1p-23), 0.25}, // below the tie rounds down
	} {
		if got := rules.Lc0StoredPolicy(c.p); got != c.want {
			t.Errorf("Lc0StoredPolicy(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	prev := 0.0
	for i := range 1 << 12 {
		p := float64(i) / (1 << 12)
		got := rules.Lc0StoredPolicy(p)
		if got < prev || got < rules.Lc0MinPolicy || math.Abs(got-p) > max(p*0x1p-11, rules.Lc0MinPolicy) {
			t.Fatalf("Lc0StoredPolicy(%v) = %v after %v: not monotone, below 2^-31 or off by more than 2^-11", p, got, prev)
		}
		prev = got
	}
}

// TestOpenSpielPUCTFirstLoss: a child with policy 0 is tried once, when the
// decoy's exploration term has shrunk below the draw value 0 it starts
// at, and its first simulation loses (its own first child is the losing
// leaf): its Q is then −1 with no exploration term, and it is never
// selected again, although it wins (the preset's prediction).
func TestOpenSpielPUCTFirstLoss(t *testing.T) {
	s, err := rules.MustParse("openspiel-puct").NewSearch(tree.MustParse("(max 0~1 (max 0 1)~0)").Game(), core.Config{})
	if err == nil {
		err = s.Run(context.Background(), 1<<16)
	}
	if err != nil {
		t.Fatal(err)
	}
	good, _ := s.Lookup([]int32{1})
	if d := s.Decide(core.MostVisited); d != 0 || good.Visits != 1 || good.W != 0 {
		t.Errorf("decision %d, the winning child %d visits, %v wins: want 0, 1 and 0", d, good.Visits, good.W)
	}
}
