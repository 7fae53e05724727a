package tree_test

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/tree"
)

// limitStack makes any deep recursion in the test crash the test binary: a
// 100,000-deep recursion needs megabytes of stack.
func limitStack(t *testing.T) {
	t.Helper()
	old := debug.SetMaxStack(256 << 10)
	t.Cleanup(func() { debug.SetMaxStack(old) })
}

// chainText is a chain of n max and min nodes above a leaf, alternating
// kinds and giving every edge move 1 and prior 0.5.
func chainText(n int) string {
	var sb strings.Builder
	for i := range n {
		if i%2 == 0 {
			sb.WriteString("(max ")
		} else {
			sb.WriteString("(min ")
		}
	}
	sb.WriteString("0.75")
	sb.WriteString(strings.Repeat("@1~0.5)", n))
	return sb.String()
}

func TestDeepChain(t *testing.T) {
	limitStack(t)
	const n = 100_000
	b := tree.NewBuilder()
	r := b.Leaf(0.75)
	for i := n - 1; i >= 0; i-- {
		if i%2 == 0 {
			r = b.Node(core.Max, tree.E(r).WithMove(1).WithPrior(0.5))
		} else {
			r = b.Node(core.Min, tree.E(r).WithMove(1).WithPrior(0.5))
		}
	}
	built, err := b.Build(r)
	if err != nil {
		t.Fatal(err)
	}
	if built.Len() != n+1 || built.Depth() != n {
		t.Errorf("Len() = %d, Depth() = %d; want %d, %d", built.Len(), built.Depth(), n+1, n)
	}
	want := chainText(n)
	if got := built.String(); got != want {
		t.Errorf("String() of the chain differs from the expected text (lengths %d, %d)", len(got), len(want))
	}
	parsed, err := tree.Parse(want)
	if err != nil {
		t.Fatal(err)
	}
	if !parsed.Equal(built) {
		t.Errorf("Parse of the chain's text differs from the built chain")
	}
	s := tree.Solve(parsed)
	if got := s.Value(0); got != 0.75 {
		t.Errorf("Value(0) = %v, want 0.75", got)
	}
	path := make([]int32, n)
	if got, err := parsed.Follow(path); got != n || err != nil {
		t.Errorf("Follow(%d zeros) = %d, %v; want %d", n, got, err, n)
	}
	if got := parsed.Path(n); len(got) != n {
		t.Errorf("len(Path(%d)) = %d, want %d", n, len(got), n)
	}
	g := parsed.Game()
	for range n {
		g.Play(0)
	}
	if g.Reward() != 0.75 || g.Node() != n {
		t.Errorf("cursor at the bottom of the chain: node %d, reward %v", g.Node(), g.Reward())
	}
}

func TestParseDeep(t *testing.T) {
	limitStack(t)
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	tests := []struct {
		in     string
		offset int
		want   string
	}{
		{strings.Repeat("(", n), 1, "expected max, min or chance, found '('"},
		{strings.Repeat("(max ", n), 5 * n, "expected ')' or a child, found end of input"},
		{strings.Repeat("(max ", n) + "1" + strings.Repeat(")", n-1), 5*n + n, "expected ')' or a child, found end of input"},
		{strings.Repeat("(max ", n) + "(max)" + strings.Repeat(")", n), 5 * n, "no children"},
		{strings.Repeat("(chance 1:", n) + "2" + strings.Repeat(")", n), 10 * n, "reward 2"},
	}
	for _, tt := range tests {
		_, err := tree.Parse(tt.in)
		pe, ok := err.(*tree.ParseError)
		if !ok || pe.Offset != tt.offset || !strings.Contains(pe.Msg, tt.want) {
			t.Errorf("Parse(%.20q...) error = %.200v, want offset %d and %q", tt.in, err, tt.offset, tt.want)
		}
	}
	tr, err := tree.Parse(strings.Repeat("(chance 1:", n) + "0.5" + strings.Repeat(")", n))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Depth() != n || tree.Solve(tr).Value(0) != 0.5 {
		t.Errorf("chance chain: Depth() = %d, Value(0) = %v; want %d, 0.5", tr.Depth(), tree.Solve(tr).Value(0), n)
	}
}
