#!/usr/bin/env bash
# pgo.sh writes cmd/mctscheck/default.pgo, the CPU profile with which
# go build, go install and go run optimise the tool (profile-guided
# optimisation: https://go.dev/doc/pgo). It builds the tool without a
# profile, profiles its jobs with -cpuprofile (the default run, run
# -presets, check -rule uct, short matches on Connect Four and 9x9 Go, so
# that PGO does not tune the checker at the matches' expense, and three
# genmoves of the GTP engine) and merges the profiles. Run it again after
# changing the engine's or the rules' hot
# code: a stale profile still works, but optimises less.
#
# Usage: scripts/pgo.sh
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

go build -pgo=off -o "$tmp/mctscheck" ./cmd/mctscheck
# Exit status 1 means a finding, which these jobs may report; 2 is an error.
job() {
	local name=$1
	shift
	echo "pgo.sh: profiling mctscheck $*" >&2
	local rc=0
	"$tmp/mctscheck" "$@" -json -cpuprofile "$tmp/$name.prof" >/dev/null 2>"$tmp/$name.err" || rc=$?
	if ((rc > 1)); then
		cat "$tmp/$name.err" >&2
		exit "$rc"
	fi
}
job run run -out "$tmp/run"
job presets run -presets -out "$tmp/presets"
job uct check -rule uct
job connect4 match -a uct -b uct:c=0.2 -game connect4 -games 8 -budget 3000
job go9 match -a uct -b threshold:v=0.3,rule=mc-rave -game go9 -games 2 -budget 1000
# The GTP engine's genmoves (gtp speaks GTP, not -json): the light playouts
# of scripts/pachi-vs-mctscheck.sh.
echo "pgo.sh: profiling mctscheck gtp -rule uct -budget 20000" >&2
printf 'genmove b\ngenmove w\ngenmove b\nquit\n' |
	"$tmp/mctscheck" gtp -rule uct -budget 20000 -cpuprofile "$tmp/gtp.prof" >/dev/null 2>"$tmp/gtp.err" ||
	{
		cat "$tmp/gtp.err" >&2
		exit 2
	}
go tool pprof -proto "$tmp"/*.prof >cmd/mctscheck/default.pgo 2>/dev/null
echo "pgo.sh: wrote cmd/mctscheck/default.pgo ($(wc -c <cmd/mctscheck/default.pgo) bytes)" >&2
