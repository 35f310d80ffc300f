#!/bin/sh
# tests/run.sh's own counting, on a tree of made-up tests: a test that skips
# entirely is one skip (not a pass), a skip among passes is a skip, every
# skip is listed with its test and reason before the summary line, a test
# that exits non-zero without "not ok" is one failure, and the summary line
# is exactly "N passed, N failed, N skipped" with a non-zero exit status
# when something failed.
set -u
. "$(dirname "$0")/lib/setup.sh"
RUN=$(pwd)/tests/run.sh
mkdir -p "$T/tests/integration" "$T/b/tests"
printf '#!/bin/sh\necho "ok 1 - # SKIP no such hardware"\n' >"$T/tests/integration/a_allskip.sh"
printf '#!/bin/sh\necho "ok 1 - one"\necho "ok 2 - # SKIP not here"\necho "ok 3 - two"\n' \
	>"$T/tests/integration/b_mixed.sh"
printf '#!/bin/sh\necho "ok 1 - fine"\nexit 3\n' >"$T/tests/integration/c_crash.sh"
printf '#!/bin/sh\necho "ok 1 - unit"\necho "not ok 2 - broken"\nexit 1\n' >"$T/b/tests/test_unit"
chmod +x "$T/b/tests/test_unit"
(cd "$T" && PERFDB_SHARED=/nonexistent sh "$RUN" b) >"$T/out" 2>&1
rc=$?
last=$(tail -1 "$T/out")
[ "$last" = "4 passed, 2 failed, 2 skipped" ] && ok "summary line: 4 passed, 2 failed, 2 skipped" ||
	{ not_ok "summary line: '$last'"; sed 's/^/# /' "$T/out" | tail -20; }
[ $rc -ne 0 ] && ok "exit status non-zero after failures" || not_ok "exit status $rc after failures"
grep -qx "#   tests/integration/a_allskip.sh: no such hardware" "$T/out" &&
	grep -qx "#   tests/integration/b_mixed.sh: not here" "$T/out" &&
	ok "every skip listed with its test and reason" || not_ok "skips not listed"
grep -q "^not ok - tests/integration/c_crash.sh exited 3" "$T/out" &&
	ok "a test exiting 3 without 'not ok' is a failure" || not_ok "exit 3 not reported"
# only passes and skips: exit 0
rm "$T/b/tests/test_unit" "$T/tests/integration/c_crash.sh"
(cd "$T" && PERFDB_SHARED=/nonexistent sh "$RUN" b) >"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(tail -1 "$T/out")" = "2 passed, 0 failed, 2 skipped" ] &&
	ok "passes and skips only: exit 0, 2 passed, 0 failed, 2 skipped" ||
	not_ok "passes and skips only: exit $rc, '$(tail -1 "$T/out")'"
[ "$failed" -eq 0 ]
