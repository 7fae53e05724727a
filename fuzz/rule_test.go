package fuzz

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
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

// TestRuleFailureMessage: a failure names one seed, the failing one, in
// the witness and in the replay line, which is mctscheck's for a rule of
// the catalogue and says so for a rule of one's own.
func TestRuleFailureMessage(t *testing.T) {
	lim := ruleLimits(props.Options{})
	code, err := encode(gen.GreedyFirstLossTrap().Tree, lim)
	if err != nil {
		t.Fatal(err)
	}
	in := rules.MustParse("greedy-fpu")
	seedRe := regexp.MustCompile(`\bseeds? [0-9]+`)
	for _, c := range []struct {
		spec string
		own  bool
	}{{in.Spec, false}, {"my-greedy:k=2", true}, {"", false}} {
		msg, err := judgeInput(in.Rule, props.Options{RuleSpec: c.spec}, lim, 5, code)
		if err != nil {
			t.Fatal(err)
		}
		head, _, _ := strings.Cut(msg, "\nreplay: ")
		seeds := seedRe.FindAllString(head, -1)
		if len(seeds) != 1 || !strings.HasPrefix(seeds[0], "seed ") {
			t.Errorf("spec %q: seeds named %q before the replay line, want one:\n%s", c.spec, seeds, msg)
			continue
		}
		seed := strings.TrimPrefix(seeds[0], "seed ")
		replay := "\nreplay: mctscheck check -rule '" + c.spec + "' -tree '"
		switch {
		case c.spec == "":
			if strings.Contains(msg, "replay:") || !strings.Contains(msg, "no Options.RuleSpec") {
				t.Errorf("no spec: a replay line, or no word of why not:\n%s", msg)
			}
		case !strings.Contains(msg, replay) || !strings.Contains(msg, " -seed "+seed+" -seeds 1 "):
			t.Errorf("spec %q: no replay line of seed %s:\n%s", c.spec, seed, msg)
		case c.own != strings.Contains(msg, "mctscheck stands for your command built with package cli"):
			t.Errorf("spec %q: own rule %v, but the note says otherwise:\n%s", c.spec, c.own, msg)
		}
	}
}
