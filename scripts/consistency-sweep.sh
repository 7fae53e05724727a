#!/usr/bin/env bash
# Measures the checker's error rates over the parameter space: every spec
# of props' sweepGrid and the rules from outside the catalogue, each over
# SEEDS seeds (new random trees, search seeds and child orders each). Every
# check is split into SHARDS parts (props.Options.Shard, as mctscheck's
# -shard K/N), run as processes side by side, each writing its parts to
# DIR/parts-K.jsonl; the merge (props.Merge, as mctscheck merge) joins
# each check's parts into its report and writes DIR/table.md (false alarms
# and misses per family and spec, with 95% upper bounds). Progress, with
# the time left, goes to stderr every 30 seconds.
#
# The default sweep (10 seeds, 30 trees, two shards) takes about 40 minutes
# on 2 busy cores; docs/consistency-sweep.md has the measurement.
#
# Usage: scripts/consistency-sweep.sh [SEEDS [TREES [DIR]]]
# Environment:
#   SHARDS  processes to run locally (default: the number of cores)
#   SHARD   K/N: run only part K of N of every check here and write
#           DIR/parts-K.jsonl, no table (the GitHub Actions matrix runs one
#           part per job, then MERGE=1 on the downloaded parts)
#   MERGE   1: only merge DIR/parts-*.jsonl* (plain or gzipped) into
#           DIR/table.md
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
	MCTSCHECK_SWEEP_MERGE="$dir/parts-*.jsonl*" MCTSCHECK_SWEEP_TABLE="$dir/table.md" \
		go test -count=1 -run '^TestSweepMerge$' ./props/ >/dev/null
	echo "table written to $dir/table.md"
}

shard() { # shard K N
	MCTSCHECK_SWEEP=$seeds MCTSCHECK_SWEEP_TREES=$trees MCTSCHECK_SWEEP_SHARD="$1/$2" \
		MCTSCHECK_SWEEP_SPECS="${SPECS:-}" MCTSCHECK_SWEEP_OUT="$dir/parts-$1.jsonl" \
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

# monitor N prints every PROGRESS_EVERY seconds (default 30) the checks' parts
# the N shards have written out of those they planned, with the time left.
monitor() {
	local done planned k
	while sleep "${PROGRESS_EVERY:-30}"; do
		done=0 planned=0
		for ((k = 1; k <= $1; k++)); do
			[[ -f $dir/parts-$k.jsonl ]] && done=$((done + $(wc -l <"$dir/parts-$k.jsonl")))
			[[ -f $dir/parts-$k.jsonl.planned ]] && planned=$((planned + $(<"$dir/parts-$k.jsonl.planned")))
		done
		((planned > 0)) && progress consistency-sweep "$done" "$planned" "check parts"
	done
}

n=${SHARDS:-$(nproc)}
echo "consistency-sweep: compiling props' tests" >&2
go test -c -o /dev/null ./props/ # compile once before the shards start
progress_start=$SECONDS           # the time left counts the checks only
rm -f "$dir"/parts-*.jsonl*
pids=()
for ((k = 1; k <= n; k++)); do
	shard "$k" "$n" &
	pids+=($!)
done
monitor "$n" &
mon=$!
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
pkill -P "$mon" 2>/dev/null || true # its sleep, which would hold the script's stderr open
kill "$mon" 2>/dev/null || true
wait "$mon" 2>/dev/null || true
((status == 0)) || exit 1
rm -f "$dir"/parts-*.jsonl.planned # the progress's, not parts
echo "consistency-sweep: the shards took $(duration $((SECONDS - progress_start)))" >&2
merge
