package rules

import (
	"math"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/core"
)

// Frugality is what the papers say about whether a rule leaves part of the
// tree unvisited ("frugal" in the verdicts of docs/theory.md's table).
type Frugality uint8

const (
	// FrugalUnknown: the papers make no claim (docs/theory.md's table says
	// nothing of frugality).
	FrugalUnknown Frugality = iota
	// FrugalYes: some parts of the tree are never visited (paper §3, after
	// Eq. 14), at least in the games of the prediction's Condition.
	FrugalYes
	// FrugalNo: the whole tree is visited infinitely often.
	FrugalNo
)

// String returns "unknown", "yes" or "no".
func (f Frugality) String() string {
	switch f {
	case FrugalUnknown:
		return "unknown"
	case FrugalYes:
		return "yes"
	case FrugalNo:
		return "no"
	}
	return "Frugality(" + strconv.Itoa(int(f)) + ")"
}

// Prediction is what the papers predict about a rule: the row of the table
// in docs/theory.md ("What the papers claim about known rules") that the
// checker (package props) must reproduce.
type Prediction struct {
	// Consistent is true when the papers prove the root decision converges to
	// an optimal move, in the games of Condition.
	Consistent bool
	// Frugal says whether part of the tree stays unvisited.
	Frugal Frugality
	// Condition restricts the class of games the claim is about, e.g.
	// "binary deterministic games" (no chance nodes, rewards in {0,1});
	// empty means every finite game of the model.
	Condition string
	// Source is the paper and section the claim comes from.
	Source string
	// Why is one line: the failure mode of an inconsistent rule, or the
	// reason a consistent one is consistent.
	Why string
	// Eq4 is true when the rule satisfies the paper's Eq. 4: of two children
	// visited infinitely often, a clearly worse one gets a vanishing share of
	// the visits. It is the premise of the paper's claim that Algorithm 2
	// (threshold) makes a rule consistent on binary deterministic games, a
	// claim this project refutes with average backups
	// (gen.AbsorbingRandomTrap): Eq4 does not make threshold consistent.
	// Rules with a constant exploration rate (eps-greedy, boltzmann) break it.
	Eq4 bool
	// Stuck is a practical expectation, kept apart from the claim about the
	// limit: on some tree the root decision is expected to stay wrong through
	// the checker's horizon (2^62 simulations of a node) although, where
	// Consistent is true, it is right in the limit. A checker's "stuck"
	// verdict on such a rule is the expected practical finding, not a
	// contradiction; Practical says where and why.
	Stuck bool
	// Practical is the practical finding in one line, shown beside the
	// verdict: the tree, how long the decision stays wrong, and when it
	// returns (an estimate). Empty when there is none beyond the claim.
	Practical string
}

// AppliesTo reports whether the claim is about games of the kind checked:
// binaryDeterministic says whether the tree or game is a binary
// deterministic one (no chance nodes, rewards in {0,1}; tree.Tree's
// BinaryDeterministic). A claim restricted to those games (Condition
// BinaryDeterministic, as smoothed's) says nothing about other trees: a
// verdict there neither reproduces nor contradicts it, and an agreement
// must say "not refuted", never "reproduced".
func (p Prediction) AppliesTo(binaryDeterministic bool) bool {
	return !p.BinaryOnly() || binaryDeterministic
}

// BinaryDeterministic is the Condition of claims about deterministic games
// with rewards in {0,1} (no chance nodes), the class on which Algorithm 2 and
// the max(V', 0.1) fix are proved.
const BinaryDeterministic = "binary deterministic games"

// BinaryOnly reports whether the claim is about binary deterministic games
// only, the trees props.Options.BinaryOnly selects.
func (p Prediction) BinaryOnly() bool { return p.Condition == BinaryDeterministic }

// String is a short form for listings, e.g. "consistent on binary
// deterministic games, frugal", "consistent, stuck in practice" or
// "inconsistent".
func (p Prediction) String() string {
	var b strings.Builder
	if p.Consistent {
		b.WriteString("consistent")
		if p.Condition != "" {
			b.WriteString(" on " + p.Condition)
		}
	} else {
		b.WriteString("inconsistent")
	}
	if p.Stuck {
		b.WriteString(", stuck in practice")
	}
	switch p.Frugal {
	case FrugalYes:
		b.WriteString(", frugal")
	case FrugalNo:
		b.WriteString(", not frugal")
	}
	return b.String()
}

// Param describes one parameter of a rule: its name in specs (uct:c=0.7),
// its default and its range. Every numeric parameter is a finite float64
// in [Min, Max], with the ends excluded when MinOpen or MaxOpen.
type Param struct {
	Name    string
	Default float64
	Min     float64
	Max     float64
	MinOpen bool
	MaxOpen bool
	// Doc says what the parameter is, in one line.
	Doc string
	// Inner marks a wrapper's inner rule (threshold's rule=): its value is
	// a rule spec, not a number; it must come last in a spec and takes the
	// rest of it, so the inner rule can carry its own parameters
	// (threshold:v=0.3,rule=rave:k=50). DefaultInner is then its default.
	Inner        bool
	DefaultInner string
}

// Range writes the parameter's range in interval notation, e.g. "(0, 1e9]",
// or "rule spec" for an inner rule.
func (p Param) Range() string {
	if p.Inner {
		return "rule spec"
	}
	lo, hi := "[", "]"
	if p.MinOpen {
		lo = "("
	}
	if p.MaxOpen {
		hi = ")"
	}
	return lo + formatNum(p.Min) + ", " + formatNum(p.Max) + hi
}

// DefaultString writes the default value as it appears in a spec.
func (p Param) DefaultString() string {
	if p.Inner {
		return p.DefaultInner
	}
	return formatNum(p.Default)
}

// contains reports whether v lies in the parameter's range; NaN never does.
func (p Param) contains(v float64) bool {
	switch {
	case !(v >= p.Min && v <= p.Max):
		return false
	case p.MinOpen && v == p.Min, p.MaxOpen && v == p.Max:
		return false
	}
	return true
}

// Entry is one rule of the catalogue: its stable name, its parameters and
// the papers' prediction. Entries are made afresh by All and Lookup, so
// changing one changes nothing else; Parse turns a spec into an Instance.
type Entry struct {
	// Name is the stable name used in specs and reports (see the package
	// doc for the naming scheme).
	Name string
	// Summary is the formula or idea in one line.
	Summary string
	// Params are the rule's parameters in canonical spec order.
	Params []Param
	// Predicted is the prediction at the default parameters, the row of
	// docs/theory.md's table. An Instance refines it for its own parameters
	// (e.g. uct with c = 0 is inconsistent).
	Predicted Prediction
	// Backup is the backup the rule must run with: core.BackupMinimax for
	// the -minimax variants, core.BackupAverage otherwise. A wrapper's
	// instance runs with its inner rule's backup.
	Backup core.Backup
	// New makes a user's rule from its arguments: every parameter of Params
	// by name, defaults filled in. Register requires it; the catalogue's
	// own entries leave it nil.
	New func(args map[string]float64) core.Rule

	// build makes the rule from complete, checked arguments.
	build func(args map[string]float64, inner *Instance) core.Rule
	// refine, if set, gives the prediction for given arguments.
	refine func(p Prediction, args map[string]float64, inner *Instance) Prediction
}

// Param returns the parameter called name, and false if there is none.
func (e *Entry) Param(name string) (Param, bool) {
	for _, p := range e.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// All returns the catalogue in docs/theory.md's table order: uct, greedy-fpu,
// smoothed, rave, rave-floor, mc-rave, prior, negative-heuristic,
// eps-greedy, eps-greedy-decay, boltzmann, boltzmann-decay,
// eps-greedy-minimax, boltzmann-minimax, threshold. The entries are new on
// every call.
func All() []*Entry { return catalogue() }

// Lookup returns the entry called name, among the papers' rules (All), the
// real engines' presets (Engines) and the rules added with Register, and
// false if there is none.
func Lookup(name string) (*Entry, bool) {
	for _, e := range known() {
		if e.Name == name {
			return e, true
		}
	}
	return nil, false
}

// known is every entry Lookup finds: the catalogue, the presets, then the
// registered rules.
func known() []*Entry {
	return append(append(catalogue(), engines()...), Registered()...)
}

// names lists the known names in order, for error messages.
func names() string { return strings.Join(nameList(), ", ") }

// nameList lists the known rules' names.
func nameList() []string {
	var ns []string
	for _, e := range known() {
		ns = append(ns, e.Name)
	}
	return ns
}

// formatNum writes v as the shortest decimal that parses back to v, with a
// plain exponent: 0.3, 1.4142135623730951, 1e9, 5e-324.
func formatNum(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		mant, exp := s[:i], s[i+1:]
		neg := strings.HasPrefix(exp, "-")
		exp = strings.TrimLeft(exp, "+-0")
		if neg {
			exp = "-" + exp
		}
		s = mant + "e" + exp
	}
	return s
}

// Bounds shared by several parameters. Exploration constants stop at 1e6:
// beyond it the bonus swamps every mean at any budget the engine can run
// (n < 2^32), and scores stay far from overflow. Smoothing counts stop at
// 1e9, more than any search's real visits can outweigh.
const (
	maxC = 1e6
	maxK = 1e9
)

// Defaults of the catalogue, also the zero-value replacements documented on
// the rule types.
const (
	// DefaultC is the exploration constant of uct and prior, UCB1's √2
	// (slides, "Upper Confidence Bounds: UCB1").
	DefaultC = math.Sqrt2
	// DefaultThreshold is Algorithm 2's V_threshold in the paper's
	// experiments (paper §3 "Tricks", §4).
	DefaultThreshold = 0.3
)

// orDefault reads a struct field whose values ≤ 0 mean the catalogue's
// default def (the zero value's convention, package doc): v when v > 0,
// def when v ≤ 0. A NaN is neither, and panics with a message naming the
// field, which a search reports as a *core.RuleError: a rule built
// directly with a NaN parameter, bypassing Parse (Boltzmann{Tau: NaN}),
// fails instead of running silently with the default.
func orDefault(v, def float64, field string) float64 {
	if v > 0 {
		return v
	}
	if v <= 0 {
		return def
	}
	panic("rules: " + field + " is NaN")
}

// checkNumber panics, naming the field, when a struct field the rule reads
// as it is is NaN: the search reports it as a *core.RuleError, rather than
// running with NaN scores or probabilities that pick a child silently.
func checkNumber(v float64, field string) {
	if v != v {
		panic("rules: " + field + " is NaN")
	}
}

func paramC(def float64, doc string) Param {
	return Param{Name: "c", Default: def, Min: 0, Max: maxC, Doc: doc}
}

func paramK(def float64, doc string) Param {
	return Param{Name: "k", Default: def, Min: 0, MinOpen: true, Max: maxK, Doc: doc}
}

func paramFPU() Param {
	return Param{Name: "fpu", Default: 1, Min: 0, Max: 1,
		Doc: "first-play urgency: the mean an unvisited child is taken to have"}
}

func paramEps() Param {
	return Param{Name: "eps", Default: 0.2, Min: 0, Max: 1,
		Doc: "probability of a uniformly random child (slides: ε = 0.2)"}
}

func paramTau() Param {
	return Param{Name: "tau", Default: 0.1, Min: 0, MinOpen: true, Max: maxC,
		Doc: "temperature τ (slides: τ = 0.1)"}
}

// catalogue makes the registry's entries, in docs/theory.md's table order.
func catalogue() []*Entry {
	const (
		paper  = "paper §3"
		tricks = `paper §3 "Tricks"`
		binary = BinaryDeterministic
	)
	greedyWhy := "greedy with unvisited children first: a good move that loses its first simulation is never tried again (" + tricks + ")"
	return []*Entry{
		{
			Name:    "uct",
			Summary: "UCB1 on trees: V̂ + c·sqrt(ln n_F / n), unvisited children first",
			Params:  []Param{paramC(DefaultC, "exploration constant C; 0 is greedy with unvisited children first")},
			Predicted: Prediction{Consistent: true, Frugal: FrugalNo, Eq4: true,
				Source: paper + " Eq. 12; Grand Challenge §3.4",
				Why:    "the bonus makes every child visited infinitely often (Eq. 5) and vanishes against the mean (Eq. 4); so the whole tree is visited"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return UCT{C: a["c"]} },
			refine: func(p Prediction, a map[string]float64, _ *Instance) Prediction {
				if a["c"] == 0 {
					p.Consistent, p.Frugal, p.Why = false, FrugalUnknown, "c = 0 is "+greedyWhy
				}
				return p
			},
		},
		{
			Name:    "greedy-fpu",
			Summary: "greedy mean w/n, an unvisited child scores fpu (Eq. 3, K1 = K2 = 0)",
			Params:  []Param{paramFPU()},
			Predicted: Prediction{Eq4: true, Source: tricks + ", Eq. 3",
				Why: "the only good move loses its first simulation and scores 0 forever, below a bad move that won its first"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return GreedyFPU{FPU: a["fpu"]} },
		},
		{
			Name:    "smoothed",
			Summary: "smoothed mean (w+k)/(n+2k), k > 0 (Eq. 14)",
			Params:  []Param{paramK(1, "smoothing count K, in virtual half-wins")},
			Predicted: Prediction{Consistent: true, Frugal: FrugalYes, Condition: binary, Eq4: true,
				Source: tricks + ", Eq. 14 (MoGo)",
				Why:    "a starved child keeps a fixed positive score while losing children fall to 0, so it is retried (Eq. 5); winning children are never left"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return Smoothed{K: a["k"]} },
		},
		{
			Name:    "rave",
			Summary: "RAVE blend (n·V̂ + k·V')/(n+k), V' the AMAF mean, 0 without AMAF data (Eq. 13)",
			Params:  []Param{paramK(100, "RAVE equivalence count K")},
			Predicted: Prediction{Eq4: true, Source: paper + " Eq. 13",
				Why: "the only good move can have V' = 0: it scores 0 while unvisited and a bad move with V' > 0 outscores it forever"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return RAVE{K: a["k"]} },
		},
		{
			Name:    "rave-floor",
			Summary: "RAVE blend with V' replaced by max(V', floor) (Eq. 13 fixed)",
			Params: []Param{paramK(100, "RAVE equivalence count K"),
				{Name: "floor", Default: 0.1, Min: 0, MinOpen: true, Max: 1, Doc: "lower bound on the RAVE value V' (paper: 0.1)"}},
			Predicted: Prediction{Consistent: true, Frugal: FrugalYes, Condition: binary, Eq4: true,
				Source: tricks,
				Why:    "an unvisited move scores at least floor while losing moves fall to 0, so a good move is eventually tried (Eq. 5)"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return RAVE{K: a["k"], Floor: a["floor"]} },
		},
		{
			Name:    "mc-rave",
			Summary: "MC-RAVE (1−β)·V̂ + β·Ṽ, β = sqrt(k/(3n+k)) → 0, Ṽ the AMAF mean (0 without data)",
			Params:  []Param{paramK(100, "equivalence parameter: β = 1/2 at n = k")},
			Predicted: Prediction{Eq4: true, Source: "Grand Challenge §4.1, Eq. 1",
				Why: "as the blend of Eq. 13: β = 1 while a move is unvisited, so a good move with AMAF value 0 scores 0 and is never tried"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return MCRAVE{K: a["k"]} },
		},
		{
			Name:    "prior",
			Summary: "UCT over virtual experience N* = n0, W* = n0·H, H the move's prior in [0,1] (0.5 without one)",
			Params: []Param{paramC(DefaultC, "exploration constant C"),
				{Name: "n0", Default: 10, Min: 0, Max: maxK, Doc: "virtual count N*: the prior's weight in simulations"}},
			Predicted: Prediction{Consistent: true, Eq4: true, Source: "Grand Challenge §4.2",
				Why: "the virtual count is fixed, so the prior's weight n0/(n+n0) vanishes, and the UCT bonus visits every child infinitely often"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return Prior{C: a["c"], N0: a["n0"]} },
			refine: func(p Prediction, a map[string]float64, _ *Instance) Prediction {
				if a["c"] == 0 {
					p.Consistent, p.Why = false, "c = 0 leaves (w + n0·H)/(n + n0) without a bonus: a good move with prior 0 scores 0 until visited and can starve, as in Eq. 13"
				}
				return p
			},
		},
		{
			Name:    "negative-heuristic",
			Summary: "MoGo-style V̂ + h·k/(n+k), h the move's prior of any sign (0 without one), V̂ = 0 unvisited",
			Params:  []Param{paramK(10, "weight of the pattern value, in simulations")},
			Predicted: Prediction{Eq4: true, Source: paper + ` "Unconsistency of negative heuristics"`,
				Why: "a move with a negative pattern value scores below 0 while unvisited, under every visited move, so the only good move may never be simulated"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return NegativeHeuristic{K: a["k"]} },
		},
		{
			Name:    "eps-greedy",
			Summary: "with probability eps a uniformly random child, else the greedy mean (unvisited first)",
			Params:  []Param{paramEps()},
			Predicted: Prediction{Frugal: FrugalNo, Source: paper + " Fig. 1; slides (ε-greedy)",
				Why: "constant exploration is not greedy in the limit: on Fig. 1's deep trap the bad side's mean stays above the good side's"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return EpsGreedy{Eps: a["eps"]} },
			refine: func(p Prediction, a map[string]float64, _ *Instance) Prediction {
				if a["eps"] == 0 {
					p.Frugal, p.Eq4, p.Why = FrugalUnknown, true, "eps = 0 is "+greedyWhy
				}
				return p
			},
		},
		{
			Name:    "eps-greedy-decay",
			Summary: "eps-greedy with eps = min(1, c/sqrt(n_F+1)) at a node visited n_F times",
			Params:  []Param{{Name: "c", Default: 1, Min: 0, MinOpen: true, Max: maxC, Doc: "scale of the exploration rate"}},
			Predicted: Prediction{Consistent: true, Frugal: FrugalNo, Eq4: true,
				Source: paper + ` "Saving up memory"; slides (decaying ε)`,
				Why:    "Σ eps = ∞ so every child is tried infinitely often (Eq. 5), and eps → 0 with o(n_F) random visits (Eq. 4); so the whole tree is visited"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return EpsGreedyDecay{C: a["c"]} },
		},
		{
			Name:    "boltzmann",
			Summary: "softmax: P(i) ∝ exp(V̂_i/tau), an unvisited child's V̂ taken as fpu",
			Params:  []Param{paramTau(), paramFPU()},
			Predicted: Prediction{Frugal: FrugalNo, Source: "slides (softmax)",
				Why: "with constant τ the choice probabilities converge to positive constants: not greedy in the limit"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return Boltzmann{Tau: a["tau"], FPU: a["fpu"]} },
		},
		{
			Name:    "boltzmann-decay",
			Summary: "softmax with tau = c/ln(n_F+2) at a node visited n_F times",
			Params:  []Param{{Name: "c", Default: 1, Min: 0, MinOpen: true, Max: maxC, Doc: "scale of the temperature; c ≥ 1 for consistency"}, paramFPU()},
			Predicted: Prediction{Consistent: true, Frugal: FrugalNo, Eq4: true, Source: "slides (decaying τ)",
				Why: "every child keeps probability ≥ (n_F+2)^(−1/c)/k, whose sum diverges for c ≥ 1 (Eq. 5), and τ → 0 is greedy in the limit (Eq. 4)"},
			build: func(a map[string]float64, _ *Instance) core.Rule { return BoltzmannDecay{C: a["c"], FPU: a["fpu"]} },
			refine: func(p Prediction, a map[string]float64, _ *Instance) Prediction {
				if a["c"] < 1 {
					p.Consistent, p.Why = false, "c < 1: the floor (n_F+2)^(−1/c)/k is summable, so a good move that lost early can starve behind a child whose mean stays above c"
				}
				return p
			},
		},
		{
			Name:    "eps-greedy-minimax",
			Summary: "eps-greedy run with minimax backups",
			Params:  []Param{paramEps()},
			Predicted: Prediction{Consistent: true, Source: "slides (ε-greedy: minimax backups)",
				Why: "every child keeps probability ≥ eps/k, and minimax backups make each value converge to its Bellman value, so the greedy, most-visited child becomes optimal"},
			Backup: core.BackupMinimax,
			build:  func(a map[string]float64, _ *Instance) core.Rule { return EpsGreedy{Eps: a["eps"]} },
			refine: func(p Prediction, a map[string]float64, _ *Instance) Prediction {
				switch a["eps"] {
				case 0:
					p.Consistent, p.Eq4, p.Why = false, true, "eps = 0 is "+greedyWhy
				case 1:
					p.Consistent, p.Why = false, "eps = 1 is uniformly random: the root children are visited equally and the decision never settles"
				}
				return p
			},
		},
		{
			Name:    "boltzmann-minimax",
			Summary: "softmax run with minimax backups",
			Params:  []Param{paramTau(), paramFPU()},
			Predicted: Prediction{Consistent: true, Source: "slides (softmax: minimax backups)",
				Why: "every child keeps a probability bounded below, and minimax backups make the values exact in the limit, so the optimal child gets the largest probability and the most visits"},
			Backup: core.BackupMinimax,
			build:  func(a map[string]float64, _ *Instance) core.Rule { return Boltzmann{Tau: a["tau"], FPU: a["fpu"]} },
		},
		{
			Name:    "threshold",
			Summary: "Algorithm 2: a uniformly random child at a max node with V̂ < v (min node: V̂ > vmin), the inner rule elsewhere",
			Params: []Param{
				{Name: "v", Default: DefaultThreshold, Min: 0, MinOpen: true, Max: 1, MaxOpen: true, Doc: "V_threshold at max nodes (paper: 0.3)"},
				{Name: "vmin", Default: 0, Min: 0, Max: 1, MaxOpen: true, Doc: "V'_threshold at min nodes, max's perspective; 0 means 1 − v"},
				{Name: "rule", Inner: true, DefaultInner: "greedy-fpu", Doc: "the wrapped rule's spec; must come last"},
			},
			// The paper claims consistency on binary deterministic games for any
			// inner rule satisfying Eq. 4. This checker refutes the claim with
			// average backups (gen.AbsorbingRandomTrap): the random mode can be
			// absorbing. The prediction is ours, and says so.
			Predicted: Prediction{
				Source: tricks + ", Algorithm 2; the paper's consistency claim is refuted by gen.AbsorbingRandomTrap",
				Why:    absorbing},
			build: func(a map[string]float64, inner *Instance) core.Rule {
				return core.Threshold{Rule: inner.Rule, V: a["v"], VMin: a["vmin"]}
			},
			refine: func(p Prediction, _ map[string]float64, inner *Instance) Prediction {
				in := inner.Predicted
				p.Frugal = in.Frugal
				if inner.Backup == core.BackupMinimax && in.Consistent {
					// Minimax backups need no Eq. 4, and the threshold reads the
					// backed-up value (Site.ParentMean): in binary games a node's
					// value is 0 or 1 once its children are tried, and the
					// randomising stops where it is 1 (max) or 0 (min).
					p.Consistent, p.Condition, p.Eq4 = true, binary, in.Eq4
					p.Why = "minimax backups make " + inner.Entry.Name + " consistent without Eq. 4; the threshold reads the backed-up value and, in binary deterministic games, stops randomising once a node's value is 1"
				}
				return p
			},
		},
	}
}
