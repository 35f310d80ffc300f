#!/bin/sh
# The PostgreSQL schema is the SQLite one: on a throwaway PostgreSQL 15
# cluster (tests/integration/lib/pgcluster.sh), the schema perfdb push
# creates has the same tables with the same columns in the same order
# (types mapped: INTEGER bigint, TEXT text, REAL double precision, BLOB
# bytea, untyped text), the same views with the same columns, and the
# same named indexes as a database perfdb makes; the DDL printed by
# build/tests/tools/pg_ddl loads on its own; and each typed tracepoint
# view's column type on the server (text or bigint, pg_schema.c's rule)
# is the type the importer stored in that column of a real recording.
# Run from the repository root. Env: PERFDB, PERFDB_BUILD.
. "$(dirname "$0")/lib/setup.sh"
W=$(cd "$B/workloads" 2>/dev/null && pwd)
. tests/integration/lib/pgcluster.sh
at_exit pg_stop
for tool in perf sqlite3 psql python3; do
	command -v $tool >/dev/null 2>&1 || { skip "no $tool here"; tap_end; }
done
[ "$(id -u)" = 0 ] || { skip "needs root (a system-wide recording)"; tap_end; }
pg_start_or_end "$T/pg"
ev=sched:sched_switch,sched:sched_waking,sched:sched_process_exec,sched:sched_process_exit,tlb:tlb_flush,ipi:ipi_send_cpu,csd:csd_queue_cpu,csd:csd_function_entry,mmap_lock:mmap_lock_start_locking,irq_vectors:call_function_entry
perf record -q -a -m 512 -e "$ev" -o "$T/r.data" -- "$W/tlbflush" --seconds 0.2 >/dev/null 2>&1 ||
	perf record -q -a -m 512 -e sched:sched_switch -o "$T/r.data" -- "$W/tlbflush" --seconds 0.2 >/dev/null 2>&1
"$PERFDB" import -q -o "$T/a.db" "$T/r.data" && ok "a recording imported" || not_ok "a recording imported"
"$PERFDB" push "$T/a.db" --to "$PGCONN" >/dev/null 2>"$T/err" && ok "pushed (the server schema made)" ||
	{ not_ok "pushed"; sed 's/^/#   /' "$T/err"; }
createdb -h "$PG_DIR/sock" -U perfdb ddl
"$B/tests/tools/pg_ddl" > "$T/ddl.sql"
if psql -X -q -v ON_ERROR_STOP=1 "host=$PG_DIR/sock user=perfdb dbname=ddl" -f "$T/ddl.sql" >/dev/null 2>"$T/err"; then
	ok "pg_ddl's schema loads on its own"
else
	not_ok "pg_ddl's schema loads on its own"; sed 's/^/#   /' "$T/err" | head -3
fi
psqlq "SELECT c.table_name, t.table_type, c.column_name, c.data_type FROM information_schema.columns c
	JOIN information_schema.tables t USING (table_schema, table_name)
	WHERE c.table_schema = 'public' AND c.table_name NOT LIKE 'perfdb\_%'
	AND c.table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)
	ORDER BY c.table_name, c.ordinal_position" > "$T/pg.cols"
psqlq "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%\_pkey'
	AND indexname NOT LIKE '%\_key' AND tablename NOT IN (SELECT relname FROM pg_class WHERE relispartition)
	AND tablename NOT LIKE 'perfdb\_%' ORDER BY 1" > "$T/pg.idx"
psqlq "SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
	JOIN information_schema.views v USING (table_schema, table_name)
	WHERE c.table_schema = 'public' AND v.view_definition LIKE '%tp_table =%' AND c.ordinal_position > 1
	ORDER BY 1, c.ordinal_position" > "$T/pg.tp"
python3 - "$T/a.db" "$T" <<'PY'
import sqlite3, sys
db, tdir = sys.argv[1], sys.argv[2]
c = sqlite3.connect(db)
kinds = {"table": "BASE TABLE", "view": "VIEW"}
types = {"INTEGER": "bigint", "TEXT": "text", "REAL": "double precision", "BLOB": "bytea", "": "text"}
lite, pg = {}, {}
for name, kind in c.execute("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') "
                            "AND name NOT LIKE 'sqlite%'"):
    cols = c.execute("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", (name,)).fetchall()
    lite[name] = (kinds[kind], [(n, types.get(t.upper(), t) if kind == "table" else "") for n, t in cols])
for line in open(tdir + "/pg.cols"):
    t, kind, col, typ = line.rstrip("\n").split("|")
    pg.setdefault(t, (kind, []))[1].append((col, typ if kind == "BASE TABLE" else ""))
n = 0
def say(good, what, det=()):
    global n
    n += 1
    print("%sok %d - %s" % ("" if good else "not ", n + 4, what))
    for d in list(det)[:10]:
        print("#   " + d)
tabs = [k for k in lite if lite[k][0] == "BASE TABLE"]
views = [k for k in lite if lite[k][0] == "VIEW"]
say(sorted(k for k in pg if pg[k][0] == "BASE TABLE") == sorted(tabs),
    "the same %d tables on both engines" % len(tabs),
    set(tabs) ^ set(k for k in pg if pg[k][0] == "BASE TABLE"))
say(sorted(k for k in pg if pg[k][0] == "VIEW") == sorted(views), "the same %d views on both engines" % len(views),
    set(views) ^ set(k for k in pg if pg[k][0] == "VIEW"))
bad = ["%s: sqlite %s, pg %s" % (k, lite[k][1], pg.get(k, ("", []))[1]) for k in tabs if lite[k][1] != pg.get(k, ("", []))[1]]
say(not bad, "every table has the same columns in the same order, with the mapped types", bad)
bad = ["%s: sqlite %s, pg %s" % (k, lite[k][1], pg.get(k, ("", []))[1]) for k in views if lite[k][1] != pg.get(k, ("", []))[1]]
say(not bad, "every view has the same columns in the same order", bad)
idx = sorted(r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))
pgi = [l.strip() for l in open(tdir + "/pg.idx") if l.strip()]
say(idx == pgi, "the same %d named indexes" % len(idx), set(idx) ^ set(pgi))
bad, seen = [], 0
for line in open(tdir + "/pg.tp"):
    view, col, typ = line.rstrip("\n").split("|")
    stored = {r[0] for r in c.execute('SELECT DISTINCT typeof("%s") FROM "%s"' % (col, view))} - {"null"}
    seen += bool(stored)
    want = {"text"} if typ == "text" else {"integer"}
    if stored and stored != want:
        bad.append("%s.%s: server %s, stored %s" % (view, col, typ, sorted(stored)))
say(not bad and seen >= 10, "each typed tracepoint view column's server type is what the import stored (%d columns with data)" % seen, bad)
print("1..%d" % (n + 4))
PY
