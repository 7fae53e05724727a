#!/usr/bin/env bash
# connect4-overconfidence.sh runs the paper's §4 experiment on Connect Four:
# on a position lost for the player to move on which random play-outs win
# about 70% of the time (games/connect4/overconfidence_test.go), it runs
# greedy-fpu 30 times (seeds 1 to 30) at 500,000 simulations in practical
# mode, then the same with Algorithm 2 around it, with the paper's
# thresholds (threshold:v=0.3,rule=greedy-fpu, V' = 0.7 at min nodes) and
# with V' = 0.9 (threshold:v=0.3,vmin=0.9,rule=greedy-fpu), and UCT for
# reference, and prints for each how many runs end with a root value above
# 0.9. The paper saw 13/30 with MoGo and 0/30 with the fix.
#
# Usage: scripts/connect4-overconfidence.sh
#
# Environment:
#   MCTSCHECK_RUNS    runs per rule (default 30)
#   MCTSCHECK_BUDGET  simulations per run (default 500000)
#
# It takes a few minutes on one core (docs/games.md has the measurement).
# Progress, with the time left, goes to stderr after each run. Exit status:
# that of go test.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/progress.sh
. scripts/progress.sh

runs=${MCTSCHECK_RUNS:-30}
echo "connect4-overconfidence: compiling the test" >&2
go test -c -o /dev/null ./games/connect4
progress_start=$SECONDS
done=0
MCTSCHECK_LONG=1 go test -count=1 -run '^TestOverconfiden' -v ./games/connect4 |
	while IFS= read -r line; do
		if [[ $line =~ run\ [0-9]+\ of\ [0-9]+\ of\ (.*):\ root\ value ]]; then
			done=$((done + 1))
			progress connect4-overconfidence "$done" $((4 * runs)) "runs (${BASH_REMATCH[1]})"
		elif [[ $line =~ root\ value|^(ok|FAIL|---) ]]; then
			echo "$line"
		fi
	done
exit "${PIPESTATUS[0]}"
