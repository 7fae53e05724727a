#!/usr/bin/env bash
# connect4-pons-check.sh checks the Connect Four solver (games/connect4)
# against Pascal Pons' own solver (https://github.com/PascalPons/connect4,
# AGPL; cloned and built here, never part of this repository) on random
# positions that are in no file of this repository: it draws move strings
# of 14 to 36 random columns, keeps those Pons' c4solver accepts (legal,
# the game still on), has it score every column of each (c4solver -a), and
# runs TestOutside on the result, which compares each column's exact score.
#
# Usage: scripts/connect4-pons-check.sh [N]   (N random move strings, default 3000)
#
# Environment:
#   PONS_REPO  where to clone Pons' solver from (default its GitHub URL)
#   C4_WORK    the working directory (default a new temporary one)
#   C4_SEED    the seed of the random positions (default 1)
#
# It needs git, make and g++. Exit status: that of go test (0: every score
# agrees), 2 for a build failure.
set -euo pipefail
n=${1:-3000}
repo=${PONS_REPO:-https://github.com/PascalPons/connect4}
work=${C4_WORK:-$(mktemp -d)}
seed=${C4_SEED:-1}
root=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -d "$work/pons" ]; then
	git clone -q "$repo" "$work/pons"
fi
make -s -C "$work/pons" c4solver >/dev/null || exit 2
echo "connect4-pons-check: Pons' solver at commit $(git -C "$work/pons" rev-parse --short HEAD)" >&2

awk -v seed="$seed" -v n="$n" 'BEGIN {
	srand(seed)
	for (i = 0; i < n; i++) {
		len = 14 + int(rand() * 23); s = ""
		for (j = 0; j < len; j++) s = s int(1 + rand() * 7)
		print s
	}
}' >"$work/positions"
# c4solver drops the invalid lines (with a message on stderr) and loads no
# opening book when none is there.
(cd "$work" && ./pons/c4solver -a <positions >scores 2>/dev/null)
echo "connect4-pons-check: $(wc -l <"$work/scores") positions scored by Pons' solver in $work/scores" >&2

cd "$root"
MCTSCHECK_C4_SCORES="$work/scores" go test -count=1 -run '^TestOutside$' -v ./games/connect4 | grep -E 'compared|_test.go|^(ok|FAIL|---)'
