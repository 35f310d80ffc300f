#!/bin/sh
# Runs every perfdb test (unit binaries, then integration scripts) and prints
# one closing line "N passed, N failed". Each test speaks TAP ("ok N - ..." /
# "not ok N - ..."); a test that exits non-zero without saying "not ok"
# counts as one failure. Usage: tests/run.sh [BUILD_DIR] [PATTERN]
BUILD=${1:-build}
PATTERN=${2:-}
export PERFDB_BUILD="$BUILD"
export PERFDB="$(pwd)/$BUILD/perfdb"
export PERFDB_SHARED="${PERFDB_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}"
[ -d "$PERFDB_SHARED" ] || PERFDB_SHARED="$(pwd)/../shared"
pass=0; fail=0
log=$(mktemp); trap 'rm -f "$log"' EXIT
for t in "$BUILD"/tests/test_* tests/integration/*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *"$PATTERN"*) ;; *) continue ;; esac
	echo "# $t"
	case "$t" in
	*.sh) sh "$t" >"$log" 2>&1 ;;
	*) "$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	p=$(grep -c '^ok ' "$log"); f=$(grep -c '^not ok ' "$log")
	grep -E '^(not ok|#)' "$log" | head -40
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $t exited $rc"; tail -5 "$log"; f=1
	fi
	echo "#   $p passed, $f failed"
	pass=$((pass + p)); fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
