package fuzz

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// Rule fuzzes the consistency of rule. Call it from a fuzz target of your
// own:
//
//	func FuzzMyRule(f *testing.F) {
//		fuzz.Rule(f, myRule{}, props.Options{RuleSpec: "my-rule"})
//	}
//
// and run it with
//
//	go test -run '^$' -fuzz '^FuzzMyRule$' -fuzztime 5m .
//
// Each fuzz input is a search seed and a tree code (see the package doc),
// which Rule decodes into a tree within opts.Shape's bounds (MaxDepth,
// MaxNodes, MaxBranching, Chance, Binary; opts.BinaryOnly too) with a max
// root. It first screens the tree: 4 seeds (the fuzzed seed and those
// after it) of up to 1,024 simulations, with opts's engine. A tree whose
// root decision is optimal at that budget for every seed passes. Only a
// tree that looks wrong there goes on to the checker, run exactly as
// props.CheckTree runs it, with opts and the fuzzed seed as opts.Seed; Rule
// fails when its verdict is inconsistent or fault, printing the witness,
// shrunk to a minimal tree by the checker's shrinker, with the seed that
// fails it and, when opts.RuleSpec names the rule, the check command that
// replays it (mctscheck's for a rule of its catalogue, else that of a
// command of one's own built with package cli). go test prints how to run
// the fuzz input again. Inconclusive trees pass. A rule that panics or
// returns a non-finite score fails with its fault.
//
// Rule seeds the corpus with the trap families of the literature (those the
// tree code can express within opts's bounds), a few small trees of its
// own and small random trees of opts.Shape, so that a plainly inconsistent
// rule is found from an empty corpus within seconds; AddTree and
// testdata/fuzz/FuzzMyRule add more. Without -fuzz, go test runs the seed
// corpus, so a counterexample the fuzzer once found and left in testdata
// stays a regression test. Most inputs of a consistent rule cost the
// screen alone, a fiftieth of a check; a tree that fails the screen costs a
// check too, opts.Seeds searches (default 16, as props.CheckTree) of up to
// opts.MaxBudget simulations (default 16,384); a failing input also pays
// for shrinking the witness, and go test minimises failing and new
// interesting inputs by running them again many times, so pass
// -fuzzminimizetime to bound that (see the package doc, which gives the
// rates).
func Rule(f *testing.F, rule core.Rule, opts props.Options) {
	f.Helper()
	lim := ruleLimits(opts)
	for _, code := range seedCodes(opts, lim) {
		f.Add(uint64(1), code)
	}
	f.Fuzz(func(t *testing.T, seed uint64, code []byte) {
		failure, err := judgeInput(rule, opts, lim, seed, code)
		if err != nil {
			t.Fatal(err)
		}
		if failure != "" {
			t.Fatal(failure)
		}
	})
}

// The screen: every input is first searched at a small scale, screenSeeds
// seeds up to screenBudget simulations, and only a tree whose root decision
// is wrong there, for some seed, goes on to the full check. A consistent
// rule decides most fuzzed trees right long before the full check's 16,384
// simulations, so that most inputs cost a fiftieth of a full check; a rule
// trapped for ever is trapped at the small budget already.
const (
	screenSeeds  = 4
	screenBudget = 1024
)

// judgeInput checks rule on the tree of one fuzz input, searched from
// seed, and returns the failure to report, "" if there is none: the
// screen, then, for a tree that looks wrong, the full check.
func judgeInput(rule core.Rule, opts props.Options, lim limits, seed uint64, code []byte) (string, error) {
	name := cmp.Or(opts.RuleSpec, fmt.Sprintf("%T", rule))
	tr, _, err := decodeTree(code, lim)
	if err != nil {
		return "", err
	}
	if pass, err := screen(rule, opts, tr, seed); err != nil || pass {
		if err != nil {
			err = fmt.Errorf("rule %s, tree %s, seed %d: %v", name, tr, seed, err)
		}
		return "", err
	}
	o := opts
	o.Seed = seed
	rep, err := props.CheckTree(context.Background(), rule, tr, o)
	if err != nil {
		return "", fmt.Errorf("rule %s, tree %s, seed %d: %v", name, tr, seed, err)
	}
	if rep.Verdict != props.Inconsistent && rep.Verdict != props.Faulted {
		return "", nil
	}
	w := *rep.Witness
	line := w.Run.CheckLine("mctscheck")
	if line != "" {
		w.Replay = append(slices.Clip(w.Replay), line)
	}
	var b strings.Builder
	if opts.RuleSpec == "" {
		fmt.Fprintf(&b, "rule %s (no Options.RuleSpec, so no replay line):\n", name)
	}
	b.WriteString(w.String())
	if line != "" && !inCatalogue(opts.RuleSpec) {
		fmt.Fprintf(&b, "(mctscheck stands for your command built with package cli, which knows %s)\n", opts.RuleSpec)
	}
	return b.String(), nil
}

// screen searches tr with rule at the screen's scale (the options' engine,
// the input's seed) and reports whether it passes: no witness, and every
// seed's root decision optimal at the last budget. With no smaller scale
// than the full check's, nothing passes the screen.
func screen(rule core.Rule, opts props.Options, tr *tree.Tree, seed uint64) (bool, error) {
	o := opts
	o.Seed, o.Seeds, o.Progress, o.Status = seed, screenSeeds, nil, nil
	full := cmp.Or(opts.MaxBudget, 16384)
	o.MaxBudget = max(screenBudget, cmp.Or(opts.MinBudget, 64)<<cmp.Or(opts.Window, 4)) // the criterion's fewest checkpoints
	if o.MaxBudget >= full {
		return false, nil
	}
	rep, err := props.CheckTree(context.Background(), rule, tr, o)
	if err != nil || rep.Witness != nil {
		return false, err
	}
	if n := len(rep.Curve); n > 0 && rep.Curve[n-1].Wrong > 0 {
		return false, nil
	}
	return true, nil
}

// inCatalogue reports whether spec names rules of mctscheck's catalogue
// or presets only, which the stock mctscheck command knows.
func inCatalogue(spec string) bool {
	in, err := rules.Parse(spec)
	if err != nil {
		return false
	}
	stock := map[string]bool{}
	for _, e := range slices.Concat(rules.All(), rules.Engines()) {
		stock[e.Name] = true
	}
	for ; in != nil; in = in.Inner {
		if !stock[in.Entry.Name] {
			return false
		}
	}
	return true
}

// AddTree adds tree, searched from seed, to the seed corpus of a Rule
// target with the same opts; call it before Rule. It fails f when the tree
// code cannot express tree within opts's bounds (see the package doc):
// rewards off the 1/16 grid, probabilities off the 1/8 grid, priors off the
// 1/8 grid in [−16, 16) or on only some children of a node, move identities
// above 15, a root that is not a max node with two children or more.
func AddTree(f *testing.F, tr *tree.Tree, seed uint64, opts props.Options) {
	f.Helper()
	code, err := encode(tr, ruleLimits(opts))
	if err != nil {
		f.Fatalf("fuzz.AddTree(%s): %v", tr, err)
	}
	f.Add(seed, code)
}

// randomSeeds is how many random trees of the options' shape Rule adds to
// the seed corpus.
const randomSeeds = 8

// starters are small, simple trees Rule adds to every seed corpus, with each
// kind of node; tried in several child orders, they already catch the
// plainest inconsistent rules (TestStartersJudge).
var starters = []string{
	"(max 1 0)",
	"(max (min 1 1) (min 0 1))",
	"(max (max 1 0.25) (min 0.5 0.75) 0.5)",
	"(max (chance 0.5:1 0.5:0.5) (min 0.25 1))",
}

// ruleShape is the shape of Rule's trees: opts.Shape, or props' default,
// binary when opts says so.
func ruleShape(opts props.Options) gen.Shape {
	sh := opts.Shape
	if sh == (gen.Shape{}) {
		sh = props.DefaultShape
	}
	if opts.BinaryOnly {
		sh.Binary, sh.Chance = true, false
	}
	return sh
}

// ruleLimits are the bounds of Rule's trees: those of ruleShape.
func ruleLimits(opts props.Options) limits {
	sh := ruleShape(opts)
	return limits{
		maxNodes: max(cmp.Or(sh.MaxNodes, 40), 3),
		maxDepth: cmp.Or(sh.MaxDepth, 3),
		maxKids:  cmp.Or(sh.MaxBranching, 3),
		rootMax:  true,
		noChance: !sh.Chance,
		binary:   sh.Binary || opts.BinaryOnly,
	}
}

// NoSeedsEnv, set to 1, makes Rule start from an empty corpus (one empty
// input): no traps, starters or random trees, only what testdata/fuzz and
// the fuzz cache hold, so as to measure what the fuzzer finds alone.
const NoSeedsEnv = "MCTSCHECK_FUZZ_NO_SEEDS"

// seedCodes returns the codes of Rule's seed corpus: the trap families,
// the starters and small random trees of opts.Shape, those the code can
// express within lim; with NoSeedsEnv set, one empty code, the one input
// the fuzzer needs to mutate.
func seedCodes(opts props.Options, lim limits) [][]byte {
	if os.Getenv(NoSeedsEnv) == "1" {
		return [][]byte{{}}
	}
	var seeds []*tree.Tree
	for _, tr := range gen.Traps() {
		seeds = append(seeds, tr.Tree)
	}
	for _, s := range starters {
		seeds = append(seeds, tree.MustParse(s))
	}
	if sh := ruleShape(opts); sh.Check() == nil {
		trees := gen.Trees(sh)
		for i := range randomSeeds {
			seeds = append(seeds, trees.Example(i))
		}
	}
	var codes [][]byte
	for _, tr := range seeds {
		if code, err := encode(tr, lim); err == nil { // some are beyond the shape, or off the code's grid
			codes = append(codes, code)
		}
	}
	return codes
}
