#!/usr/bin/env bash
# gatecheck.sh measures the regression gate's error rates on this machine,
# under whatever load it has: how often it fails two runs of the same code
# (false failures), and how often it catches a deliberate 10% slowdown.
#
# Usage: scripts/gatecheck.sh [PAIRS]      (default 20)
#
# It builds, from the module in the current directory, the benchmarks of
# ./bench/ (package bench, the hot loop, judged in ns/sim as benchcmp.sh
# judges them), the gate's own test binary, which holds BenchmarkKnob (a
# loop of integer work scaled by $MCTSCHECK_GATE_KNOB), and the gate. Then,
# PAIRS times, it runs COUNT rounds, each of which runs, alternating the
# order from round to round as benchcmp.sh does (ABBA):
#
#   a, b    the bench benchmarks, twice: the same code;
#   ka, kaa BenchmarkKnob at factor 1, twice: the same code;
#   kb      BenchmarkKnob at factor $KNOB (default 1.10): 10% more work.
#
# and judges, with the gate's default flags (5%, p < 0.05):
#
#   same     a against b              a pass is right, a failure is false;
#   knob-aa  ka against kaa (cpu-ns/op)  likewise;
#   knob     ka against kb (cpu-ns/op)   a failure is right: the slowdown caught;
#   scaled   a against b with every time in b multiplied by $KNOB: the
#            same runs' real noise around an exact 10% slowdown; caught?
#
# It prints one line per pair (the exit statuses, the load) and a summary,
# and keeps every file in OUT. Exit status: 0 when no same-code pair
# failed and every slowdown was caught, 1 otherwise, 2 on errors.
#
# Environment:
#   BENCH      bench benchmarks to run (default: the reference workload, synth
#              b=8 d=10 in practical mode, with rules uct and smoothed)
#   BENCHTIME  -test.benchtime of the bench benchmarks (default 2x)
#   KNOBTIME   -test.benchtime of BenchmarkKnob (default 100x: about 0.2 s)
#   COUNT      rounds per pair, at least 10 (default 10)
#   KNOB       the slowdown's factor (default 1.10)
#   OUT        directory for the results (default: a new temporary directory)
set -euo pipefail

die() {
	echo "gatecheck.sh: $*" >&2
	exit 2
}

(($# <= 1)) || die "usage: scripts/gatecheck.sh [PAIRS]"
pairs=${1:-20}
[[ $pairs =~ ^[1-9][0-9]*$ ]] || die "PAIRS=$pairs: want a positive integer"
count=${COUNT:-10}
if ! [[ $count =~ ^[0-9]+$ ]] || ((count < 10)); then
	die "COUNT=$count: want at least 10, as the gate judges no fewer"
fi
bench=${BENCH:-'Search/game=synth/b=8/d=10/rule=(uct|smoothed)/mode=practical$'}
benchtime=${BENCHTIME:-2x}
knobtime=${KNOBTIME:-100x}
knob=${KNOB:-1.10}

# shellcheck source=scripts/checkout.sh
. "$(dirname "${BASH_SOURCE[0]}")/checkout.sh"
go test -c -o "$work/bench.test" ./bench/ || die "building ./bench/ failed"
go test -c -o "$work/knob.test" ./bench/gate || die "building the gate's tests failed"
go build -o "$work/gate" ./bench/gate || die "building the gate failed"
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/gatecheck.XXXXXX")}
mkdir -p "$out"

# side NAME DIR runs one round of side NAME, appending to DIR/NAME.txt.
side() {
	case $1 in
	a | b) "$work/bench.test" -test.run '^$' -test.bench "$bench" -test.benchtime "$benchtime" -test.count 1 ;;
	ka | kaa) MCTSCHECK_GATE_KNOB=1 "$work/knob.test" -test.run '^$' -test.bench '^BenchmarkKnob$' -test.benchtime "$knobtime" -test.count 1 ;;
	kb) MCTSCHECK_GATE_KNOB=$knob "$work/knob.test" -test.run '^$' -test.bench '^BenchmarkKnob$' -test.benchtime "$knobtime" -test.count 1 ;;
	esac >>"$2/$1.txt" || die "the $1 benchmarks failed (see $2/$1.txt)"
}

# judge NAME OLD NEW [FLAGS...] runs the gate and prints its exit status;
# the output goes to DIR/NAME.gate.
judge() {
	local name=$1 old=$2 new=$3 status=0
	shift 3
	"$work/gate" "$@" "$old" "$new" >"$dir/$name.gate" 2>&1 || status=$?
	((status <= 1)) || die "the gate exited $status on $name (see $dir/$name.gate)"
	echo "$status"
}

false_fail=0 missed=0 judged_same=0 judged_slow=0
printf '%-5s %-5s %-8s %-5s %-7s %s\n' pair same knob-aa knob scaled load >"$out/summary.txt"
for ((p = 1; p <= pairs; p++)); do
	dir=$out/pair$p
	mkdir -p "$dir"
	for ((r = 1; r <= count; r++)); do
		if ((r % 2)); then order=(a b ka kaa kb); else order=(kb kaa ka b a); fi
		for s in "${order[@]}"; do side "$s" "$dir"; done
	done
	# b with every time multiplied by the knob (ns/sim, wall-ns/sim, ns/op).
	awk -v k="$knob" '/^Benchmark/ { for (i = 3; i < NF; i += 2) if ($(i + 1) ~ /ns\//) $i = sprintf("%.10g", $i * k) } { print }' "$dir/b.txt" >"$dir/b-scaled.txt"
	same=$(judge same "$dir/a.txt" "$dir/b.txt")
	kaa=$(judge knob-aa "$dir/ka.txt" "$dir/kaa.txt")
	kb=$(judge knob "$dir/ka.txt" "$dir/kb.txt")
	scaled=$(judge scaled "$dir/a.txt" "$dir/b-scaled.txt")
	((false_fail += same + kaa, judged_same += 2)) || true
	((missed += 2 - kb - scaled, judged_slow += 2)) || true
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	printf '%-5s %-5s %-8s %-5s %-7s %s\n' "$p" "$same" "$kaa" "$kb" "$scaled" "$load" | tee -a "$out/summary.txt"
done
{
	echo "false failures: $false_fail of $judged_same same-code comparisons"
	echo "slowdowns of $knob missed: $missed of $judged_slow"
	echo "results in $out"
} | tee -a "$out/summary.txt"
((false_fail == 0 && missed == 0))
