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
# both sides alike. The caller defines die and run.

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
	local i
	for ((i = 1; i <= $1; i++)); do
		echo "round $i of $1" >&2
		if ((i % 2)); then
			run base
			run head
		else
			run head
			run base
		fi
	done
}
