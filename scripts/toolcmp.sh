#!/usr/bin/env bash
# toolcmp.sh compares the CPU time of one mctscheck job between the tool
# built at two commits, the way the tool's own figures in README.md and
# docs/speed.md were measured: the default run's CPU seconds, check -rule
# uct's simulations per CPU second.
#
# Usage: scripts/toolcmp.sh BASE [HEAD] [-- ARGS...]
#
# BASE and HEAD (default HEAD) are commits or directories holding a
# checkout of this repository, such as a work tree with uncommitted
# changes. Each is built as go build ./cmd/mctscheck builds it, with that
# commit's cmd/mctscheck/default.pgo. The two binaries then run ARGS
# (default: the default run, -json -out DIR) alternately, COUNT times each,
# alternating which goes first (ABBA), so that a change in the machine's
# speed falls on both sides alike. Each run's CPU time (user + system, all
# threads, from bash's time) and wall time go to base.txt and head.txt in
# the benchmark format, and benchstat compares them: cpu-sec/op is the
# figure, wall-sec/op for reference. The first run's standard output of
# each, with the fields that hold timings removed, is compared too: a
# speed change should leave a -json report as it was.
#
# Examples:
#
#   scripts/toolcmp.sh 23965f6 HEAD                       # the default run
#   COUNT=15 scripts/toolcmp.sh 23965f6 HEAD -- check -rule uct -json
#   GOMAXPROCS=1 scripts/toolcmp.sh HEAD~1 . -- check -rule prior -json
#
# Environment:
#   COUNT  runs per side, at least 10 (default 10)
#   OUT    directory for base.txt, head.txt, benchstat.txt and the outputs
#          (default: a new temporary directory, printed at the end)
#
# Exit status: 0 when the outputs match, 1 when they differ, 2 on errors
# (a run exiting with 2 or more, whose output is then shown).
set -euo pipefail

die() {
	echo "toolcmp.sh: $*" >&2
	exit 2
}

# shellcheck source=scripts/checkout.sh
. "$(dirname "${BASH_SOURCE[0]}")/checkout.sh"
split_revs "scripts/toolcmp.sh BASE [HEAD] [-- ARGS...]" "$@"
count=${COUNT:-10}
if ! [[ $count =~ ^[0-9]+$ ]] || ((count < 10)); then
	die "COUNT=$count: want at least 10"
fi

out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/toolcmp.XXXXXX")}
mkdir -p "$out"
rm -f "$out/base.out" "$out/head.out" # run keeps the first output of this comparison
if ((${#args[@]} == 0)); then
	args=(-json -out "$work/report")
fi

for side in base head; do
	build_tool "$side"
	printf 'goos: %s\ngoarch: %s\npkg: mctscheck %s\n' "$(go env GOOS)" "$(go env GOARCH)" "${args[*]//$work/TMP}" >"$out/$side.txt"
done

# run SIDE runs the job once and appends its CPU and wall time to
# $out/SIDE.txt; the first run keeps its standard output.
run() {
	local side=$1 t rc=0 stdout=/dev/null
	[[ -e $out/$side.out ]] || stdout=$out/$side.out
	TIMEFORMAT='%3R %3U %3S'
	t=$({ time "$work/$side.bin" "${args[@]}" >"$stdout" 2>"$work/$side.err"; } 2>&1) || rc=$?
	if ((rc > 1)); then
		cat "$work/$side.err" >&2
		die "$side: mctscheck ${args[*]} exited with $rc"
	fi
	read -r wall user sys <<<"$t"
	awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { printf "BenchmarkTool 1 %.3f cpu-sec/op %.3f wall-sec/op\n", u + s, w }' >>"$out/$side.txt"
}

alternate "$count"

go run golang.org/x/perf/cmd/benchstat base="$out/base.txt" head="$out/head.txt" | tee "$out/benchstat.txt"
status=0
compare_outputs || status=1
echo "results in $out" >&2
exit "$status"
