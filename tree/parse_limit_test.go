package tree_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/tree"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// wide is a max root with n leaves.
func wide(n int) string { return "(max" + strings.Repeat(" 0", n) + ")" }

// TestParseLimit is the bad-input table of tree sizes: a text with more
// nodes than the bound is a *ParseError at the offset of the first node
// too many, and Parse's memory is bounded by the limit, not by the text.
func TestParseLimit(t *testing.T) {
	tests := []struct {
		in     string
		limit  int
		offset int // of the error; -1 for a tree
	}{
		{"(max 0 0 0)", 4, -1},
		{"(max 0 0 0)", 3, 9},
		{"(max 0 0 0)", 1, 5},
		{"(max 0 0 0)", 0, 0},
		{"(max 0 0 0)", -5, 0},
		{"0", 1, -1},
		{"0", 0, 0},
		{"(max (min (max 1)))", 3, 15},
		{"(max (min (max 1)))", 4, -1},
		{"(chance 0.5:0 0.5:(max 1))", 2, 18},
		{"(chance 0.5:0 0.5:(max 1))", 4, -1},
		{"(max ; (max 0) in a comment\n 0 0)", 3, -1},
		{wide(1_000_000), 1000, 4 + 2*999 + 1},
		{strings.Repeat("(max ", 1_000_000), 1000, 5 * 1000},
	}
	for _, tt := range tests {
		var tr *tree.Tree
		var err error
		bytes := allocated(func() { tr, err = tree.ParseLimit(tt.in, tt.limit) })
		if bytes > 512*uint64(max(tt.limit, 1))+64<<10 {
			t.Errorf("ParseLimit(%.30q..., %d) allocated %d bytes, want at most 512 a node and 64 KiB", tt.in, tt.limit, bytes)
		}
		if tt.offset < 0 {
			if err != nil || tr.Len() > tt.limit {
				t.Errorf("ParseLimit(%.30q, %d) = %v nodes, %v; want a tree", tt.in, tt.limit, tr, err)
			}
			continue
		}
		pe, ok := errors.AsType[*tree.ParseError](err)
		if !ok || pe.Offset != tt.offset || !strings.Contains(pe.Msg, "nodes, the parser's limit") {
			t.Errorf("ParseLimit(%.30q..., %d) error = %.200v, want a *ParseError at offset %d about the limit", tt.in, tt.limit, err, tt.offset)
		}
	}
}

// TestParseDefaultLimit: Parse reads MaxParseNodes nodes and no more, in
// the memory MaxParseNodes's doc promises. (That the limit itself is
// allowed, TestParseLimit shows on small limits.)
func TestParseDefaultLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: parses 2^22 nodes (TestParseLimit checks small bounds)")
	}
	in := wide(tree.MaxParseNodes) // one node too many
	var err error
	bytes := allocated(func() { _, err = tree.Parse(in) })
	pe, ok := errors.AsType[*tree.ParseError](err)
	if !ok || pe.Offset != len(in)-2 || !strings.Contains(pe.Msg, "more than 4194304 nodes, the parser's limit (tree.MaxParseNodes = 2^22)") {
		t.Errorf("Parse of %d nodes: %.200v, want a *ParseError at offset %d", tree.MaxParseNodes+1, err, len(in)-2)
	}
	if bytes > 512*tree.MaxParseNodes {
		t.Errorf("Parse of %d nodes allocated %d bytes, want at most 512 a node", tree.MaxParseNodes+1, bytes)
	}
}
