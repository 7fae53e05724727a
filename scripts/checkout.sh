# checkout.sh is sourced by benchcmp.sh and toolcmp.sh: it finds the module
# in the current directory, checks commits out for them to build, and runs
# their two sides alternately.
#
# After sourcing: $moddir is the module's directory (the script has cd'd
# there), $sub its path within the repository, $work a temporary directory
# removed on exit with the worktrees checked out into it, and
#
#   checkout REV NAME
#
# sets $src to a directory holding the module at REV: REV itself if it is
# a directory with a go.mod (a work tree with uncommitted changes, say),
# else a git worktree of commit REV under $work/NAME, and
#
#   alternate COUNT
#
# calls the caller's run base and run head COUNT times each, alternating
# which goes first (ABBA), so that a change in the machine's speed falls on
# both sides alike, and prints the rounds done with the time left on stderr. The caller defines die and run. For the scripts that
# compare two builds of the tool (toolcmp.sh, instrcmp.sh):
#
#   split_revs USAGE ARGS...
#
# sets $revs to the commits before "--" in ARGS (one or two; else it dies
# with USAGE) and $args to the words after it,
#
#   build_tool SIDE
#
# checks out side SIDE (base: ${revs[0]}, head: ${revs[1]}, default HEAD)
# and builds its mctscheck as $work/SIDE.bin, with that commit's
# default.pgo, and
#
#   compare_outputs
#
# compares $out/base.out with $out/head.out, the JSON fields that hold
# timings removed: it prints whether they match, leaves the differences in
# $out/outputs.diff, and returns 0 when they match, 1 when they differ.

# shellcheck source=scripts/progress.sh
. "$(dirname "${BASH_SOURCE[0]}")/progress.sh"

gomod=$(go env GOMOD)
[[ -n $gomod && $gomod != /dev/null ]] || die "not in a Go module"
moddir=$(dirname "$gomod")
root=$(git -C "$moddir" rev-parse --show-toplevel) || die "the module is not in a git repository"
moddir=$(cd "$moddir" && pwd -P)
root=$(cd "$root" && pwd -P)
sub=${moddir#"$root"} # the module's directory within the repository
sub=${sub#/}
cd "$moddir"

work=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh)-work.XXXXXX")
worktrees=()
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	for wt in "${worktrees[@]}"; do
		git worktree remove --force "$wt" >/dev/null 2>&1 || true
	done
	rm -rf "$work"
}
trap cleanup EXIT

checkout() {
	local rev=$1 name=$2
	if [[ -d $rev && -f $rev/go.mod ]]; then
		src=$(cd "$rev" && pwd)
		echo "$name: directory $src" >&2
		return
	fi
	local sha wt
	sha=$(git rev-parse --verify --quiet "$rev^{commit}") || die "$rev is neither a commit nor a module directory"
	wt=$work/$name
	git worktree add --quiet --detach "$wt" "$sha" || die "git worktree add $sha failed"
	worktrees+=("$wt")
	src=$wt/$sub
	echo "$name: $(git log -1 --format='%h %s' "$sha")" >&2
}

alternate() {
	local i rounds_start=$SECONDS
	for ((i = 1; i <= $1; i++)); do
		if ((i == 1)); then
			echo "${0##*/}: round 1 of $1" >&2
		else
			progress_start=$rounds_start progress "${0##*/}" $((i - 1)) "$1" "rounds done"
		fi
		if ((i % 2)); then
			run base
			run head
		else
			run head
			run base
		fi
	done
}

split_revs() {
	local usage=$1
	shift
	revs=()
	while (($# > 0)) && [[ $1 != -- ]]; do
		revs+=("$1")
		shift
	done
	((${#revs[@]} >= 1 && ${#revs[@]} <= 2)) || die "usage: $usage"
	(($# == 0)) || shift # the --
	args=("$@")
}

build_tool() {
	local side=$1 rev=${revs[0]}
	[[ $side == head ]] && rev=${revs[1]:-HEAD}
	checkout "$rev" "$side"
	[[ -d $src/cmd/mctscheck ]] || die "$rev has no cmd/mctscheck"
	(cd "$src" && go build -o "$work/$side.bin" ./cmd/mctscheck) || die "building the tool of $rev failed"
}

compare_outputs() {
	local timings='"[a-z_]*(elapsed|seconds|per_second)[a-z_]*":'
	if diff <(grep -Ev "$timings" "$out/base.out") <(grep -Ev "$timings" "$out/head.out") >"$out/outputs.diff"; then
		echo "outputs: the same, timings aside"
		return 0
	fi
	echo "outputs: DIFFERENT, timings aside (diff in $out/outputs.diff)"
	return 1
}
