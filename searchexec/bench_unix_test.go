//go:build unix

package searchexec_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/mctscheck/mctscheck/gen"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/rules"
	"github.com/mctscheck/mctscheck/searchexec"
)

// cpu returns the CPU time, user and system, of this process and of its
// children that have been reaped.
func cpu() (self, children time.Duration) {
	var s, c syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &s)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c)
	d := func(r syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	return d(s), d(c)
}

// BenchmarkCheck is the default check (the trap families, those of whole
// searches and 100 random trees × 4 seeds, budgets 64 to 16,384) of
// core's uct and of examples/mcts.c over the search protocol, two searches
// at once, as mctscheck check runs them: the rule's check is given the
// whole searches' families as Options.Traps, so that both search the same
// trees. Its metrics are CPU time, read from getrusage:
// cpu-s/op of mctscheck and the programs together, and for the search
// mctscheck's own CPU per search (self-µs/search: the trees, the pipe,
// the answers' checks, the criterion) and the program's. Compare the two
// interleaved (scripts/search-speed.sh).
func BenchmarkCheck(b *testing.B) {
	o := props.Options{Jobs: 2}
	b.Run("check=uct", func(b *testing.B) {
		uct := rules.MustParse("uct").Rule
		ro := o
		ro.Traps = gen.SearchTraps()
		self0, _ := cpu()
		for b.Loop() {
			if _, err := props.Run(context.Background(), uct, ro); err != nil {
				b.Fatal(err)
			}
		}
		self1, _ := cpu()
		b.ReportMetric((self1-self0).Seconds()/float64(b.N), "cpu-s/op")
	})
	b.Run("check=mcts.c", func(b *testing.B) {
		bin := buildMCTS(b)
		var searches int64
		self0, kids0 := cpu()
		for b.Loop() {
			p, err := searchexec.Options{}.New(bin)
			if err != nil {
				b.Fatal(err)
			}
			rep, err := props.RunSearch(context.Background(), p, o)
			if err != nil {
				b.Fatal(err)
			}
			if rep.Verdict == props.Faulted || rep.Verdict == props.Stuck {
				b.Fatalf("%s", rep.Summary)
			}
			searches += p.Searches()
			p.Close() // the programs are reaped: their CPU is the children's
		}
		self1, kids1 := cpu()
		self, kids := self1-self0, kids1-kids0
		b.ReportMetric((self+kids).Seconds()/float64(b.N), "cpu-s/op")
		b.ReportMetric(float64(self.Microseconds())/float64(searches), "self-µs/search")
		b.ReportMetric(float64(kids.Microseconds())/float64(searches), "program-µs/search")
	})
}
