#!/usr/bin/env bash
# instrcmp.sh counts the instructions that one mctscheck job executes with
# the tool built at two commits, under valgrind's callgrind. A count does
# not depend on what else the machine is doing: two runs of one build
# differ in the fifth significant digit, so that a change of a tenth of a
# percent shows in one run a side, where toolcmp.sh's CPU seconds need ten
# or more on a shared machine. The garbage collector is off (GOGC=off): its
# pacing follows the clock, and with it on the same build's counts varied
# by several percent from run to run; so a change in the collector's work
# does not show here. Instructions are not time: a change that saves
# instructions can still lose cycles (a cache miss, a
# mispredicted branch, a longer dependency chain). Use this to screen a
# change and to see where it moves work; claim speed with toolcmp.sh or
# benchcmp.sh.
#
# Usage: scripts/instrcmp.sh BASE [HEAD] [-- ARGS...]
#
# BASE and HEAD (default HEAD) are commits or module directories, built as
# toolcmp.sh builds them (with each commit's cmd/mctscheck/default.pgo).
# ARGS default to "check -rule uct -json" (about 20 s under callgrind; the
# default run, "-json -out DIR", takes about 5 minutes). Each side runs once,
# with GOGC=off, at GOMAXPROCS=1 (callgrind runs one thread at a time
# anyway) and with GODEBUG=asyncpreemptoff=1 (callgrind aborts on the signals of Go's
# asynchronous preemption). It prints the two totals, their ratio, and the
# functions whose own instructions (inlined code included) changed most.
#
# Examples:
#
#   scripts/instrcmp.sh HEAD .                           # uncommitted changes
#   scripts/instrcmp.sh HEAD~1 HEAD -- check -rule boltzmann-decay -json
#
# Environment:
#   BENCH a -test.bench pattern: count one run of those benchmarks of
#         ./bench/ (-test.benchtime 1x) instead of a tool job, e.g.
#         BENCH='Search/game=synth/b=8/d=10/rule=uct/' for the hot loop
#         (ARGS are then ignored, and the outputs, which hold timings, are
#         not compared)
#   TOP   functions listed (default 15)
#   OUT   directory for the callgrind files, base.txt and head.txt (the
#         instructions of each function) and the outputs (default: a new
#         temporary directory, printed at the end)
#
# The two runs' standard outputs are compared as toolcmp.sh compares them:
# a change meant to save work should leave a -json report as it was.
#
# Needs valgrind (Debian: apt-get install valgrind). Exit status: 0 when the
# outputs match, 1 when they differ, 2 on errors (a run exiting with 2 or
# more, whose output is then shown).
set -euo pipefail

die() {
	echo "instrcmp.sh: $*" >&2
	exit 2
}
command -v valgrind >/dev/null || die "valgrind not found (Debian: apt-get install valgrind)"
command -v callgrind_annotate >/dev/null || die "callgrind_annotate not found (it comes with valgrind)"

# shellcheck source=scripts/checkout.sh
. "$(dirname "${BASH_SOURCE[0]}")/checkout.sh"
split_revs "scripts/instrcmp.sh BASE [HEAD] [-- ARGS...]" "$@"
((${#args[@]} > 0)) || args=(check -rule uct -json)
top=${TOP:-15}
[[ $top =~ ^[0-9]+$ ]] || die "TOP=$top: want a number"

out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/instrcmp.XXXXXX")}
mkdir -p "$out"

bench=${BENCH:-}
if [[ -n $bench ]]; then
	args=(-test.run '^$' -test.bench "$bench" -test.benchtime 1x)
fi

declare -A total
for side in base head; do
	if [[ -n $bench ]]; then
		rev=${revs[0]}
		[[ $side == head ]] && rev=${revs[1]:-HEAD}
		checkout "$rev" "$side"
		(cd "$src" && go test -c -o "$work/$side.bin" ./bench/) || die "building the benchmarks of $rev failed"
	else
		build_tool "$side"
	fi
	echo "$side: callgrind $(basename "$work/$side.bin") ${args[*]}" >&2
	rc=0
	GOGC=off GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$out/$side.callgrind" \
		"$work/$side.bin" "${args[@]}" >"$out/$side.out" 2>"$out/$side.err" || rc=$?
	if ((rc > 1)); then
		cat "$out/$side.err" >&2
		die "$side: mctscheck ${args[*]} exited with $rc under callgrind"
	fi
	# Each function's own instructions, summed over the source files its
	# inlined code comes from and over callgrind's recursion cycles
	# (name'2): "count<TAB>function".
	callgrind_annotate --threshold=100 "$out/$side.callgrind" >"$out/$side.annotate"
	awk '/file:function/ { on = 1; next }
		on && /^-- / { exit }
		on && /^ *[0-9,]+ +\(/ {
			n = $1; gsub(",", "", n)
			f = $0; sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", f); sub(/ \[[^]]*\]$/, "", f)
			sub(/^[^:]*:/, "", f); sub(/'"'"'[0-9]+$/, "", f)
			sum[f] += n
		}
		END { for (f in sum) printf "%.0f\t%s\n", sum[f], f }' "$out/$side.annotate" >"$out/$side.txt"
	total[$side]=$(awk '/PROGRAM TOTALS/ { n = $1; gsub(",", "", n); print n; exit }' "$out/$side.annotate")
	[[ -n ${total[$side]} ]] || die "$side: no PROGRAM TOTALS in callgrind_annotate's output"
done

awk -v b="${total[base]}" -v h="${total[head]}" 'BEGIN {
	printf "instructions: base %.0f, head %.0f, head/base %.4f (%+.2f%%)\n", b, h, h / b, 100 * (h / b - 1)
}'
printf '\n%15s %15s %9s  %s\n' base head "Δ/base" function
awk -F '\t' -v b="${total[base]}" '
	FNR == NR { base[$2] = $1; seen[$2] = 1; next }
	{ head[$2] = $1; seen[$2] = 1 }
	END {
		for (f in seen) {
			d = head[f] - base[f]
			printf "%.0f\t%.0f\t%.0f\t%+.2f%%\t%s\n", (d < 0 ? -d : d), base[f], head[f], 100 * d / b, f
		}
	}' "$out/base.txt" "$out/head.txt" | sort -t "$(printf '\t')" -k1,1nr |
	awk -F '\t' -v top="$top" 'NR <= top { printf "%15s %15s %9s  %s\n", $2, $3, $4, $5 }' # reads it all: no SIGPIPE for sort
status=0
if [[ -z $bench ]]; then
	compare_outputs || status=1
fi
echo "results in $out" >&2
exit "$status"
