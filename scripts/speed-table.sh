#!/usr/bin/env bash
# speed-table.sh takes the figures of docs/speed.md's current table by the
# protocol of that page, and prints the table in Markdown: each figure
# from one run of its benchmark with COUNT samples, thread or process CPU
# time as the benchmark reports it, medians, and the load before and
# after. A figure whose load average (one minute) was above 1 at either
# end is marked "screening", as the protocol says; before each figure the
# script waits up to WAIT seconds for the load to fall to 1.
#
# Usage: scripts/speed-table.sh > table.md
#
# Environment:
#   COUNT  samples a figure (default 10; at least 10)
#   WAIT   seconds to wait for a quiet machine before each figure (default 300)
#
# The figures:
#   hot loop      BenchmarkReference (bench/): engine, reference and
#                 game-reference ns/sim (thread CPU, interleaved in each
#                 op), engine/reference, engine/game-reference
#   memory        BenchmarkSearch synth uct practical: B/node, allocs/op
#   9×9 Go        BenchmarkSearch/game=go9/rule=uct/policy=fast
#                 (games/goboard): simulations per CPU second, allocs/op
#   default run   `mctscheck` with no arguments, the built binary: process
#                 CPU seconds (user + system)
#
# Connect Four against Pons' solver has its own script
# (scripts/connect4-vs-pons.sh), since it needs his solver.
set -euo pipefail
cd "$(dirname "$0")/.."

count=${COUNT:-10}
wait_max=${WAIT:-300}
[[ $count =~ ^[0-9]+$ ]] && ((count >= 10)) || {
	echo "speed-table.sh: COUNT=$count: want at least 10" >&2
	exit 2
}
[[ $wait_max =~ ^[0-9]+$ ]] || {
	echo "speed-table.sh: WAIT=$wait_max: want a number of seconds" >&2
	exit 2
}

load() { cut -d' ' -f1 /proc/loadavg; }
quiet() { awk -v l="$(load)" 'BEGIN { exit !(l <= 1) }'; }

# settle waits up to WAIT seconds for the load to fall to 1.
settle() {
	local end=$((SECONDS + wait_max))
	while ! quiet && ((SECONDS < end)); do
		sleep 10
	done
}

# median reads numbers, one a line, and prints their median.
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "?"; exit } m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m }'
}

# metric FILE UNIT [FORMAT] prints the median of the value before UNIT on
# every benchmark line of FILE, with printf's FORMAT (default %.3g).
metric() {
	awk -v u="$2" '/^Benchmark/ { for (i = 2; i <= NF; i++) if ($i == u) print $(i - 1) }' "$1" | median |
		awk -v f="${3:-%.3g}" '{ if ($1 == "?") print "?"; else printf f "\n", $1 }'
}

work=$(mktemp -d "${TMPDIR:-/tmp}/speed-table.XXXXXX")
trap 'rm -rf "$work"' EXIT

rows=()
# row FIGURE VALUE COMMAND LOAD0 LOAD1 adds a row, marked screening when
# either load is above 1.
row() {
	local note=""
	if ! awk -v a="$4" -v b="$5" 'BEGIN { exit !(a <= 1 && b <= 1) }'; then
		note=" (screening: load above 1)"
	fi
	local cmd="\`$3\`"
	[[ $3 == "same run" ]] && cmd=$3
	rows+=("| $1 | $2$note | $cmd | $4 → $5 |")
}

# measure OUT DIR TEST PATTERN BENCHTIME runs the benchmarks PATTERN of the
# test binary TEST in DIR, COUNT samples, into OUT, once the machine has
# settled, and sets l0 and l1 to the load before and after.
measure() {
	settle
	l0=$(load)
	(cd "$2" && "$3" -test.run '^$' -test.bench "$4" -test.benchtime "$5" -test.count "$count") >"$1"
	l1=$(load)
}

echo "speed-table.sh: building" >&2
go test -c -o "$work/bench.test" ./bench/
go test -c -o "$work/goboard.test" ./games/goboard/
go build -o "$work/mctscheck" ./cmd/mctscheck

echo "speed-table.sh: hot loop" >&2
measure "$work/ref.txt" bench "$work/bench.test" 'Reference$' 3x
row "hot loop, engine/reference (synth UCT, thread CPU, interleaved in each op)" \
	"**$(metric "$work/ref.txt" engine/reference %.3f)×** ($(metric "$work/ref.txt" engine-ns/sim %.1f) against $(metric "$work/ref.txt" reference-ns/sim %.1f) ns/sim)" \
	"go test -run '^\$' -bench 'Reference\$' -benchtime 3x -count $count ./bench/" "$l0" "$l1"
row "hot loop, engine/game-reference (the hand loop with the game behind core.Game)" \
	"$(metric "$work/ref.txt" engine/game-reference %.3f)× (game-reference $(metric "$work/ref.txt" game-reference-ns/sim %.1f) ns/sim)" \
	"same run" "$l0" "$l1"

echo "speed-table.sh: memory" >&2
measure "$work/search.txt" bench "$work/bench.test" 'Search/game=synth/b=8/d=10/rule=uct/mode=practical$' 3x
row "hot loop, synth UCT alone: ns/sim (thread CPU), bytes a node, allocations" \
	"$(metric "$work/search.txt" ns/sim %.1f) ns/sim, $(metric "$work/search.txt" B/node %.2f) B/node, $(metric "$work/search.txt" allocs/op %g) allocs/op" \
	"go test -run '^\$' -bench 'Search/game=synth/b=8/d=10/rule=uct/mode=practical\$' -benchtime 3x -count $count ./bench/" "$l0" "$l1"

echo "speed-table.sh: 9x9 Go" >&2
measure "$work/go.txt" games/goboard "$work/goboard.test" 'Search/game=go9/rule=uct/policy=fast$' 20x
row "9×9 Go, UCT from the empty board, light playouts: simulations per CPU second" \
	"$(metric "$work/go.txt" cpu-sims/s %.0f | awk '{ printf "%.1fk", $1 / 1000 }'), $(metric "$work/go.txt" allocs/op %g) allocs/op" \
	"go test -run '^\$' -bench 'Search/game=go9/rule=uct/policy=fast\$' -benchtime 20x -count $count ./games/goboard/" "$l0" "$l1"

echo "speed-table.sh: default run" >&2
settle
l0=$(load)
TIMEFORMAT='%U %S'
for _ in $(seq 5); do
	{ time "$work/mctscheck" >/dev/null 2>&1 || true; } 2>"$work/time"
	awk '{ print $1 + $2 }' "$work/time"
done >"$work/default.txt"
l1=$(load)
row "default run of the tool, process CPU seconds (median of 5)" \
	"$(median <"$work/default.txt" | awk '{ printf "%.2f", $1 }') s" "mctscheck" "$l0" "$l1"

printf 'Taken %s at %s, %s, %s.\n\n' "$(date -u +%Y-%m-%d)" "$(git rev-parse --short HEAD)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(go version | cut -d' ' -f3)"
echo '| figure | value | command | load |'
echo '|---|---|---|---|'
printf '%s\n' "${rows[@]}"
