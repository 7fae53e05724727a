package main

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// bench is one synthetic benchmark: its name (without "Benchmark"), unit and
// sample values.
type bench struct {
	name   string
	unit   string
	values []float64
}

// noisy returns n values around center with a relative spread of ±spread,
// from a generator seeded with seed.
func noisy(center, spread float64, n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	v := make([]float64, n)
	for i := range v {
		v[i] = center * (1 + spread*(2*r.Float64()-1))
	}
	return v
}

// scaled returns v with every value multiplied by f.
func scaled(v []float64, f float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x * f
	}
	return out
}

// writeFile writes benchmarks in the Go benchmark format, one line per
// sample, after a configuration header and any extra lines, and returns the
// file's path.
func writeFile(t *testing.T, name string, benches []bench, extra ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/bench\n")
	for _, e := range extra {
		b.WriteString(e + "\n")
	}
	n := 0
	for _, x := range benches {
		n = max(n, len(x.values))
	}
	for i := range n { // interleaved, as -count writes them
		for _, x := range benches {
			if i < len(x.values) {
				fmt.Fprintf(&b, "Benchmark%s-2\t10\t%g %s\n", x.name, x.values[i], x.unit)
			}
		}
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// gate runs the command and returns its exit status and output.
func gate(t *testing.T, args ...string) (int, string) {
	t.Helper()
	return gateWithInput(t, "", args...)
}

// gateWithInput runs the command with stdin as its standard input. A run
// that takes more than a minute fails the test: the gate must end on any
// input.
func gateWithInput(t *testing.T, stdin string, args ...string) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, strings.NewReader(stdin), &out, &errOut) }()
	select {
	case code := <-done:
		return code, out.String() + errOut.String()
	case <-time.After(time.Minute):
		t.Fatalf("gate %s: still running after a minute", strings.Join(args, " "))
	}
	return 0, ""
}

// suite is a set of benchmarks with sample values from f(i, name).
func suite(unit string, f func(i int) []float64) []bench {
	names := []string{
		"Search/game=synth/b=8/d=10/rule=uct/mode=practical",
		"Search/game=synth/b=8/d=10/rule=smoothed/mode=practical",
		"Search/game=ttt/rule=uct/mode=practical",
		"Playout/game=synth/b=8/d=10/loop=engine",
	}
	out := make([]bench, len(names))
	for i, n := range names {
		out[i] = bench{n, unit, f(i)}
	}
	return out
}

func TestGate(t *testing.T) {
	base := func(i int) []float64 { return noisy(float64(200+50*i), 0.02, 10, uint64(i)) }
	same := func(i int) []float64 { return noisy(float64(200+50*i), 0.02, 10, uint64(100+i)) }
	old := writeFile(t, "old.txt", suite("ns/sim", base))
	aa := writeFile(t, "aa.txt", suite("ns/sim", same))
	slow := writeFile(t, "slow.txt", suite("ns/sim", func(i int) []float64 {
		v := same(i)
		if i == 0 {
			v = scaled(v, 1.2)
		}
		return v
	}))
	fast := writeFile(t, "fast.txt", suite("ns/sim", func(i int) []float64 { return scaled(same(i), 0.7) }))
	slowOp := writeFile(t, "slowop.txt", suite("ns/op", func(i int) []float64 { return scaled(same(i), 1.2) }))
	oldOp := writeFile(t, "oldop.txt", suite("ns/op", base))
	both := writeFile(t, "both.txt", append(suite("ns/sim", base), suite("ns/op", func(i int) []float64 { return scaled(base(i), 2) })...))
	other := writeFile(t, "other.txt", []bench{{"Other", "ns/sim", noisy(100, 0.01, 10, 1)}})
	few := writeFile(t, "few.txt", suite("ns/sim", func(i int) []float64 { return base(i)[:3] }))
	few2 := writeFile(t, "few2.txt", suite("ns/sim", func(i int) []float64 { return scaled(same(i)[:3], 1.5) }))

	geoOld, geoNew := geomeanOnly(t)

	// Five samples a side: refused, though the U test could reach p < 0.05.
	five := writeFile(t, "five.txt", suite("ns/sim", func(i int) []float64 { return base(i)[:5] }))
	fiveSlow := writeFile(t, "five-slow.txt", suite("ns/sim", func(i int) []float64 { return scaled(same(i)[:5], 1.5) }))
	// Every benchmark 14% faster: a speed-up, called one.
	faster14 := writeFile(t, "faster14.txt", suite("ns/sim", func(i int) []float64 { return scaled(same(i), 0.86) }))

	// A rate: higher is better, so a drop is the slowdown.
	rateOld := writeFile(t, "rate-old.txt", suite("sims/s", func(i int) []float64 { return noisy(1e6, 0.01, 10, uint64(i)) }))
	rateDown := writeFile(t, "rate-down.txt", suite("sims/s", func(i int) []float64 { return noisy(0.8e6, 0.01, 10, uint64(i+50)) }))
	rateUp := writeFile(t, "rate-up.txt", suite("sims/s", func(i int) []float64 { return noisy(1.25e6, 0.01, 10, uint64(i+50)) }))

	// Unit metadata: B/node is exact, so any change is significant.
	exactOld := writeFile(t, "exact-old.txt", []bench{{"Search", "B/node", []float64{16, 16}}}, "Unit B/node assume=exact")
	exactNew := writeFile(t, "exact-new.txt", []bench{{"Search", "B/node", []float64{20, 20}}}, "Unit B/node assume=exact")

	// Wall-clock sec/op noisy (a loaded machine) and unchanged, the CPU
	// time 10% slower: the CPU time is judged, and the slowdown found.
	cpuFiles := func(name string, slow, slowS float64, seed uint64) string {
		bs := slices.Concat(
			suite("ns/op", func(i int) []float64 { return noisy(float64(200+50*i), 0.4, 10, seed+uint64(i)) }),
			suite("cpu-ns/op", func(i int) []float64 { return scaled(noisy(float64(150+50*i), 0.02, 10, seed+uint64(i)), slow) }))
		if slowS > 0 {
			bs = append(bs, suite("cpu-s", func(i int) []float64 { return scaled(noisy(1, 0.02, 10, seed+uint64(i)), slowS) })...)
		}
		return writeFile(t, name, bs)
	}
	cpuOld := cpuFiles("cpu-old.txt", 1, 1, 10)
	cpuSlow := cpuFiles("cpu-slow.txt", 1.1, 0, 20)
	cpuSlowBoth := cpuFiles("cpu-slow-both.txt", 1.1, 1.1, 20)
	simCPU := writeFile(t, "sim-cpu.txt", append(suite("ns/sim", base), suite("cpu-ns/op", base)...))
	simCPUSlow := writeFile(t, "sim-cpu-slow.txt", append(suite("ns/sim", same), suite("cpu-ns/op", func(i int) []float64 { return scaled(same(i), 1.2) })...))

	missing := filepath.Join(t.TempDir(), "missing.txt")

	tests := []struct {
		name string
		args []string
		want int
		text string // a substring of the output
	}{
		{"A/A identical file", []string{old, old}, 0, "gate: PASS: 4 comparisons (sec/sim)"},
		{"A/A same distribution", []string{old, aa}, 0, "gate: PASS"},
		{"one benchmark 20% slower", []string{old, slow}, 1, "gate: FAIL: 1 of 4 comparisons"},
		{"20% slower under a 25% threshold", []string{"-threshold", "25", old, slow}, 0, "gate: PASS"},
		{"faster is a pass", []string{old, fast}, 0, "gate: PASS"},
		{"faster is called faster", []string{old, faster14}, 0, "4 faster by more than 5% at p < 0.05; geomean sec/sim 13.7% faster (not judged)"},
		{"faster rows are marked", []string{old, faster14}, 0, "(p=0.000 n=10)  14.6% faster"},
		{"a slower geomean alone is reported, not judged", []string{geoOld, geoNew}, 0, "gate: PASS: 10 comparisons (sec/sim), none slower by more than 5% at p < 0.05; geomean sec/sim 8.0% slower (not judged)"},
		{"the geomean row says it is not judged", []string{geoOld, geoNew}, 0, "reported, not judged"},
		{"filter keeps the slow one", []string{"-filter", "/rule:uct /game:synth", old, slow}, 1, "1 of 1 comparison (sec/sim)"},
		{"filter drops the slow one", []string{"-filter", "/game:ttt", old, slow}, 0, "gate: PASS: 1 comparison (sec/sim)"},
		{"default unit is ns/sim when shared", []string{old, old}, 0, "gate: judging sec/sim, the time per simulation"},
		{"default unit is sec/op without ns/sim", []string{oldOp, slowOp}, 1, "gate: judging sec/op, no benchmark has ns/sim or a CPU time (such as cpu-ns/op) in both files"},
		{"default unit is the CPU time when shared", []string{cpuOld, cpuSlow}, 1, "gate: judging cpu-sec/op, the CPU time both files report"},
		{"a CPU-time slowdown fails by default", []string{cpuOld, cpuSlow}, 1, "gate: FAIL: 4 of 4 comparisons (cpu-sec/op)"},
		{"every shared CPU time is judged", []string{cpuOld, cpuSlowBoth}, 1, "gate: FAIL: 8 of 8 comparisons (cpu-sec/op, cpu-s)"},
		{"ns/sim before a CPU time", []string{simCPU, simCPUSlow}, 0, "gate: PASS: 4 comparisons (sec/sim)"},
		{"default sec/op judged", []string{oldOp, slowOp}, 1, "gate: FAIL: 4 of 4 comparisons (sec/op)"},
		{"default unit ignores sec/op beside ns/sim", []string{both, old}, 0, "gate: PASS: 4 comparisons (sec/sim)"},
		{"default unit, no shared unit", []string{old, oldOp}, 2, "no benchmark and unit is in both files with -unit sec/op"},
		{"given unit is not announced", []string{"-unit", "ns/sim", old, old}, 0, "gate: PASS"},
		{"unit sec/op not in files", []string{"-unit", "sec/op", old, slow}, 2, "no benchmark and unit is in both files"},
		{"unit ns/op", []string{"-unit", "ns/op", old, slowOp}, 2, "no benchmark"},
		{"unit all", []string{"-unit", "all", old, slow}, 1, "gate: FAIL"},
		{"rate down is slower", []string{"-unit", "sims/s", rateOld, rateDown}, 1, "gate: FAIL: 4 of 4 comparisons (sims/s) slower by more than 5% at p < 0.05"},
		{"rate down is slower by old/new", []string{"-unit", "sims/s", rateOld, rateDown}, 1, "geomean sims/s 25.3% slower (not judged)"},
		{"rate up is faster", []string{"-unit", "sims/s", rateOld, rateUp}, 0, "gate: PASS"},
		{"exact unit", []string{"-unit", "B/node", exactOld, exactNew}, 1, "REGRESSION: 25.0% slower"},
		{"exact unit needs no 10 samples", []string{"-unit", "B/node", exactOld, exactOld}, 0, "gate: PASS"},
		{"no overlapping benchmarks", []string{old, other}, 2, "no benchmark and unit is in both files"},
		{"filter matches nothing", []string{"-filter", "/game:go", old, slow}, 2, `after -filter "/game:go"`},
		{"filter does not parse", []string{"-filter", "(/game:synth", old, slow}, 2, "-filter"},
		{"too few samples", []string{few, few2}, 2, "3 old and 3 new samples; the gate needs at least 10 a side"},
		{"few samples against many", []string{old, few2}, 2, "10 old and 3 new samples"},
		{"five samples are refused", []string{five, fiveSlow}, 2, "5 old and 5 new samples; the gate needs at least 10 a side"},
		{"too few for a small alpha", []string{"-alpha", "1e-9", old, slow}, 2, "too few for p < 1e-09"},
		{"no range at the confidence level", []string{"-confidence", "0.999", old, slow}, 1, "10 and 10 samples give no 99.9% range of the median (-confidence); the test is unaffected"},
		{"no arguments", nil, 2, "want two files"},
		{"one argument", []string{old}, 2, "want two files"},
		{"three arguments", []string{old, old, old}, 2, "want two files"},
		{"unknown flag", []string{"-bogus", old, old}, 2, "flag provided but not defined"},
		{"help", []string{"-h"}, 0, "usage: gate"},
		{"help with files", []string{"-h", old, slow}, 0, "usage: gate"},
		{"bad alpha", []string{"-alpha", "1.5", old, old}, 2, "-alpha"},
		{"bad threshold", []string{"-threshold", "-1", old, old}, 2, "-threshold"},
		{"empty unit", []string{"-unit", ",", old, old}, 2, "-unit is empty"},
		{"missing file", []string{old, missing}, 2, "missing.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := gate(t, tt.args...)
			if code != tt.want || !strings.Contains(out, tt.text) {
				t.Errorf("gate %s: exit %d, want %d with %q in the output:\n%s",
					strings.Join(tt.args, " "), code, tt.want, tt.text, out)
			}
			if n := strings.Count(out, "usage: gate"); n > 1 {
				t.Errorf("gate %s: the usage printed %d times:\n%s", strings.Join(tt.args, " "), n, out)
			}
			if strings.Contains(out, "∞") || strings.Contains(out, "slowdown -") {
				t.Errorf("gate %s: an infinite range or a negative slowdown in the output:\n%s", strings.Join(tt.args, " "), out)
			}
		})
	}
}

// TestGateInputs: the gate reads benchstat's input forms (NAME=FILE and
// - for standard input), refuses samples that are not finite numbers ≥ 0
// with the file and line, keeps 0 and the tidied units together, and
// warns about lines that do not parse.
func TestGateInputs(t *testing.T) {
	base := func(i int) []float64 { return noisy(float64(200+50*i), 0.02, 10, uint64(i)) }
	old := writeFile(t, "old.txt", suite("ns/op", base))
	slowBenches := suite("ns/op", func(i int) []float64 { return scaled(base(i), 1.2) })
	slow := writeFile(t, "slow.txt", slowBenches)
	slowText, err := os.ReadFile(slow)
	if err != nil {
		t.Fatal(err)
	}
	with := func(name string, v float64) string {
		return writeFile(t, name, suite("ns/op", func(i int) []float64 {
			s := base(i)
			if i == 1 {
				s[3] = v
			}
			return s
		}))
	}
	nan, inf, negInf, neg, zero := with("nan.txt", math.NaN()), with("inf.txt", math.Inf(1)), with("neginf.txt", math.Inf(-1)), with("neg.txt", -150), with("zero.txt", 0)
	allNeg := writeFile(t, "allneg.txt", suite("ns/op", func(i int) []float64 { return scaled(base(i), -1) }))
	garbled := writeFile(t, "garbled.txt", suite("ns/op", base), "BenchmarkBroken-2\t10\tabc ns/op")

	tests := []struct {
		name  string
		stdin string
		args  []string
		want  int
		text  string
	}{
		{"NAME=FILE", "", []string{"before=" + old, "after=" + slow}, 1, "gate: FAIL: 4 of 4 comparisons (sec/op)"},
		{"- for NEW", string(slowText), []string{old, "-"}, 1, "gate: FAIL: 4 of 4 comparisons (sec/op)"},
		{"NAME=- for OLD", string(slowText), []string{"fresh=-", slow}, 0, "gate: PASS: 4 comparisons"},
		{"both on standard input", "", []string{"-", "-"}, 2, "OLD and NEW are both standard input"},
		{"NaN ends with an error", "", []string{old, nan}, 2, "nan.txt:"},
		{"NaN is named", "", []string{old, nan}, 2, "the sample NaN ns/op is not a number"},
		{"+Inf", "", []string{old, inf}, 2, "the sample +Inf ns/op is infinite"},
		{"-Inf in OLD", "", []string{negInf, old}, 2, "(OLD): BenchmarkSearch/game=synth/b=8/d=10/rule=smoothed/mode=practical-2: the sample -Inf ns/op is infinite"},
		{"a negative time", "", []string{old, neg}, 2, "the sample -150 ns/op is negative"},
		{"negative times are not faster", "", []string{old, allNeg}, 2, "is negative"},
		{"0 is a sample like another", "", []string{old, zero}, 0, "(p=0.649 n=10)"},
		{"0 is not a configuration apart", "", []string{old, zero}, 0, "gate: PASS: 4 comparisons (sec/op)"},
		{"a line that does not parse is named", "", []string{garbled, old}, 0, "garbled.txt:4: parsing measurement: invalid syntax (line skipped)"},
		{"one comparison", "", []string{"-filter", "/game:ttt", old, slow}, 1, "gate: FAIL: 1 of 1 comparison (sec/op)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := gateWithInput(t, tt.stdin, tt.args...)
			if code != tt.want || !strings.Contains(out, tt.text) {
				t.Errorf("gate %s: exit %d, want %d with %q in the output:\n%s",
					strings.Join(tt.args, " "), code, tt.want, tt.text, out)
			}
			if strings.Contains(out, "different configurations") {
				t.Errorf("gate %s: blames the configurations:\n%s", strings.Join(tt.args, " "), out)
			}
		})
	}
}

// geomeanOnly writes a pair of files in which ten benchmarks are each 8%
// slower, but spread over ±22% so that none is significant alone; the
// spread is a Latin square over the rounds (benchmark j's i-th sample has
// multiplier m[(i+j) mod 10]), as when noise is per benchmark and not per
// round, so the geomeans of the rounds are nearly equal and the geomean's
// shift is significant.
func geomeanOnly(t *testing.T) (old, new string) {
	t.Helper()
	var o, n []bench
	for j := range 10 {
		base := float64(100 + 30*j)
		vo, vn := make([]float64, 10), make([]float64, 10)
		for i := range 10 {
			drift := 1 + 0.001*float64(i) // keeps the rounds' geomeans apart
			vo[i] = drift * base * (0.80 + 0.05*float64((i+j)%10))
			vn[i] = drift * 1.08 * base * (0.80 + 0.05*float64((i+j+3)%10))
		}
		name := fmt.Sprintf("Search/game=synth/b=%d", j+2)
		o = append(o, bench{name, "ns/sim", vo})
		n = append(n, bench{name, "ns/sim", vn})
	}
	return writeFile(t, "geo-old.txt", o), writeFile(t, "geo-new.txt", n)
}

// TestGeomeanIsNotJudged checks that a geomean 8% slower, with no
// benchmark significantly slower, passes: the geomean is reported only.
func TestGeomeanIsNotJudged(t *testing.T) {
	o, n := geomeanOnly(t)
	code, out := gate(t, o, n)
	if code != 0 {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	if !strings.Contains(out, "+8.00%") {
		t.Errorf("the geomean row does not show +8.00%%:\n%s", out)
	}
	if strings.Contains(out, "REGRESSION") {
		t.Errorf("a row is marked a regression:\n%s", out)
	}
}

// TestUnderGoRun checks how the gate recognises a binary built by go run,
// whose exit status go run does not pass on.
func TestUnderGoRun(t *testing.T) {
	const cached = "/root/.cache/go-build/65/6590e440-d/gate" // go run and go tool both run binaries from here
	for _, tt := range []struct {
		exe    string
		parent []string
		want   bool
	}{
		{"/tmp/go-build1234567/b001/exe/gate", nil, true},
		{cached, nil, true}, // no parent known: the path decides
		{"/root/go/bin/gate", nil, false},
		{"/work/repo/gate", nil, false},
		{cached, []string{"go", "run", "./bench/gate"}, true},
		{cached, []string{"/usr/local/go/bin/go", "-C", "/work", "run", "./bench/gate", "a", "b"}, true},
		{cached, []string{"go", "-C=/work", "run", "./bench/gate"}, true},
		{cached, []string{"go", "tool", "gate"}, false},
		{cached, []string{"go", "-C", "/work", "tool", "gate"}, false},
		{"/tmp/go-build1234567/b001/exe/gate", []string{"bash", "-c", "go run ./bench/gate"}, false},
		{"/work/repo/gate", []string{"go"}, false},
	} {
		if got := underGoRun(tt.exe, tt.parent); got != tt.want {
			t.Errorf("underGoRun(%q, %q) = %v, want %v", tt.exe, tt.parent, got, tt.want)
		}
	}
}

// TestBuiltGateKeepsExitStatus builds the gate and checks that its exit
// statuses reach the shell as they are, 2 for a usage error and 1 for a
// regression: what the package doc tells users to do instead of go run.
func TestBuiltGateKeepsExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the gate")
	}
	bin := filepath.Join(t.TempDir(), "gate")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	base := func(i int) []float64 { return noisy(float64(200+50*i), 0.02, 10, uint64(i)) }
	old := writeFile(t, "old.txt", suite("ns/sim", base))
	slow := writeFile(t, "slow.txt", suite("ns/sim", func(i int) []float64 { return scaled(base(i), 1.2) }))
	for _, tt := range []struct {
		args []string
		want int
	}{{[]string{old, old}, 0}, {[]string{old, slow}, 1}, {[]string{"-bogus"}, 2}} {
		err := exec.Command(bin, tt.args...).Run()
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tt.want {
			t.Errorf("gate %v: exit %d, want %d", tt.args, code, tt.want)
		}
	}
}

// TestVerdictIsLastLine checks the format scripts rely on: the last line of
// the output is the verdict.
func TestVerdictIsLastLine(t *testing.T) {
	f := writeFile(t, "f.txt", suite("ns/sim", func(i int) []float64 { return noisy(100, 0.01, 10, uint64(i)) }))
	_, out := gate(t, f, f)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "gate: PASS: ") {
		t.Errorf("last line %q, want the verdict", last)
	}
}
