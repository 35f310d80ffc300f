#!/bin/sh
# Runs every perfdb test (unit binaries, then integration scripts) and prints
# one closing line "N passed, N failed, N skipped", after the list of every
# skip with its reason. Each test speaks TAP ("ok N - ...", "not ok N - ...",
# "ok N - # SKIP why"); a skip is never counted as a pass, and a test that
# exits non-zero without saying "not ok" counts as one failure. Each test's
# line of counts ends with its wall time.
# Usage: tests/run.sh [BUILD_DIR] [PATTERN]
BUILD=${1:-build}
PATTERN=${2:-}
export PERFDB_BUILD="$BUILD"
export PERFDB="$(pwd)/$BUILD/perfdb"
export PERFDB_SHARED="${PERFDB_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}"
[ -d "$PERFDB_SHARED" ] || PERFDB_SHARED="$(pwd)/../shared"
pass=0; fail=0; skipped=0
log=$(mktemp); skips=$(mktemp); pybin=$(mktemp -d)
trap 'rm -f "$log" "$skips"; rm -rf "$pybin"' EXIT
# The tests run python3 (their oracles) a few thousand times. Where python3
# is a version manager's shim (pyenv, asdf: a shell script that finds the
# interpreter on every call) each call costs about 0.15 s more: the tests
# call the interpreter the shim picks, directly.
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ -x "$py" ] && [ "$py" != "$(command -v python3)" ]; then
	ln -s "$py" "$pybin/python3" && PATH=$pybin:$PATH && export PATH
fi
for t in "$BUILD"/tests/test_* tests/integration/*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *"$PATTERN"*) ;; *) continue ;; esac
	echo "# $t"
	t0=$(date +%s%N)
	case "$t" in
	*.sh) sh "$t" >"$log" 2>&1 ;;
	*) "$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	s=$(grep -Ec '^ok [0-9]+ - # SKIP' "$log")
	p=$(($(grep -c '^ok ' "$log") - s)); f=$(grep -c '^not ok ' "$log")
	if [ "$f" -gt 0 ]; then	# a failure shows everything but the passes (tracebacks too)
		grep -vE '^ok ' "$log" | head -60
	else
		grep -E '^#' "$log" | head -40
	fi
	grep -E '^ok [0-9]+ - # SKIP' "$log" | sed "s|^ok [0-9]* - # SKIP *|$t: |" >>"$skips"
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $t exited $rc"; tail -5 "$log"; f=1
	fi
	secs=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
	echo "#   $p passed, $f failed, $s skipped in $secs s"
	pass=$((pass + p)); fail=$((fail + f)); skipped=$((skipped + s))
done
if [ -s "$skips" ]; then
	echo "# skipped:"
	sed 's/^/#   /' "$skips"
fi
echo "# machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
	"$(getconf _NPROCESSORS_ONLN) CPUs online, kernel $(uname -r)"
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
