#!/usr/bin/env bash
# rave-pachi.sh checks Pachi's default selection policy, ucb1amaf (RAVE
# with explore_p = 0: no exploration term, only RAVE, the even prior and
# the tree's statistics; uct/policy/ucb1amaf.c), against its UCB1 with
# exploration (policy=ucb1:explore_p=1.414), on exactly solved positions,
# with `mctscheck engine`, under Pachi's default playouts (moggy) and under
# light ones (playout=light: uniformly random, the paper's roll-outs). It
# runs the two engine checks per kind of playout and prints, per position,
# the share of seeds whose genmove played the only winning move at each
# budget under each policy, then the RAVE check's flags with what Pachi
# played and the winning move's root visits and AMAF value, read from its
# tree dump on stderr (-d 4, dumpthres=-1).
#
# Usage: scripts/rave-pachi.sh PACHI [POSITIONS]
#
# PACHI is Pachi's source directory (built by scripts/pachi-build.sh when
# it has no pachi binary) or its binary. POSITIONS defaults to
# engine/testdata/rave-positions.txt, the positions that trap Pachi's RAVE
# (engine/testdata/rave-near.txt holds the closest candidate under moggy
# playouts; docs/engines.md). Pachi runs as
#
#   pachi -d 4 -t ={visits} -s {seed} --nodcnn --nopatterns --nojoseki
#         -e uct threads=1,pondering=0,dumpthres=-1[,policy=ucb1:explore_p=1.414][,playout=light]
#
# (one line) in an empty temporary directory: one thread, no pondering, no
# neural network, no patterns, no joseki, so that its priors are its even
# prior alone. Pachi refuses fewer than 500 playouts, and checks its budget
# every 100 ms of search, so that it runs more playouts than asked at small
# budgets; the report's root visits are those it ran.
#
# Environment:
#   BUDGETS   the budgets, as mctscheck engine's -budgets (default 512..16384)
#   SEEDS     seeds 1 to SEEDS at each budget (default 4)
#   PLAYOUTS  the kinds of playouts: "moggy" (Pachi's default), "light"
#             (default "moggy light")
#   TIMEOUT   bound on each genmove (default 600s)
#   OUT       directory for the reports (default: a new temporary directory)
#
# Exit status: 0 after the table, 2 on errors (a bad argument, a failed
# build, a check that failed or faulted).
set -euo pipefail

die() {
	echo "rave-pachi.sh: $*" >&2
	exit 2
}

(($# == 1 || $# == 2)) || die "usage: scripts/rave-pachi.sh PACHI [POSITIONS] (PACHI: Pachi's source directory or binary)"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
positions=$(realpath "${2:-$root/engine/testdata/rave-positions.txt}")
[[ -f $positions ]] || die "$positions: no such file"
[[ -e $1 ]] || die "$1: no such file or directory"
pachi=$(realpath "$1")
if [[ -d $pachi ]]; then
	pachi=$("$root/scripts/pachi-build.sh" "$pachi") || exit 2
fi
[[ -f $pachi && -x $pachi ]] || die "$pachi: not an executable"
budgets=${BUDGETS:-512..16384}
seeds=${SEEDS:-4}
read -r -a kinds <<<"${PLAYOUTS:-moggy light}"
for k in "${kinds[@]}"; do
	[[ $k == moggy || $k == light ]] || die "PLAYOUTS: $k: want moggy or light"
done
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/rave-pachi.XXXXXX")}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/rave-pachi-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/mctscheck" ./cmd/mctscheck) || die "building mctscheck failed"
mkdir -p "$work/empty"
if commit=$(git -C "$(dirname "$pachi")" rev-parse HEAD 2>/dev/null); then
	echo "Pachi: $pachi (commit $commit)"
fi
echo "Positions: $positions; budgets $budgets; seeds 1 to $seeds; reports in $out"

# check KIND POLICY runs one engine check; its text report goes to
# $out/POLICY-KIND.txt, its report directory to $out/POLICY-KIND.
check() {
	local kind=$1 policy=$2 opts=threads=1,pondering=0,dumpthres=-1 rc=0
	[[ $policy == ucb1 ]] && opts+=,policy=ucb1:explore_p=1.414
	[[ $kind == light ]] && opts+=,playout=light
	echo "== $policy, $kind playouts: $pachi -d 4 -t ={visits} -s {seed} --nodcnn --nopatterns --nojoseki -e uct $opts" >&2
	(cd "$work/empty" && "$work/mctscheck" engine -out "$out/$policy-$kind" -positions "$positions" -budgets "$budgets" \
		-seeds "$seeds" -timeout "${TIMEOUT:-600s}" \
		-gtp "$pachi -d 4 -t ={visits} -s {seed} --nodcnn --nopatterns --nojoseki -e uct $opts") >"$out/$policy-$kind.txt" || rc=$?
	((rc == 0 || rc == 1)) || die "the check of $policy with $kind playouts exited $rc (see $out/$policy-$kind.txt)"
}

# The table, from the checks' report.json files (a Go program of the
# standard library alone, run with go run).
cat >"$work/table.go" <<'GO'
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type report struct {
	Budgets   []int
	Positions []struct {
		Name, Flag, Why string
		Optimal         []string
		Trials          []struct {
			Budget              int
			Move                string
			Optimal             bool
			Fault               string
			Visits              *int
			OptimalVisits       *int     `json:"optimal_visits"`
			OptimalAMAF         *float64 `json:"optimal_amaf"`
			OptimalAMAFPlayouts *int     `json:"optimal_amaf_playouts"`
		}
	}
}

func read(path string) report {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		panic(err)
	}
	return r
}

// cells renders each budget's share: seeds that played an optimal move /
// seeds without fault.
func cells(r report, i int) string {
	var s []string
	for _, b := range r.Budgets {
		n, k := 0, 0
		for _, t := range r.Positions[i].Trials {
			if t.Budget == b && t.Fault == "" {
				n++
				if t.Optimal {
					k++
				}
			}
		}
		s = append(s, fmt.Sprintf("%5s", fmt.Sprintf("%d/%d", k, n)))
	}
	return strings.Join(s, " ")
}

// played says what was played at the largest budget, with the optimal
// move's root visits and AMAF value where reported.
func played(r report, i int) string {
	last := r.Budgets[len(r.Budgets)-1]
	var s []string
	for _, t := range r.Positions[i].Trials {
		if t.Budget != last || t.Fault != "" {
			continue
		}
		m := t.Move
		if t.OptimalVisits != nil && t.Visits != nil {
			m += fmt.Sprintf(" (W %d of %d visits", *t.OptimalVisits, *t.Visits)
			if t.OptimalAMAF != nil && *t.OptimalAMAFPlayouts > 0 {
				m += fmt.Sprintf(", AMAF %.2f/%d", *t.OptimalAMAF, *t.OptimalAMAFPlayouts)
			}
			m += ")"
		}
		s = append(s, m)
	}
	return strings.Join(s, ", ")
}

func main() {
	rave, ucb := read(os.Args[1]), read(os.Args[2])
	fmt.Printf("  %-24s %-4s  %-*s  %s\n", "position", "W", 6*len(rave.Budgets)+4, "RAVE "+fmt.Sprint(rave.Budgets), "UCB1")
	for i, p := range rave.Positions {
		fmt.Printf("  %-24s %-4s  RAVE %s  UCB1 %s\n", p.Name, strings.Join(p.Optimal, " "), cells(rave, i), cells(ucb, i))
	}
	fmt.Println("  at the largest budget (the winning move W's root visits and AMAF value, from Pachi's tree dump):")
	for i, p := range rave.Positions {
		fmt.Printf("  %-24s RAVE: %s\n  %-24s UCB1: %s\n", p.Name, played(rave, i), "", played(ucb, i))
		if p.Flag != "" {
			fmt.Printf("  %-24s RAVE flagged: %s\n", "", p.Flag)
		}
	}
}
GO

for kind in "${kinds[@]}"; do
	check "$kind" rave
	check "$kind" ucb1
	echo
	echo "$kind playouts: seeds that played the winning move W / seeds without fault, at each budget"
	go run "$work/table.go" "$out/rave-$kind/report.json" "$out/ucb1-$kind/report.json" || die "the table of $kind playouts failed"
done
