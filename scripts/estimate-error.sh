#!/bin/sh
# estimate-error.sh: how far the progress lines' estimates of the time left
# are from the time the checks took (docs/guide.md, "Progress and the time
# left"). Each check runs with a progress line every 500 ms
# (MCTSCHECK_PROGRESS), and each line's "about D left" is compared with the
# time the check went on after it. For each check it prints its verdict,
# its time, the lines read from a tenth of the simulations planned to nine
# tenths of the check's time, and the worst ratio between the estimate and
# the truth, either way (1 is exact), with the share of those lines within
# 2x of it (IN2X); then the worst ratio for the check's predicted end
# (elapsed + estimate against the time taken), over every line from a
# tenth of the simulations. A check that finds a witness ends
# before its plan: its estimates are of the plan. Needs python3, node and cc.
#
# Usage: scripts/estimate-error.sh [all|rules|catalogue|searches|slow]
#        scripts/estimate-error.sh logs DIR    (the rows of logs kept before)
# With MCTSCHECK_ESTIMATE_LOGS=DIR, each check's timestamped lines are kept
# in DIR.
set -eu
cd "$(dirname "$0")/.."
which=${1:-all}

# analyze NAME LOG: the row of a check from its timestamped lines, the
# first "START start", the last "END end".
analyze() {
	awk -v name="$1" '
	function secs(d,   s, n, u) { # a Go duration rounded to the second: 1h2m3s, 4m5s, 6s
		s = 0
		while (match(d, /^[0-9.]+[hms]/)) {
			n = substr(d, 1, RLENGTH - 1) + 0; u = substr(d, RLENGTH, 1)
			s += n * (u == "h" ? 3600 : u == "m" ? 60 : 1)
			d = substr(d, RLENGTH + 1)
		}
		return s
	}
	function worse(x, y) { return x > y ? x / y : y / x }
	NR == 1 { start = $1; next }
	$2 == "end" { T = $1 - start; next }
	match($0, /\] .* [a-z-]+ \([0-9.]+s\)$/) { n = split($0, w, " "); verdict = w[n - 1] }
	match($0, /about [0-9hms.]+ left/) {
		e = secs(substr($0, RSTART + 6, RLENGTH - 11))
		if (e < 0.5) e = 0.5 # "0s": less than half a second
		match($0, /[0-9]+% of the simulations/)
		if (substr($0, RSTART, RLENGTH - 19) + 0 < 10) next
		t[++lines] = $1 - start; est[lines] = e
	}
	END {
		left = 1; whole = 1; n = 0; within = 0
		for (i = 1; i <= lines; i++) {
			if (worse(t[i] + est[i], T) > whole) whole = worse(t[i] + est[i], T)
			if (t[i] > 0.9 * T) continue
			n++
			if (worse(est[i], T - t[i]) > left) left = worse(est[i], T - t[i])
			if (worse(est[i], T - t[i]) <= 2) within++
		}
		printf "%-48s %-17s %6.1fs %6d %7.2fx %6.0f%% %7.2fx\n", name, verdict, T, n, left, n ? 100 * within / n : 100, whole
	}' "$2"
}

header() { printf '%-48s %-17s %7s %6s %8s %7s %8s\n' CHECK VERDICT TIME LINES LEFT IN2X END; }

if [ "$which" = logs ]; then
	header
	for log in "$2"/*.log; do analyze "$(basename "$log" .log)" "$log"; done
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/mctscheck" ./cmd/mctscheck
cc -O2 -ffp-contract=off -o "$tmp/uct" examples/uct.c -lm
cc -O2 -o "$tmp/mcts" examples/mcts.c -lm
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
header

# measure NAME ARGS...: runs mctscheck ARGS with timestamped progress lines
# and prints the row.
measure() {
	name=$1
	shift
	log=$tmp/log
	if [ -n "${MCTSCHECK_ESTIMATE_LOGS:-}" ]; then
		mkdir -p "$MCTSCHECK_ESTIMATE_LOGS"
		log=$MCTSCHECK_ESTIMATE_LOGS/$(echo "$name" | tr -c 'A-Za-z0-9.\n-' _).log
	fi
	echo "$(date +%s.%N) start" >"$log"
	{ MCTSCHECK_PROGRESS=500ms "$tmp/mctscheck" "$@" 2>&1 >/dev/null || true; } |
		while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done >>"$log"
	echo "$(date +%s.%N) end" >>"$log"
	analyze "$name" "$log"
}

# slow is a rule program that answers 50 ms after each batch: examples/uct.py
# behind a shell loop that holds each line for 50 ms.
slow='exec:sh -c '\''while IFS= read -r l; do sleep 0.05; printf "%s\n" "$l"; done | python3 examples/uct.py --framing json'\'

case $which in all | rules)
	measure "exec:python3 examples/uct.py" check -rule exec:'python3 examples/uct.py'
	measure "exec:./uct uct (examples/uct.c)" check -rule exec:"$tmp/uct uct"
	measure "exec:node examples/uct.js" check -rule exec:'node examples/uct.js'
	;;
esac
case $which in all | catalogue)
	for r in $("$tmp/mctscheck" rules -json | python3 -c 'import json, sys; print(*(r["name"] for r in json.load(sys.stdin)))'); do
		measure "$r -trees 1000" check -rule "$r" -trees 1000
	done
	;;
esac
case $which in all | searches)
	measure "-search exec:python3 examples/mcts.py" check -search exec:'python3 examples/mcts.py'
	measure "-search exec:./mcts (examples/mcts.c)" check -search exec:"$tmp/mcts"
	;;
esac
case $which in all | slow)
	measure "50 ms a batch, -tree, -budget 1024" check -rule "$slow" -tree '(max (min 1 0) (min 0.5 1) 0.25)' -budget 1024
	measure "50 ms a batch, -trees 10, -seeds 2, -budget 1024" check -rule "$slow" -trees 10 -seeds 2 -budget 1024
	;;
esac
