package fuzz

import (
	"bytes"
	"os"
	"slices"
	"testing"

	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// findsEnv is the environment variable that enables the targets expected
// to fail, FuzzGreedyFPU and FuzzRave. Without it they skip, so that go test
// and the fuzz smoke stay green.
const findsEnv = "MCTSCHECK_FUZZ_FINDS"

// fuzzCatalogue runs Rule on a rule of the catalogue, by spec.
func fuzzCatalogue(f *testing.F, spec string, opts props.Options) {
	f.Helper()
	in, err := rules.Parse(spec)
	if err != nil {
		f.Fatal(err)
	}
	opts.RuleSpec, opts.Backup = in.Spec, in.Backup
	Rule(f, in.Rule, opts)
}

// expectFinding skips f unless findsEnv is set.
func expectFinding(f *testing.F) {
	f.Helper()
	if os.Getenv(findsEnv) == "" {
		f.Skipf("expected to find a counterexample: set %s=1 to run it", findsEnv)
	}
}

// FuzzGreedyFPU fuzzes the greedy rule with first-play urgency, which the
// paper proves inconsistent (§3 "Tricks"). It is expected to fail: see the
// package doc for the timing experiment.
func FuzzGreedyFPU(f *testing.F) {
	expectFinding(f)
	fuzzCatalogue(f, "greedy-fpu", props.Options{})
}

// FuzzRave fuzzes the RAVE blend of the paper's Eq. 13, inconsistent when
// the only good move has AMAF value 0. It is expected to fail: see the
// package doc for the timing experiment.
func FuzzRave(f *testing.F) {
	expectFinding(f)
	fuzzCatalogue(f, "rave", props.Options{})
}

// FuzzUCT fuzzes UCT, which is consistent: a finding here is a false alarm
// of the checker (or a bug of the engine). It also adds a tree of its own
// with AddTree, as a user would: a min node whose good reply is deep.
func FuzzUCT(f *testing.F) {
	AddTree(f, tree.MustParse("(max (min 1 (max 0 1)) (max 0 (min 1 0.5)))"), 7, props.Options{})
	fuzzCatalogue(f, "uct", props.Options{})
}

// TestSeedCodes: Rule's seeds hold the paper's greedy trap, and
// NoSeedsEnv leaves one empty input only.
func TestSeedCodes(t *testing.T) {
	lim := ruleLimits(props.Options{})
	trap, err := encode(gen.GreedyFirstLossTrap().Tree, lim)
	if err != nil {
		t.Fatal(err)
	}
	codes := seedCodes(props.Options{}, lim)
	if !slices.ContainsFunc(codes, func(c []byte) bool { return bytes.Equal(c, trap) }) || len(codes) < 5 {
		t.Errorf("%d seeds, without the greedy trap's code %x", len(codes), trap)
	}
	t.Setenv(NoSeedsEnv, "1")
	if codes := seedCodes(props.Options{}, lim); len(codes) != 1 || len(codes[0]) != 0 {
		t.Errorf("with %s=1: seeds %x, want one empty input", NoSeedsEnv, codes)
	}
}
