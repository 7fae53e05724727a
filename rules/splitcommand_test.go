package rules_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/rules"
)

// TestSplitCommand: words as a shell splits them without expansions, and
// errors that name what is unterminated or empty.
func TestSplitCommand(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"python3 examples/uct.py", []string{"python3", "examples/uct.py"}},
		{"  a\tb\nc ", []string{"a", "b", "c"}},
		{`prog 'a b' "c \"d\" \\ \e"`, []string{"prog", "a b", `c "d" \ \e`}},
		{`a\ b 'it'"s" ''`, []string{"a b", "its", ""}},
		{"leelaz -v {visits} -w {network}", []string{"leelaz", "-v", "{visits}", "-w", "{network}"}},
	} {
		got, err := rules.SplitCommand(tt.line)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.line, got, err, tt.want)
		}
	}
	for _, tt := range []struct{ line, want string }{
		{"prog 'open", "unterminated '"},
		{`prog "open`, `unterminated "`},
		{"   ", "empty command"},
	} {
		if _, err := rules.SplitCommand(tt.line); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("SplitCommand(%q) = %v, want an error with %q", tt.line, err, tt.want)
		}
	}
}
