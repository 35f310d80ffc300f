#!/bin/sh
# Upgrading older databases (schema/migrate.c): a database of schema
# version 8 (no distributions: run_dist and the like, bench.parse; no
# knobs: bench_set, bench_knob, run_knob), one of
# version 7 (no sittings, pulse or watch canary), one of version 6 (no lost table: what perf lost only as two totals), one of schema
# version 4 (no bench tables; made here from a current one the way version
# 4 was: the bench tables, views and workload_metric's unit and better
# dropped) and one of version 5 (bench_metrics listing a cell's parameters
# by name) are refused by an analyzer with one line saying which verb
# upgrades them, and upgraded by a writer (perfdb bench -o) to the current
# version: every session and run kept, bench_metrics listing parameters in
# the order -p gave them, the analyzers' output the same as before. A
# newer version than this perfdb's is refused. Prints TAP lines.
# Run from the repository root: sh tests/integration/migrate.sh
# shellcheck disable=SC2016 # eval'd checks expand their variables late
. "$(dirname "$0")/lib/setup.sh"
WORK=$(pwd)/tests/programs/bench_work.sh
cur=$(sed -n 's/^#define PERFDB_SCHEMA_VERSION \([0-9]*\).*/\1/p' schema/db.h)

# A current database: a session (a recording of the yield workload) and a
# bench whose parameters are not in name order (z before a).
DB=$T/cur.db
"$PERFDB" record -q -o "$DB" -l s -r sched -- yield --seconds 0.1 >/dev/null 2>&1 ||
	not_ok "record: $("$PERFDB" record -q -o "$DB" -l s -r sched -- yield --seconds 0.1 2>&1 | head -1)"
"$PERFDB" bench -q -o "$DB" -l b --runs 2 -p z=1,2 -p a=x -- sh "$WORK" "$T/log" {z} {a} >/dev/null 2>&1
"$PERFDB" sched "$DB" --format json >"$T/sched.before" 2>&1
"$PERFDB" results "$DB" --format json >"$T/results.before" 2>&1
sqlite3 "$DB" "SELECT params FROM bench_metrics ORDER BY run_id" >"$T/params.cur"
check "the current schema lists a cell's parameters in -p order" eval '[ "$(head -1 "$T/params.cur")" = "z=1 a=x" ]'

# Version 8: no distributions, no bench.parse, no knobs (--set).
cp "$DB" "$T/v8.db"
sqlite3 "$T/v8.db" <<'SQL'
DROP TABLE run_dist; DROP TABLE run_sample; DROP TABLE workload_dist; DROP TABLE workload_sample;
DROP TABLE bench_set; DROP TABLE bench_knob; DROP TABLE run_knob;
ALTER TABLE bench DROP COLUMN parse;
PRAGMA user_version = 8;
SQL
# Version 7: no sittings, no pulse, no watch canary.
cp "$T/v8.db" "$T/v7.db"
sqlite3 "$T/v7.db" <<'SQL'
DROP TABLE bench_sitting; DROP TABLE watch_canary;
ALTER TABLE bench_run DROP COLUMN sitting; ALTER TABLE bench_run DROP COLUMN pulse_int;
ALTER TABLE bench_run DROP COLUMN pulse_mem; ALTER TABLE bench_run DROP COLUMN others_cpu_ns;
ALTER TABLE bench_run DROP COLUMN steal_ns;
ALTER TABLE session DROP COLUMN pulse_int; ALTER TABLE session DROP COLUMN pulse_mem;
ALTER TABLE session DROP COLUMN others_cpu_ns; ALTER TABLE session DROP COLUMN steal_ns;
PRAGMA user_version = 7;
SQL
# Version 6: no lost table, no session.nr_lost_records (what the
# sessions lost only as the two totals).
cp "$T/v7.db" "$T/v6.db"
sqlite3 "$T/v6.db" <<'SQL'
DROP TABLE lost;
ALTER TABLE session DROP COLUMN nr_lost_records;
PRAGMA user_version = 6;
SQL
# Version 5: the old bench_metrics (parameters by name).
cp "$T/v6.db" "$T/v5.db"
sqlite3 "$T/v5.db" <<'SQL'
DROP VIEW bench_metrics;
CREATE VIEW bench_metrics AS
SELECT b.label, b.id AS bench_id, b.boot_id, b.os_release, b.kernel_build_id, b.hostname,
       r.cell, (SELECT group_concat(c.name || '=' || c.value, ' ') FROM bench_cell c
                WHERE c.bench_id = r.bench_id AND c.cell = r.cell) AS params,
       r.id AS run_id, r.run, r.kind, r.status, m.name AS metric, m.value, m.unit, m.better,
       r.wall_ns, r.user_ns, r.sys_ns, r.session_id
FROM bench_run r JOIN bench b ON b.id = r.bench_id JOIN run_metric m ON m.run_id = r.id;
PRAGMA user_version = 5;
SQL
# Version 4: no bench at all.
cp "$T/v6.db" "$T/v4.db"
sqlite3 "$T/v4.db" <<'SQL'
DROP VIEW bench_metrics;
DROP TABLE run_metric; DROP TABLE bench_run; DROP TABLE bench_cell; DROP TABLE bench_param; DROP TABLE bench;
ALTER TABLE workload_metric DROP COLUMN unit;
ALTER TABLE workload_metric DROP COLUMN better;
PRAGMA user_version = 4;
SQL

for v in 4 5 6 7 8; do
	f=$T/v$v.db
	"$PERFDB" sched "$f" --format json >"$T/out" 2>"$T/err"; rc=$?
	check "v$v: an analyzer refuses it with one line naming the verbs that upgrade it" \
		eval '[ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "schema version $v, this perfdb reads $cur: a verb that writes to it" "$T/err"'
	"$PERFDB" bench -q -o "$f" -l after --runs 1 -p z=3 -p a=y -- sh "$WORK" "$T/log" {z} {a} >/dev/null 2>"$T/err"; rc=$?
	check "v$v: perfdb bench -o upgrades it to version $cur and adds its bench" \
		eval '[ $rc = 0 ] && [ "$(sqlite3 "$f" "PRAGMA user_version")" = "$cur" ] && [ "$(sqlite3 "$f" "SELECT count(*) FROM bench WHERE label = '"'after'"'")" = 1 ]'
	"$PERFDB" sched "$f" --format json >"$T/sched.after" 2>&1
	check "v$v: the session is kept: perfdb sched prints what it printed before (lost_records unknown before v7: null)" \
		python3 - "$T/sched.before" "$T/sched.after" "$v" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
if int(sys.argv[3]) < 7:
    assert all(s.pop("lost_records") is None for s in b["sessions"]), b["sessions"]
    for s in a["sessions"]:
        s.pop("lost_records")
assert a == b, (a, b)
PY
	check "v$v: bench_metrics lists parameters in -p order" \
		eval '[ "$(sqlite3 "$f" "SELECT params FROM bench_metrics WHERE label = '"'after'"'")" = "z=3 a=y" ]'
done
check "v7: the upgrade adds the sittings, the pulse and the canary, NULL for what was stored before" \
	eval '[ "$(sqlite3 "$T/v7.db" "SELECT count(*) FROM bench_sitting s JOIN bench b ON b.id = s.bench_id WHERE label = '"'b'"'; SELECT count(*) FROM watch_canary; SELECT count(sitting), count(pulse_int) FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '"'b'"'")" = "0
0
0|0" ]'
check "v6: the upgrade adds the lost table and session.nr_lost_records" \
	eval '[ "$(sqlite3 "$T/v6.db" "SELECT count(*) FROM lost; SELECT count(nr_lost_records) FROM session")" = "0
0" ]'
"$PERFDB" results "$T/v5.db" -l b --format json >"$T/results.after" 2>&1
check "v5: the bench's runs are kept: perfdb results -l b prints what it printed before" \
	python3 - "$T/results.before" "$T/results.after" <<'PY'
import json, sys
a, b = (json.load(open(f))["findings"]["results"] for f in sys.argv[1:])
assert a == b, (a, b)
PY
cp "$DB" "$T/v99.db"
sqlite3 "$T/v99.db" "PRAGMA user_version = 99"
"$PERFDB" bench -q -o "$T/v99.db" -l x --runs 1 -- true >/dev/null 2>"$T/err"; rc=$?
check "a newer version is refused, left as it was" \
	eval '[ $rc = 2 ] && grep -q "schema version 99.*a newer perfdb made it" "$T/err" && [ "$(sqlite3 "$T/v99.db" "PRAGMA user_version")" = 99 ]'
echo "1..$n"
[ "$failed" -eq 0 ]
