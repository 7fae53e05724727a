#!/usr/bin/env bash
# newcomer.sh does what a newcomer does on a first day with mctscheck, on a
# fresh clone of this checkout, and fails when any step does:
#
#  1. runs the commands of the sh code blocks of the README and of the
#     docs/ pages it leads to (guide, catalogue, games), each as the plan
#     below says: as written, in a shorter form, or skipped with a reason.
#     A command the plan does not know fails the script, so that a new
#     command gets a decision;
#  2. builds a module of its own outside the repository by the README's
#     steps, exactly as written (its "sh own-module" and "go own-module"
#     blocks, the clone's URL replaced by this checkout's clone), checks
#     that its command links no plotting library, then adds a rule that is
#     not in the catalogue and runs on it props.Check, props.Run,
#     a fuzz.Rule target (its seed corpus as a test, then a few seconds of
#     go test -fuzz), a checker command of its own (cli.Main) with its
#     replay line, and the benchmark flow: the gate on two benchmark files
#     and scripts/benchcmp.sh on two commits of the module.
#
# Usage: scripts/newcomer.sh
#
# It needs Go and git, and the network only for the Go module proxy. Most
# of its time is compiling, the README's main job and benchcmp.sh (.ci/run
# states the measured time). Environment: KEEP=1 keeps the temporary
# directory (printed at the end); QUICK=1 (which .ci/run sets) skips the
# two steps that spend most of their time compiling, go tool pprof and the
# fuzzing run of the module of one's own, which the ci workflow's newcomer
# job runs.
set -euo pipefail

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/newcomer.XXXXXX")
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	if [[ ${KEEP:-} == 1 ]]; then
		echo "newcomer.sh: kept $tmp" >&2
	else
		chmod -R u+w "$tmp" 2>/dev/null || true
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT

clone=$tmp/mctscheck
user=$tmp/own/myrule
log=$tmp/log
export GOBIN=$tmp/bin PATH=$tmp/bin:$PATH

step() { echo "newcomer: $*" >&2; }
fail() {
	echo "newcomer.sh: FAIL: $*" >&2
	[[ -f $log ]] && tail -n 40 "$log" >&2
	exit 1
}

# try DIR CMD runs CMD with bash in DIR, its output in $log, and fails the
# script when it exits non-zero.
try() {
	local dir=$1 cmd=$2 start=$SECONDS
	(cd "$dir" && bash -euo pipefail -c "$cmd") >"$log" 2>&1 || fail "($dir) $cmd: exit $?"
	step "  ok ($((SECONDS - start))s): $cmd"
}

# small is the one benchmark that the docs' bench commands run here, at 3
# searches a sample: the whole suite at -count 10 takes many minutes.
small='BenchmarkSearch/game=synth/b=8/d=10/rule=uct/mode=practical$'
short="BENCH='$small' BENCHTIME=3x"

# plan prints what to do with a README command: "run", "run: CMD" (a
# shorter form), or "skip: REASON".
plan() {
	case $1 in
	"go test ./..." | "go test -short ./...") echo "skip: .ci/run runs the test suite before this script" ;;
	"go run ./cmd/mctscheck" | "go run ./cmd/mctscheck solve "*) echo "run" ;;
	"go install ./cmd/mctscheck") echo "run" ;;
	"mctscheck") echo "skip: the same job as go run ./cmd/mctscheck, run above" ;;
	"mctscheck match "*) echo "skip: 600 games per budget, hours of CPU (scripts/table1.sh)" ;;
	*" FILE "* | *" FILE") echo "skip: FILE stands for a file of one's own" ;;
	"mctscheck check -rule uct -game connect4 -positions games/connect4/testdata/Test_L3_R1") echo "run: $1 -limit 200" ;;
	"mctscheck "*) echo "run" ;;
	"go test -run '^\$' -fuzz '^FuzzMyRule\$' -fuzztime 5m .") echo "skip: run below on the module of its own, for 60 inputs" ;;
	"scripts/fuzz.sh") echo "skip: 30s for each of the repository's fuzz targets; fuzz.Rule runs below" ;;
	"scripts/bench.sh > new.txt") echo "run: $short scripts/bench.sh > new.txt && cp new.txt old.txt" ;;
	"go run ./bench/gate old.txt new.txt") echo "run: go build -o /dev/null ./bench/gate && { go run ./bench/gate old.txt new.txt > gate.txt || [ \$? = 1 ]; }" ;;
	"scripts/benchcmp.sh HEAD~1") echo "skip: the module of its own runs benchcmp.sh below, on its own benchmarks" ;;
	"go test -run '^\$' -bench . -count 10 > "*".txt" | "go tool gate old.txt new.txt" | 'PKG=. '*'/scripts/benchcmp.sh HEAD~1')
		echo "skip: the flow of a module of one's own, run below in one (at -benchtime 200x)" ;;
	"scripts/connect4-overconfidence.sh") echo "skip: a minute of CPU for one figure; go test ./games/connect4 runs its short form" ;;
	"scripts/table1.sh") echo "skip: hours of CPU" ;;
	"scripts/connect4-vs-pons.sh "*) echo "skip: needs Pons' c4solver, built from his repository" ;;
	"go run ./cmd/mctscheck check -rule uct -cpuprofile cpu.out && go tool pprof -top cpu.out | head -20")
		[[ ${QUICK:-} == 1 ]] && echo "skip: QUICK=1: building go tool pprof takes half a minute; the ci workflow's newcomer job runs it" && return
		echo "run: go run ./cmd/mctscheck check -rule uct -cpuprofile cpu.out && go tool pprof -top cpu.out > pprof.txt && grep -q flat pprof.txt" ;;
	"BENCH='Check' COUNT=10 scripts/benchcmp.sh HEAD~1 HEAD" | "scripts/pgo.sh" | "scripts/instrcmp.sh HEAD~1 HEAD" | "scripts/toolcmp.sh 23965f6 HEAD")
		echo "skip: a speed tool, minutes under load: the nightly workflow's speed-tools job runs it" ;;
	*) echo "unknown" ;;
	esac
}

step "clone $repo"
git clone --quiet "$repo" "$clone"
git -C "$clone" log -1 --format='newcomer: at %h %s' >&2

step "1. the commands of the README and docs/"
pages=("$clone/README.md" "$clone/docs/guide.md" "$clone/docs/catalogue.md" "$clone/docs/games.md")
mapfile -t cmds < <(awk '/^```sh[[:space:]]*$/ { on = 1; next } /^```/ { on = 0 } on' "${pages[@]}" |
	sed -E 's/[[:space:]]+#.*$//; s/[[:space:]]+$//' | grep -v '^$')
((${#cmds[@]} > 10)) || fail "only ${#cmds[@]} commands in the sh blocks of ${pages[*]}"
for cmd in "${cmds[@]}"; do
	p=$(plan "$cmd")
	case $p in
	run) try "$clone" "$cmd" ;;
	"run: "*) step "  as: ${p#run: }" && try "$clone" "${p#run: }" ;;
	"skip: "*) step "  skip: $cmd (${p#skip: })" ;;
	*) fail "the command '$cmd' is not in newcomer.sh's plan: run it, shorten it or skip it with a reason" ;;
	esac
done
# The main job's report draws its witnesses; check -dot printed a graph.
grep -q '<svg xmlns="http://www.w3.org/2000/svg" class="tree"' "$clone/mctscheck-report/report.html" ||
	fail "the main job's mctscheck-report/report.html draws no witness tree"
grep -q '^digraph "witness" {' "$clone/witness.dot" || fail "check -dot wrote no DOT graph to witness.dot"
# The gate ran on a benchmark with ns/sim: it must have said so.
grep -q '^gate: judging sec/sim' "$clone/gate.txt" || fail "the gate did not judge ns/sim on the repository's benchmarks"

step "2. a module of one's own, outside the repository, by the README's steps"
mkdir -p "$user"
# ownblock LANG prints the README's "LANG own-module" blocks, one after
# another, with a line "#FILE PATH" before each block that names a file.
ownblock() {
	awk -v lang="$1" '$1 == "```" lang && $2 == "own-module" { on = 1; if ($3 != "") print "#FILE " $3; next }
		/^```/ { on = 0 } on' "$clone/README.md"
}
mapfile -t steps < <(ownblock sh | sed -E 's/[[:space:]]+#.*$//' | grep -v '^$')
((${#steps[@]} >= 5)) || fail "only ${#steps[@]} commands in the README's sh own-module blocks"
file=""
while IFS= read -r line; do
	if [[ $line == "#FILE "* ]]; then
		file=$user/${line#\#FILE }
		mkdir -p "$(dirname "$file")"
		: >"$file"
	elif [[ -n $file ]]; then
		printf '%s\n' "$line" >>"$file"
	fi
done < <(ownblock go)
[[ -n $file ]] || fail "no go own-module block with a file name in the README"
for cmd in "${steps[@]}"; do
	# The clone's URL is this checkout's clone: the module is not published.
	try "$user" "${cmd//https:\/\/github.com\/mctscheck\/mctscheck/$clone}"
done
# The README's ./mycheck is not on PATH: its replay line names it as run.
try "$user" "./mycheck check -rule my-greedy -tree '(max (max 0 1) 0.5)' > built.txt"
line=$(sed -n 's/^replay: //p' "$user/built.txt")
[[ $line == "./mycheck check -rule 'my-greedy' "* ]] || fail "the replay line of ./mycheck does not name ./mycheck: '$line'"
try "$user" "$line | grep -q 'my-greedy is inconsistent'"
try "$user" "grep -q '^tool github.com/mctscheck/mctscheck/bench/gate' go.mod && grep -q '^replace github.com/mctscheck/mctscheck => /.*/mctscheck\$' go.mod"
try "$user" "! go list -deps ./... | grep gonum"

step "  the module grows: a rule package, tests, a fuzz target, benchmarks"
mkdir -p "$user/cmd/mycheck"

cat >"$user/myrule.go" <<'EOF'
// Package myrule holds two selection rules that are not in mctscheck's
// catalogue.
package myrule

import (
	"math"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/rules"
)

// GreedyK simulates every child K times, then picks the greatest mean: a
// good move that loses its K first simulations is never tried again.
type GreedyK struct{ K float64 }

func (g GreedyK) Select(s *core.Site) int {
	for i := range s.Len() {
		if float64(s.Visits(i)) < g.K {
			return i
		}
	}
	return core.Argmax(s.Len(), func(i int) float64 { return s.W(i) / s.N(i) })
}

// Bonus is UCB1 written from scratch: the mean plus C·sqrt(ln N / n).
type Bonus struct{ C float64 }

func (b Bonus) Select(s *core.Site) int {
	for i := range s.Len() {
		if s.N(i) == 0 {
			return i
		}
	}
	logN := math.Log(s.ParentN())
	return core.Argmax(s.Len(), func(i int) float64 { return s.W(i)/s.N(i) + b.C*math.Sqrt(logN/s.N(i)) })
}

// Entry makes GreedyK known to rules.Parse and to the command of cmd/mycheck.
var Entry = &rules.Entry{
	Name:      "greedy-k",
	Summary:   "every child k simulations, then the greatest mean",
	Params:    []rules.Param{{Name: "k", Default: 2, Min: 1, Max: 1e6, Doc: "simulations of each child first"}},
	Predicted: rules.Prediction{Source: "its author", Why: "a good move that loses its k first simulations is never tried again"},
	New:       func(a map[string]float64) core.Rule { return GreedyK{K: a["k"]} },
}
EOF

cat >"$user/myrule_test.go" <<'EOF'
package myrule

import (
	"context"
	"testing"

	"github.com/mctscheck/mctscheck/core"
	"github.com/mctscheck/mctscheck/fuzz"
	"github.com/mctscheck/mctscheck/props"
	"github.com/mctscheck/mctscheck/tree"
)

func TestBonusIsConsistent(t *testing.T) {
	props.Check(t, Bonus{C: 1.4}, props.Options{Trees: 20, Seeds: 2, MaxBudget: 4096})
}

func TestGreedyKIsNot(t *testing.T) {
	rep, err := props.Run(context.Background(), GreedyK{K: 1}, props.Options{Trees: 20, Seeds: 2, MaxBudget: 4096})
	if err != nil || rep.Verdict != props.Inconsistent {
		t.Fatalf("verdict %v, %v; want inconsistent", rep.Verdict, err)
	}
	t.Logf("witness %s", rep.Witness.Tree)
}

func FuzzBonus(f *testing.F) {
	fuzz.Rule(f, Bonus{C: 1.4}, props.Options{RuleSpec: "bonus"})
}

func BenchmarkBonus(b *testing.B) {
	game := tree.MustParse("(max (min 1 0 0.5) (min 0.5 (max 1 0)) (max 0 0.25))").Game()
	for b.Loop() {
		s, err := core.New(game, Bonus{C: 1.4}, core.Config{})
		if err == nil {
			err = s.Run(context.Background(), 200)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
EOF

cat >"$user/cmd/mycheck/main.go" <<'EOF'
package main

import (
	"os"

	"example.com/myrule"
	"github.com/mctscheck/mctscheck/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], myrule.Entry)) }
EOF

try "$user" "go mod tidy && go vet ./..."
step "  props.Check, props.Run and the fuzz target's seed corpus"
try "$user" "go test -count=1 ./..."
# A count, not a duration: Go 1.26's fuzz coordinator can report its own
# -fuzztime deadline as a failure ("context deadline exceeded", no input
# written) when a worker is mid-input as time runs out on a busy machine
# (golang/go#75804, fixed in Go 1.27).
if [[ ${QUICK:-} == 1 ]]; then
	step "  skip: go test -fuzz (QUICK=1: building the module instrumented takes a minute; the ci workflow's newcomer job runs it)"
else
	try "$user" "go test -run '^\$' -fuzz '^FuzzBonus\$' -fuzztime 60x ."
fi

step "  the checker command of one's own"
try "$user" "go install ./cmd/mycheck && mycheck rules greedy-k && mycheck -trees 5 -out report"
try "$user" "mycheck check -rule greedy-k:k=1 -tree '(max (max 0 1) 0.5)' -budget 1024 > check.txt"
line=$(sed -n 's/^replay: //p' "$user/check.txt")
[[ $line == "mycheck check -rule 'greedy-k:k=1' "* ]] || fail "the replay line names no mycheck command: '$line'"
try "$user" "$line | grep -q 'greedy-k:k=1 is inconsistent'"
grep -q "^mycheck check -rule 'greedy-k:k=2'" "$user/report/report.md" || fail "report.md has no replay line of mycheck"
grep -q '<svg xmlns="http://www.w3.org/2000/svg" class="tree"' "$user/report/report.html" ||
	fail "report.html of a command of one's own (no plotting library) draws no witness tree"

step "  the benchmark flow: the gate and benchcmp.sh (a pass or a regression both do: the machine is shared)"
try "$user" "go test -run '^\$' -bench . -benchtime 200x -count 10 > old.txt && go test -run '^\$' -bench . -benchtime 200x -count 10 > new.txt"
# go tool gate is the gate of go.mod's tool line; go run
# github.com/mctscheck/mctscheck/bench/gate is the same program. Exit 1 is
# a regression, so the build is checked first.
try "$user" "go build -o /dev/null github.com/mctscheck/mctscheck/bench/gate && { go run github.com/mctscheck/mctscheck/bench/gate old.txt new.txt > gate.txt || [ \$? = 1 ]; }"
try "$user" "go tool gate old.txt new.txt || [ \$? = 1 ]"
# go tool passes the gate's status on: no note about go run there; -h is 0.
# (bash -e ends at a failing command inside braces: its status is kept.)
try "$user" "go tool gate -h > gate-help.txt && grep -q '^usage: gate' gate-help.txt && { st=0; go tool gate -bogus 2> gate-err.txt || st=\$?; [ \$st = 2 ]; }"
! grep -q 'go run reports' "$user/gate-err.txt" || fail "go tool gate says it runs under go run: $(cat "$user/gate-err.txt")"
grep -q '^gate: judging sec/op' "$user/gate.txt" || fail "the gate did not say it judged sec/op: $(cat "$user/gate.txt")"
try "$user" "git init -q && git add -A && git -c user.name=n -c user.email=n@n commit -qm one && echo '// two' >> myrule.go && git -c user.name=n -c user.email=n@n commit -qam two"
try "$user" "PKG=. BENCHTIME=200x OUT=cmp \"\$(go list -m -f '{{.Dir}}' github.com/mctscheck/mctscheck)\"/scripts/benchcmp.sh HEAD~1 || [ \$? = 1 ]"
grep -q '^gate: judging sec/op' "$user/cmp/gate.txt" || fail "benchcmp.sh's gate did not judge sec/op"

step "PASS in $SECONDS s"
