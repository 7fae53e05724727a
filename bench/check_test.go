package bench_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
)

// checkRules are the rules of BenchmarkCheck: UCT, whose check runs
// core's own loop, and three that go through a Site, one deterministic
// with priors and two stochastic, the costliest of the default run, one
// of them with minimax backups.
var checkRules = []string{"uct", "prior", "boltzmann-decay", "boltzmann-minimax"}

// BenchmarkCheck measures the checker's own cost: one op is props.Run of
// a catalogue rule at the defaults, as `mctscheck check -rule NAME` runs
// it, but one tree at a time (Jobs 1) so that the process's CPU time is
// the check's alone. ns/sim is that CPU time per simulation of the
// check's searches, everything included: tree generation, searches,
// snapshots, the limit probe, the criterion; sims/op is how many
// simulations one op ran. status=on reports the check's progress
// (Options.Status) as mctscheck check does, whose searches then run in
// chunks and count their simulations; status=off does not.
func BenchmarkCheck(b *testing.B) {
	for _, name := range checkRules {
		for _, status := range []bool{false, true} {
			b.Run(fmt.Sprintf("rule=%s/status=%s", name, map[bool]string{false: "off", true: "on"}[status]), func(b *testing.B) {
				in, err := rules.Parse(name)
				if err != nil {
					b.Fatal(err)
				}
				o := props.Options{Backup: in.Backup, BinaryOnly: in.Predicted.BinaryOnly(), RuleSpec: in.Spec}
				if status {
					o.Status = func(props.Status) {}
				}
				runtime.GC()
				var sims int64
				c0 := processCPU()
				for b.Loop() {
					rep, err := props.Run(context.Background(), in.Rule, o)
					if err != nil {
						b.Fatal(err)
					}
					sims += rep.Sims
				}
				b.ReportMetric(float64(processCPU()-c0)/float64(sims), "ns/sim")
				b.ReportMetric(float64(sims)/float64(b.N), "sims/op")
			})
		}
	}
}
