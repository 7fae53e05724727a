#!/bin/sh
# search-speed.sh: the speed of a whole search's check (docs/speed.md,
# "Whole searches"): the default check of examples/mcts.c over the search
# protocol against check -rule uct on the same trees and seeds, both in CPU
# time (getrusage: mctscheck and its programs), measured interleaved, ROUNDS
# rounds (default 10) of one check each, in the order uct, mcts.c, then
# mcts.c, uct. It prints benchstat's summary and the load before and after.
# Needs cc; takes about a minute of CPU.
set -eu
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-10}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/searchexec.test" ./searchexec
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
run() { (cd searchexec && "$dir/searchexec.test" -test.run '^$' -test.bench "Check/check=$1\$" -test.benchtime 1x) | grep '^Benchmark' >>"$dir/out"; }
i=0
while [ "$i" -lt "$rounds" ]; do
	if [ $((i % 2)) -eq 0 ]; then run uct; run mcts.c; else run mcts.c; run uct; fi
	i=$((i + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
go run golang.org/x/perf/cmd/benchstat -col /check "$dir/out"
