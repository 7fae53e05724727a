#!/bin/sh
# exec-uct.sh: the full comparison of the external rule protocol: the
# default check of examples/uct.py over the external rule protocol must
# give uct's verdict, trees and frugality on the same seeds. It prints
# both runs' times. Needs python3; takes about a minute (docs/protocol.md).
set -eu
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/mctscheck
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/mctscheck
strip() { grep -v '^speed\|^rule\|^predicted\|^prediction'; }
start=$(date +%s)
"$bin" check -rule uct "$@" >"$bin.uct" 2>/dev/null || true
mid=$(date +%s)
"$bin" check -rule exec:'python3 examples/uct.py' "$@" >"$bin.py" || true
end=$(date +%s)
echo "uct: $((mid - start)) s; exec:python3 examples/uct.py: $((end - mid)) s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
strip <"$bin.py" >"$bin.py.strip"
if strip <"$bin.uct" | diff -u - "$bin.py.strip"; then
	echo "same report: $(grep '^verdict' "$bin.py")"
else
	echo "exec-uct.sh: the external UCT's report differs from uct's" >&2
	exit 1
fi
