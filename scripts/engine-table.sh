#!/usr/bin/env bash
# engine-table.sh makes the tables of docs/engines.md: Leela Zero 0.17
# (Debian's leela-zero, CPU, one thread) with the project's networks on the
# exactly solved positions of engine/testdata/positions.txt.
#
#   1. one board of each shape (pocket of 2 or 3 points, 2, 4 or 6 dames)
#      under the three priors (normal, tiny, first-play urgency against the
#      move), at budgets 2^4 to 2^14 visits, 2 seeds;
#   2. the paper's §4: the lost positions (two boards, three networks
#      each), 30 seeds, the share of runs whose reported win rate exceeds
#      90%, without and with root noise (-n); then one board at 2^14 and
#      2^16 visits;
#   3. GNU Go 3.8 as a non-MCTS control on every position.
#
# Usage: scripts/engine-table.sh [OUTDIR]   (default /tmp/engine-table)
# It takes minutes (docs/engines.md has the measurement); each check's
# progress, with the time left, goes to stderr, and table 1's report
# directory, with its figure, to OUTDIR/table-report. CI runs the short
# check only (cli's TestEngineLeelaZero).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/engine-table}
mkdir -p "$out"
lz=${LEELAZ:-$(command -v leelaz || echo /usr/games/leelaz)}
gnugo=${GNUGO:-$(command -v gnugo || echo /usr/games/gnugo)}
go build -o "$out/mctscheck" ./cmd/mctscheck
mc="$out/mctscheck"
pos=engine/testdata/positions.txt
lzcmd="$lz --cpu-only -g --noponder -d -r 0 --timemanage off -t 1 -v {visits} -s {seed} -w {network}"

# 1. One board of each shape (the r6 boards), three priors each.
awk '/^position (pair|triple)-d[246]-r6-/,/^end/' "$pos" > "$out/shapes.txt"
"$mc" engine -out "$out/table-report" -positions "$out/shapes.txt" -budgets 16..16384 -seeds 2 -gtp "$lzcmd" \
  > "$out/table.txt" || [ $? -eq 1 ]

# 2. §4: lost positions, 30 seeds.
"$mc" engine -out "" -positions "$pos" -case lost -budgets 256,4096 -seeds 30 -gtp "$lzcmd" \
  > "$out/lost.txt" || [ $? -eq 1 ]
"$mc" engine -out "" -positions "$pos" -case lost -budgets 256,4096 -seeds 30 -gtp "${lzcmd/ -t 1/ -t 1 -n}" \
  > "$out/lost-noise.txt" || [ $? -eq 1 ]

# §4 at large budgets: does the search correct a hopeful value?
awk '/^position lost-b6-w4-d2-hopeful/,/^end/' "$pos" > "$out/hopeful.txt"
"$mc" engine -out "" -positions "$out/hopeful.txt" -budgets 16384,65536 -seeds 1 -timeout 600s -gtp "$lzcmd" \
  > "$out/lost-big.txt" || [ $? -eq 1 ]

# 3. GNU Go, a non-MCTS control.
"$mc" engine -out "" -positions "$pos" -budgets 1 -seeds 1 -timeout 300s \
  -gtp "$gnugo --mode gtp --chinese-rules --positional-superko --komi 7.5 --seed {seed}" \
  > "$out/gnugo.txt" || [ $? -eq 1 ]

for f in table lost lost-noise lost-big gnugo; do
  echo "== $f"
  cat "$out/$f.txt"
done
