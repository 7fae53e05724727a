package rules_test

import (
	"context"
	"fmt"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// search runs rule on tree for sims simulations and prints the decision and
// the visits and mean of each root child.
func search(rule core.Rule, backup core.Backup, tr string, sims int) {
	s, err := core.New(tree.MustParse(tr).Game(), rule, core.Config{Backup: backup})
	if err != nil {
		panic(err)
	}
	if err := s.Run(context.Background(), sims); err != nil {
		panic(err)
	}
	fmt.Printf("decision %d:", s.Decide(core.MostVisited))
	root, _ := s.Lookup(nil)
	for i := range root.Children {
		n, _ := s.Lookup([]int32{int32(i)})
		fmt.Printf(" [%d visits, mean %.3f]", n.Visits, n.W/float64(max(n.Visits, 1)))
	}
	fmt.Println()
}

// site is a max node visited 10 times, whose children won 1 of 4, 4 of 4
// and 0 of 2 simulations; the last child is new.
func site() *core.Site {
	s, err := core.NewSite(core.Max, core.Stats{Visits: 10, W: 5},
		[]core.Stats{{Visits: 4, W: 1}, {Visits: 4, W: 4}, {Visits: 2}, {}}, 0, core.NewRNG(1))
	if err != nil {
		panic(err)
	}
	return s
}

func printScores(sc core.Scorer) {
	s := site()
	for i := range s.Len() {
		fmt.Printf("%.4g ", sc.Score(s, i))
	}
	fmt.Println("→", sc.Select(s))
}

func printProbs(r core.Stochastic, kind core.Kind, self core.Stats) {
	s, err := core.NewSite(kind, self,
		[]core.Stats{{Visits: 4, W: 1}, {Visits: 4, W: 4}, {Visits: 2}, {}}, 0, core.NewRNG(1))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.4f\n", r.Probs(s, nil))
}

// The paper's §3 "Tricks" counterexample: the good move 0 loses its first
// simulation, the bad move 1 wins its first and then always loses.
const tricksTree = "(max (max 0 1) (min 1 0))"

func ExampleUCT() {
	printScores(rules.UCT{C: 1})
	printScores(rules.UCT{}) // C = 0: greedy, unvisited children first
	search(rules.UCT{C: rules.DefaultC}, core.BackupAverage, tricksTree, 1000)
	// Output:
	// 1.009 1.759 1.073 1.798e+308 → 3
	// 0.25 1 0 1.798e+308 → 3
	// decision 0: [985 visits, mean 0.988] [15 visits, mean 0.133]
}

func ExampleGreedyFPU() {
	printScores(rules.GreedyFPU{FPU: 1})
	// The good move is never tried again.
	search(rules.GreedyFPU{FPU: 1}, core.BackupAverage, tricksTree, 1000)
	// Output:
	// 0.25 1 0 1 → 1
	// decision 1: [1 visits, mean 0.000] [999 visits, mean 0.001]
}

func ExampleSmoothed() {
	printScores(rules.Smoothed{K: 1})
	// Consistent in binary deterministic games: the bad move's score falls
	// below the good move's 1/3 and the good move is tried again.
	search(rules.Smoothed{K: 1}, core.BackupAverage, tricksTree, 1000)
	// Not with rewards strictly between 0 and 1: the leaf 0.5 keeps 1/2.
	search(rules.Smoothed{K: 1}, core.BackupAverage, "(max (max 0 1) 0.5)", 1000)
	// Output:
	// 0.3333 0.8333 0.25 0.5 → 1
	// decision 0: [996 visits, mean 0.999] [4 visits, mean 0.250]
	// decision 1: [1 visits, mean 0.000] [999 visits, mean 0.500]
}

func ExampleRAVE() {
	// The good move 1 has no AMAF data while unvisited, so V' = 0 (Eq. 13).
	const tr = "(max (min 1 0) (max 0 1))"
	search(rules.RAVE{K: 100}, core.BackupAverage, tr, 1000)
	// max(V', 0.1) repairs it (rave-floor).
	search(rules.RAVE{K: 100, Floor: 0.1}, core.BackupAverage, tr, 1000)
	// Output:
	// decision 0: [1000 visits, mean 1.000] [0 visits, mean 0.000]
	// decision 1: [12 visits, mean 0.083] [988 visits, mean 0.999]
}

func ExampleMCRAVE() {
	// A child that won every real simulation but has an AMAF value of 1/4:
	// β = sqrt(k/(3n+k)) moves the score from Ṽ to V̂ as n grows.
	r := rules.MCRAVE{K: 100}
	for _, n := range []uint64{0, 10, 100, 1000, 100000} {
		s, err := core.NewSite(core.Max, core.Stats{Visits: n},
			[]core.Stats{{Visits: n, W: float64(n), AMAFVisits: 4*n + 4, AMAFW: float64(n + 1)}}, 0, nil)
		if err != nil {
			panic(err)
		}
		fmt.Printf("n=%d: %.3f\n", n, r.Score(s, 0))
	}
	// Output:
	// n=0: 0.250
	// n=10: 0.342
	// n=100: 0.625
	// n=1000: 0.865
	// n=100000: 0.986
}

func ExamplePrior() {
	// Priors 0.7, −0.3 and none give the root's children virtual
	// experience N* = 10, W* = 10·H with H clamped to [0,1], 1/2 without.
	tr := tree.MustParse("(max (min 1 0)~0.7 (max 0 1)~-0.3 0.5)")
	s, err := core.New(tr.Game(), rules.Prior{C: rules.DefaultC, N0: 10}, core.Config{})
	if err != nil {
		panic(err)
	}
	if err := s.Run(context.Background(), 2000); err != nil {
		panic(err)
	}
	for i := range 3 {
		n, _ := s.Lookup([]int32{int32(i)})
		fmt.Printf("child %d: N*=%g W*=%g, %d real visits\n", i, n.K1, n.K2, n.Visits)
	}
	fmt.Println("decision:", s.Decide(core.MostVisited))
	// Output:
	// child 0: N*=10 W*=7, 17 real visits
	// child 1: N*=10 W*=0, 1933 real visits
	// child 2: N*=10 W*=5, 50 real visits
	// decision: 1
}

func ExampleNegativeHeuristic() {
	// The only good move, 1, has a negative pattern value: it is never
	// simulated (paper §3, MoGo against Fan Hui).
	search(rules.NegativeHeuristic{K: 10}, core.BackupAverage, "(max (min 1 0)~0.5 (max 0 1)~-0.5)", 1000)
	// Output:
	// decision 0: [1000 visits, mean 1.000] [0 visits, mean 0.000]
}

func ExampleEpsGreedy() {
	// With probability 0.2 a uniform child, else the first unvisited one,
	// child 3, at a max node and at a min node alike.
	printProbs(rules.EpsGreedy{Eps: 0.2}, core.Max, core.Stats{Visits: 10, W: 5})
	printProbs(rules.EpsGreedy{Eps: 0.2}, core.Min, core.Stats{Visits: 10, W: 5})
	// Once every child is visited, the best mean: child 1 for max.
	s, err := core.NewSite(core.Max, core.Stats{Visits: 10, W: 5},
		[]core.Stats{{Visits: 4, W: 1}, {Visits: 4, W: 4}, {Visits: 2}}, 0, core.NewRNG(1))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.4f\n", rules.EpsGreedy{Eps: 0.2}.Probs(s, nil))
	// Output:
	// [0.0500 0.0500 0.0500 0.8500]
	// [0.0500 0.0500 0.0500 0.8500]
	// [0.0667 0.8667 0.0667]
}

func ExampleEpsGreedyDecay() {
	// eps = min(1, c/sqrt(n(F)+1)): the random share decays with the
	// node's visits, the greedy (new) child 3 gets the rest.
	for _, n := range []uint64{0, 3, 99, 9999} {
		fmt.Printf("n(F)=%d: ", n)
		printProbs(rules.EpsGreedyDecay{C: 1}, core.Max, core.Stats{Visits: n})
	}
	// Output:
	// n(F)=0: [0.2500 0.2500 0.2500 0.2500]
	// n(F)=3: [0.1250 0.1250 0.1250 0.6250]
	// n(F)=99: [0.0250 0.0250 0.0250 0.9250]
	// n(F)=9999: [0.0025 0.0025 0.0025 0.9925]
}

func ExampleBoltzmann() {
	// P(i) ∝ exp(V̂(i)/τ), the new child 3 taken as V̂ = fpu = 1; at τ = 0.1
	// for max, at τ = 1 for min (means 3/4, 0, 1 and fpu 1).
	printProbs(rules.Boltzmann{Tau: 0.1, FPU: 1}, core.Max, core.Stats{Visits: 10, W: 5})
	printProbs(rules.Boltzmann{Tau: 1, FPU: 1}, core.Min, core.Stats{Visits: 10, W: 5})
	// Output:
	// [0.0003 0.4999 0.0000 0.4999]
	// [0.2475 0.1169 0.3178 0.3178]
}

func ExampleBoltzmannDecay() {
	// τ = c/ln(n(F)+2) → 0: greedy in the limit; the two children with
	// mean 1 share the probability.
	for _, n := range []uint64{0, 100, 1000000} {
		fmt.Printf("n(F)=%d: ", n)
		printProbs(rules.BoltzmannDecay{C: 1, FPU: 1}, core.Max, core.Stats{Visits: n})
	}
	// Output:
	// n(F)=0: [0.1921 0.3231 0.1616 0.3231]
	// n(F)=100: [0.0153 0.4900 0.0048 0.4900]
	// n(F)=1000000: [0.0000 0.5000 0.0000 0.5000]
}

func ExampleThreshold() {
	// Algorithm 2 around the inconsistent greedy rule: at the root, whose
	// mean falls below 0.3, it draws a random child, and finds the good move.
	search(rules.Threshold(rules.GreedyFPU{FPU: 1}), core.BackupAverage, tricksTree, 1000)
	// Output:
	// decision 0: [998 visits, mean 0.999] [2 visits, mean 0.500]
}

func ExampleParse() {
	for _, spec := range []string{"uct:c=0.7", "uct:c=0", "eps-greedy-minimax", "threshold:v=0.25,rule=rave:k=50", "threshold:rule=eps-greedy-minimax", "smoothed:k=0"} {
		in, err := rules.Parse(spec)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s (%v backups): %v\n", in.Spec, in.Backup, in.Predicted)
	}
	// Output:
	// uct:c=0.7 (average backups): consistent, not frugal
	// uct:c=0 (average backups): inconsistent
	// eps-greedy-minimax:eps=0.2 (minimax backups): consistent
	// threshold:v=0.25,vmin=0,rule=rave:k=50 (average backups): inconsistent
	// threshold:v=0.3,vmin=0,rule=eps-greedy-minimax:eps=0.2 (minimax backups): consistent on binary deterministic games
	// rules: smoothed: parameter "k" = 0, want in (0, 1e9]
}

func ExampleAll() {
	for _, e := range rules.All() {
		fmt.Printf("%-19s", e.Name)
		for _, p := range e.Params {
			fmt.Printf(" %s=%s", p.Name, p.DefaultString())
		}
		fmt.Printf(": %v\n", e.Predicted)
	}
	// Output:
	// uct                 c=1.4142135623730951: consistent, not frugal
	// greedy-fpu          fpu=1: inconsistent
	// smoothed            k=1: consistent on binary deterministic games, frugal
	// rave                k=100: inconsistent
	// rave-floor          k=100 floor=0.1: consistent on binary deterministic games, frugal
	// mc-rave             k=100: inconsistent
	// prior               c=1.4142135623730951 n0=10: consistent
	// negative-heuristic  k=10: inconsistent
	// eps-greedy          eps=0.2: inconsistent, not frugal
	// eps-greedy-decay    c=1: consistent, not frugal
	// boltzmann           tau=0.1 fpu=1: inconsistent, not frugal
	// boltzmann-decay     c=1 fpu=1: consistent, not frugal
	// eps-greedy-minimax  eps=0.2: consistent
	// boltzmann-minimax   tau=0.1 fpu=1: consistent
	// threshold           v=0.3 vmin=0 rule=greedy-fpu: inconsistent
}

func ExampleInstance_NewSearch() {
	// The -minimax variants carry the backup they must run with.
	in := rules.MustParse("eps-greedy-minimax:eps=0.1")
	s, err := in.NewSearch(tree.MustParse(tricksTree).Game(), core.Config{Seed: 1})
	if err != nil {
		panic(err)
	}
	if err := s.Run(context.Background(), 1000); err != nil {
		panic(err)
	}
	root, _ := s.Lookup(nil)
	fmt.Printf("%s: decision %d, root value %v\n", in.Spec, s.Decide(core.MostVisited), root.Value)
	// Output:
	// eps-greedy-minimax:eps=0.1: decision 0, root value 1
}

// optimistic is a user's rule: the mean with one virtual win, (w+1)/(n+1).
type optimistic struct{}

func (optimistic) Score(s *core.Site, i int) float64 { return (s.W(i) + 1) / (s.N(i) + 1) }
func (o optimistic) Select(s *core.Site) int         { return core.ArgmaxScore(s, o) }

// A new rule is a type with Select (and Score, if it is the argmax of a
// score); it runs in the engine, and Algorithm 2 wraps it, like any rule
// of the catalogue.
func Example_customRule() {
	for _, rule := range []core.Rule{optimistic{}, rules.Threshold(optimistic{})} {
		s, err := core.New(tree.MustParse(tricksTree).Game(), rule, core.Config{})
		if err != nil {
			panic(err)
		}
		if err := s.Run(context.Background(), 1000); err != nil {
			panic(err)
		}
		fmt.Printf("%T: decision %d\n", rule, s.Decide(core.MostVisited))
	}
	// Output:
	// rules_test.optimistic: decision 0
	// core.Threshold: decision 0
}
