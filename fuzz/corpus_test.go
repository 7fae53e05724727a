package fuzz

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

var update = flag.Bool("update", false, "rewrite the seed corpora in testdata/fuzz from TestSeedCorpus's generator")

// entry is one seed corpus file: its name and the fuzz arguments.
type entry struct {
	name string
	args []any
}

// TestSeedCorpus checks that testdata/fuzz holds the seed corpus that
// seedCorpus generates, file for file; with -update it writes them. Other
// files (crashers kept as regression inputs) are left alone.
func TestSeedCorpus(t *testing.T) {
	for target, entries := range seedCorpus(t) {
		dir := filepath.Join("testdata", "fuzz", target)
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, e := range entries {
			path := filepath.Join(dir, e.name)
			want := marshalCorpus(e.args...)
			if *update {
				if err := os.WriteFile(path, want, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: %v; the corpus generator gives\n%s\nrun go test ./fuzz -run TestSeedCorpus -update", path, err, want)
			}
		}
	}
}

// seedCorpus returns the seed corpus of every target, by target name.
func seedCorpus(t *testing.T) map[string][]entry {
	t.Helper()
	traps := gen.Traps()
	out := map[string][]entry{}

	// FuzzParse: the trap families, the DESIGN example, every syntax
	// element, and near misses of each kind of error.
	for _, tr := range traps {
		out["FuzzParse"] = append(out["FuzzParse"], entry{"trap-" + fileName(tr.Name), []any{tr.Tree.String()}})
	}
	for name, text := range map[string]string{
		"design-example": "(max (min 1 0)@3~0.8 (chance 0.5:(min 1 1) 0.5:0)~-0.2)",
		"leaf":           "0.5",
		"comments":       "; a tree\n(max\t1 ; a win\n  (min 0.25 0.75) )\n",
		"numbers":        "(chance 0.125:1e0 .875:0.0625)",
		"moves-priors":   "(max 1@7~-1.5 0@0~1e300 (min 1 0)@1048575)",
		"deep":           strings.Repeat("(max ", 64) + "1" + strings.Repeat(")", 64),
		"err-unclosed":   "(max 1 (min 0",
		"err-empty-node": "(min)",
		"err-reward":     "(max 2 0)",
		"err-prob-sum":   "(chance 0.5:1 0.25:0)",
		"err-prob-max":   "(max 0.5:1 0)",
		"err-move":       "(max 1@-1 0)",
		"err-move-big":   "(max 1@1048576 0)",
		"err-prior":      "(max 1~nan 0)",
		"err-kind":       "(maximum 1 0)",
		"err-trailing":   "(max 1 0) 1",
		"err-empty":      "",
	} {
		out["FuzzParse"] = append(out["FuzzParse"], entry{name, []any{text}})
	}

	// FuzzSolve: tree codes of the trap families, and trees with chance
	// nodes nested, priors and moves.
	for _, nt := range trapTrees(traps) {
		if code, err := encode(tree.MustParse(nt.text), solveLimits); err == nil { // bias:k=4 is on the 1/32 grid
			out["FuzzSolve"] = append(out["FuzzSolve"], entry{nt.name, []any{code}})
		}
	}
	for _, nt := range []named{
		{"chance-nested", "(max (chance 0.125:(min 1 (chance 0.5:0 0.5:1)) 0.875:0.5) (min 0.75 (max 0 1)))"},
		{"moves-priors", "(max (min 1 0)@3~0.75 (chance 0.5:(min 1 1) 0.5:0)~-0.25)"},
		{"min-root-ties", "(min (max 0.5 0.25) 0.5 (chance 0.5:0 0.5:1))"},
		{"chance-root-8", "(chance 0.125:0 0.125:0.0625 0.125:0.125 0.125:0.1875 0.125:0.25 0.125:0.3125 0.125:0.375 0.125:0.4375)"},
	} {
		out["FuzzSolve"] = append(out["FuzzSolve"], entry{nt.name, []any{mustEncode(t, nt.text, solveLimits)}})
	}

	// FuzzSearch: each trap with UCT in both growth modes; a chance root
	// that meets the frequency check; every rule once on a tree with chance
	// nodes, priors and moves, each mode once.
	uctC := byte(45) // C = 45/32 ≈ √2
	for _, nt := range trapTrees(traps) {
		code, err := encode(tree.MustParse(nt.text), searchLimits)
		if err != nil {
			continue
		}
		out["FuzzSearch"] = append(out["FuzzSearch"],
			entry{nt.name + "-uct-paper", []any{uint64(1), uint16(4095), uint8(0), []byte{0, uctC}, code}},
			entry{nt.name + "-uct-practical", []any{uint64(2), uint16(2047), uint8(1 | 2<<1 | 4<<5), []byte{0, uctC}, code}})
	}
	chanceRoot := mustEncode(t, "(chance 0.125:1 0.25:(max 0 1) 0.625:(min 1 0.5))", searchLimits)
	out["FuzzSearch"] = append(out["FuzzSearch"], entry{"chance-root-frequencies", []any{uint64(3), uint16(4095), uint8(0), []byte{4}, chanceRoot}})
	mixed := mustEncode(t, "(max (min 1 0)@3~0.75 (chance 0.5:(min 1 0.5)@1~-1 0.5:(max 0 0.25)~0.5)~0 (min (max 1 0) 0.5)@2~0.125)", searchLimits)
	names := []string{"core-uct", "core-threshold", "amaf-blend", "prior-virtual", "uniform"}
	for _, e := range rules.All() {
		names = append(names, e.Name)
	}
	for sel, name := range names {
		mode := uint8(sel%16) | uint8(sel%8)<<5
		out["FuzzSearch"] = append(out["FuzzSearch"], entry{"rule-" + name, []any{uint64(sel), uint16(1000), mode, []byte{byte(sel), 0, 0}, mixed}})
	}

	// FuzzScore: every rule at a node with an unvisited child, a child with
	// every simulation won and one with 2^32−1 simulations all lost, at max
	// and min nodes; and one site of extremes for each.
	// Each node's statistics are a count, a share won, a prior, an AMAF
	// count and its share won (readStats).
	ordinary := []byte{
		10 << 2, 128, 0, 0, 0, // parent: 10 visits, about half won
		2,                 // three children:
		0, 0, 1, 16, 0, 0, // unvisited, prior 16/8 = 2, no AMAF
		4 << 2, 255, 0, 4 << 2, 255, // 4 visits all won, no prior, AMAF 4 all won
		2<<2 | 3, 0, 4<<2 | 3, 2<<2 | 3, 0, // 2^32−1 visits all lost, prior 1e300, AMAF 2^32−1 lost
	}
	extremes := []byte{
		0, 0, 0, 0, 0, // parent: unvisited
		1,                                      // two children:
		1<<2 | 3, 255, 1<<2 | 3, 2<<2 | 3, 255, // 1 visit won, prior −MaxFloat64, AMAF 2^32−1 all won
		2, 0xff, 0xff, 0xff, 0x7f, 1, // 2^31−1 visits, 1/255 of them won,
		2, 1, 0, 0, 0, 0, 0, 0, 0x80, // raw prior −5e−324,
		3<<2 | 3, 0, // AMAF 2^31 all lost
	}
	for sel, name := range names {
		out["FuzzScore"] = append(out["FuzzScore"],
			entry{name + "-max", []any{[]byte{byte(sel), 0, 0}, false, uint32(12), ordinary}},
			entry{name + "-min", []any{[]byte{byte(sel), 0, 0}, true, uint32(12), ordinary}},
			entry{name + "-extremes", []any{[]byte{byte(sel), 2, 2, 2}, false, uint32(1<<32 - 1), extremes}})
	}

	// The Rule harness's targets: the trap families and small trees, each
	// only if the target's rule converges on it with the seeds of the
	// entry, so that a finding is the fuzzer's, not the corpus's. The traps
	// of greedy-fpu and rave also come with their good move placed where
	// these rules find it ("safe"), a few mutations away from the trap.
	harnessTrees := append(trapTrees(traps),
		named{"greedy-first-loss-safe", "(max (max 1 0) (min 1 0))"},
		named{"rave-zero-safe", "(max 1 (min 1 0) (min 1 0))"},
		named{"negative-heuristic-safe", "(max 1~-1 (min 1 0)~0)"},
		named{"two-level", "(max (min 0.5 1) (min 0.25 0.75) (max 0 0.5))"},
		named{"chance", "(max (chance 0.5:1 0.5:0) (min 0.75 0.5))"})
	for _, target := range []struct{ name, spec string }{
		{"FuzzGreedyFPU", "greedy-fpu"}, {"FuzzRave", "rave"}, {"FuzzUCT", "uct"},
	} {
		in := rules.MustParse(target.spec)
		opts := props.Options{Backup: in.Backup}
		lim := ruleLimits(opts)
		for _, nt := range harnessTrees {
			tr := tree.MustParse(nt.text)
			code, err := encode(tr, lim)
			if err != nil {
				continue
			}
			opts.Seed = 1
			rep, err := props.CheckTree(context.Background(), in.Rule, tr, opts)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict == props.Inconsistent {
				continue
			}
			out[target.name] = append(out[target.name], entry{nt.name, []any{uint64(1), code}})
		}
	}
	for _, es := range out {
		slices.SortFunc(es, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	}
	return out
}

// mustEncode returns the tree code of text under lim, or fails t.
func mustEncode(t *testing.T, text string, lim limits) []byte {
	t.Helper()
	code, err := encode(tree.MustParse(text), lim)
	if err != nil {
		t.Fatalf("encode(%s): %v", text, err)
	}
	return code
}

// named is a tree in the text format with a name for its corpus file.
type named struct{ name, text string }

// trapTrees returns the trap families as named trees.
func trapTrees(traps []gen.Trap) []named {
	var out []named
	for _, tr := range traps {
		out = append(out, named{"trap-" + fileName(tr.Name), tr.Tree.String()})
	}
	return out
}

// fileName turns a trap name such as "bias:k=2,gap=1,r=0.0625" into a
// portable file name.
func fileName(s string) string {
	return strings.Trim(regexp.MustCompile(`[^a-zA-Z0-9.]+`).ReplaceAllString(s, "-"), "-")
}

// marshalCorpus writes a corpus file in go test's format, as
// internal/fuzz does for the types the targets take.
func marshalCorpus(args ...any) []byte {
	var b bytes.Buffer
	b.WriteString("go test fuzz v1\n")
	for _, a := range args {
		switch v := a.(type) {
		case string:
			fmt.Fprintf(&b, "string(%q)\n", v)
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", v)
		case uint8, uint16, uint32, uint64, bool:
			fmt.Fprintf(&b, "%T(%v)\n", v, v)
		default:
			panic(fmt.Sprintf("fuzz: corpus value of type %T", a))
		}
	}
	return b.Bytes()
}
