#!/usr/bin/env bash
# pachi-build.sh builds Pachi (github.com/pasky/pachi) from a source
# directory, without its neural network and joseki fixes:
#
#   make -C PACHI_SRC -j2 DCNN=0 JOSEKIFIX=0
#
# which needs only make and a C compiler (Debian: apt-get install make gcc;
# Pachi's INSTALL.md lists the libraries of the other builds). It prints
# the path of the binary, PACHI_SRC/pachi, on stdout, and the commit of the
# source on stderr when PACHI_SRC is a git checkout. A source directory
# that already has a built pachi is left as it is. This repository holds
# none of Pachi's code; get it with
#
#   git clone https://github.com/pasky/pachi /tmp/pachi
#
# Usage: scripts/pachi-build.sh PACHI_SRC
#
# Exit status: 0 with the binary built, 2 on errors (a bad argument, a
# directory that is not Pachi's source, a failed build).
set -euo pipefail

die() {
	echo "pachi-build.sh: $*" >&2
	exit 2
}

(($# == 1)) || die "usage: scripts/pachi-build.sh PACHI_SRC (Pachi's source directory)"
[[ -d $1 ]] || die "$1: not a directory"
src=$(realpath "$1")
[[ -f $src/Makefile && -f $src/pachi.c ]] || die "$src: not Pachi's source directory (no Makefile and pachi.c)"
if [[ ! -x $src/pachi ]]; then
	command -v make >/dev/null || die "make is not installed (Debian: apt-get install make gcc)"
	echo "pachi-build.sh: building Pachi in $src (make DCNN=0 JOSEKIFIX=0)" >&2
	make -C "$src" -j2 DCNN=0 JOSEKIFIX=0 >&2 || die "building Pachi in $src failed"
fi
[[ -x $src/pachi ]] || die "$src/pachi: not built"
if commit=$(git -C "$src" rev-parse HEAD 2>/dev/null); then
	echo "pachi-build.sh: Pachi at commit $commit" >&2
fi
echo "$src/pachi"
