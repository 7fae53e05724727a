#!/usr/bin/env bash
# Usage: scripts/fuzz.sh [DURATION]
#
# Runs every fuzz target of ./fuzz in turn, each with its own go test -fuzz
# run of DURATION (a go test -fuzztime value; default 30s). When a target
# fails, go test writes the failing input into fuzz/testdata/fuzz/<Target>/,
# where plain `go test ./fuzz/...` replays it from then on: the script keeps
# it there, lists it with the line that replays it, and exits 1 once every
# target has run. Commit a kept input as a regression test once the bug is
# fixed.
#
# FuzzGreedyFPU and FuzzRave are expected to fail and skip unless
# MCTSCHECK_FUZZ_FINDS=1 is set (see the package doc of ./fuzz). FUZZ_FLAGS
# adds go test flags to every run, e.g. FUZZ_FLAGS='-parallel 1
# -fuzzminimizetime 10x'.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${1:-30s}
read -ra flags <<<"${FUZZ_FLAGS:-}"
pkg=./fuzz/
corpus=fuzz/testdata/fuzz

mapfile -t targets < <(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true)
if [ "${#targets[@]}" -eq 0 ]; then
  echo "fuzz.sh: no fuzz targets in $pkg" >&2
  exit 1
fi

# inputs lists the corpus files of a target, one a line.
inputs() {
  if [ -d "$corpus/$1" ]; then
    find "$corpus/$1" -maxdepth 1 -type f | sort
  fi
}

# Replaying a target that skips without MCTSCHECK_FUZZ_FINDS needs it too.
replay=""
if [ -n "${MCTSCHECK_FUZZ_FINDS:-}" ]; then
  replay="MCTSCHECK_FUZZ_FINDS=$MCTSCHECK_FUZZ_FINDS "
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT

failed=()
flaked=()
skipped=()
kept=()
for target in "${targets[@]}"; do
  echo "== $target for $duration"
  before=$(inputs "$target")
  status=0
  go test -v -run '^$' -fuzz "^${target}\$" -fuzztime "$duration" "${flags[@]}" "$pkg" 2>&1 | tee "$log" || status=$?
  new=$(comm -13 <(echo "$before") <(inputs "$target") | sed '/^$/d')
  if [ "$status" -ne 0 ] && [ -z "$new" ] && tail -n 5 "$log" | grep -q '^    context deadline exceeded$'; then
    # Go 1.26's coordinator reporting its own -fuzztime deadline as a
    # failure, with no input written (golang/go#75804, fixed in Go 1.27).
    flaked+=("$target")
  elif [ "$status" -ne 0 ]; then
    failed+=("$target")
  elif grep -q -- "^--- SKIP: $target " "$log"; then
    skipped+=("$target")
  fi
  if [ -n "$new" ]; then
    while IFS= read -r file; do
      kept+=("$file: ${replay}go test -run='^${target}\$/$(basename "$file")' $pkg")
    done <<<"$new"
  fi
done

if [ "${#skipped[@]}" -gt 0 ]; then
  echo "== skipped: ${skipped[*]}"
fi
if [ "${#flaked[@]}" -gt 0 ]; then
  echo "== ended by Go's fuzztime deadline race, no input found (golang/go#75804): ${flaked[*]}"
fi
if [ "${#failed[@]}" -eq 0 ]; then
  echo "== $((${#targets[@]} - ${#skipped[@]})) targets ran $duration each with no finding"
  exit 0
fi
echo "== failed: ${failed[*]}"
if [ "${#kept[@]}" -gt 0 ]; then
  echo "== failing inputs kept as regression inputs (replay line after each):"
  printf '  %s\n' "${kept[@]}"
fi
exit 1
