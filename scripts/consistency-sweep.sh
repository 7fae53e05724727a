#!/usr/bin/env bash
# Measures the checker's error rates over the parameter space: every spec
# of props' sweepGrid and the rules from outside the catalogue, each over
# SEEDS seeds (new random trees, search seeds and child orders each), split
# into SHARDS processes. Writes DIR/rows-*.tsv (one row per check) and
# DIR/table.md (false alarms and misses per family and spec, with 95% upper
# bounds). Progress, with the time left, goes to stderr every 30 seconds.
#
# The default sweep (10 seeds, 30 trees, two shards) takes about 40 minutes
# on 2 busy cores; docs/consistency-sweep.md has the measurement.
#
# Usage: scripts/consistency-sweep.sh [SEEDS [TREES [DIR]]]
# Environment:
#   SHARDS  processes to run locally (default: the number of cores)
#   SHARD   i/n: run only shard i of n here and write DIR/rows-i.tsv, no
#           table (the GitHub Actions matrix runs one shard per job, then
#           MERGE=1 on the downloaded rows)
#   MERGE   1: only merge DIR/rows-*.tsv into DIR/table.md
#   SPECS   ';'-separated specs or families to sweep (default: all)
#   PROGRESS_EVERY  seconds between progress lines (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-10}
trees=${2:-30}
dir=${3:-sweep}
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
mkdir -p "$dir"

merge() {
	MCTSCHECK_SWEEP_MERGE="$dir/rows-*.tsv" MCTSCHECK_SWEEP_TABLE="$dir/table.md" \
		go test -count=1 -run '^TestSweepMerge$' ./props/ >/dev/null
	echo "table written to $dir/table.md"
}

shard() { # shard i n
	MCTSCHECK_SWEEP=$seeds MCTSCHECK_SWEEP_TREES=$trees MCTSCHECK_SWEEP_SHARD="$1/$2" \
		MCTSCHECK_SWEEP_SPECS="${SPECS:-}" MCTSCHECK_SWEEP_OUT="$dir/rows-$1.tsv" \
		go test -count=1 -timeout 0 -run '^TestSweep$' ./props/ >"$dir/log-$1.txt" 2>&1 ||
		{ echo "shard $1/$2 failed; see $dir/log-$1.txt" >&2; return 1; }
}

if [[ ${MERGE:-} == 1 ]]; then
	merge
	exit
fi
if [[ -n ${SHARD:-} ]]; then
	shard "${SHARD%/*}" "${SHARD#*/}"
	exit
fi
# shellcheck source=scripts/progress.sh
. scripts/progress.sh

# monitor N prints every PROGRESS_EVERY seconds (default 30) the checks the
# N shards have written out of those they planned, with the time left.
monitor() {
	local done planned i
	while sleep "${PROGRESS_EVERY:-30}"; do
		done=0 planned=0
		for ((i = 0; i < $1; i++)); do
			[[ -f $dir/rows-$i.tsv ]] && done=$((done + $(wc -l <"$dir/rows-$i.tsv")))
			[[ -f $dir/rows-$i.tsv.planned ]] && planned=$((planned + $(<"$dir/rows-$i.tsv.planned")))
		done
		((planned > 0)) && progress consistency-sweep "$done" "$planned" checks
	done
}

n=${SHARDS:-$(nproc)}
echo "consistency-sweep: compiling props' tests" >&2
go test -c -o /dev/null ./props/ # compile once before the shards start
progress_start=$SECONDS           # the time left counts the checks only
rm -f "$dir"/rows-*.tsv.planned
pids=()
for ((i = 0; i < n; i++)); do
	shard "$i" "$n" &
	pids+=($!)
done
monitor "$n" &
mon=$!
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
kill "$mon" 2>/dev/null
wait "$mon" 2>/dev/null || true
((status == 0)) || exit 1
echo "consistency-sweep: the shards took $(duration $((SECONDS - progress_start)))" >&2
merge
