package props_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

// TestNilContext: Run, CheckTree and CheckGame with a nil context return
// an error that says so; they do not panic.
func TestNilContext(t *testing.T) {
	tr := tree.MustParse("(max 1 0)")
	var noContext context.Context // nil, the point of the test
	for name, f := range map[string]func() error{
		"Run":       func() error { _, err := props.Run(noContext, core.UCT{C: 1}, props.Options{Trees: 1}); return err },
		"CheckTree": func() error { _, err := props.CheckTree(noContext, core.UCT{C: 1}, tr, props.Options{}); return err },
		"CheckGame": func() error {
			_, err := props.CheckGame(noContext, core.UCT{C: 1}, tr.Game(), props.TreeOracle(tr), props.GameOptions{})
			return err
		},
	} {
		if err := f(); err == nil || !strings.Contains(err.Error(), "nil context") {
			t.Errorf("%s(nil, ...): %v, want an error about the nil context", name, err)
		}
	}
}
