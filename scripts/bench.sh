#!/usr/bin/env bash
# bench.sh runs mctscheck's benchmark suite (package bench) with enough
# samples for benchstat and the gate: -count 10 unless COUNT says more.
#
# Usage: scripts/bench.sh [extra go test flags] > new.txt
#
# Environment:
#   BENCH      benchmarks to run, a go test -bench pattern (default .)
#   COUNT      samples per benchmark, at least 10 (default 10)
#   BENCHTIME  go test -benchtime (default 1s)
#
# Compare two runs with: benchstat old.txt new.txt; go run ./bench/gate old.txt new.txt
# Compare two commits on one machine with scripts/benchcmp.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

count=${COUNT:-10}
if ! [[ $count =~ ^[0-9]+$ ]] || ((count < 10)); then
	echo "bench.sh: COUNT=$count: want at least 10 samples per benchmark" >&2
	exit 2
fi
exec go test -run '^$' -bench "${BENCH:-.}" -benchtime "${BENCHTIME:-1s}" -count "$count" "$@" ./bench/
