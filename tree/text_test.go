package tree_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mctscheck/mctscheck/tree"
)

// TestRoundTrip parses hand-written trees, checks the canonical text, and
// checks that parsing the canonical text gives the same tree.
func TestRoundTrip(t *testing.T) {
	tests := []struct {
		in   string
		want string // canonical text; "" if in is canonical
	}{
		{in: "1"},
		{in: "0"},
		{in: "0.25"},
		{in: "0.0625"},
		{in: "(max 1)"},
		{in: "(min 0 1)"},
		{in: "(chance 1:0.5)"},
		{in: "(chance 0.125:1 0.875:0)"},
		{in: example},
		{in: "(max 1@1 0@0)"},
		{in: "(max 1@0 0@3)", want: "(max 1 0@3)"},
		{in: "(max 1@1048575)"},
		{in: "(max 1~0 0~-0 0.5~1e-300 1~-12345.678)"},
		{in: "(max (max (max (max 1))))"},
		{in: "(min (chance 0.5:(max 1~0.5 0@9) 0.25:0.75~2 0.25:(min 1 1)@0)@4~-1 0)"},
		{in: "(chance 0.1:0 0.2:0 0.7:1)"},
		{in: "-0", want: "-0"},
		{in: "1.0", want: "1"},
		{in: "0.50", want: "0.5"},
		{in: "1e0", want: "1"},
		{in: "+.5", want: "0.5"},
		{in: "0x1p-4", want: "0.0625"},
		{in: "(max 1@0 0@1)", want: "(max 1 0)"},
		{in: "(max 1@+2)", want: "(max 1@2)"},
		{in: "  ( max\t1\n0 ) \n", want: "(max 1 0)"},
		{in: "(max(min 1 0)(min 0 1))", want: "(max (min 1 0) (min 0 1))"},
		{in: "(chance 0.5 : 1 @ 3 ~ 0.5 0.5:0)", want: "(chance 0.5:1@3~0.5 0.5:0)"},
		{in: "; a tree\n(max ; the root\n 1 ; best\n 0) ; done", want: "(max 1 0)"},
		{in: "(max 1;)\n)", want: "(max 1)"},
	}
	for _, tt := range tests {
		want := tt.want
		if want == "" {
			want = tt.in
		}
		tr, err := tree.Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(want, tr.String()); diff != "" {
			t.Errorf("Parse(%q).String() (-want +got):\n%s", tt.in, diff)
		}
		if diff := cmp.Diff(want, string(tr.AppendText([]byte{}))); diff != "" {
			t.Errorf("Parse(%q).AppendText (-want +got):\n%s", tt.in, diff)
		}
		again, err := tree.Parse(tr.String())
		if err != nil {
			t.Errorf("Parse(%q): %v", tr.String(), err)
			continue
		}
		if !again.Equal(tr) {
			t.Errorf("Parse(%q) differs from Parse(%q)", tr.String(), tt.in)
		}
	}
}

// TestRandomRoundTrip prints random trees with an independent printer, with
// and without noise (whitespace, comments, explicit default moves), and
// checks that Parse reads them and String prints the canonical text.
func TestRandomRoundTrip(t *testing.T) {
	for seed := range uint64(1000) {
		r := seededRand(seed)
		n := randTree(r, 1+r.IntN(6))
		want := text(n, nil)
		for _, in := range []string{want, text(n, r)} {
			tr, err := tree.Parse(in)
			if err != nil {
				t.Fatalf("seed %d: Parse(%q): %v", seed, in, err)
			}
			if diff := cmp.Diff(want, tr.String()); diff != "" {
				t.Fatalf("seed %d: Parse(%q).String() (-want +got):\n%s", seed, in, diff)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		want   string // substring of the message
	}{
		// Malformed text.
		{"", 0, "expected a tree, found end of input"},
		{"  ; only a comment", 18, "expected a tree, found end of input"},
		{"max 1", 0, "expected a tree, found 'max'"},
		{")", 0, "expected a tree, found ')'"},
		{"(max 1 x)", 7, "expected ')' or a child, found 'x'"},
		{"(max 1 0.5.5)", 7, "expected ')' or a child, found '0.5.5'"},
		{"(max 1 'q')", 7, `expected ')' or a child, found "'q'"`},
		{"(max 1 \x00)", 7, `found "\x00"`},
		{"(max 1 0)@3", 9, "expected end of input, found '@'"},
		{"(max 1 0) 1", 10, "expected end of input, found '1'"},
		{"(max 1))", 7, "expected end of input, found ')'"},
		{"(max 1 0)x", 9, "expected end of input, found 'x'"},
		{"1 1", 2, "expected end of input, found '1'"},
		{"(max 1", 6, "expected ')' or a child, found end of input"},
		{"(max 1 ; comment )", 18, "expected ')' or a child, found end of input"},
		{"(max (min 1 (chance 1:0", 23, "expected ')' or 'probability:' before a child of a chance node, found end of input"},
		{"(", 1, "expected max, min or chance, found end of input"},
		{"(foo 1)", 1, "expected max, min or chance, found 'foo'"},
		{"(terminal 1)", 1, "expected max, min or chance, found 'terminal'"},
		{"(MAX 1)", 1, "expected max, min or chance, found 'MAX'"},
		{"((max 1))", 1, "expected max, min or chance, found '('"},
		{"(max1 1)", 1, "expected max, min or chance, found 'max1'"},
		{"(max 1~0.5@3)", 10, "expected ')' or a child, found '@'"},
		{"(max 1@x)", 7, "expected a move (a non-negative integer), found 'x'"},
		{"(max 1@1.5)", 7, "expected a move (a non-negative integer), found '1.5'"},
		{"(max 1@)", 7, "expected a move (a non-negative integer), found ')'"},
		{"(max 1@-1)", 7, "move -1, want an integer in [0, 1048575]"},
		{"(max 1@1048576)", 7, "move 1048576, want an integer in [0, 1048575]"},
		{"(max 0@5 1@2147483647)", 11, "move 2147483647, want an integer in [0, 1048575]"},
		{"(max 0@1073741822 1)", 7, "move 1073741822, want an integer in [0, 1048575]"},
		{"(max 1@99999999999999999999)", 7, "move 99999999999999999999, want an integer in [0, 1048575]"},
		{"(max 1~)", 7, "expected a prior (a number), found ')'"},
		{"(max 1~high)", 7, "expected a prior (a number), found 'high'"},
		{"(max 1~NaN)", 7, "prior NaN, want a finite number"},
		{"(max 1~-Inf)", 7, "prior -Inf, want a finite number"},
		{"(max 1~1e400)", 7, "prior 1e400, want a finite number"},

		// Bad values.
		{"(max)", 0, "node 0 (max): no children, want at least 1"},
		{"(max 1 (min))", 7, "node 0.1 (min): no children, want at least 1"},
		{"(chance)", 0, "node 0 (chance): no children, want at least 1"},
		{"1.5", 0, "node 0 (terminal): reward 1.5, want a number in [0,1]"},
		{"-0.5", 0, "node 0 (terminal): reward -0.5, want a number in [0,1]"},
		{"(max 0 1.0625)", 7, "node 0.1 (terminal): reward 1.0625, want a number in [0,1]"},
		{"(max 0 (min 1 NaN))", 14, "node 0.1.1 (terminal): reward NaN, want a number in [0,1]"},
		{"(max nan)", 5, "node 0.0 (terminal): reward nan"},
		{"(max Inf)", 5, "node 0.0 (terminal): reward Inf"},
		{"(max +Infinity)", 5, "node 0.0 (terminal): reward +Infinity"},
		{"(max -inf)", 5, "node 0.0 (terminal): reward -inf"},
		{"(max 1e999)", 5, "node 0.0 (terminal): reward 1e999"},
		{"(chance 0.5:1 0.25:0)", 0, "node 0 (chance): probabilities sum to 0.75, want 1"},
		{"(max 1@0 0@0)", 0, "node 0 (max): children 0 and 1 have the same move 0; siblings need distinct moves"},
		{"(max 1@1 0)", 0, "node 0 (max): children 0 and 1 have the same move 1"},
		{"(min 1 0 (max 1 0@3 1@0))", 9, "node 0.2 (max): children 0 and 2 have the same move 0"},
		{"(min 1 0 (max 1 0@2 1))", 9, "node 0.2 (max): children 1 and 2 have the same move 2"},
		{"(max 0 (min 1@7 0@2 1@7))", 7, "node 0.1 (min): children 0 and 2 have the same move 7"},
		{"(max 0 (chance 0.5:1 0.25:0))", 7, "node 0.1 (chance): probabilities sum to 0.75, want 1"},
		{"(max 0 (min 1 (chance 0.5:1 0.25:0)) (chance 0.5:1 0.625:0))", 14,
			"node 0.1.1 (chance): probabilities sum to 0.75, want 1"},
		{"(chance 0.75:1 0.75:0)", 0, "node 0 (chance): probabilities sum to 1.5, want 1"},
		{"(chance 0:1 1:0)", 8, "probability 0, want a number in (0,1]"},
		{"(chance 1.5:1)", 8, "probability 1.5, want a number in (0,1]"},
		{"(chance -0.5:1 1:0)", 8, "probability -0.5, want a number in (0,1]"},
		{"(chance NaN:1)", 8, "probability NaN, want a number in (0,1]"},
		{"(chance inf:1)", 8, "probability inf, want a number in (0,1]"},
		{"(max 0.5:1)", 5, "probability 0.5 under a max node; only children of chance nodes have one"},
		{"(min 1 0.5 : (max 1))", 7, "probability 0.5 under a min node"},
		{"(chance 1)", 8, "expected ')' or 'probability:' before a child of a chance node, found '1'"},
		{"(chance 0.5:1 0)", 14, "expected ')' or 'probability:' before a child of a chance node, found '0'"},
		{"(chance 0.5:1 (max 1))", 14, "expected ')' or 'probability:' before a child of a chance node, found '('"},
		{"(chance x:1)", 8, "expected ')' or 'probability:' before a child of a chance node, found 'x'"},
		{"(chance 0.5:1 0.5:)", 18, "expected a tree, found ')'"},
		{"(chance 1:x)", 10, "expected a tree, found 'x'"},
		{"(chance 1:@2)", 10, "expected a tree, found '@'"},
	}
	for _, tt := range tests {
		tr, err := tree.Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) = %s, want an error", tt.in, tr)
			continue
		}
		var pe *tree.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) error %v is a %T, want a *tree.ParseError", tt.in, err, err)
			continue
		}
		if pe.Offset != tt.offset || !strings.Contains(pe.Msg, tt.want) {
			t.Errorf("Parse(%q) error = %q, want offset %d and a message containing %q", tt.in, err, tt.offset, tt.want)
		}
	}
}

func TestParseErrorString(t *testing.T) {
	_, err := tree.Parse("(max (min 1 0) x)")
	if diff := cmp.Diff("offset 15: expected ')' or a child, found 'x'", err.Error()); diff != "" {
		t.Errorf("error text (-want +got):\n%s", diff)
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("MustParse(\"(max)\") did not panic")
		}
	}()
	tree.MustParse("(max)")
}

func TestTextMarshaling(t *testing.T) {
	type witness struct {
		Tree *tree.Tree
		Seed uint64
	}
	in := witness{Tree: tree.MustParse(example), Seed: 7}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"Tree":"`+example+`","Seed":7}`, string(data)); diff != "" {
		t.Errorf("json.Marshal (-want +got):\n%s", diff)
	}
	var out witness
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, out); diff != "" {
		t.Errorf("json round trip (-want +got):\n%s", diff)
	}
	if err := json.Unmarshal([]byte(`{"Tree":"(max)"}`), &out); err == nil {
		t.Errorf("json.Unmarshal of (max): no error")
	}
}
