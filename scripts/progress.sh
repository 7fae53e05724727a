# progress.sh is sourced by the long scripts (benchcmp.sh through
# checkout.sh, consistency-sweep.sh, table1.sh, connect4-overconfidence.sh):
#
#   progress NAME DONE TOTAL [WHAT]
#
# prints on stderr "NAME: DONE/TOTAL WHAT, ELAPSED, about LEFT left", the
# time since the script sourced this file and the time left if the
# remaining steps take as long as the finished ones did on average, and
#
#   duration SECONDS
#
# writes a number of seconds as 42s, 3m05s or 2h10m.

progress_start=$SECONDS

duration() {
	local s=$1
	if ((s < 60)); then
		printf '%ds' "$s"
	elif ((s < 3600)); then
		printf '%dm%02ds' $((s / 60)) $((s % 60))
	else
		printf '%dh%02dm' $((s / 3600)) $((s % 3600 / 60))
	fi
}

progress() {
	local name=$1 done=$2 total=$3 what=${4:-} elapsed=$((SECONDS - progress_start))
	local line="$name: $done/$total${what:+ $what}, $(duration "$elapsed")"
	if ((done > 0 && done < total)); then
		line+=", about $(duration $((elapsed * (total - done) / done))) left"
	fi
	echo "$line" >&2
}
