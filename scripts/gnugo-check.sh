#!/usr/bin/env bash
# gnugo-check.sh runs the GNU Go differential check of games/goboard
# (TestGNUGo) on more games than the ordinary test run, and prints its
# counts: games, positions, legality queries (by our answer: legal,
# occupied, suicide, ko, superko), moves played, score comparisons, and the
# disagreements (legality, moves GNU Go rejects, score differences that GNU
# Go's dead-stone analysis explains and those it does not).
#
# Usage: scripts/gnugo-check.sh [GAMES]
#
# Environment:
#   GNUGO_GAMES  games under simple ko (default 1000, or the argument); a
#                third as many are played under positional superko
#   GNUGO_SEED   seed of the random games (default 1)
#   GNUGO        the gnugo binary (default: gnugo on PATH, else /usr/games/gnugo)
#
# Exit status: 0 no disagreement, 1 a disagreement, 2 bad usage or no gnugo.
set -euo pipefail
cd "$(dirname "$0")/.."

games=${1:-${GNUGO_GAMES:-1000}}
if ! [[ $games =~ ^[0-9]+$ ]] || ((games < 1)); then
	echo "gnugo-check.sh: GAMES=$games: want a positive integer" >&2
	exit 2
fi
seed=${GNUGO_SEED:-1}
if ! [[ $seed =~ ^[0-9]+$ ]]; then
	echo "gnugo-check.sh: GNUGO_SEED=$seed: want a non-negative integer" >&2
	exit 2
fi
if [[ -z ${GNUGO:-} ]] && ! command -v gnugo >/dev/null && [[ ! -x /usr/games/gnugo ]]; then
	echo "gnugo-check.sh: gnugo not found: install it (apt-get install gnugo) or set GNUGO" >&2
	exit 2
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# The timeout: 0.6 s a game and two minutes to build, generous on one core.
timeout=$((games * 600 / 1000 + 120))s
GNUGO_GAMES=$games GNUGO_SEED=$seed go test -count=1 -timeout "$timeout" \
	-run '^TestGNUGo$' -v ./games/goboard/ >"$log" 2>&1 || status=$?

if grep -q -- '--- SKIP: TestGNUGo' "$log"; then
	grep -A1 -- '--- SKIP' "$log" >&2
	exit 2
fi
echo "gnugo-check: $games games (seed $seed)"
grep -E '^=== RUN|gnugo: games=' "$log" | sed -E 's/^ +//; s/^gnugo_test.go:[0-9]+: //'
if ((status != 0)); then
	echo "== disagreements or failures (full log follows)"
	cat "$log"
	exit 1
fi
echo "== no disagreement"
