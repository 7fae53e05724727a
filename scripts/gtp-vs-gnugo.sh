#!/usr/bin/env bash
# gtp-vs-gnugo.sh plays one game of Go between mctscheck gtp and GNU Go 3.8
# (gnugo --mode gtp, Chinese rules, positional superko) to its end, with
# the referee of package match (cmd/referee): every move is checked on
# the referee's own board and passed to the other engine; the game ends at
# two consecutive passes (or the move cap). It prints the moves, the
# referee's Tromp-Taylor count, both engines' final_score (GNU Go's removes
# the stones it judges dead) and the SGF file's name.
#
# Usage: scripts/gtp-vs-gnugo.sh [RULE [BUDGET]]
#
#   RULE    mctscheck's rule spec (default threshold:v=0.3,rule=mc-rave)
#   BUDGET  simulations per move (default 2000)
#
# Environment:
#   GTP_COLOR    the color mctscheck plays, black or white (default black)
#   GTP_SIZE     board size (default 9); GTP_KOMI komi (default 7.5)
#   GTP_SEED     mctscheck's seed (default 1)
#   GTP_SGF      where to write the game (default gtp-vs-gnugo.sgf)
#   GNUGO_LEVEL  GNU Go's level, 0 to 10 (default 10, its own default)
#   GNUGO_SEED   GNU Go's random seed (default 1; 0 lets GNU Go pick one
#                from the clock), so that the same settings replay the game
#   GNUGO        the gnugo binary (default: gnugo on PATH, else /usr/games/gnugo)
#
# Exit status: 0 a game played to its end, 1 an engine failed or played an
# illegal move, 2 bad usage or no gnugo.
set -euo pipefail
cd "$(dirname "$0")/.."

rule=${1:-threshold:v=0.3,rule=mc-rave}
budget=${2:-2000}
color=${GTP_COLOR:-black}
size=${GTP_SIZE:-9}
komi=${GTP_KOMI:-7.5}
seed=${GTP_SEED:-1}
sgf=${GTP_SGF:-gtp-vs-gnugo.sgf}
level=${GNUGO_LEVEL:-10}
gseed=${GNUGO_SEED:-1}
gnugo=${GNUGO:-}
if [[ -z $gnugo ]]; then
	if command -v gnugo >/dev/null; then
		gnugo=$(command -v gnugo)
	elif [[ -x /usr/games/gnugo ]]; then
		gnugo=/usr/games/gnugo
	else
		echo "gtp-vs-gnugo.sh: gnugo not found: install it (apt-get install gnugo) or set GNUGO" >&2
		exit 2
	fi
fi
if ! [[ $budget =~ ^[0-9]+$ && $size =~ ^[0-9]+$ && $seed =~ ^[0-9]+$ && $level =~ ^[0-9]+$ && $gseed =~ ^[0-9]+$ ]]; then
	echo "gtp-vs-gnugo.sh: BUDGET, GTP_SIZE, GTP_SEED, GNUGO_LEVEL and GNUGO_SEED must be integers" >&2
	exit 2
fi

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/mctscheck" ./cmd/mctscheck
go build -o "$bin/referee" ./cmd/referee
ours="$bin/mctscheck gtp -rule '$rule' -budget $budget -seed $seed"
theirs="$gnugo --mode gtp --chinese-rules --positional-superko --level $level --seed $gseed"
case $color in
black) black=$ours white=$theirs ;;
white) black=$theirs white=$ours ;;
*)
	echo "gtp-vs-gnugo.sh: GTP_COLOR=$color: want black or white" >&2
	exit 2
	;;
esac
echo "mctscheck ($rule, $budget simulations per move) plays $color against GNU Go (level $level, seed $gseed), ${size}×$size, komi $komi"
"$bin/referee" -black "$black" -white "$white" -size "$size" -komi "$komi" -sgf "$sgf"
