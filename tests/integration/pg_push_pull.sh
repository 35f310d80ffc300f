#!/bin/sh
# perfdb push and pull against a throwaway PostgreSQL 15 cluster started
# here (tests/integration/lib/pgcluster.sh: initdb and pg_ctl in a
# temporary directory, unix socket only, as an unprivileged user). A
# database of real recordings (tracepoints with callchains and cpumask
# IPIs, a watch session, a bench with a recorded run, one of
# distributions (sample= lines, its recorded run's too), and the shared
# files: AMD IBS c2c, mem-loads, zstd+dwarf sched_switch, callchains +
# branch stacks) is pushed and pulled into a new file, which must be the
# same database (sqlite3's .dump of both, byte for byte) and give every
# verb's JSON output unchanged; pushing twice and pulling twice add
# nothing; without --with-kallsyms no kallsyms text reaches the server;
# a push killed with SIGKILL in the middle of its COPY leaves no part of
# its session on the server, and the push after it works; a server that
# is down, a role it refuses and a password in the conninfo give one
# line, exit 2 (1 for the password), and change nothing locally. sample
# is partitioned by range of ids (one partition per session, a lookup by
# id reads one); the push that makes the schema turns JIT off, and one by
# a role that cannot warns; a server database of the earlier layout (sample
# listed by session) is refused; three pushes of the same database at once
# store each session once.
# Run from the repository root. Env: PERFDB, PERFDB_BUILD, PERFDB_SHARED.
. "$(dirname "$0")/lib/setup.sh"
W=$(cd "$B/workloads" 2>/dev/null && pwd)
SHARED=${PERFDB_SHARED:-$(pwd)/../shared}/perfdata
. tests/integration/lib/pgcluster.sh
at_exit pg_stop
TAP_ERR=$T/err
for tool in perf sqlite3 psql; do
	command -v $tool >/dev/null 2>&1 || { skip "no $tool here"; tap_end; }
done
[ "$(id -u)" = 0 ] || { skip "needs root (system-wide recordings)"; tap_end; }
pg_start_or_end "$T/pg"
A=$T/a.db
now_ms() { date +%s%3N; }

# --- the recordings ----------------------------------------------------------
ev=sched:sched_switch,sched:sched_waking,sched:sched_process_exit,tlb:tlb_flush,ipi:ipi_send_cpu,ipi:ipi_send_cpumask,csd:csd_queue_cpu,csd:csd_function_entry,csd:csd_function_exit
perf record -q -a -g -m 1024 -e "$ev" -o "$T/tlb.data" -- "$W/tlbflush" --seconds 0.3 >/dev/null 2>"$T/err"
check "a tracepoint recording with callchains" [ -s "$T/tlb.data" ]
"$PERFDB" import -q -o "$A" -l tlb "$T/tlb.data" 2>"$T/err"
check "imported" [ $? = 0 ]
"$PERFDB" record -q -o "$A" -l watch -r watch --watch fs_shared.packed.bitmap_a,fs_shared.packed.bitmap_b \
	-- "$W/falseshare" --threads 2 --layout packed --store always --seconds 0.2 >/dev/null 2>"$T/err"
check "a watch session" [ "$(sqlite3 "$A" "SELECT count(*) FROM watch")" -ge 1 ]
"$PERFDB" bench -q -o "$A" -l benchy --runs 2 -p cpus=1,2 -r sched --record-every 2 \
	-- "$W/yield" --cpus '{cpus}' --seconds 0.05 >/dev/null 2>"$T/err"
check "a bench with recorded runs" [ "$(sqlite3 "$A" "SELECT count(session_id) FROM bench_run")" -ge 1 ]
printf '%s\n' 'for v in 3 1 4 1 5 9 2 6; do echo "metric=lat sample=$v.5 unit=us better=lower"; done' \
	'echo metric=ops value=7' >"$T/samples.sh"
"$PERFDB" bench -q -o "$A" -l dists --runs 2 -r sched --record-every 2 -- sh "$T/samples.sh" >/dev/null 2>"$T/err"
check "a bench of distributions, its recorded run's too" \
	[ "$(sqlite3 "$A" "SELECT (SELECT count(*) FROM run_sample) || ' ' || (SELECT count(*) FROM workload_sample)")" = "24 8" ]
nshared=0
for f in x86_64-perf6.8-c2c-amd_ibs_op-datasrc x86_64-perf4.4-mem-loads-datasrc \
	 x86_64-perf5.18-zstd-dwarf-cycles-sched_switch x86_64-perf3.4-cycles-callchain-branchstack; do
	[ -f "$SHARED/$f.data" ] || continue
	"$PERFDB" import -q -o "$A" -l "$f" "$SHARED/$f.data" 2>/dev/null && nshared=$((nshared + 1))
done
[ $nshared -gt 0 ] && ok "$nshared shared recordings imported (c2c, mem, dwarf, branch stacks)" ||
	skip "no shared recordings in $SHARED"
check "memory samples and cpumask IPIs are in it" \
	[ "$(sqlite3 "$A" "SELECT (SELECT count(*) FROM mem_sample) > 0 OR $nshared = 0")" = 1 ]
if [ "$(sqlite3 "$A" "SELECT count(*) FROM ipi_send_cpumask")" -gt 0 ]; then ok "ipi_send_cpumask rows are in it"
else	# this machine sent none: two rows written by hand, for the transfer of that table
	sqlite3 "$A" "INSERT INTO ipi_send_cpumask SELECT id, c, 4096, 'a+0x10', 8192, 'b+0x20' FROM
		(SELECT max(id) AS id FROM sample WHERE session_id = (SELECT id FROM session WHERE label = 'tlb')),
		(SELECT 0 AS c UNION ALL SELECT 1)"
	ok "ipi_send_cpumask: none recorded here (IPIs to one CPU at a time), two rows written by hand"
fi
[ "$(sqlite3 "$A" "SELECT count(*) FROM lost")" -gt 0 ] ||	# nothing lost: one LOST record by hand
	sqlite3 "$A" "INSERT INTO lost(session_id, kind, time, cpu, event_id, n, file_offset, since) SELECT id, 'lost', first_time, 0, NULL, 5, 4096, NULL FROM session WHERE label = 'tlb'"
sqlite3 "$A" .dump > "$T/a.sql"

# --- push, pull, compare -----------------------------------------------------
"$PERFDB" push "$A" --to "$PGCONN" --with-kallsyms >"$T/push1" 2>"$T/err"
check "push: exit 0" [ $? = 0 ]
ns=$(sqlite3 "$A" "SELECT count(*) FROM session")
check "push: one 'pushed as' line per session ($ns)" [ "$(grep -c 'pushed as session' "$T/push1")" -eq "$ns" ]
check "the server has the $ns sessions" [ "$(psqlq "SELECT count(*) FROM session")" -eq "$ns" ]
check "each session with samples has its own partition of sample" \
	[ "$(psqlq "SELECT count(*) FROM pg_inherits WHERE inhparent = 'sample'::regclass")" -eq \
	  "$(sqlite3 "$A" "SELECT count(*) FROM session WHERE nr_samples > 0 AND first_sample_id IS NOT NULL")" ]
psqlq "EXPLAIN SELECT count(*) FROM sample WHERE session_id = $(sqlite3 "$A" "SELECT min(id) FROM session WHERE nr_samples > 0")" >"$T/plan"
check "partition pruning: one session's samples read one partition" \
	[ "$(grep -o ' on sample_s[0-9]* ' "$T/plan" | sort -u | wc -l)" = 1 ]
psqlq "EXPLAIN SELECT * FROM sample WHERE id = $(sqlite3 "$A" "SELECT max(id) FROM sample")" >"$T/plan"
check "sample is partitioned by range of ids: a lookup by sample id (as every typed view's join makes) reads one partition" \
	eval '[ "$(psqlq "SELECT partstrat FROM pg_partitioned_table WHERE partrelid = '"'sample'::regclass"'")" = r ] && [ "$(grep -o " on sample_s[0-9]* " "$T/plan" | sort -u | wc -l)" = 1 ]'
check "the push that made the schema turned PostgreSQL's JIT off for the database" [ "$(psqlq "SHOW jit")" = off ]
bad=""
for t in $(sqlite3 "$A" "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1"); do
	[ "$(sqlite3 "$A" "SELECT count(*) FROM $t")" = "$(psqlq "SELECT count(*) FROM $t")" ] || bad="$bad $t"
done
check "every table has as many rows on the server as here (${bad:-all the same})" [ -z "$bad" ]
check "... lost records among them (written by hand when nothing was lost)" [ "$(sqlite3 "$A" "SELECT count(*) FROM lost")" -gt 0 ]
"$PERFDB" push "$A" --to "$PGCONN" --with-kallsyms >"$T/push2" 2>"$T/err"
check "push twice: exit 0, every session 'already on the server'" \
	eval '[ $? = 0 ] && [ "$(grep -c "already on the server" "$T/push2")" -eq "$(wc -l < "$T/push2")" ]'
check "push twice: still $ns sessions, no duplicate rows" \
	[ "$(psqlq "SELECT count(*) || ' ' || (SELECT count(*) FROM sample) || ' ' || (SELECT count(*) FROM bench_run) FROM session")" = \
	  "$(sqlite3 "$A" "SELECT count(*) || ' ' || (SELECT count(*) FROM sample) || ' ' || (SELECT count(*) FROM bench_run) FROM session")" ]

"$PERFDB" pull --from "$PGCONN" -o "$T/b.db" >"$T/pull1" 2>"$T/err"
check "pull into a new file: exit 0" [ $? = 0 ]
sqlite3 "$T/b.db" .dump > "$T/b.sql"
check "the pulled database is the pushed one (sqlite3 .dump byte for byte: every row, id and type)" \
	cmp -s "$T/a.sql" "$T/b.sql"
cmp -s "$T/a.sql" "$T/b.sql" || diff "$T/a.sql" "$T/b.sql" | head -5 | sed 's/^/#   /'
"$PERFDB" pull --from "$PGCONN" -o "$T/b.db" >"$T/pull2" 2>"$T/err"
check "pull twice: nothing added" eval 'sqlite3 "$T/b.db" .dump | cmp -s - "$T/a.sql" && ! grep -q "pulled as" "$T/pull2"'

# every verb, JSON, on both
tlb=$(sqlite3 "$A" "SELECT id FROM session WHERE label = 'tlb'")
wat=$(sqlite3 "$A" "SELECT id FROM session WHERE label = 'watch'")
c2c=$(sqlite3 "$A" "SELECT id FROM session WHERE label LIKE '%c2c%'")
cg=$(sqlite3 "$A" "SELECT id FROM session WHERE label LIKE '%branchstack%'")
same=0 differ=""
verbs() { # verbs DB: each verb's JSON of DB, one file per command in $T/out.DB.N
	i=0
	while read -r cmd; do
		i=$((i + 1))
		# shellcheck disable=SC2086 # the command's words
		"$PERFDB" $cmd "$1" --format json 2>&1 | sed "s|$1|DB|g" >"$1.out$i"
	done <<-VERBS
	sessions
	results
	sched -s $tlb
	sched --base $tlb --new benchy
	ipis -s $tlb
	tree -s $tlb
	folded -s $tlb
	hitm -s ${c2c:-$tlb}
	watch -s $wat
	hitm -s $wat
	tree -s ${cg:-$tlb}
	cgdiff --base ${cg:-$tlb} --new ${cg:-$tlb}
	sessions -s benchy
	VERBS
}
verbs "$A"; verbs "$T/b.db"
nv=0 nok=0
for f in "$A".out*; do
	nv=$((nv + 1))
	g=$T/b.db.${f##*/a.db.}
	if grep -q '^  "perfdb": ' "$f"; then nok=$((nok + 1)); else echo "#   not JSON (on both): $(head -c 100 "$f")"; fi
	if cmp -s "$f" "$g"; then same=$((same + 1)); else differ="$differ $(head -c 80 "$f")"; fi
done
check "every verb's JSON output is the same on the pulled database ($same of $nv; $nok of them JSON, the others the same error)" \
	eval '[ "$same" = "$nv" ] && [ "$nok" -ge 11 ]'
[ -n "$differ" ] && echo "#   differ:$differ"

# --- kallsyms only when asked -------------------------------------------------
createdb -h "$PG_DIR/sock" -U perfdb nok
NOK="host=$PG_DIR/sock user=perfdb dbname=nok"
"$PERFDB" push "$A" -s tlb --to "$NOK" >/dev/null 2>"$T/err"
check "-s LABEL pushes that label's session alone" [ "$(psql -X -A -t "$NOK" -c "SELECT count(*) FROM session")" = 1 ]
check "without --with-kallsyms no kallsyms text reaches the server (it has $(sqlite3 "$A" "SELECT count(*) FROM kallsyms WHERE session_id = $tlb") here)" \
	[ "$(psql -X -A -t "$NOK" -c "SELECT count(*) FROM kallsyms")" = 0 ]
check "... but the resolved symbols do" [ "$(psql -X -A -t "$NOK" -c "SELECT count(*) FROM symbol")" -gt 0 ]
"$PERFDB" push "$A" -s benchy --to "$NOK" >"$T/out" 2>"$T/err"
check "-s a bench label: the bench with its recorded runs' sessions" \
	[ "$(psql -X -A -t "$NOK" -c "SELECT count(*) FROM bench_run WHERE session_id IS NOT NULL AND session_id NOT IN (SELECT id FROM session)")" = 0 ]
check "... each recorded run points at its session on the server" \
	[ "$(psql -X -A -t "$NOK" -c "SELECT count(session_id) FROM bench_run")" = "$(sqlite3 "$A" "SELECT count(r.session_id) FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE b.label = 'benchy'")" ]

# --- kill -9 during a push -----------------------------------------------------
perf record -q -a -m 1024 -e sched:sched_switch -o "$T/big.data" -- "$W/yield" --cpus 2 --seconds 0.5 >/dev/null 2>&1
"$PERFDB" import -q -o "$T/big.db" -l big "$T/big.data"
nbig=$(sqlite3 "$T/big.db" "SELECT nr_samples FROM session")
t0=$(now_ms); "$PERFDB" import -q -o "$T/big2.db" "$T/big.data"; t1=$(now_ms)
before=$(psqlq "SELECT count(*) || ' ' || (SELECT count(*) FROM sample) || ' ' || (SELECT count(*) FROM perfdb_pushed) || ' ' || (SELECT count(*) FROM pg_class WHERE relname LIKE 'sample_s%') FROM session")
"$PERFDB" push "$T/big.db" --to "$PGCONN" >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ $i -lt 200 ] && [ "$(psqlq "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY sample_s%'")" = 0 ]; do
	sleep 0.02; i=$((i + 1))
done
copying=$(psqlq "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY sample_s%'")
kill -9 $pid; wait $pid 2>/dev/null
i=0
while [ $i -lt 100 ] && [ "$(psqlq "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY%' AND pid <> pg_backend_pid()")" != 0 ]; do
	sleep 0.05; i=$((i + 1))
done
after=$(psqlq "SELECT count(*) || ' ' || (SELECT count(*) FROM sample) || ' ' || (SELECT count(*) FROM perfdb_pushed) || ' ' || (SELECT count(*) FROM pg_class WHERE relname LIKE 'sample_s%') FROM session")
check "kill -9 during the COPY of samples ($copying copying when killed): the server has nothing of that session (sessions, samples, pushed, partitions: $after)" \
	[ "$copying" = 1 ] && [ "$before" = "$after" ]
t2=$(now_ms); "$PERFDB" push "$T/big.db" --to "$PGCONN" >"$T/out" 2>"$T/err"; rc=$?; t3=$(now_ms)
check "the push after it succeeds" eval '[ $rc = 0 ] && grep -q "pushed as" "$T/out"'
echo "# $nbig samples: import $((t1 - t0)) ms, push $((t3 - t2)) ms ($(sed 's/.*(//; s/).*//' "$T/out"))"

# --- several pushers at once into a new server database ------------------------------
createdb -h "$PG_DIR/sock" -U perfdb conc
CONC="host=$PG_DIR/sock user=perfdb dbname=conc"
for i in 1 2 3; do "$PERFDB" push "$A" --to "$CONC" >"$T/conc$i" 2>"$T/conc$i.err" & done
wait
pushed=$(cat "$T"/conc1 "$T"/conc2 "$T"/conc3 | grep -c "pushed as session")
echo "# three pushes at once: $(cat "$T"/conc1 "$T"/conc2 "$T"/conc3 | sed 's/.*: //' | cut -d' ' -f1-3 | sort | uniq -c | tr -s ' \n' ' ')$(cat "$T"/conc*.err | head -2)"
nb=$(sqlite3 "$A" "SELECT count(*) FROM bench")
check "three pushes of the same $ns sessions and $nb bench(es) at once into a new database: no error, each pushed once ($pushed sessions), else 'already on the server'" \
	eval '[ ! -s "$T/conc1.err" ] && [ ! -s "$T/conc2.err" ] && [ ! -s "$T/conc3.err" ] && [ "$pushed" = "$ns" ] &&
		[ "$(cat "$T"/conc1 "$T"/conc2 "$T"/conc3 | grep -c "pushed as bench")" = "$nb" ]'
check "... the server has $ns sessions, $nb bench(es), as many samples and bench runs as here" \
	eval '[ "$(psql -X -A -t "$CONC" -c "SELECT count(*), (SELECT count(*) FROM bench), (SELECT count(*) FROM sample), (SELECT count(*) FROM bench_run) FROM session")" = "$(sqlite3 "$A" "SELECT count(*), (SELECT count(*) FROM bench), (SELECT count(*) FROM sample), (SELECT count(*) FROM bench_run) FROM session")" ]'

# --- a role that does not own the database; an earlier layout -----------------------
psqlq "CREATE ROLE other LOGIN" && createdb -h "$PG_DIR/sock" -U perfdb notmine &&
	psql -X -q -v ON_ERROR_STOP=1 "host=$PG_DIR/sock user=perfdb dbname=notmine" -c "GRANT ALL ON SCHEMA public TO other"
"$PERFDB" push "$A" -s tlb --to "host=$PG_DIR/sock user=other dbname=notmine" >"$T/out" 2>"$T/err"; rc=$?
check "a role that does not own the database: the push works, and warns that JIT stays on" \
	eval '[ $rc = 0 ] && grep -q "pushed as" "$T/out" && grep -q "warning: PostgreSQL.s JIT stays on for this database (.*must be owner" "$T/err"'
createdb -h "$PG_DIR/sock" -U perfdb oldlayout
psql -X -q -v ON_ERROR_STOP=1 "host=$PG_DIR/sock user=perfdb dbname=oldlayout" -c "CREATE TABLE perfdb_meta (schema_version INTEGER NOT NULL);
	INSERT INTO perfdb_meta VALUES ($(sqlite3 "$A" "PRAGMA user_version")); CREATE TABLE sample (id BIGINT, session_id BIGINT) PARTITION BY LIST (session_id)"
"$PERFDB" push "$A" -s tlb --to "host=$PG_DIR/sock user=perfdb dbname=oldlayout" >"$T/out" 2>"$T/err"; rc=$?
check "a server database of an earlier layout (sample listed by session): exit 2, one line saying so" \
	eval '[ $rc = 2 ] && [ "$(wc -l < "$T/err")" = 1 ] && grep -q "not partitioned by range of ids" "$T/err"'

# --- a server that is down, refused credentials, a password ----------------------
cp "$A" "$T/c.db"; sum=$(md5sum < "$T/c.db")
"$PERFDB" push "$T/c.db" --to "host=$T/nowhere dbname=x" >"$T/out" 2>"$T/err"; rc=$?
check "push to a server that is down: exit 2, one line, nothing on stdout" \
	eval '[ $rc = 2 ] && [ "$(wc -l < "$T/err")" = 1 ] && grep -q "cannot connect to the server" "$T/err" && [ ! -s "$T/out" ]'
"$PERFDB" pull --from "host=$T/nowhere dbname=x" -o "$T/new.db" >"$T/out" 2>"$T/err"; rc=$?
check "pull from a server that is down: exit 2, one line, no database made" \
	eval '[ $rc = 2 ] && [ "$(wc -l < "$T/err")" = 1 ] && [ ! -e "$T/new.db" ]'
"$PERFDB" pull --from "host=$PG_DIR/sock user=nosuchrole dbname=perfdb" -o "$T/c.db" >"$T/out" 2>"$T/err"; rc=$?
check "pull as a role the server refuses: exit 2, one line, the database unchanged" \
	eval '[ $rc = 2 ] && [ "$(wc -l < "$T/err")" = 1 ] && grep -q nosuchrole "$T/err" && [ "$(md5sum < "$T/c.db")" = "$sum" ]'
"$PERFDB" push "$T/c.db" --to "host=$PG_DIR/sock user=perfdb password=secret dbname=perfdb" >"$T/out" 2>"$T/err"; rc=$?
check "a password in the conninfo: refused, exit 1, pointing at .pgpass" \
	eval '[ $rc = 1 ] && grep -q pgpass "$T/err"'
"$PERFDB" push "$T/c.db" --to "postgresql://perfdb:secret@localhost/perfdb" >"$T/out" 2>"$T/err"; rc=$?
check "... also in a URI" [ $rc = 1 ]
check "the local database is unchanged by all of it" [ "$(md5sum < "$T/c.db")" = "$sum" ]
tap_end
