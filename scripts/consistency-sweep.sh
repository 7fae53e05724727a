#!/usr/bin/env bash
# Measures the checker's error rates over the parameter space: every spec
# of props' sweepGrid and the rules from outside the catalogue, each over
# SEEDS seeds (new random trees, search seeds and child orders each), split
# into SHARDS processes. Writes DIR/rows-*.tsv (one row per check) and
# DIR/table.md (false alarms and misses per family and spec, with 95% upper
# bounds).
#
# Usage: scripts/consistency-sweep.sh [SEEDS [TREES [DIR]]]
# Environment:
#   SHARDS  processes to run locally (default: the number of cores)
#   SHARD   i/n: run only shard i of n here and write DIR/rows-i.tsv, no
#           table (the GitHub Actions matrix runs one shard per job, then
#           MERGE=1 on the downloaded rows)
#   MERGE   1: only merge DIR/rows-*.tsv into DIR/table.md
#   SPECS   ';'-separated specs or families to sweep (default: all)
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
n=${SHARDS:-$(nproc)}
go test -c -o /dev/null ./props/ # compile once before the shards start
pids=()
for ((i = 0; i < n; i++)); do
	shard "$i" "$n" &
	pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
((status == 0)) || exit 1
merge
