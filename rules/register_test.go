package rules_test

import (
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// register registers e for the test's duration.
func register(t *testing.T, e *rules.Entry) {
	t.Helper()
	if err := rules.Register(e); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rules.Unregister(e.Name) })
}

// cappedUCT is a user's entry for the tests: UCT with its constant as a
// parameter, under a name of its own.
func cappedUCT(name string) *rules.Entry {
	return &rules.Entry{
		Name:      name,
		Summary:   "uct under another name",
		Params:    []rules.Param{{Name: "c", Default: 0.5, Min: 0, Max: 10, Doc: "exploration"}},
		Predicted: rules.Prediction{Consistent: true, Source: "test"},
		New:       func(a map[string]float64) core.Rule { return rules.UCT{C: a["c"]} },
	}
}

// TestRegister: a registered rule parses like a catalogue rule, with its
// defaults and range checks, and Lookup hands out copies.
func TestRegister(t *testing.T) {
	e := cappedUCT("test-register")
	register(t, e)
	if err := rules.Register(e); err != nil {
		t.Errorf("registering the same entry again: %v", err)
	}
	in, err := rules.Parse("test-register")
	if err != nil || in.Spec != "test-register:c=0.5" || in.Rule != (rules.UCT{C: 0.5}) || !in.Predicted.Consistent {
		t.Fatalf("Parse: %+v, %v", in, err)
	}
	if in, err := rules.Parse("test-register:c=2"); err != nil || in.Rule != (rules.UCT{C: 2}) {
		t.Errorf("Parse c=2: %+v, %v", in, err)
	}
	if _, err := rules.Parse("test-register:c=11"); err == nil || !strings.Contains(err.Error(), `parameter "c" = 11, want in [0, 10]`) {
		t.Errorf("Parse c=11: %v", err)
	}
	got, _ := rules.Lookup("test-register")
	got.Params[0].Default = 3
	if again, _ := rules.Lookup("test-register"); again.Params[0].Default != 0.5 {
		t.Errorf("Lookup handed out the registered entry itself")
	}
	if _, err := rules.Parse("nope"); err == nil || !strings.Contains(err.Error(), "test-register") {
		t.Errorf("the unknown-rule message does not list the registered rule: %v", err)
	}
}

// TestRegisterErrors: a name taken or malformed, a missing New and a bad
// parameter are refused.
func TestRegisterErrors(t *testing.T) {
	register(t, cappedUCT("test-errors"))
	noNew := cappedUCT("test-no-new")
	noNew.New = nil
	badDefault := cappedUCT("test-bad-default")
	badDefault.Params[0].Default = 20
	inner := cappedUCT("test-inner")
	inner.Params[0].Inner = true
	takenNoNew := cappedUCT("uct") // the taken name is what to say first
	takenNoNew.New = nil
	for _, tt := range []struct {
		e    *rules.Entry
		want string
	}{
		{cappedUCT("uct"), `the name "uct" is taken by a rule of the catalogue`},
		{takenNoNew, `the name "uct" is taken by a rule of the catalogue`},
		{cappedUCT("lc0"), `the name "lc0" is taken by a real engine's preset`},
		{cappedUCT("test-errors"), `the name "test-errors" is taken: it is registered already`},
		{cappedUCT("My Rule"), `name "My Rule"`},
		{cappedUCT(""), `name ""`},
		{noNew, "New is nil"},
		{badDefault, `default 20 not in [0, 10]`},
		{inner, "inner rules are not supported"},
		{nil, "nil entry"},
	} {
		if err := rules.Register(tt.e); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Register: %v, want %q", err, tt.want)
		}
	}
}

// TestRegisterNewFails: an entry whose New panics, or returns nil, makes
// Parse return an error that names the rule, not a panic of the program
// that parses the spec; so does a wrapper around it.
func TestRegisterNewFails(t *testing.T) {
	panics := cappedUCT("panics-on-new")
	panics.New = func(a map[string]float64) core.Rule {
		if a["c"] > 1 {
			panic("c too large for me")
		}
		return rules.UCT{C: a["c"]}
	}
	nilRule := cappedUCT("nil-on-new")
	nilRule.New = func(map[string]float64) core.Rule { return nil }
	register(t, panics)
	register(t, nilRule)
	for spec, want := range map[string]string{
		"panics-on-new:c=2":                     "rules: panics-on-new: its New panicked: c too large for me",
		"threshold:rule=panics-on-new:c=2":      "panics-on-new: its New panicked",
		"nil-on-new":                            "rules: nil-on-new: its New returned a nil rule",
		"threshold:v=0.3,rule=nil-on-new:c=0.1": "nil-on-new: its New returned a nil rule",
	} {
		if in, err := rules.Parse(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, %v; want an error with %q", spec, in, err, want)
		}
	}
	if _, err := rules.Parse("panics-on-new:c=0.5"); err != nil {
		t.Errorf("Parse where New does not panic: %v", err)
	}
}
