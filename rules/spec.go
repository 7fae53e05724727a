package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/internal/suggest"
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

// MaxNesting is how deeply wrappers may nest in a spec: at most 16 rules,
// as in "threshold:rule=threshold:rule=uct" (3). No rule needs more, and a
// deeper spec is an error rather than a rule whose every Select recurses
// through thousands of wrappers.
const MaxNesting = 16

// Parse makes an instance from a spec: a rule name, optionally followed by
// ':' and comma-separated name=value parameters, as in "uct", "uct:c=0.7",
// "eps-greedy:eps=0.1" or "threshold:v=0.3,rule=rave:k=50". Missing
// parameters take their defaults; values are numbers in Go's syntax,
// decimal or hexadecimal (0.7, 1e-3, 0x10, 0x1p-2: see parseNumber);
// spaces around names and values are ignored. A wrapper's inner
// rule parameter (threshold's rule=) must come last and takes the rest of
// the spec; wrappers nest at most MaxNesting deep. Parse takes memory and
// time linear in the spec's length: it does not recurse, and the canonical
// specs of a nest of wrappers share one string.
//
// Errors name the rule and the parameter, as in
//
//	rules: unknown rule "foo" (known: uct, greedy-fpu, ...)
//	rules: uct: unknown parameter "x" (parameters: c)
//	rules: uct: parameter "c": "abc" is not a number
//	rules: smoothed: parameter "k" = 0, want in (0, 1e9]
//	rules: threshold: parameter "rule": uct: unknown parameter "x" (parameters: c)
//
// A spec "exec:CMD ARGS" is an external rule (ExecCommand): the program
// CMD, started on first use, chooses the children (docs/protocol.md); the
// instance's Close stops it.
func Parse(spec string) (*Instance, error) {
	if line, ok := strings.CutPrefix(strings.TrimSpace(spec), "exec:"); ok {
		return parseExec(line) // an external rule: the rest is a command line
	}
	// Read the nest from the outside in, one level a rule.
	var levels []level
	var where strings.Builder // the outer levels' names, for messages
	for {
		if len(levels) == MaxNesting {
			return nil, fmt.Errorf("rules: %swrappers nested more than MaxNesting = %d deep", where.String(), MaxNesting)
		}
		lv, err := parseLevel(spec)
		if err != nil {
			return nil, fmt.Errorf("rules: %s%s", where.String(), strings.TrimPrefix(err.Error(), "rules: "))
		}
		levels = append(levels, lv)
		if lv.inner == nil {
			break
		}
		fmt.Fprintf(&where, "%s: parameter %q: ", lv.entry.Name, lv.inner.Name)
		spec = lv.innerSpec
	}
	// Make the instances from the inside out; each level's canonical spec
	// is prefix + inner spec + suffix, all of them one string.
	var inner *Instance
	for i := len(levels) - 1; i >= 0; i-- {
		var err error
		if inner, err = levels[i].instance(inner); err != nil {
			return nil, err
		}
	}
	var b strings.Builder
	for _, lv := range levels {
		b.WriteString(lv.prefix)
	}
	for i := len(levels) - 1; i >= 0; i-- {
		b.WriteString(levels[i].suffix)
	}
	all := b.String()
	lo, hi := 0, len(all)
	for in, i := inner, 0; in != nil; in, i = in.Inner, i+1 {
		in.Spec = all[lo:hi]
		lo += len(levels[i].prefix)
		hi -= len(levels[i].suffix)
	}
	return inner, nil
}

// level is one rule of a spec, read by parseLevel.
type level struct {
	entry *Entry
	args  map[string]float64
	// inner is the entry's inner-rule parameter, if it has one, and
	// innerSpec that rule's spec, given or default.
	inner     *Param
	innerSpec string
	// The level's canonical spec is prefix + the inner rule's canonical
	// spec + suffix; for a rule without an inner rule, prefix is all of it.
	prefix, suffix string
}

// parseLevel reads the rule of spec and its numeric parameters, leaving the
// inner rule's spec unread.
func parseLevel(spec string) (level, error) {
	s := strings.TrimSpace(spec)
	if s == "" {
		return level{}, errors.New("rules: empty rule spec")
	}
	name, rest, hasParams := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	e, ok := Lookup(name)
	if !ok {
		return level{}, fmt.Errorf("rules: unknown rule %q%s (known: %s)", name, suggest.DidYouMean(name, nameList()), names())
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
		return level{}, fail("empty parameter list after ':'")
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
				return level{}, fail("empty parameter in %q", list)
			}
			if _, ok := e.Param(key); !ok {
				return level{}, fail("unknown parameter %q%s (parameters: %s)", key, suggest.DidYouMean(key, e.paramList()), e.paramNames())
			}
			return level{}, fail("parameter %q has no value (want %s=<value>)", key, key)
		}
		key := strings.TrimSpace(rest[:i])
		rest = rest[i+1:]
		if key == "" {
			return level{}, fail("parameter without a name before '='")
		}
		p, ok := e.Param(key)
		if !ok {
			return level{}, fail("unknown parameter %q%s (parameters: %s)", key, suggest.DidYouMean(key, e.paramList()), e.paramNames())
		}
		if seen[key] {
			return level{}, fail("parameter %q given twice", key)
		}
		seen[key] = true
		if p.Inner {
			innerSpec, innerGiven = rest, true
			break
		}
		val, tail, more := strings.Cut(rest, ",")
		rest = tail
		val = strings.TrimSpace(val)
		v, err := parseNumber(val)
		shown := shorten(val)
		switch {
		case err != nil && !errors.Is(err, strconv.ErrRange):
			return level{}, fail("parameter %q: %q is not a number", key, shown)
		case err == nil && v == 0 && nonzeroMantissa(val):
			return level{}, fail("parameter %q = %s rounds to 0 in float64 (whose smallest positive number is 4.9e-324); want in %s",
				key, shown, p.Range())
		case err != nil || !p.contains(v):
			return level{}, fail("parameter %q = %s, want in %s", key, shown, p.Range())
		}
		args[key] = v + 0 // -0 is 0
		if !more {
			break
		}
		if strings.TrimSpace(rest) == "" {
			return level{}, fail("empty parameter in %q", list)
		}
	}
	lv := level{entry: e, args: args}
	var b strings.Builder // the canonical spec, up to the inner rule's
	b.WriteString(e.Name)
	for i, p := range e.Params {
		if i == 0 {
			b.WriteByte(':')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(p.Name)
		b.WriteByte('=')
		if p.Inner {
			if !innerGiven {
				innerSpec = p.DefaultInner
			}
			if name, _, _ := strings.Cut(innerSpec, ":"); strings.Contains(name, ",") {
				return level{}, fail("parameter %q must come last: it takes the rest of the spec, here %q", p.Name, strings.TrimSpace(innerSpec))
			}
			lv.inner, lv.innerSpec = &e.Params[i], innerSpec
			lv.prefix = b.String()
			b.Reset()
			continue
		}
		if _, ok := args[p.Name]; !ok {
			args[p.Name] = p.Default
		}
		b.WriteString(formatNum(args[p.Name]))
	}
	if lv.inner == nil {
		lv.prefix = b.String()
	} else {
		lv.suffix = b.String()
	}
	return lv, nil
}

// nonzeroMantissa reports whether the number s, as parseNumber reads it,
// has a digit other than 0 before its exponent: a number that is not 0
// however it rounds.
func nonzeroMantissa(s string) bool {
	s = strings.TrimLeft(s, "+-")
	hex := len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')
	exp := "eE"
	if hex {
		s, exp = s[2:], "pP"
	}
	if i := strings.IndexAny(s, exp); i >= 0 {
		s = s[:i]
	}
	return strings.ContainsFunc(s, func(c rune) bool {
		return c >= '1' && c <= '9' || hex && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
	})
}

// shorten is a parameter's value as messages show it: at most 40
// characters, the rest counted.
func shorten(s string) string {
	const keep = 40
	if len(s) <= keep {
		return s
	}
	return fmt.Sprintf("%s…(%d characters)", s[:keep], len(s))
}

// parseNumber reads a parameter's value: a decimal or hexadecimal number
// in Go's syntax, as strconv.ParseFloat reads it (0.7, 1e-3, 1_000,
// 0x1p-2, Inf), and also a hexadecimal integer without a binary exponent
// (0x10, -0X1F), which Go accepts as a literal but ParseFloat does not.
// A hexadecimal mantissa with a point needs its exponent, as in Go
// (0x1.8p0, not 0x1.8).
func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err == nil || errors.Is(err, strconv.ErrRange) {
		return v, err
	}
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) <= 1 && len(digits) > 2 && (digits[:2] == "0x" || digits[:2] == "0X") &&
		!strings.ContainsAny(digits, ".pP") {
		if v, err2 := strconv.ParseFloat(s+"p0", 64); err2 == nil || errors.Is(err2, strconv.ErrRange) {
			return v, err2
		}
	}
	return v, err
}

// instance makes the level's instance around its inner rule's (nil when it
// has none); Parse sets its Spec.
func (lv level) instance(inner *Instance) (*Instance, error) {
	e := lv.entry
	rule, err := lv.build(inner)
	if err != nil {
		return nil, err
	}
	in := &Instance{Entry: e, Args: lv.args, Inner: inner,
		Rule: rule, Backup: e.Backup, Predicted: e.Predicted}
	if inner != nil {
		in.Backup = inner.Backup
	}
	if e.refine != nil {
		in.Predicted = e.refine(e.Predicted, lv.args, inner)
	}
	return in, nil
}

// build makes the level's rule with its entry's New, which for a user's
// entry may panic or return nil: either is an error that names the rule,
// not a crash of the program that parses the spec.
func (lv level) build(inner *Instance) (rule core.Rule, err error) {
	defer func() {
		if p := recover(); p != nil {
			rule, err = nil, fmt.Errorf("rules: %s: its New panicked: %v", lv.entry.Name, p)
		}
	}()
	rule = lv.entry.build(lv.args, inner)
	if rule == nil {
		return nil, fmt.Errorf("rules: %s: its New returned a nil rule", lv.entry.Name)
	}
	return rule, nil
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
func (e *Entry) paramNames() string { return strings.Join(e.paramList(), ", ") }

// paramList lists the entry's parameters' names.
func (e *Entry) paramList() []string {
	ns := make([]string, len(e.Params))
	for i, p := range e.Params {
		ns[i] = p.Name
	}
	return ns
}
