package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/mctscheck/mctscheck/rules"
)

const rulesUsage = `Usage: mctscheck rules [-json] [NAME...]

Rules lists the catalogue of selection rules: each rule's name, parameters
with their defaults and ranges, and what the papers predict about it
(consistent or not, on which games, frugal or not, and the source), then,
in a section of their own, the presets of real engines' rules (lc0,
KataGo, ...), with the prediction reasoned from each engine's source. With
names, it describes those rules in full, with the formula and the reason.

A rule spec, as -rule takes it, is a name with optional parameters:
uct, uct:c=0.7, eps-greedy:eps=0.1, threshold:v=0.3,rule=rave:k=50.

Examples:

  mctscheck rules
  mctscheck rules uct threshold
  mctscheck rules lc0
  mctscheck rules -json
`

// ruleDoc is one rule in the JSON document of rules.
type ruleDoc struct {
	Name string `json:"name"`
	// Kind is "paper" for the papers' catalogue, "engine" for a real
	// engine's preset, "own" for a rule the tool's user registered.
	Kind      string        `json:"kind"`
	Summary   string        `json:"summary"`
	Spec      string        `json:"spec"`
	Params    []paramDoc    `json:"params"`
	Backup    string        `json:"backup"`
	Predicted predictionDoc `json:"predicted"`
}

type paramDoc struct {
	Name    string `json:"name"`
	Default string `json:"default"`
	Range   string `json:"range"`
	Doc     string `json:"doc"`
}

// predictionDoc is the papers' prediction, in every document that has one.
type predictionDoc struct {
	Consistent bool   `json:"consistent"`
	Condition  string `json:"condition,omitempty"`
	Frugal     string `json:"frugal"`
	Eq4        bool   `json:"eq4"`
	Source     string `json:"source"`
	Why        string `json:"why"`
	// Stuck and Practical are the practical finding, apart from the claim
	// about the limit (rules.Prediction.Stuck and Practical).
	Stuck     bool   `json:"stuck,omitempty"`
	Practical string `json:"practical,omitempty"`
}

func predictionOf(p rules.Prediction) predictionDoc {
	return predictionDoc{Consistent: p.Consistent, Condition: p.Condition, Frugal: p.Frugal.String(), Eq4: p.Eq4, Source: p.Source, Why: p.Why,
		Stuck: p.Stuck, Practical: p.Practical}
}

// kindOf says which list en comes from: "own", "paper" or "engine".
func kindOf(t *Tool, en *rules.Entry) string {
	for _, o := range t.own() {
		if o.Name == en.Name {
			return "own"
		}
	}
	for _, e := range rules.Engines() {
		if e.Name == en.Name {
			return "engine"
		}
	}
	return "paper"
}

func cmdRules(e *env, args []string) error {
	fs := newFlagSet("rules", rulesUsage)
	asJSON := fs.Bool("json", false, "print one JSON document (an array of rules) instead of text")
	fs.args = true
	if err := fs.parse(e, args); err != nil {
		return err
	}
	entries := append(e.tool.entries(), rules.Engines()...)
	if fs.NArg() > 0 {
		entries = nil
		for _, name := range fs.Args() {
			en, ok := rules.Lookup(name)
			if !ok {
				_, err := rules.Parse(name)
				if err == nil {
					err = fmt.Errorf("%q is a spec, not a rule name", name)
				}
				return usagef("%v", err)
			}
			entries = append(entries, en)
		}
	}
	var docs []ruleDoc
	for _, en := range entries {
		d := ruleDoc{Name: en.Name, Kind: kindOf(e.tool, en), Summary: en.Summary, Backup: en.Backup.String(), Predicted: predictionOf(en.Predicted), Params: []paramDoc{}}
		if in, err := rules.Parse(en.Name); err == nil {
			d.Spec = in.Spec
		}
		for _, p := range en.Params {
			d.Params = append(d.Params, paramDoc{Name: p.Name, Default: p.DefaultString(), Range: p.Range(), Doc: p.Doc})
		}
		docs = append(docs, d)
	}
	if *asJSON {
		return writeJSON(e.stdout, docs)
	}
	if fs.NArg() > 0 {
		for i, d := range docs {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			printRule(e, d)
		}
		return nil
	}
	var papers, engines []ruleDoc
	for _, d := range docs {
		if d.Kind == "engine" {
			engines = append(engines, d)
		} else {
			papers = append(papers, d)
		}
	}
	printRuleTable(e, papers)
	fmt.Fprintln(e.stdout, "\nReal engines' presets (the formula read from each engine's source, at the commit cited):")
	fmt.Fprintln(e.stdout)
	printRuleTable(e, engines)
	fmt.Fprintln(e.stdout, "\nbdg: binary deterministic games (no chance nodes, rewards in {0,1}).")
	fmt.Fprintln(e.stdout, "stuck: consistent in the limit, but the decision is expected to stay wrong through any budget a run can reach.")
	fmt.Fprintln(e.stdout, e.tool.speak("mctscheck rules NAME describes a rule in full; mctscheck check -rule NAME:PARAM=VALUE checks it."))
	return nil
}

// printRuleTable lists docs, one rule a line.
func printRuleTable(e *env, docs []ruleDoc) {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPARAMETERS (DEFAULT)\tPREDICTED\tFRUGAL\tSOURCE")
	for _, d := range docs {
		var ps []string
		for _, p := range d.Params {
			ps = append(ps, p.Name+"="+p.Default)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", d.Name, strings.Join(ps, ","), predictedShort(d.Predicted), frugalShort(d.Predicted.Frugal), shortSource(d.Predicted.Source))
	}
	tw.Flush()
}

// shortSource is a source in a table cell: an engine's commit cut to 7
// hex digits ("lc0@909a408 src/search/classic/search.cc, params.cc").
func shortSource(s string) string {
	at := strings.IndexByte(s, '@')
	if at < 0 || len(s) < at+41 {
		return s
	}
	for _, c := range s[at+1 : at+41] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return s
		}
	}
	return s[:at+8] + s[at+41:]
}

func printRule(e *env, d ruleDoc) {
	w := e.stdout
	fmt.Fprintf(w, "%s: %s\n", d.Name, d.Summary)
	fmt.Fprintf(w, "  spec        %s\n", d.Spec)
	for i, p := range d.Params {
		label := ""
		if i == 0 {
			label = "parameters"
		}
		rng := "in " + p.Range
		if p.Range == "rule spec" {
			rng = "(a rule spec)"
		}
		fmt.Fprintf(w, "  %-10s  %s = %s %s: %s\n", label, p.Name, p.Default, rng, p.Doc)
	}
	fmt.Fprintf(w, "  backup      %s\n", d.Backup)
	p := d.Predicted
	fmt.Fprintf(w, "  predicted   %s; frugal: %s; Eq. 4: %s\n", predictedLong(p), p.Frugal, yesNo(p.Eq4))
	fmt.Fprintf(w, "  why         %s\n", p.Why)
	if p.Practical != "" {
		fmt.Fprintf(w, "  practical   %s\n", p.Practical)
	}
	fmt.Fprintf(w, "  source      %s\n", p.Source)
}

// predictedShort is the prediction in a table cell: "consistent",
// "consistent (bdg)", "consistent (stuck)" or "inconsistent".
func predictedShort(p predictionDoc) string {
	if !p.Consistent {
		return "inconsistent"
	}
	if p.Stuck {
		return "consistent (stuck)"
	}
	if p.Condition == rules.BinaryDeterministic {
		return "consistent (bdg)"
	}
	if p.Condition != "" {
		return "consistent (" + p.Condition + ")"
	}
	return "consistent"
}

// predictedLong is the prediction in words: "consistent on binary
// deterministic games", "consistent" or "inconsistent".
func predictedLong(p predictionDoc) string {
	if !p.Consistent {
		return "inconsistent"
	}
	if p.Condition != "" {
		return "consistent on " + p.Condition
	}
	if p.Stuck {
		return "consistent in the limit, stuck in practice"
	}
	return "consistent"
}

// frugalShort is the papers' frugality claim in a table cell.
func frugalShort(f string) string {
	if f == "unknown" {
		return "—"
	}
	return f
}
