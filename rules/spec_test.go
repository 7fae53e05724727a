package rules_test

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		spec   string
		canon  string
		args   map[string]float64
		rule   core.Rule
		backup core.Backup
	}{
		{"uct", "uct:c=1.4142135623730951", map[string]float64{"c": math.Sqrt2}, rules.UCT{C: math.Sqrt2}, core.BackupAverage},
		{"uct:c=0.7", "uct:c=0.7", map[string]float64{"c": 0.7}, rules.UCT{C: 0.7}, core.BackupAverage},
		{" uct : c = 0 ", "uct:c=0", map[string]float64{"c": 0}, rules.UCT{}, core.BackupAverage},
		{"uct:c=1e6", "uct:c=1e6", map[string]float64{"c": 1e6}, rules.UCT{C: 1e6}, core.BackupAverage},
		{"uct:c=0x1p-2", "uct:c=0.25", map[string]float64{"c": 0.25}, rules.UCT{C: 0.25}, core.BackupAverage},
		// Go's hexadecimal integers, which strconv.ParseFloat alone rejects.
		{"uct:c=0x10", "uct:c=16", map[string]float64{"c": 16}, rules.UCT{C: 16}, core.BackupAverage},
		{"uct:c=0X1_0", "uct:c=16", map[string]float64{"c": 16}, rules.UCT{C: 16}, core.BackupAverage},
		{"uct:c=+0x1.8p1", "uct:c=3", map[string]float64{"c": 3}, rules.UCT{C: 3}, core.BackupAverage},
		{"greedy-fpu", "greedy-fpu:fpu=1", map[string]float64{"fpu": 1}, rules.GreedyFPU{FPU: 1}, core.BackupAverage},
		{"smoothed:k=5e-324", "smoothed:k=5e-324", map[string]float64{"k": 5e-324}, rules.Smoothed{K: 5e-324}, core.BackupAverage},
		{"rave", "rave:k=100", map[string]float64{"k": 100}, rules.RAVE{K: 100}, core.BackupAverage},
		{"rave-floor:floor=0.2", "rave-floor:k=100,floor=0.2", map[string]float64{"k": 100, "floor": 0.2},
			rules.RAVE{K: 100, Floor: 0.2}, core.BackupAverage},
		{"mc-rave:k=50", "mc-rave:k=50", map[string]float64{"k": 50}, rules.MCRAVE{K: 50}, core.BackupAverage},
		{"negative-heuristic", "negative-heuristic:k=10", map[string]float64{"k": 10}, rules.NegativeHeuristic{K: 10}, core.BackupAverage},
		{"eps-greedy:eps=0.1", "eps-greedy:eps=0.1", map[string]float64{"eps": 0.1}, rules.EpsGreedy{Eps: 0.1}, core.BackupAverage},
		{"eps-greedy-decay", "eps-greedy-decay:c=1", map[string]float64{"c": 1}, rules.EpsGreedyDecay{C: 1}, core.BackupAverage},
		{"boltzmann:fpu=0.5,tau=2", "boltzmann:tau=2,fpu=0.5", map[string]float64{"tau": 2, "fpu": 0.5},
			rules.Boltzmann{Tau: 2, FPU: 0.5}, core.BackupAverage},
		{"boltzmann-decay", "boltzmann-decay:c=1,fpu=1", map[string]float64{"c": 1, "fpu": 1},
			rules.BoltzmannDecay{C: 1, FPU: 1}, core.BackupAverage},
		{"eps-greedy-minimax", "eps-greedy-minimax:eps=0.2", map[string]float64{"eps": 0.2}, rules.EpsGreedy{Eps: 0.2}, core.BackupMinimax},
		{"boltzmann-minimax", "boltzmann-minimax:tau=0.1,fpu=1", map[string]float64{"tau": 0.1, "fpu": 1},
			rules.Boltzmann{Tau: 0.1, FPU: 1}, core.BackupMinimax},
		{"threshold", "threshold:v=0.3,vmin=0,rule=greedy-fpu:fpu=1", map[string]float64{"v": 0.3, "vmin": 0},
			core.Threshold{Rule: rules.GreedyFPU{FPU: 1}, V: 0.3}, core.BackupAverage},
		{"threshold:v=0.4,rule=rave:k=50", "threshold:v=0.4,vmin=0,rule=rave:k=50", map[string]float64{"v": 0.4, "vmin": 0},
			core.Threshold{Rule: rules.RAVE{K: 50}, V: 0.4}, core.BackupAverage},
		{"threshold:rule=rave-floor:k=50,floor=0.2", "threshold:v=0.3,vmin=0,rule=rave-floor:k=50,floor=0.2",
			map[string]float64{"v": 0.3, "vmin": 0}, core.Threshold{Rule: rules.RAVE{K: 50, Floor: 0.2}, V: 0.3}, core.BackupAverage},
		{"threshold:vmin=0.6,rule=eps-greedy-minimax", "threshold:v=0.3,vmin=0.6,rule=eps-greedy-minimax:eps=0.2",
			map[string]float64{"v": 0.3, "vmin": 0.6}, core.Threshold{Rule: rules.EpsGreedy{Eps: 0.2}, V: 0.3, VMin: 0.6}, core.BackupMinimax},
		{"threshold:rule=threshold:v=0.5", "threshold:v=0.3,vmin=0,rule=threshold:v=0.5,vmin=0,rule=greedy-fpu:fpu=1",
			map[string]float64{"v": 0.3, "vmin": 0},
			core.Threshold{Rule: core.Threshold{Rule: rules.GreedyFPU{FPU: 1}, V: 0.5}, V: 0.3}, core.BackupAverage},
	} {
		in, err := rules.Parse(c.spec)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.spec, err)
			continue
		}
		if in.Spec != c.canon {
			t.Errorf("Parse(%q).Spec = %q, want %q", c.spec, in.Spec, c.canon)
		}
		if diff := cmp.Diff(c.args, in.Args); diff != "" {
			t.Errorf("Parse(%q).Args (-want +got):\n%s", c.spec, diff)
		}
		if diff := cmp.Diff(c.rule, in.Rule); diff != "" {
			t.Errorf("Parse(%q).Rule (-want +got):\n%s", c.spec, diff)
		}
		if in.Backup != c.backup {
			t.Errorf("Parse(%q).Backup = %v, want %v", c.spec, in.Backup, c.backup)
		}
		// The canonical spec parses to itself.
		again, err := rules.Parse(in.Spec)
		if err != nil || again.Spec != in.Spec {
			t.Errorf("Parse(%q) = %v, %v: not canonical", in.Spec, again, err)
		}
	}
}

func TestParsePrior(t *testing.T) {
	// Prior holds a func field, which cmp cannot compare; check it apart.
	in := rules.MustParse("prior:n0=4")
	p, ok := in.Rule.(rules.Prior)
	if !ok || p.C != math.Sqrt2 || p.N0 != 4 || p.H != nil {
		t.Errorf("Parse(prior:n0=4).Rule = %#v, want Prior{C: √2, N0: 4}", in.Rule)
	}
	if want := "prior:c=1.4142135623730951,n0=4"; in.Spec != want {
		t.Errorf("Spec = %q, want %q", in.Spec, want)
	}
}

func TestParseErrors(t *testing.T) {
	known := "(known: uct, greedy-fpu, smoothed, rave, rave-floor, mc-rave, prior, negative-heuristic, eps-greedy, " +
		"eps-greedy-decay, boltzmann, boltzmann-decay, eps-greedy-minimax, boltzmann-minimax, threshold, " +
		"leela-zero, lc0, lc0-absolute, katago, openspiel-uct, openspiel-puct, mctx-muzero, mctx-gumbel, fuego, fuego-go, " +
		"pachi-ucb1amaf, ludii-ucb1tuned, ludii-progressive-bias, ludii-progressive-history, ludii-ag0)"
	for _, c := range []struct{ spec, want string }{
		{"", "rules: empty rule spec"},
		{"   ", "rules: empty rule spec"},
		{"foo", `rules: unknown rule "foo" ` + known},
		{"UCT", `rules: unknown rule "UCT": did you mean "uct"? ` + known},
		{"foo:c=1", `rules: unknown rule "foo" ` + known},
		{"uct:", `rules: uct: empty parameter list after ':'`},
		{"uct:c=abc", `rules: uct: parameter "c": "abc" is not a number`},
		{"uct:c=", `rules: uct: parameter "c": "" is not a number`},
		{"uct:c=1,", `rules: uct: empty parameter in "c=1,"`},
		{"uct:c=0x", `rules: uct: parameter "c": "0x" is not a number`},
		{"uct:c=0x1.8", `rules: uct: parameter "c": "0x1.8" is not a number`}, // Go wants the exponent
		{"uct:c=0xg", `rules: uct: parameter "c": "0xg" is not a number`},
		{"uct:c=--0x10", `rules: uct: parameter "c": "--0x10" is not a number`},
		{"uct:c=-0x10", `rules: uct: parameter "c" = -0x10, want in [0, 1e6]`},
		{"uct:c=0x1p9999", `rules: uct: parameter "c" = 0x1p9999, want in [0, 1e6]`},
		{"uct:,c=1", `rules: uct: empty parameter in ",c=1"`},
		{"uct:c", `rules: uct: parameter "c" has no value (want c=<value>)`},
		{"uct:c,", `rules: uct: parameter "c" has no value (want c=<value>)`},
		{"uct:x=1", `rules: uct: unknown parameter "x" (parameters: c)`},
		{"uct:x", `rules: uct: unknown parameter "x" (parameters: c)`},
		{"uct:=1", `rules: uct: parameter without a name before '='`},
		{"uct:c=1,c=2", `rules: uct: parameter "c" given twice`},
		{"uct:c=-1", `rules: uct: parameter "c" = -1, want in [0, 1e6]`},
		{"uct:c=2e6", `rules: uct: parameter "c" = 2e6, want in [0, 1e6]`},
		{"uct:c=NaN", `rules: uct: parameter "c" = NaN, want in [0, 1e6]`},
		{"uct:c=inf", `rules: uct: parameter "c" = inf, want in [0, 1e6]`},
		{"uct:c=1e400", `rules: uct: parameter "c" = 1e400, want in [0, 1e6]`},
		{"uct:c=1e-400", `rules: uct: parameter "c" = 1e-400 rounds to 0 in float64 (whose smallest positive number is 4.9e-324); want in [0, 1e6]`},
		{"uct:c=-1e-400", `rules: uct: parameter "c" = -1e-400 rounds to 0 in float64 (whose smallest positive number is 4.9e-324); want in [0, 1e6]`},
		{"uct:c=0x1p-1080", `rules: uct: parameter "c" = 0x1p-1080 rounds to 0`},
		{"uct:c=0." + strings.Repeat("0", 20000) + "1", `rules: uct: parameter "c" = 0.00000000000000000000000000000000000000…(20003 characters) rounds to 0`},
		{"uct:c=1" + strings.Repeat("0", 20000), `rules: uct: parameter "c" = 1000000000000000000000000000000000000000…(20001 characters), want in [0, 1e6]`},
		{"smoothed:k=1e-400", `rules: smoothed: parameter "k" = 1e-400 rounds to 0 in float64 (whose smallest positive number is 4.9e-324); want in (0, 1e9]`},
		{"boltzmann:tau=2e-324", `rules: boltzmann: parameter "tau" = 2e-324 rounds to 0 in float64 (whose smallest positive number is 4.9e-324); want in (0, 1e6]`},
		{"greedy-fpu:fpu=1.5", `rules: greedy-fpu: parameter "fpu" = 1.5, want in [0, 1]`},
		{"smoothed:k=0", `rules: smoothed: parameter "k" = 0, want in (0, 1e9]`},
		{"rave:k=-3", `rules: rave: parameter "k" = -3, want in (0, 1e9]`},
		{"rave-floor:floor=0", `rules: rave-floor: parameter "floor" = 0, want in (0, 1]`},
		{"rave-floor:k=1,flor=0.2", `rules: rave-floor: unknown parameter "flor": did you mean "floor"? (parameters: k, floor)`},
		{"mc-rave:k=1e10", `rules: mc-rave: parameter "k" = 1e10, want in (0, 1e9]`},
		{"prior:n0=-1", `rules: prior: parameter "n0" = -1, want in [0, 1e9]`},
		{"prior:c=x", `rules: prior: parameter "c": "x" is not a number`},
		{"negative-heuristic:k=0", `rules: negative-heuristic: parameter "k" = 0, want in (0, 1e9]`},
		{"eps-greedy:eps=1.1", `rules: eps-greedy: parameter "eps" = 1.1, want in [0, 1]`},
		{"eps-greedy-decay:c=0", `rules: eps-greedy-decay: parameter "c" = 0, want in (0, 1e6]`},
		{"boltzmann:tau=0", `rules: boltzmann: parameter "tau" = 0, want in (0, 1e6]`},
		{"boltzmann-decay:fpu=-0.1", `rules: boltzmann-decay: parameter "fpu" = -0.1, want in [0, 1]`},
		{"eps-greedy-minimax:eps=2", `rules: eps-greedy-minimax: parameter "eps" = 2, want in [0, 1]`},
		{"boltzmann-minimax:temp=1", `rules: boltzmann-minimax: unknown parameter "temp" (parameters: tau, fpu)`},
		{"threshold:v=1", `rules: threshold: parameter "v" = 1, want in (0, 1)`},
		{"threshold:v=0", `rules: threshold: parameter "v" = 0, want in (0, 1)`},
		{"threshold:vmin=1", `rules: threshold: parameter "vmin" = 1, want in [0, 1)`},
		{"threshold:rule", `rules: threshold: parameter "rule" has no value (want rule=<value>)`},
		{"threshold:rule=", `rules: threshold: parameter "rule": empty rule spec`},
		{"threshold:rule=foo", `rules: threshold: parameter "rule": unknown rule "foo" ` + known},
		{"threshold:rule=uct:c=abc", `rules: threshold: parameter "rule": uct: parameter "c": "abc" is not a number`},
		{"threshold:rule=rave,v=0.3", `rules: threshold: parameter "rule" must come last: it takes the rest of the spec, here "rave,v=0.3"`},
		{"threshold:rule=uct,rule=uct", `rules: threshold: parameter "rule" must come last: it takes the rest of the spec, here "uct,rule=uct"`},
		{"threshold:rule=rave:k=1,v=0.3", `rules: threshold: parameter "rule": rave: unknown parameter "v" (parameters: k)`},
		{"threshold:rule=threshold:v=2", `rules: threshold: parameter "rule": threshold: parameter "v" = 2, want in (0, 1)`},
	} {
		in, err := rules.Parse(c.spec)
		if err == nil {
			t.Errorf("Parse(%q) = %q, want error %q", c.spec, in.Spec, c.want)
			continue
		}
		if err.Error() != c.want && !(strings.HasSuffix(c.want, "rounds to 0") && strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("Parse(%q) error:\n got %s\nwant %s", c.spec, err, c.want)
		}
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(error).Error(), `unknown rule "nope"`) {
			t.Errorf("MustParse(nope) panicked with %v", r)
		}
	}()
	rules.MustParse("nope")
}

// TestParseZeros: a zero however written, -0 included, is 0 (the
// canonical spec says c=0), and a tiny number that float64 keeps is kept.
func TestParseZeros(t *testing.T) {
	for spec, want := range map[string]string{
		"uct:c=0":      "uct:c=0",
		"uct:c=-0":     "uct:c=0",
		"uct:c=0.000":  "uct:c=0",
		"uct:c=-0e9":   "uct:c=0",
		"uct:c=0x0p0":  "uct:c=0",
		"uct:c=1e-320": "uct:c=1e-320",
	} {
		in, err := rules.Parse(spec)
		if err != nil || in.Spec != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", spec, in, err, want)
			continue
		}
		if c := in.Args["c"]; math.Signbit(c) {
			t.Errorf("Parse(%q): c = %v, a negative zero", spec, c)
		}
	}
}
