#!/usr/bin/env bash
# table1.sh plays the paper's Table 1 in miniature: Algorithm 2 (V_threshold
# 0.3) around a MoGo-style rule against the same rule alone, with
# mctscheck match, on 9×9 Go and Connect Four at several budgets, and prints
# A's (Algorithm 2's) score with its 95% interval per cell as a Markdown
# table.
#
# Each cell is played in parts of TABLE1_CHUNK games (mctscheck match
# -first K), each part's JSON kept in OUT/json; a part already there is not
# played again, so an interrupted run resumes where it stopped, and the
# games are those of one long match whatever the parts. The games
# themselves go to OUT/games (SGF for Go, move strings for Connect Four).
#
# Usage: scripts/table1.sh [OUT]          play what is missing, then summarise
#        scripts/table1.sh -summary [OUT]  summarise what has been played
#
# Environment:
#   TABLE1_RULE     the rule X (default mc-rave: MoGo's RAVE, no UCT term)
#   TABLE1_CELLS    game:budget cells, in the order played (default
#                   "connect4:1000 go9:1000 connect4:10000 go9:4000 connect4:100000
#                   go9:250 go9:500")
#   TABLE1_GAMES    games per cell (default 600: a 95% interval of ±4%)
#   TABLE1_CHUNK    games per part (default 100)
#   TABLE1_WORKERS  games at once (default 1)
#   TABLE1_SEED     the matches' seed (default 1)
#
# OUT defaults to ./table1. The whole table takes a few hours of one core:
# a cell's time grows with its budget, from a minute to two hours
# (docs/games.md has the measurements). Progress goes to stderr: each cell as it starts,
# each part as it ends with the time left in the cell, and the match's own
# progress in OUT/progress.log.
#
# Exit status: 0 done, 1 a match failed, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/progress.sh
. scripts/progress.sh

summary_only=0
if [[ ${1:-} == -summary ]]; then
	summary_only=1
	shift
fi
out=${1:-table1}
rule=${TABLE1_RULE:-mc-rave}
cells=${TABLE1_CELLS:-connect4:1000 go9:1000 connect4:10000 go9:4000 connect4:100000 go9:250 go9:500}
games=${TABLE1_GAMES:-600}
chunk=${TABLE1_CHUNK:-100}
workers=${TABLE1_WORKERS:-1}
seed=${TABLE1_SEED:-1}
for v in games chunk workers seed; do
	if ! [[ ${!v} =~ ^[0-9]+$ ]] || ((${!v} < 1)); then
		echo "table1.sh: $v=${!v}: want a positive integer" >&2
		exit 2
	fi
done
a="threshold:v=0.3,rule=$rule"
mkdir -p "$out/json" "$out/games"

if ((!summary_only)); then
	# One binary for the whole run, so that edits to the tree during a long
	# run do not change it.
	go build -o "$out/mctscheck" ./cmd/mctscheck
	read -r -a cell_list <<<"$cells"
	for ((c = 0; c < ${#cell_list[@]}; c++)); do
		cell=${cell_list[c]} game=${cell%%:*} budget=${cell##*:}
		missing=()
		for ((first = 0; first < games; first += chunk)); do
			[[ -s "$out/json/$game-$budget-$first.json" ]] || missing+=("$first")
		done
		((${#missing[@]} == 0)) && continue
		echo "table1: cell $((c + 1)) of ${#cell_list[@]}: $game, budget $budget, ${#missing[@]} parts of $chunk games to play" >&2
		progress_start=$SECONDS # the time left is this cell's: cells differ a hundredfold
		for ((k = 0; k < ${#missing[@]}; k++)); do
			first=${missing[k]}
			n=$((games - first < chunk ? games - first : chunk))
			part="$out/json/$game-$budget-$first.json"
			"$out/mctscheck" match -a "$a" -b "$rule" -game "$game" -budget "$budget" -games "$n" -first "$first" \
				-workers "$workers" -seed "$seed" -out "$out/games/$game" -json >"$part.tmp" 2>"$out/progress.log"
			mv "$part.tmp" "$part"
			progress "table1: $game, budget $budget" $((k + 1)) ${#missing[@]} "parts"
		done
	done
fi

# The summary: the parts' counts summed per cell, A's score and its 95%
# Wilson interval (draws count 1/2), as match computes them.
echo "Algorithm 2 (A = $a) against $rule (B), colours alternating, seed $seed."
echo
echo "| game | simulations per move | games | A wins | draws | B wins | A's score | 95% interval | ± |"
echo "|---|---:|---:|---:|---:|---:|---:|---|---:|"
for cell in $cells; do
	game=${cell%%:*} budget=${cell##*:}
	shopt -s nullglob
	parts=("$out/json/$game-$budget-"*.json)
	shopt -u nullglob
	((${#parts[@]} == 0)) && continue
	cat "${parts[@]}" | awk -v game="$game" -v budget="$budget" '
		/"wins":/   { gsub(/[^0-9]/, ""); w += $0 }
		/"draws":/  { gsub(/[^0-9]/, ""); d += $0 }
		/"losses":/ { gsub(/[^0-9]/, ""); l += $0 }
		END {
			n = w + d + l; if (n == 0) exit
			z = 1.959963984540054; p = (w + d / 2) / n
			den = 1 + z * z / n; mid = (p + z * z / (2 * n)) / den
			half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
			lo = mid - half; hi = mid + half; if (lo < 0) lo = 0; if (hi > 1) hi = 1
			printf "| %s | %d | %d | %d | %d | %d | %.1f%% | [%.1f%%, %.1f%%] | %.1f%% |\n",
				game, budget, n, w, d, l, 100 * p, 100 * lo, 100 * hi, 100 * (hi - lo) / 2
		}'
done
