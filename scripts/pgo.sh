#!/usr/bin/env bash
# pgo.sh writes cmd/mctscheck/default.pgo, the CPU profile with which
# go build, go install and go run optimise the tool (profile-guided
# optimisation: https://go.dev/doc/pgo). It builds the tool without a
# profile, profiles its checking jobs (the default run, run -engines and
# check -rule uct, each with -cpuprofile) and merges the three profiles.
# Run it again after changing the engine's or the rules' hot code: a stale
# profile still works, but optimises less.
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
job engines run -engines -out "$tmp/engines"
job uct check -rule uct
go tool pprof -proto "$tmp/run.prof" "$tmp/engines.prof" "$tmp/uct.prof" >cmd/mctscheck/default.pgo 2>/dev/null
echo "pgo.sh: wrote cmd/mctscheck/default.pgo ($(wc -c <cmd/mctscheck/default.pgo) bytes)" >&2
