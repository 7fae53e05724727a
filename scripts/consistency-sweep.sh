#!/usr/bin/env bash
# Measures the checker's error rates: every catalogue rule over N further
# seeds (default 200), each with new random trees and search seeds. Prints
# the table (false alarms on consistent rules, missed witnesses on
# inconsistent ones, witness sizes and times) and writes it to OUT.
# Usage: scripts/consistency-sweep.sh [N] [TREES] [OUT] [FROM]
# FROM skips the first FROM seeds, to split a sweep over processes.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-200}
trees=${2:-30}
out=${3:-consistency-sweep.txt}
from=${4:-0}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
MCTSCHECK_SWEEP=$n MCTSCHECK_SWEEP_FROM=$from MCTSCHECK_SWEEP_TREES=$trees MCTSCHECK_SWEEP_OUT=$out \
  go test -count=1 -timeout 0 -run '^TestSweep$' -v ./props/ | grep -v '^=== '
echo "table written to $out"
