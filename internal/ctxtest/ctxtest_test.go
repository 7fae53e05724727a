package ctxtest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mctscheck/mctscheck/internal/ctxtest"
)

// TestEndsAt: the context is alive for its first looks-1 looks, then
// ended for good.
func TestEndsAt(t *testing.T) {
	ctx := ctxtest.EndsAt(3)
	for i, want := range []error{nil, nil, context.Canceled, context.Canceled} {
		if err := ctx.Err(); !errors.Is(err, want) && err != want {
			t.Errorf("look %d: %v, want %v", i+1, err, want)
		}
	}
}
