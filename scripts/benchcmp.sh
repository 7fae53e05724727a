#!/usr/bin/env bash
# benchcmp.sh compares the benchmarks of two commits on this machine and
# judges the difference with the regression gate (bench/gate).
#
# Usage: scripts/benchcmp.sh BASE [HEAD]
#
# It compares the module in the current directory: this repository's, or
# a user's module that requires github.com/mctscheck/mctscheck, with
#
#   PKG=./mybench "$(go list -m -f '{{.Dir}}' github.com/mctscheck/mctscheck)"/scripts/benchcmp.sh HEAD~1
#
# (a replace to a local path must then be absolute, as the commits are
# checked out elsewhere). BASE and HEAD are commits (anything git rev-parse takes; HEAD defaults to
# HEAD) or directories holding a checkout of the module, such as a work
# tree with uncommitted changes. For each, the script checks the commit out
# in a temporary git worktree, builds the bench test binary (go test -c) and
# then runs the two binaries interleaved, one -count at a time, alternating
# which goes first (ABBA), so that a change in the machine's speed during
# the run falls on both sides alike. It prints benchstat's table, runs the
# gate (built, not under go run, so that its exit status survives) and exits
# with the gate's status: 0 pass, 1 regression. Anything else is 2: a usage
# error, a commit or package that does not build, a gate that does not build,
# a benchmark that fails, no data. It leaves no empty result directory.
#
# Environment:
#   PKG         the benchmarks' package, relative to the module (default ./bench/)
#   BENCH       benchmarks to run, a -test.bench pattern (default .)
#   COUNT       samples per benchmark and side, at least 10, as the gate
#               judges no fewer (default 10)
#   BENCHTIME   -test.benchtime (default 1s)
#   GATE_FLAGS  flags for the gate, e.g. "-threshold 10 -unit sec/op" (default:
#               ns/sim if the benchmarks report it, else sec/op)
#   OUT         directory for base.txt, head.txt, benchstat.txt and gate.txt
#               (default: a new temporary directory, printed at the end)
set -euo pipefail

die() {
	echo "benchcmp.sh: $*" >&2
	exit 2
}

(($# >= 1 && $# <= 2)) || die "usage: scripts/benchcmp.sh BASE [HEAD]"
# shellcheck source=scripts/checkout.sh
. "$(dirname "${BASH_SOURCE[0]}")/checkout.sh"
pkg=${PKG:-./bench/}

bench=${BENCH:-.}
count=${COUNT:-10}
benchtime=${BENCHTIME:-1s}
if ! [[ $count =~ ^[0-9]+$ ]] || ((count < 10)); then
	die "COUNT=$count: want at least 10, as the gate judges no fewer"
fi
read -r -a gate_flags <<<"${GATE_FLAGS:-}"

# build REV NAME builds the bench test binary of REV as $work/NAME.test.
build() {
	checkout "$1" "$2"
	[[ -d $src/$pkg ]] || die "$1 has no package $pkg"
	(cd "$src" && go test -c -o "$work/$2.test" "$pkg") || die "building the benchmarks of $1 failed"
}

build "$1" base
build "${2:-HEAD}" head
go build -o "$work/gate" github.com/mctscheck/mctscheck/bench/gate || die "building the gate failed"

# The results' directory is made only now that everything built.
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/benchcmp.XXXXXX")}
mkdir -p "$out"

# run NAME appends one sample of every selected benchmark to $out/NAME.txt.
run() {
	"$work/$1.test" -test.run '^$' -test.bench "$bench" -test.benchtime "$benchtime" -test.count 1 >>"$out/$1.txt" ||
		die "the $1 benchmarks failed (output in $out/$1.txt)"
}

: >"$out/base.txt"
: >"$out/head.txt"
alternate "$count"

go run golang.org/x/perf/cmd/benchstat base="$out/base.txt" head="$out/head.txt" | tee "$out/benchstat.txt" ||
	die "benchstat failed"
echo
status=0
"$work/gate" "${gate_flags[@]}" "$out/base.txt" "$out/head.txt" | tee "$out/gate.txt" || status=${PIPESTATUS[0]}
echo "results in $out" >&2
exit "$status"
