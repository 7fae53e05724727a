package main

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/internal/cputime"
)

// knobEnv names the environment variable that scales BenchmarkKnob's work.
const knobEnv = "MCTSCHECK_GATE_KNOB"

// knobWork is the number of xorshift steps of one BenchmarkKnob op at
// factor 1: about a millisecond.
const knobWork = 1 << 20

// knobFactor parses the knob: empty is 1; else a number from 0.5 to 10.
func knobFactor(s string) (float64, error) {
	if s == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 0.5 && f <= 10) {
		return 0, fmt.Errorf("%s=%q: want a factor from 0.5 to 10", knobEnv, s)
	}
	return f, nil
}

// knobSink keeps BenchmarkKnob's work from being optimised away.
var knobSink uint64

// BenchmarkKnob is a synthetic benchmark for measuring the gate itself
// (scripts/gatecheck.sh): each op is a chain of knobWork dependent
// xorshift steps times the factor in $MCTSCHECK_GATE_KNOB (default 1), so
// that a run with 1.1 is the same code made deliberately 10% slower.
// Besides sec/op it reports cpu-ns/op, the CPU time of its thread per op
// (on Linux; wall time elsewhere), which other jobs on a shared machine
// stretch far less than wall time, as package bench's ns/sim.
func BenchmarkKnob(b *testing.B) {
	f, err := knobFactor(os.Getenv(knobEnv))
	if err != nil {
		b.Fatal(err)
	}
	n := int(math.Round(knobWork * f))
	x := uint64(88172645463325252)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := threadCPU()
	for b.Loop() {
		for range n {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
	b.ReportMetric(float64(threadCPU()-c0)/float64(b.N), "cpu-ns/op")
	knobSink = x
}

// threadCPU is the thread's CPU clock, or where there is none (off Linux)
// the wall clock: cpu-ns/op then equals ns/op.
func threadCPU() time.Duration {
	if c, ok := cputime.Thread(); ok {
		return c
	}
	return time.Since(wallStart)
}

// wallStart anchors threadCPU's wall clock.
var wallStart = time.Now()

func TestKnobFactor(t *testing.T) {
	for s, want := range map[string]float64{"": 1, "1.1": 1.1, "0.5": 0.5, "10": 10} {
		if got, err := knobFactor(s); err != nil || got != want {
			t.Errorf("knobFactor(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"0", "-1", "x", "NaN", "11", "Inf"} {
		if _, err := knobFactor(s); err == nil {
			t.Errorf("knobFactor(%q): no error", s)
		}
	}
}
