package rules_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// row is one rule's prediction as docs/theory.md's table gives it, refined as
// documented in the package doc (smoothed: binary deterministic games).
type row struct {
	consistent bool
	frugal     rules.Frugality
	condition  string
	eq4        bool
	backup     core.Backup
}

const bdg = "binary deterministic games"

var table = []struct {
	name string
	row  row
}{
	{"uct", row{true, rules.FrugalNo, "", true, core.BackupAverage}},
	{"greedy-fpu", row{false, rules.FrugalUnknown, "", true, core.BackupAverage}},
	{"smoothed", row{true, rules.FrugalYes, bdg, true, core.BackupAverage}},
	{"rave", row{false, rules.FrugalUnknown, "", true, core.BackupAverage}},
	{"rave-floor", row{true, rules.FrugalYes, bdg, true, core.BackupAverage}},
	{"mc-rave", row{false, rules.FrugalUnknown, "", true, core.BackupAverage}},
	{"prior", row{true, rules.FrugalUnknown, "", true, core.BackupAverage}},
	{"negative-heuristic", row{false, rules.FrugalUnknown, "", true, core.BackupAverage}},
	{"eps-greedy", row{false, rules.FrugalNo, "", false, core.BackupAverage}},
	{"eps-greedy-decay", row{true, rules.FrugalNo, "", true, core.BackupAverage}},
	{"boltzmann", row{false, rules.FrugalNo, "", false, core.BackupAverage}},
	{"boltzmann-decay", row{true, rules.FrugalNo, "", true, core.BackupAverage}},
	{"eps-greedy-minimax", row{true, rules.FrugalUnknown, "", false, core.BackupMinimax}},
	{"boltzmann-minimax", row{true, rules.FrugalUnknown, "", false, core.BackupMinimax}},
	{"threshold", row{false, rules.FrugalUnknown, "", false, core.BackupAverage}},
}

func rowOf(p rules.Prediction, b core.Backup) row {
	return row{p.Consistent, p.Frugal, p.Condition, p.Eq4, b}
}

func TestRegistryTable(t *testing.T) {
	all := rules.All()
	var got, want []string
	for _, e := range all {
		got = append(got, e.Name)
	}
	for _, r := range table {
		want = append(want, r.name)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("All() names (-want +got):\n%s", diff)
	}
	for i, e := range all {
		if diff := cmp.Diff(table[i].row, rowOf(e.Predicted, e.Backup), cmp.AllowUnexported(row{})); diff != "" {
			t.Errorf("%s: prediction (-want +got):\n%s", e.Name, diff)
		}
		if e.Summary == "" || e.Predicted.Source == "" || e.Predicted.Why == "" {
			t.Errorf("%s: empty summary, source or why: %+v", e.Name, e)
		}
		if len(e.Params) == 0 {
			t.Errorf("%s: no parameters", e.Name)
		}
		for _, p := range e.Params {
			if p.Doc == "" {
				t.Errorf("%s: parameter %s has no doc", e.Name, p.Name)
			}
		}
		// The defaults parse, and the instance predicts what the entry does.
		in, err := rules.Parse(e.Name)
		if err != nil {
			t.Errorf("Parse(%q): %v", e.Name, err)
			continue
		}
		if in.Entry.Name != e.Name || in.Backup != e.Backup {
			t.Errorf("Parse(%q): entry %q backup %v", e.Name, in.Entry.Name, in.Backup)
		}
		if e.Name != "threshold" { // its instance takes the inner rule's frugality
			if diff := cmp.Diff(e.Predicted, in.Predicted); diff != "" {
				t.Errorf("Parse(%q).Predicted (-entry +instance):\n%s", e.Name, diff)
			}
		}
		if l, ok := rules.Lookup(e.Name); !ok || l.Name != e.Name {
			t.Errorf("Lookup(%q) = %v, %v", e.Name, l, ok)
		}
	}
	if _, ok := rules.Lookup("nope"); ok {
		t.Errorf("Lookup(nope) found something")
	}
}

func TestRegistryFresh(t *testing.T) {
	a := rules.All()
	a[0].Name = "changed"
	a[0].Params[0].Default = 99
	b := rules.All()
	if b[0].Name != "uct" || b[0].Params[0].Default == 99 {
		t.Errorf("changing an entry changed the registry: %+v", b[0])
	}
}

// TestInstancePredictions checks the predictions refined by parameters.
func TestInstancePredictions(t *testing.T) {
	for _, c := range []struct {
		spec string
		want row
	}{
		{"uct:c=0", row{false, rules.FrugalUnknown, "", true, core.BackupAverage}},
		{"uct:c=0.1", row{true, rules.FrugalNo, "", true, core.BackupAverage}},
		{"prior:c=0", row{false, rules.FrugalUnknown, "", true, core.BackupAverage}},
		{"eps-greedy:eps=0", row{false, rules.FrugalUnknown, "", true, core.BackupAverage}},
		{"eps-greedy:eps=1", row{false, rules.FrugalNo, "", false, core.BackupAverage}},
		{"boltzmann-decay:c=0.99", row{false, rules.FrugalNo, "", true, core.BackupAverage}},
		{"boltzmann-decay:c=1", row{true, rules.FrugalNo, "", true, core.BackupAverage}},
		{"eps-greedy-minimax:eps=0", row{false, rules.FrugalUnknown, "", true, core.BackupMinimax}},
		{"eps-greedy-minimax:eps=1", row{false, rules.FrugalUnknown, "", false, core.BackupMinimax}},
		{"eps-greedy-minimax:eps=0.5", row{true, rules.FrugalUnknown, "", false, core.BackupMinimax}},
		// Algorithm 2 with average backups is inconsistent whatever it wraps
		// (gen.AbsorbingRandomTrap); frugal where the inner rule is.
		{"threshold", row{false, rules.FrugalUnknown, "", false, core.BackupAverage}},
		{"threshold:rule=smoothed", row{false, rules.FrugalYes, "", false, core.BackupAverage}},
		{"threshold:rule=uct", row{false, rules.FrugalNo, "", false, core.BackupAverage}},
		{"threshold:rule=rave", row{false, rules.FrugalUnknown, "", false, core.BackupAverage}},
		{"threshold:rule=eps-greedy", row{false, rules.FrugalNo, "", false, core.BackupAverage}},
		{"threshold:rule=boltzmann", row{false, rules.FrugalNo, "", false, core.BackupAverage}},
		{"threshold:rule=eps-greedy-minimax", row{true, rules.FrugalUnknown, "binary deterministic games", false, core.BackupMinimax}},
		{"threshold:rule=eps-greedy:eps=0", row{false, rules.FrugalUnknown, "", false, core.BackupAverage}},
		{"threshold:rule=threshold:rule=rave-floor", row{false, rules.FrugalYes, "", false, core.BackupAverage}},
	} {
		in := rules.MustParse(c.spec)
		if diff := cmp.Diff(c.want, rowOf(in.Predicted, in.Backup), cmp.AllowUnexported(row{})); diff != "" {
			t.Errorf("%s: prediction (-want +got):\n%s", c.spec, diff)
		}
		if in.Predicted.Why == "" {
			t.Errorf("%s: no why", c.spec)
		}
	}
}

func TestStrings(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{rules.FrugalUnknown.String(), "unknown"},
		{rules.FrugalYes.String(), "yes"},
		{rules.FrugalNo.String(), "no"},
		{rules.Frugality(9).String(), "Frugality(9)"},
		{rules.MustParse("uct").Predicted.String(), "consistent, not frugal"},
		{rules.MustParse("rave-floor").Predicted.String(), "consistent on binary deterministic games, frugal"},
		{rules.MustParse("rave").Predicted.String(), "inconsistent"},
		{rules.MustParse("eps-greedy").Predicted.String(), "inconsistent, not frugal"},
		{rules.Param{Min: 0, Max: 1e9, MinOpen: true}.Range(), "(0, 1e9]"},
		{rules.Param{Min: 0, Max: 1, MaxOpen: true}.Range(), "[0, 1)"},
		{rules.Param{Min: -1.5, Max: 1e-7}.Range(), "[-1.5, 1e-7]"},
		{rules.Param{Inner: true}.Range(), "rule spec"},
		{rules.Param{Default: 0.3}.DefaultString(), "0.3"},
		{rules.Param{Inner: true, DefaultInner: "uct"}.DefaultString(), "uct"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
