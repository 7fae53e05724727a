#!/usr/bin/env bash
# connect4-vs-pons.sh times `mctscheck solve -game connect4 -positions`
# against Pascal Pons' Connect Four solver on the same test sets, each a
# whole process per set, the two interleaved, so that what a user waits
# for is compared: process start, table and all.
#
# Usage: scripts/connect4-vs-pons.sh PONS_SOLVER [SET...]
#
# PONS_SOLVER is the path to Pons' c4solver, built from his repository
# (github.com/PascalPons/connect4: make c4solver). This repository holds
# none of his code and does not build it. It runs in an empty temporary
# directory, so without an opening book. SETs are files in the format of
# his test sets, "MOVES SCORE" a line (default: games/connect4/testdata/
# Test_*). For every set and ROUNDS times (alternating which goes first),
# each solver solves the whole set in one process:
#
#   score    mctscheck solve -game connect4 -positions SET   | c4solver < MOVES
#   analyze  ... -positions SET -analyze                     | c4solver -a < MOVES
#
# (analyze: the score of every move, as solve -game does for one position).
# Both solvers' scores must agree with each other and with the set. It
# prints, per set and mode, the median over the rounds of each side's CPU
# time (user + system) and wall time per position, the ratio of ours to
# his, and our nodes per position (his c4solver does not print its own).
#
# The beginning sets are long: a run of Test_L1_R3 takes about an hour of
# CPU per side in score mode and several in analyze mode, one of Test_L1_R1
# or Test_L1_R2 minutes in analyze mode; give EVERY, or name the sets.
#
# Environment:
#   ROUNDS  runs per side, set and mode (default 3)
#   MODES   the modes to run (default "score analyze")
#   EVERY   solve only every EVERY-th position of each set, from the first
#           (default 1: all)
#   OUT     directory for the outputs and times.txt (default: a new
#           temporary directory)
#
# Exit status: 0 when every score agreed, 1 when one did not, 2 on errors.
set -euo pipefail

die() {
	echo "connect4-vs-pons.sh: $*" >&2
	exit 2
}

(($# >= 1)) || die "usage: scripts/connect4-vs-pons.sh PONS_SOLVER [SET...]"
pons=$(realpath "$1") || die "$1: no such file"
[[ -x $pons ]] || die "$pons: not an executable"
shift
rounds=${ROUNDS:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS=$rounds: want a positive integer"
read -r -a modes <<<"${MODES:-score analyze}"
every=${EVERY:-1}
[[ $every =~ ^[1-9][0-9]*$ ]] || die "EVERY=$every: want a positive integer"

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sets=("$@")
if ((${#sets[@]} == 0)); then
	sets=("$root"/games/connect4/testdata/Test_*)
fi
for s in "${sets[@]}"; do
	[[ -f $s ]] || die "$s: no such file"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/connect4-vs-pons.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/mctscheck" ./cmd/mctscheck) || die "building mctscheck failed"
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/connect4-vs-pons-out.XXXXXX")}
mkdir -p "$out"
mkdir -p "$work/empty"

# timed FILE CMD... runs CMD in the empty directory, its stdout to FILE,
# and prints "CPU WALL" in seconds: user + system, and real.
timed() {
	local file=$1 t
	shift
	t=$( { TIMEFORMAT='%U %S %R'; time (cd "$work/empty" && "$@" >"$file" 2>"$file.err"); } 2>&1) ||
		die "$* failed (see $file.err)"
	awk '{ printf "%.4f %.4f\n", $1 + $2, $3 }' <<<"$t"
}

status=0
printf '%-12s %-8s %-6s %10s %10s %10s %10s %8s %8s %12s\n' set mode n \
	"ours-cpu" "his-cpu" "ours-wall" "his-wall" "cpu×" "wall×" "nodes/pos" | tee "$out/times.txt"
for set in "${sets[@]}"; do
	name=$(basename "$set")
	grep -v '^#' "$set" | awk -v e="$every" 'NF && (++i - 1) % e == 0' >"$work/$name.set"
	cut -d' ' -f1 "$work/$name.set" >"$work/$name.moves"
	n=$(wc -l <"$work/$name.moves")
	for mode in "${modes[@]}"; do
		flag=() pflag=()
		if [[ $mode == analyze ]]; then flag=(-analyze) pflag=(-a); fi
		ours=() his=()
		for ((r = 1; r <= rounds; r++)); do
			o=$out/$name.$mode.ours.txt h=$out/$name.$mode.pons.txt
			if ((r % 2)); then
				ours+=("$(timed "$o" "$work/mctscheck" solve -game connect4 -positions "$work/$name.set" "${flag[@]}")")
				his+=("$(timed "$h" "$pons" "${pflag[@]}" <"$work/$name.moves")")
			else
				his+=("$(timed "$h" "$pons" "${pflag[@]}" <"$work/$name.moves")")
				ours+=("$(timed "$o" "$work/mctscheck" solve -game connect4 -positions "$work/$name.set" "${flag[@]}")")
			fi
		done
		# The scores: the same on both sides (his -1000 is our x, a full column).
		if ! diff <(grep -v '^#' "$o") <(sed 's/ -1000/ x/g' "$h") >"$out/$name.$mode.diff"; then
			echo "$name $mode: the solvers disagree (see $out/$name.$mode.diff)" >&2
			status=1
		fi
		nodes=$(sed -n 's/^# [0-9]* positions, \([0-9]*\) nodes.*/\1/p' "$o")
		printf '%s\n' "${ours[@]}" >"$work/ours" && printf '%s\n' "${his[@]}" >"$work/his"
		# Medians of the rounds, per position, in microseconds.
		med() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
		oc=$(cut -d' ' -f1 "$work/ours" | med) hc=$(cut -d' ' -f1 "$work/his" | med)
		ow=$(cut -d' ' -f2 "$work/ours" | med) hw=$(cut -d' ' -f2 "$work/his" | med)
		awk -v s="$name" -v m="$mode" -v n="$n" -v oc="$oc" -v hc="$hc" -v ow="$ow" -v hw="$hw" -v nodes="$nodes" 'BEGIN {
			printf "%-12s %-8s %-6d %8.1fµs %8.1fµs %8.1fµs %8.1fµs %8.2f %8.2f %12.0f\n", s, m, n,
				1e6 * oc / n, 1e6 * hc / n, 1e6 * ow / n, 1e6 * hw / n, (hc > 0 ? oc / hc : 0), (hw > 0 ? ow / hw : 0), nodes / n }' |
			tee -a "$out/times.txt"
	done
done
echo "every $every-th position; load: $(cut -d' ' -f1-3 /proc/loadavg); results in $out" | tee -a "$out/times.txt"
exit "$status"
