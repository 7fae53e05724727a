#!/usr/bin/env bash
# pachi-vs-mctscheck.sh times `mctscheck gtp -rule uct` against Pachi on
# the same GTP session: 9×9, komi 7.5, GENMOVES genmoves from the empty
# board (b, w, b, …) in one process, each of BUDGET simulations, with UCT
# (c = √2) and light playouts on both sides. Each run is a whole process,
# start-up included, as a GTP controller sees it; the two sides alternate
# in pairs (A B, B A, A B, …) so that a change in the machine's speed falls
# on both alike. It prints, per number of genmoves, the median over the
# pairs of each side's simulations per CPU second (user + system of the
# process), the ratio of ours to Pachi's, the range of the ratios of the
# pairs, the load average (1 min) before and after, and with GNU time
# (/usr/bin/time) the median page faults of a run of each side. Above the
# table it names the host: the CPU, its caches and flags that matter, the
# kernel, a hypervisor if the CPU flags show one, and what a page of
# fresh memory costs on its first touch (core's BenchmarkFirstTouch): a
# page fault, whose price depends on the host (over ten microseconds on
# some virtual machines), and moves the ratio between hosts of one kind:
# see docs/speed.md.
#
# Usage: scripts/pachi-vs-mctscheck.sh PACHI
#
# PACHI is Pachi's source directory (github.com/pasky/pachi) or its built
# binary. A source directory is built by scripts/pachi-build.sh when it has
# no built `pachi` (`make DCNN=0 JOSEKIFIX=0`: no neural network, no joseki
# fixes). This repository holds none of Pachi's code. Pachi runs as
#
#   pachi -t =BUDGET -e uct threads=1,pondering=0,policy=ucb1:explore_p=1.414,
#         playout=light,prior=even=0,dynkomi=none,no_tbook
#         --nodcnn --nopatterns --nojoseki
#
# (one line), in an empty temporary directory, and we as
#
#   mctscheck gtp -rule uct -budget BUDGET
#
# Pachi stops a search when its root has BUDGET playouts, counting those
# it keeps from the previous move's tree, and checks that only every so
# often, so it plays a few hundred more or, after the first move, fewer:
# its simulations are the new playouts it reports per genmove (the root's
# playouts on its "*** WINNER" line less its "<pre-simulated N games>").
# Ours are BUDGET a genmove.
#
# Environment:
#   PAIRS     pairs of runs per number of genmoves (default 5)
#   GENMOVES  the numbers of genmoves per process (default "1 10")
#   BUDGET    simulations per genmove (default 20000)
#   OUT       directory for the sessions, outputs and table.txt (default:
#             a new temporary directory)
#
# Exit status: 0 after the table, 2 on errors (a bad argument, a failed
# build, a run that failed or replied with an error).
set -euo pipefail

die() {
	echo "pachi-vs-mctscheck.sh: $*" >&2
	exit 2
}

(($# == 1)) || die "usage: scripts/pachi-vs-mctscheck.sh PACHI (Pachi's source directory or binary)"
pairs=${PAIRS:-5}
[[ $pairs =~ ^[1-9][0-9]*$ ]] || die "PAIRS=$pairs: want a positive integer"
budget=${BUDGET:-20000}
[[ $budget =~ ^[1-9][0-9]*$ ]] || die "BUDGET=$budget: want a positive integer"
read -r -a counts <<<"${GENMOVES:-1 10}"
((${#counts[@]} > 0)) || die "GENMOVES is empty: want numbers of genmoves, e.g. \"1 10\""
for n in "${counts[@]}"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || die "GENMOVES: $n: want positive integers"
done

[[ -e $1 ]] || die "$1: no such file or directory"
pachi=$(realpath "$1")
if [[ -d $pachi ]]; then
	pachi=$("$(dirname "${BASH_SOURCE[0]}")/pachi-build.sh" "$pachi") || exit 2
fi
[[ -f $pachi && -x $pachi ]] || die "$pachi: not an executable"
pachiCmd=("$pachi" -t "=$budget" -e uct
	threads=1,pondering=0,policy=ucb1:explore_p=1.414,playout=light,prior=even=0,dynkomi=none,no_tbook
	--nodcnn --nopatterns --nojoseki)

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pachi-vs-mctscheck.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/mctscheck" ./cmd/mctscheck) || die "building mctscheck failed"
oursCmd=("$work/mctscheck" gtp -rule uct -budget "$budget")
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/pachi-vs-mctscheck-out.XXXXXX")}
mkdir -p "$out" "$work/empty"

# gnutime is set when /usr/bin/time is GNU time, which counts page faults.
gnutime=
if /usr/bin/time -f '%R' -o /dev/null true 2>/dev/null; then gnutime=1; fi

# timed FILE SESSION CMD... runs CMD in the empty directory on the GTP
# SESSION, its stdout to FILE and stderr to FILE.err, and prints its CPU
# seconds (user + system) and its page faults (minor and major; "-"
# without GNU time).
timed() {
	local file=$1 session=$2 t
	shift 2
	if [[ $gnutime ]]; then
		(cd "$work/empty" && /usr/bin/time -f '%U %S %R %F' -o "$file.time" "$@" <"$session" >"$file" 2>"$file.err") ||
			die "$* failed (see $file.err)"
		awk '{ printf "%.4f %d\n", $1 + $2, $3 + $4 }' "$file.time"
		return
	fi
	t=$( { TIMEFORMAT='%U %S'; time (cd "$work/empty" && "$@" <"$session" >"$file" 2>"$file.err"); } 2>&1) ||
		die "$* failed (see $file.err)"
	awk '{ printf "%.4f -\n", $1 + $2 }' <<<"$t"
}

# replies FILE N checks that FILE holds N successful genmove replies.
replies() {
	local got
	got=$(grep -c '^= [A-Za-z]' "$1" || true)
	((got == $2)) || die "$1: $got genmove replies, want $2 (see $1 and $1.err)"
	if grep -q '^?' "$1"; then die "$1: an error reply: $(grep -m1 '^?' "$1")"; fi
}

# pachiSims FILE prints the playouts Pachi's searches added, from its stderr.
pachiSims() {
	awk '/^<pre-simulated [0-9]+ games>/ { pre = $2 }
		/^\*\*\* WINNER is/ { if (match($0, /\([0-9]+\/[0-9]+ games/)) {
			split(substr($0, RSTART + 1, RLENGTH - 7), f, "/"); sum += f[2] - pre; n++ }; pre = 0 }
		END { if (n == 0) exit 1; print sum }' "$1.err" || die "$1.err: no \"*** WINNER\" line of Pachi's"
}

med() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
load() { cut -d' ' -f1 /proc/loadavg; }

# host prints what names the machine: the CPU's model and family, its
# caches (getconf), the flags of /proc/cpuinfo that matter here, the
# kernel.
host() {
	local field flags caches
	field() { awk -F': *' -v k="$1" '$1 ~ "^" k "[ \t]*$" { print $2; exit }' /proc/cpuinfo 2>/dev/null; }
	echo "cpu:   $(field 'model name'), family $(field 'cpu family') model $(field model) stepping $(field stepping), $(nproc) CPUs"
	caches=$(getconf -a 2>/dev/null | awk '$1 ~ /^LEVEL[1-3]_(DCACHE|CACHE)_SIZE$/ && $2 > 0 {
		sub(/^LEVEL/, "L", $1); sub(/_(DCACHE|CACHE)_SIZE$/, "", $1); printf "%s%s %d KiB", sep, $1, $2 / 1024; sep = ", " }')
	flags=$(field flags | tr ' ' '\n' | grep -E '^(avx2|avx512f|bmi2|hypervisor)$' | tr '\n' ' ')
	echo "cache: ${caches:-unknown}; flags: ${flags:-none of avx2 avx512f bmi2 hypervisor}"
	echo "host:  $(uname -srm), transparent huge pages $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
}

# firstTouch prints what the first write to a 4 KiB page of fresh memory
# costs the process in CPU time, on small pages and on huge ones
# (BenchmarkFirstTouch in core, Linux only).
firstTouch() {
	(cd "$root" && go test -run '^$' -bench '^BenchmarkFirstTouch$' -benchtime 16384x ./core 2>/dev/null) |
		awk '$1 ~ /pages=4KiB/ { small = $5 } $1 ~ /pages=2MiB/ { huge = $5 }
			END { if (small == "" || huge == "") print "touch: unknown (no BenchmarkFirstTouch on this system)"
				else printf "touch: a fresh 4 KiB page costs %.2f µs of CPU on 4 KiB pages, %.2f µs on 2 MiB pages (go test -bench FirstTouch ./core)\n", small / 1000, huge / 1000 }'
}

{
	host
	firstTouch
	echo "ours:  mctscheck gtp -rule uct -budget $budget ($(cd "$root" && go version | cut -d' ' -f3))"
	echo "Pachi: ${pachiCmd[*]}"
} | tee "$out/table.txt"
printf '%-8s %6s %12s %12s %8s %14s %14s %15s\n' genmoves pairs "ours sims/s" "Pachi sims/s" "ratio" "pair ratios" "load" "faults ours/his" |
	tee -a "$out/table.txt"
for n in "${counts[@]}"; do
	session=$work/session.$n.gtp
	{
		printf 'boardsize 9\nclear_board\nkomi 7.5\n'
		for ((i = 0; i < n; i++)); do
			if ((i % 2)); then echo "genmove w"; else echo "genmove b"; fi
		done
		echo quit
	} >"$session"
	cp "$session" "$out/"
	before=$(load)
	: >"$work/rates"
	: >"$work/faults"
	for ((r = 1; r <= pairs; r++)); do
		o=$out/ours.$n.$r.txt p=$out/pachi.$n.$r.txt
		if ((r % 2)); then
			read -r oc of < <(timed "$o" "$session" "${oursCmd[@]}")
			read -r pc pf < <(timed "$p" "$session" "${pachiCmd[@]}")
		else
			read -r pc pf < <(timed "$p" "$session" "${pachiCmd[@]}")
			read -r oc of < <(timed "$o" "$session" "${oursCmd[@]}")
		fi
		[[ $oc && $pc ]] || die "a run failed (see $out)"
		replies "$o" "$n" && replies "$p" "$n"
		ps=$(pachiSims "$p")
		echo "$((n * budget)) $oc $ps $pc" >>"$work/rates"
		echo "$of $pf" >>"$work/faults"
	done
	after=$(load)
	cp "$work/rates" "$out/rates.$n.txt"
	cp "$work/faults" "$out/faults.$n.txt"
	faults=-
	if [[ $gnutime ]]; then
		faults="$(awk '{ print $1 }' "$work/faults" | med)/$(awk '{ print $2 }' "$work/faults" | med)"
	fi
	ours=$(awk '{ print $1 / $2 }' "$work/rates" | med)
	his=$(awk '{ print $3 / $4 }' "$work/rates" | med)
	lo=$(awk '{ print ($1 / $2) / ($3 / $4) }' "$work/rates" | sort -g | head -1)
	hi=$(awk '{ print ($1 / $2) / ($3 / $4) }' "$work/rates" | sort -g | tail -1)
	awk -v n="$n" -v k="$pairs" -v o="$ours" -v h="$his" -v lo="$lo" -v hi="$hi" -v b="$before" -v a="$after" -v f="$faults" 'BEGIN {
		printf "%-8d %6d %11.1fk %11.1fk %7.2f× %6.2f–%-6.2f %6.2f → %-5.2f %15s\n", n, k, o / 1000, h / 1000, o / h, lo, hi, b, a, f }' |
		tee -a "$out/table.txt"
done
echo "simulations per CPU second (user + system) of the whole process, medians of $pairs pairs; results in $out" |
	tee -a "$out/table.txt"
