#!/bin/sh
# perfdb pull when the server does not give what was asked, against a
# throwaway PostgreSQL 15 cluster (lib/pgcluster.sh): pull -s of what the
# server lacks gives exit 2, one line, no new database left behind, and
# an existing database unchanged. No perf needed (synthetic recordings).
# Run from the repository root. Env: PERFDB, PERFDB_BUILD.
B=${PERFDB_BUILD:-build}
PERFDB=${PERFDB:-$(pwd)/$B/perfdb}
. tests/integration/lib/pgcluster.sh
T=$(mktemp -d) || exit 2
trap 'pg_stop; rm -rf "$T"' EXIT
. tests/integration/lib/tap.sh
TAP_ERR=$T/err
for tool in sqlite3 psql; do
	command -v $tool >/dev/null 2>&1 || { skip "no $tool here"; tap_end; }
done
pg_start_or_end "$T/pg"
sha() { sha256sum "$1" | cut -d' ' -f1; }

# two sessions (synthetic recordings of different shapes), pushed
"$B/tests/tools/cpu_rounds" "$T/r1.data" 2 4 1 >/dev/null && "$B/tests/tools/cpu_rounds" "$T/r2.data" 3 4 1 >/dev/null &&
	"$PERFDB" import -q -o "$T/a.db" -l one "$T/r1.data" && "$PERFDB" import -q -o "$T/a.db" -l two "$T/r2.data" &&
	"$PERFDB" push "$T/a.db" --to "$PGCONN" >/dev/null 2>"$T/err"
check "two sessions pushed" [ "$(psqlq "SELECT count(*) FROM session")" = 2 ]
# a database pull adds to, which must stay as it is when a pull fails
"$B/tests/tools/cpu_rounds" "$T/r3.data" 1 4 1 >/dev/null && "$PERFDB" import -q -o "$T/have.db" "$T/r3.data"
have=$(sha "$T/have.db")

# refused WHAT WANT CONNINFO [PULL ARGS...]: pull from CONNINFO refused in
# one line matching WANT, exit 2; no new database, the existing one unchanged
refused() {
	what=$1 want=$2 conn=$3
	shift 3
	rm -f "$T/new.db"
	"$PERFDB" pull --from "$conn" "$@" -o "$T/new.db" >"$T/out" 2>"$T/err"; rc=$?
	check "$what: exit 2, one line saying so, no database left behind" \
		eval '[ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "$want" "$T/err" && [ ! -e "$T/new.db" ]'
	"$PERFDB" pull --from "$conn" "$@" -o "$T/have.db" >"$T/out" 2>"$T/err"; rc=$?
	check "$what: pulled into a database: exit 2, the database unchanged" \
		eval '[ $rc = 2 ] && [ "$(sha "$T/have.db")" = "$have" ] && [ ! -e "$T/have.db-journal" ]'
}

# --- what the server lacks ---------------------------------------------------------
refused "pull -s of a session the server lacks" "no session or bench 'nosuch' on the server" "$PGCONN" -s nosuch
tap_end
