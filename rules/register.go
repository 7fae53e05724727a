package rules

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/mctscheck/mctscheck/core"
)

// registry holds the rules added with Register, in the order they came.
var registry struct {
	sync.Mutex
	entries []*Entry
}

// Register adds a rule of one's own to the rules that Lookup and Parse know,
// so that a spec such as "my-rule:k=2" works everywhere a catalogue rule's
// does: in props options, fuzz targets and a checker command built with
// package cli. The entry needs a Name not taken by another rule, a New
// function, and Params with finite defaults in their ranges; its Predicted
// is what the run compares the verdict with. Registering the same entry
// again does nothing. Inner (wrapper) parameters are for the catalogue's
// threshold only.
func Register(e *Entry) error {
	switch {
	case e == nil:
		return errors.New("rules: Register: nil entry")
	case !validName(e.Name):
		return fmt.Errorf("rules: Register: name %q: want lower-case letters, digits and '-'", e.Name)
	}
	registry.Lock()
	defer registry.Unlock()
	if slices.Contains(registry.entries, e) {
		return nil
	}
	// A taken name is the first thing to say, whatever else the entry lacks.
	if err := nameTaken(e.Name); err != nil {
		return err
	}
	if err := checkEntry(e); err != nil {
		return err
	}
	registry.entries = append(registry.entries, e)
	return nil
}

// nameTaken says which rule already has the name, if one does; the
// registry's lock is held.
func nameTaken(name string) error {
	for _, k := range catalogue() {
		if k.Name == name {
			return fmt.Errorf("rules: Register: the name %q is taken by a rule of the catalogue", name)
		}
	}
	for _, k := range engines() {
		if k.Name == name {
			return fmt.Errorf("rules: Register: the name %q is taken by a real engine's preset", name)
		}
	}
	for _, k := range registry.entries {
		if k.Name == name {
			return fmt.Errorf("rules: Register: the name %q is taken: it is registered already", name)
		}
	}
	return nil
}

// Registered returns copies of the registered entries, in the order they
// were registered.
func Registered() []*Entry {
	registry.Lock()
	defer registry.Unlock()
	out := make([]*Entry, len(registry.entries))
	for i, e := range registry.entries {
		c := *e
		c.Params = slices.Clone(e.Params)
		newRule := e.New
		c.build = func(args map[string]float64, _ *Instance) core.Rule { return newRule(args) }
		out[i] = &c
	}
	return out
}

// checkEntry says what is missing from a user's entry with a valid name.
func checkEntry(e *Entry) error {
	if e.New == nil {
		return fmt.Errorf("rules: Register: %s: New is nil", e.Name)
	}
	for _, p := range e.Params {
		switch {
		case p.Inner:
			return fmt.Errorf("rules: Register: %s: parameter %q: inner rules are not supported", e.Name, p.Name)
		case !validName(p.Name):
			return fmt.Errorf("rules: Register: %s: parameter name %q: want lower-case letters, digits and '-'", e.Name, p.Name)
		case !p.contains(p.Default):
			return fmt.Errorf("rules: Register: %s: parameter %q: default %v not in %s", e.Name, p.Name, p.Default, p.Range())
		}
	}
	return nil
}

// validName reports whether s is a non-empty name of lower-case letters,
// digits and '-', the characters of the catalogue's names.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
