//go:build unix

package rules_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// shRule is an external rule run by sh -c script.
func shRule(t *testing.T, script string, o rules.ExecOptions) *rules.ExecRule {
	t.Helper()
	x, err := o.New("sh", "-c", script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// TestExecHugeLine: a program that writes a line of 100 MB without a
// newline answers garbage, found without reading it all and at once, not
// after a hundred restarts.
func TestExecHugeLine(t *testing.T) {
	x := shRule(t, `read hello; echo '{"version":1}'; read batch; head -c 100000000 /dev/zero | tr '\0' x; sleep 30`, rules.ExecOptions{})
	start := time.Now()
	rep, err := props.CheckTree(context.Background(), x, tree.MustParse("(max 1 0)"), props.Options{Seeds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Faulted || rep.Witness.Fault.Kind != props.FaultGarbage || !strings.Contains(rep.Witness.Fault.Message, "longer than") {
		t.Fatalf("%s, want a fault (garbage): a line too long", rep.Summary)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the fault took %v", d)
	}
	checkReaped(t, x)
}

// TestExecCloseCutsARoundTrip: Close answers a Select that waits on a
// program which hangs, even when a process it started in a session of its
// own holds its output, at once rather than at the timeout.
func TestExecCloseCutsARoundTrip(t *testing.T) {
	x := shRule(t, `setsid sleep 5 & read hello; echo '{"version":1}'; sleep 30`, rules.ExecOptions{Timeout: time.Minute})
	s, err := core.New(tree.MustParse("(max 1 0)").Game(), x, core.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Run(context.Background(), 10) }()
	time.Sleep(300 * time.Millisecond) // the first batch is in flight
	start := time.Now()
	x.Close()
	select {
	case err := <-done:
		var re *core.RuleError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "closed") {
			t.Errorf("Run: %v, want the rule closed", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Close took %v to answer the Select", d)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not answer the Select waiting on the program")
	}
}

// TestExecOptionsBad: negative timeouts are refused.
func TestExecOptionsBad(t *testing.T) {
	for _, o := range []rules.ExecOptions{{Timeout: -time.Second}, {StartTimeout: -1}} {
		if _, err := o.New("sh"); err == nil || !strings.Contains(err.Error(), "want a positive duration") {
			t.Errorf("%+v: %v, want an error", o, err)
		}
	}
}
