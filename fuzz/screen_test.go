package fuzz

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/internal/cputime"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/tree"
)

// counted counts the selections of the rule it wraps.
type counted struct {
	core.Rule
	n *atomic.Int64
}

func (c counted) Select(s *core.Site) int {
	c.n.Add(1)
	return c.Rule.Select(s)
}

// randomCodes are n fixed random tree codes of 8 to 31 bytes.
func randomCodes(n int) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	codes := make([][]byte, n)
	for i := range codes {
		codes[i] = make([]byte, 8+r.IntN(24))
		for j := range codes[i] {
			codes[i][j] = byte(r.Uint32())
		}
	}
	return codes
}

// TestScreenIsCheap: a consistent rule's inputs cost the screen's
// searches (4 seeds of 1,024 simulations) on most trees, not the full
// check's (16 of 16,384), while an input the rule is trapped on still goes
// through the full check and fails.
func TestScreenIsCheap(t *testing.T) {
	opts := props.Options{RuleSpec: "uct"}
	lim := ruleLimits(opts)
	n := new(atomic.Int64)
	uct := counted{rules.MustParse("uct").Rule, n}
	codes := randomCodes(64)
	full := 0
	for i, code := range codes {
		before := n.Load()
		msg, err := judgeInput(uct, opts, lim, uint64(i+1), code)
		if err != nil || msg != "" {
			t.Fatalf("uct on input %x: %v %s", code, err, msg)
		}
		if n.Load()-before > int64(screenSeeds*screenBudget*lim.maxDepth) {
			full++
		}
	}
	if full > len(codes)/8 {
		t.Errorf("%d of %d inputs of uct went on to the full check; want at most an eighth", full, len(codes))
	}
	t.Logf("%d of %d inputs of uct went on to the full check; %.0f selections an input", full, len(codes), float64(n.Load())/float64(len(codes)))

	trap, err := encode(gen.GreedyFirstLossTrap().Tree, lim)
	if err != nil {
		t.Fatal(err)
	}
	greedy := rules.MustParse("greedy-fpu")
	if msg, err := judgeInput(greedy.Rule, props.Options{RuleSpec: greedy.Spec}, lim, 1, trap); err != nil || !strings.Contains(msg, "inconsistent") {
		t.Errorf("greedy-fpu on its trap: %v, %q; want the witness", err, msg)
	}
}

// TestRuleFault: a rule that panics fails the target with the fault, as
// the full check reports it.
func TestRuleFault(t *testing.T) {
	lim := ruleLimits(props.Options{})
	code, err := encode(tree.MustParse("(max (max 0 1) 0.5)"), lim)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := judgeInput(panicky{}, props.Options{}, lim, 1, code)
	if err != nil || !strings.Contains(msg, "fault (panic)") {
		t.Errorf("a panicking rule: %v, %q; want its fault", err, msg)
	}
}

// BenchmarkRuleInput is the cost of Rule's inputs on a consistent rule (the
// screen, and the full check for the inputs the screen does not pass): an
// op judges 64 fixed random tree codes, each with its own seed. It reports
// ns/input and cpu-ns/input, the CPU time of the benchmark's thread (on
// Linux), which other jobs on a shared machine stretch far less. fuzz's
// package doc quotes it.
func BenchmarkRuleInput(b *testing.B) {
	for _, spec := range []string{"uct", "smoothed"} {
		b.Run("rule="+spec, func(b *testing.B) {
			in := rules.MustParse(spec)
			opts := props.Options{RuleSpec: in.Spec, Backup: in.Backup}
			lim := ruleLimits(opts)
			codes := randomCodes(64)
			runtime.LockOSThread() // the search runs on this goroutine (Jobs 0): its thread's CPU is the inputs'
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			c0, cpu := cputime.Thread()
			t0 := time.Now()
			for b.Loop() {
				for i, code := range codes {
					if _, err := judgeInput(in.Rule, opts, lim, uint64(i+1), code); err != nil {
						b.Fatal(err)
					}
				}
			}
			inputs := float64(b.N * len(codes))
			b.ReportMetric(float64(time.Since(t0).Nanoseconds())/inputs, "ns/input")
			if c1, _ := cputime.Thread(); cpu {
				b.ReportMetric(float64((c1-c0).Nanoseconds())/inputs, "cpu-ns/input")
			}
		})
	}
}
