package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/core"
)

// Instance is a rule of the catalogue with its parameters set: what Parse
// makes of a spec.
type Instance struct {
	// Entry is the catalogue entry.
	Entry *Entry
	// Spec is the canonical spec: the name and every parameter in the
	// entry's order, defaults included, e.g. "uct:c=0.7" or
	// "threshold:v=0.3,vmin=0,rule=greedy-fpu:fpu=1". Parse(Spec) gives the
	// same instance back, so a report that prints Spec replays exactly even
	// if defaults change.
	Spec string
	// Args holds every numeric parameter, defaults filled in.
	Args map[string]float64
	// Inner is the wrapped rule of a wrapper (threshold); nil otherwise.
	Inner *Instance
	// Rule is the rule itself, ready for core.New.
	Rule core.Rule
	// Backup is the backup the search must use (Entry.Backup, or the inner
	// rule's for a wrapper).
	Backup core.Backup
	// Predicted is the papers' prediction for these parameters: the entry's,
	// refined where a parameter changes it (uct with c = 0 is greedy, and
	// inconsistent; threshold over eps-greedy is not made consistent).
	Predicted Prediction
}

// NewSearch returns core.New(game, in.Rule, cfg) with cfg.Backup set to
// in.Backup, so that the -minimax variants run with minimax backups.
func (in *Instance) NewSearch(game core.Game, cfg core.Config) (*core.Search, error) {
	cfg.Backup = in.Backup
	return core.New(game, in.Rule, cfg)
}

// Parse makes an instance from a spec: a rule name, optionally followed by
// ':' and comma-separated name=value parameters, as in "uct", "uct:c=0.7",
// "eps-greedy:eps=0.1" or "threshold:v=0.3,rule=rave:k=50". Missing
// parameters take their defaults; values are decimal (or Go hexadecimal)
// numbers; spaces around names and values are ignored. A wrapper's inner
// rule parameter (threshold's rule=) must come last and takes the rest of
// the spec.
//
// Errors name the rule and the parameter, as in
//
//	rules: unknown rule "foo" (known: uct, greedy-fpu, ...)
//	rules: uct: unknown parameter "x" (parameters: c)
//	rules: uct: parameter "c": "abc" is not a number
//	rules: smoothed: parameter "k" = 0, want in (0, 1e9]
func Parse(spec string) (*Instance, error) {
	s := strings.TrimSpace(spec)
	if s == "" {
		return nil, errors.New("rules: empty rule spec")
	}
	name, rest, hasParams := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	e, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("rules: unknown rule %q (known: %s)", name, names())
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("rules: "+e.Name+": "+format, args...)
	}
	args := make(map[string]float64, len(e.Params))
	seen := make(map[string]bool, len(e.Params))
	var innerSpec string
	var innerGiven bool
	list := strings.TrimSpace(rest) // for messages
	if hasParams && list == "" {
		return nil, fail("empty parameter list after ':'")
	}
	for hasParams {
		i := strings.IndexAny(rest, "=,")
		if i < 0 || rest[i] == ',' { // an item without '='
			item := rest
			if i >= 0 {
				item = rest[:i]
			}
			key := strings.TrimSpace(item)
			if key == "" {
				return nil, fail("empty parameter in %q", list)
			}
			if _, ok := e.Param(key); !ok {
				return nil, fail("unknown parameter %q (parameters: %s)", key, e.paramNames())
			}
			return nil, fail("parameter %q has no value (want %s=<value>)", key, key)
		}
		key := strings.TrimSpace(rest[:i])
		rest = rest[i+1:]
		if key == "" {
			return nil, fail("parameter without a name before '='")
		}
		p, ok := e.Param(key)
		if !ok {
			return nil, fail("unknown parameter %q (parameters: %s)", key, e.paramNames())
		}
		if seen[key] {
			return nil, fail("parameter %q given twice", key)
		}
		seen[key] = true
		if p.Inner {
			innerSpec, innerGiven = rest, true
			break
		}
		val, tail, more := strings.Cut(rest, ",")
		rest = tail
		val = strings.TrimSpace(val)
		v, err := strconv.ParseFloat(val, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, fail("parameter %q: %q is not a number", key, val)
		}
		if err != nil || !p.contains(v) {
			return nil, fail("parameter %q = %s, want in %s", key, val, p.Range())
		}
		args[key] = v
		if !more {
			break
		}
		if strings.TrimSpace(rest) == "" {
			return nil, fail("empty parameter in %q", list)
		}
	}
	var inner *Instance
	parts := make([]string, 0, len(e.Params))
	for _, p := range e.Params {
		if p.Inner {
			if !innerGiven {
				innerSpec = p.DefaultInner
			}
			if name, _, _ := strings.Cut(innerSpec, ":"); strings.Contains(name, ",") {
				return nil, fail("parameter %q must come last: it takes the rest of the spec, here %q", p.Name, strings.TrimSpace(innerSpec))
			}
			var err error
			if inner, err = Parse(innerSpec); err != nil {
				return nil, fail("parameter %q: %s", p.Name, strings.TrimPrefix(err.Error(), "rules: "))
			}
			parts = append(parts, p.Name+"="+inner.Spec)
			continue
		}
		if _, ok := args[p.Name]; !ok {
			args[p.Name] = p.Default
		}
		parts = append(parts, p.Name+"="+formatNum(args[p.Name]))
	}
	in := &Instance{Entry: e, Spec: e.Name, Args: args, Inner: inner,
		Rule: e.build(args, inner), Backup: e.Backup, Predicted: e.Predicted}
	if len(parts) > 0 {
		in.Spec += ":" + strings.Join(parts, ",")
	}
	if inner != nil {
		in.Backup = inner.Backup
	}
	if e.refine != nil {
		in.Predicted = e.refine(e.Predicted, args, inner)
	}
	return in, nil
}

// MustParse is like Parse but panics on error; it is meant for tests and
// examples with fixed specs.
func MustParse(spec string) *Instance {
	in, err := Parse(spec)
	if err != nil {
		panic(err)
	}
	return in
}

// paramNames lists the entry's parameter names, for error messages.
func (e *Entry) paramNames() string {
	ns := make([]string, len(e.Params))
	for i, p := range e.Params {
		ns[i] = p.Name
	}
	return strings.Join(ns, ", ")
}
