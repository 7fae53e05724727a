package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/rules"
)

// TestRulesEngines: `mctscheck rules` lists the real engines' presets in a
// section of their own, after the papers' catalogue, and -json marks each
// rule's kind; a preset's practical finding is shown beside its
// prediction.
func TestRulesEngines(t *testing.T) {
	r := mctscheck(t, "", "rules")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	papers, engines, ok := strings.Cut(r.stdout, "Real engines' presets")
	if !ok {
		t.Fatalf("no section of engines:\n%s", r.stdout)
	}
	for _, e := range rules.All() {
		if !strings.Contains(papers, "\n"+e.Name+" ") || strings.Contains(engines, "\n"+e.Name+" ") {
			t.Errorf("%s is not in the papers' section alone", e.Name)
		}
	}
	for _, e := range rules.Engines() {
		if !strings.Contains(engines, "\n"+e.Name+" ") || strings.Contains(papers, "\n"+e.Name+" ") {
			t.Errorf("%s is not in the engines' section alone", e.Name)
		}
	}
	_, line, _ := strings.Cut(engines, "\nludii-progressive-bias ")
	if line, _, _ = strings.Cut(line, "\n"); !strings.Contains(line, " consistent (stuck) ") {
		t.Errorf("ludii-progressive-bias is not listed as consistent, stuck in practice: %s", line)
	}

	r = mctscheck(t, "", "rules", "-json")
	var docs []ruleDoc
	if err := json.Unmarshal([]byte(r.stdout), &docs); err != nil || r.code != 0 {
		t.Fatalf("exit %d, %v", r.code, err)
	}
	kinds := map[string]int{}
	for _, d := range docs {
		kinds[d.Kind]++
	}
	if kinds["paper"] != len(rules.All()) || kinds["engine"] != len(rules.Engines()) || len(kinds) != 2 {
		t.Errorf("kinds %v, want %d paper and %d engine", kinds, len(rules.All()), len(rules.Engines()))
	}

	r = mctscheck(t, "", "rules", "ludii-progressive-bias")
	if !strings.Contains(r.stdout, "consistent in the limit, stuck in practice") || !strings.Contains(r.stdout, "  practical   stuck through 2^62") {
		t.Errorf("rules ludii-progressive-bias:\n%s", r.stdout)
	}
}
