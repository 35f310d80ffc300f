#!/bin/sh
# perfdb push and pull of text that is not UTF-8 or holds terminal
# escapes, and of one recording under several labels, against a
# throwaway PostgreSQL 15 cluster (lib/pgcluster.sh). A system-wide
# recording while a process named "\377bad\033[31m" runs (its comm, as
# sched_switch fields and in the comm table), imported under a label with
# an escape and a newline; a recording whose workload argv holds \377 (the
# session's perf command line), imported under a label with \377, another
# label, and a label that looks like the server form of text ("r" U+FFFD
# "ff"): push stores all of it (the bytes that are not UTF-8 as U+FFFD
# and two hex digits on the server), pull gives the database back byte for
# byte (sqlite3 .dump), pull -l finds a label with \377, and push and pull
# print the labels escaped (\x1b, \n: one line each, no raw escape). One
# perf.data under three labels is three sessions on the server; a session
# an earlier perfdb pushed (its identity without the label) is found and
# not pushed again, another label of it is; a push that fails names the
# session.
# Run from the repository root. Env: PERFDB, PERFDB_BUILD.
. "$(dirname "$0")/lib/setup.sh"
. tests/integration/lib/pgcluster.sh
at_exit pg_stop
TAP_ERR=$T/err
for tool in perf sqlite3 psql; do
	command -v $tool >/dev/null 2>&1 || { skip "no $tool here"; tap_end; }
done
[ "$(id -u)" = 0 ] || { skip "needs root (a system-wide recording)"; tap_end; }
pg_start_or_end "$T/pg"
A=$T/a.db
ESC=$(printf '\033')
FF=$(printf '\377')
REPL=$(printf '\357\277\275')	# U+FFFD
LBL_ESC=$(printf 'esc\033[31mred\nnext')

# --- the recordings -----------------------------------------------------------
# the workload renames itself (as prctl(PR_SET_NAME) does), then spins
perf record -q -a -e sched:sched_switch -o "$T/comm.data" -- \
	sh -c 'printf "\377bad\033[31m" > /proc/$$/comm; i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done' \
	>/dev/null 2>"$T/err"
"$PERFDB" import -q -o "$A" -l "$LBL_ESC" "$T/comm.data" 2>"$T/err"
check "a system-wide recording while a process named 0xff bad ESC[31m ran: its comm is in the database" \
	[ "$(sqlite3 "$A" "SELECT count(*) FROM comm WHERE instr(CAST(comm AS BLOB), X'FF626164')")" -ge 1 ]
check "... and in sched_switch's comm fields" \
	[ "$(sqlite3 "$A" "SELECT count(*) FROM sample WHERE instr(CAST(f1 AS BLOB), X'FF626164') OR instr(CAST(f4 AS BLOB), X'FF626164')")" -ge 1 ]
perf record -q -e cpu-clock -o "$T/argv.data" -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
	"a${FF}b" >/dev/null 2>"$T/err"
for l in "argv$FF" argv2 "r${REPL}ff"; do
	"$PERFDB" import -q -o "$A" -l "$l" "$T/argv.data" 2>"$T/err" || not_ok "import -l $l"
done
check "one recording whose argv holds the byte 0xff, imported under three labels: three sessions" \
	[ "$(sqlite3 "$A" "SELECT count(*) FROM session WHERE instr(CAST(perf_cmdline AS BLOB), X'61FF62')")" = 3 ]
sqlite3 "$A" .dump >"$T/a.sql"

# --- push: everything stored, labels printed escaped ----------------------------
"$PERFDB" push "$A" --to "$PGCONN" --with-kallsyms >"$T/push1" 2>"$T/err"; rc=$?
check "push: exit 0, the 4 sessions pushed (text that is not UTF-8 too)" \
	eval '[ $rc = 0 ] && [ "$(grep -c "pushed as session" "$T/push1")" = 4 ]'
check "push: one line per session, the escape and newline of a label printed escaped (backslash x1b, backslash n)" \
	eval '[ "$(wc -l <"$T/push1")" = 4 ] && ! grep -q "$ESC" "$T/push1" "$T/err" &&
		grep -qF "label esc\\x1b[31mred\\nnext, host" "$T/push1"'
check "the server holds the comm with byte 0xff as U+FFFD and ff (the server form of text)" \
	[ "$(psqlq "SELECT count(*) FROM comm WHERE comm LIKE '${REPL}ffbad${ESC}[31m%'")" -ge 1 ]
check "one perf.data under three labels is three sessions on the server, each label there" \
	[ "$(psqlq "SELECT count(*) FROM session WHERE label IN ('argv${REPL}ff', 'argv2', 'r${REPL}${REPL}ff')")" = 3 ]
"$PERFDB" push "$A" --to "$PGCONN" --with-kallsyms >"$T/push2" 2>"$T/err"; rc=$?
check "push again: every session 'already on the server'" \
	eval '[ $rc = 0 ] && [ "$(grep -c "already on the server as session" "$T/push2")" = 4 ]'

# --- pull: the same bytes back ------------------------------------------------
"$PERFDB" pull --from "$PGCONN" -o "$T/b.db" >"$T/pull1" 2>"$T/err"; rc=$?
check "pull: exit 0, 4 sessions, labels printed escaped (no raw escape)" \
	eval '[ $rc = 0 ] && [ "$(grep -c "pulled as session" "$T/pull1")" = 4 ] && [ "$(wc -l <"$T/pull1")" = 4 ] &&
		! grep -q "$ESC" "$T/pull1" && grep -qF "label esc\\x1b[31mred\\nnext, host" "$T/pull1"'
sqlite3 "$T/b.db" .dump >"$T/b.sql"
check "the pulled database is the pushed one, byte for byte (sqlite3 .dump): bytes 0xff, escapes, U+FFFD" \
	cmp -s "$T/a.sql" "$T/b.sql"
cmp -s "$T/a.sql" "$T/b.sql" || diff "$T/a.sql" "$T/b.sql" | head -4 | cut -c1-160 | sed 's/^/#   /'
"$PERFDB" pull --from "$PGCONN" -l "argv$FF" -o "$T/c.db" >"$T/out" 2>"$T/err"; rc=$?
check "pull -l with a label holding the byte 0xff finds its session" \
	eval '[ $rc = 0 ] && [ "$(sqlite3 "$T/c.db" "SELECT hex(label) FROM session")" = 61726776FF ]'

# --- identity: a server an earlier perfdb filled ---------------------------------
perf record -q -e cpu-clock -o "$T/plain.data" -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
	>/dev/null 2>"$T/err"
"$PERFDB" import -q -o "$T/l.db" -l plain "$T/plain.data" 2>"$T/err" &&
	"$PERFDB" import -q -o "$T/l.db" -l plain2 "$T/plain.data" 2>"$T/err"
createdb -h "$PG_DIR/sock" -U perfdb old
OLD="host=$PG_DIR/sock user=perfdb dbname=old"
"$PERFDB" push "$T/l.db" -s plain --to "$OLD" >/dev/null 2>"$T/err"
# what an earlier perfdb kept: md5 of the identity without the label
psql -X -q -v ON_ERROR_STOP=1 "$OLD" -c "UPDATE perfdb_pushed p SET uid = md5(concat_ws(chr(31),
	'perfdb-session-v1', coalesce(s.hostname, '\N'), coalesce(s.os_release, '\N'), coalesce(s.arch, '\N'),
	coalesce(s.cpuid, '\N'), coalesce(s.perf_version, '\N'), coalesce(s.perf_cmdline, '\N'),
	coalesce(s.first_time::text, '\N'), coalesce(s.last_time::text, '\N'), coalesce(s.nr_records::text, '\N'),
	coalesce(s.nr_samples::text, '\N'), coalesce(s.clock_wall_ns::text, '\N'))) FROM session s
	WHERE s.id = p.session_id" 2>"$T/err"
"$PERFDB" push "$T/l.db" --to "$OLD" >"$T/out" 2>"$T/err"; rc=$?
check "a session an earlier perfdb pushed (its identity without the label): found, not pushed again, said so" \
	eval '[ $rc = 0 ] && grep -q "label plain,.*already on the server as session 1 (pushed by an earlier perfdb" "$T/out"'
check "... the same recording under another label is pushed: 2 sessions on the server" \
	eval 'grep -q "label plain2,.*pushed as session" "$T/out" &&
		[ "$(psql -X -A -t "$OLD" -c "SELECT count(*) FROM session")" = 2 ]'
check "... nothing the server held was rewritten (its perfdb_pushed row as the earlier perfdb left it)" \
	[ "$(psql -X -A -t "$OLD" -c "SELECT count(*) FROM perfdb_pushed")" = 2 ]
"$PERFDB" push "$T/l.db" --to "$OLD" >"$T/out" 2>"$T/err"; rc=$?
check "... push again: both 'already on the server'" \
	eval '[ $rc = 0 ] && [ "$(grep -c "already on the server as session" "$T/out")" = 2 ]'

# --- a push that fails names the session -----------------------------------------
psqlq "CREATE ROLE pusher LOGIN; GRANT SELECT ON perfdb_meta TO pusher" >/dev/null
"$PERFDB" push "$A" -s argv2 --to "host=$PG_DIR/sock user=pusher dbname=perfdb" >"$T/out" 2>"$T/err"; rc=$?
check "a push the server refuses (no right on perfdb_pushed): exit 2, one line naming the session" \
	eval '[ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
		grep -q "^perfdb push: session 3 (label argv2, host .*): .*permission denied" "$T/err"'
tap_end
