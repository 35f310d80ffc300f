# shellcheck shell=sh
# The start every integration test shares (sourced, POSIX sh; `set -u`
# safe). A test runs from the repository root and begins with
#   . "$(dirname "$0")/lib/setup.sh"
# which sets
#   B       the build directory: $PERFDB_BUILD, default build
#   PERFDB  the perfdb binary: $PERFDB, default $PWD/$B/perfdb
#   LIB     this folder (tests/integration/lib), absolute
#   T       a new temporary directory, removed at exit
# and sources tap.sh (ok, not_ok, skip, check, tap_end, oracle ...).
#   at_exit CMD       CMD runs at exit, before $T goes (the last added
#                     first): a cluster to stop, a mount to undo
#   keep_tmp          $T stays after the test, its path said in a comment
#   private_perfdb [workloads]
#                     the test runs a copy of perfdb in $T (perf starts
#                     perfdb again as a workload's wrapper, and a rebuild of
#                     $PERFDB during the test must not pull it away); with
#                     "workloads", $B/workloads is copied beside it (perfdb
#                     finds its workloads next to itself). A failed copy
#                     leaves $PERFDB as it was.
B=${PERFDB_BUILD:-build}
PERFDB=${PERFDB:-$(pwd)/$B/perfdb}
LIB=$(cd "$(dirname "$0")/lib" && pwd)
T=$(mktemp -d) || exit 2
_setup_at_exit=:
_setup_keep=
at_exit() { _setup_at_exit="$1; $_setup_at_exit"; }
keep_tmp() { _setup_keep=1; echo "# kept: $T"; }
trap 'eval "$_setup_at_exit"; [ -n "$_setup_keep" ] || rm -rf "$T"' EXIT
# shellcheck disable=SC2120 # its one argument is optional
private_perfdb() {
	cp "$PERFDB" "$T/perfdb" || return
	[ "${1:-}" != workloads ] || cp -r "$B/workloads" "$T/workloads" || return
	PERFDB=$T/perfdb
}
# shellcheck source=tests/integration/lib/tap.sh
. "$LIB/tap.sh"
