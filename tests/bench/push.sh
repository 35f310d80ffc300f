#!/bin/sh
# Benchmark (not a test): perfdb push against perfdb import on the same
# session, and a fleet query over 100 pushed sessions.
#   1. records sched:sched_switch system-wide around yield (as
#      tests/bench/import.sh, >= 500k samples), imports it (timed), pushes
#      it to a throwaway PostgreSQL 15 cluster (tests/integration/lib/
#      pgcluster.sh; fsync off, unix socket) and pulls it back, timed, 3
#      runs each (a new server database per push), medians; rows per
#      second of each;
#   2. records 100 (BENCH_SESSIONS) short sessions (sched_switch + csd_queue_cpu around
#      tlbflush, 0.05 s each), pushes them, and times the README's first
#      fleet query (TLB-flush IPIs per kernel and host) over them, against
#      the same query by sqlite3 over the same sessions imported into one
#      file (its peer in the same run); the two must give the same rows.
# Usage: sh tests/bench/push.sh [BUILD_DIR]   (make bench)
B=${1:-build}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
PERFDB=$B/perfdb
RUNS=${BENCH_RUNS:-3}
die() { echo "bench: $*" >&2; exit 1; }
[ -x "$PERFDB" ] || die "$PERFDB is missing: run make first"
. tests/integration/lib/pgcluster.sh
T=$(mktemp -d "${BENCH_TMPDIR:-${TMPDIR:-/tmp}}/perfdb-bench.XXXXXX") || die "mktemp failed"
trap 'pg_stop; rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM
pg_start "$T/pg" || die "no PostgreSQL cluster: $PG_SKIP"
ms() { date +%s%3N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
secs=1.5
for try in 1 2 3; do
	perf record -q -a -m 1024 -e sched:sched_switch -o "$T/big.data" -- "$B/workloads/yield" --cpus 2 --seconds $secs \
		>/dev/null 2>&1 || die "perf record failed"
	rm -f "$T/a.db"; "$PERFDB" import -q -o "$T/a.db" "$T/big.data" || die "import failed"
	[ "$(sqlite3 "$T/a.db" "SELECT nr_samples FROM session")" -ge 500000 ] && break
	secs=$(echo "$secs * 3" | bc 2>/dev/null || echo 6)
done
: > "$T/imp"; : > "$T/push"; : > "$T/pull"
for i in $(seq "$RUNS"); do
	rm -f "$T/a.db" "$T/b.db"
	s=$(ms); "$PERFDB" import -q -o "$T/a.db" "$T/big.data" || die "import failed"; e=$(ms); echo $((e - s)) >> "$T/imp"
	createdb -h "$PG_DIR/sock" -U perfdb "run$i"
	s=$(ms); "$PERFDB" push "$T/a.db" --to "host=$PG_DIR/sock user=perfdb dbname=run$i" >/dev/null || die "push failed"
	e=$(ms); echo $((e - s)) >> "$T/push"
	s=$(ms); "$PERFDB" pull --from "host=$PG_DIR/sock user=perfdb dbname=run$i" -o "$T/b.db" >/dev/null || die "pull failed"
	e=$(ms); echo $((e - s)) >> "$T/pull"
done
samples=$(sqlite3 "$T/a.db" "SELECT nr_samples FROM session")
rows=$(sqlite3 "$T/a.db" "SELECT (SELECT count(*) FROM sample) + (SELECT count(*) FROM thread) + (SELECT count(*) FROM process) + (SELECT count(*) FROM comm) + (SELECT count(*) FROM event) + (SELECT count(*) FROM cpu) + (SELECT count(*) FROM mmap) + (SELECT count(*) FROM dso) + (SELECT count(*) FROM symbol) + (SELECT count(*) FROM stack) + (SELECT count(*) FROM kallsyms)")
imp=$(median < "$T/imp"); push=$(median < "$T/push"); pull=$(median < "$T/pull")
cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)
echo "## perfdb push / pull ($cpu, $(nproc) vCPUs, kernel $(uname -r), $(psql --version | sed 's/.*) //'), medians of $RUNS"
echo
echo "| $samples samples, $rows rows | wall time | rows per second |"
echo "| --- | ---: | ---: |"
echo "| perfdb import (perf.data -> SQLite) | $imp ms | $((rows * 1000 / (imp > 0 ? imp : 1))) |"
echo "| perfdb push (SQLite -> PostgreSQL, COPY) | $push ms | $((rows * 1000 / (push > 0 ? push : 1))) |"
echo "| perfdb pull (PostgreSQL -> SQLite) | $pull ms | $((rows * 1000 / (pull > 0 ? pull : 1))) |"
echo
createdb -h "$PG_DIR/sock" -U perfdb fleet
F="host=$PG_DIR/sock user=perfdb dbname=fleet"
NS=${BENCH_SESSIONS:-100}
for i in $(seq "$NS"); do
	perf record -q -a -m 256 -e sched:sched_switch,csd:csd_queue_cpu -o "$T/s.data" -- "$B/workloads/tlbflush" --seconds 0.05 \
		>/dev/null 2>&1 || die "perf record failed"
	"$PERFDB" import -q -o "$T/f$((i % 10)).db" -l "s$i" "$T/s.data" || die "import failed"
	"$PERFDB" import -q -o "$T/all.db" -l "s$i" "$T/s.data" || die "import failed"
done
s=$(ms)
for i in $(seq 0 9); do "$PERFDB" push "$T/f$i.db" --to "$F" >/dev/null || die "push failed"; done
e=$(ms)
awk '/^```sql/ { on = 1; next } /^```/ { if (on && q ~ /-- Fleet: TLB-flush/) { print q; exit } on = 0; q = "" } on { q = q $0 "\n" }' README.md > "$T/q.sql"
[ -s "$T/q.sql" ] || die "no fleet query in README.md"
: > "$T/q"
for i in $(seq "$RUNS"); do
	s2=$(ms); psql -X -q -A -t "$F" -f "$T/q.sql" >/dev/null || die "query failed"; e2=$(ms); echo $((e2 - s2)) >> "$T/q"
done
: > "$T/lq"
for i in $(seq "$RUNS"); do
	s2=$(ms); sqlite3 "$T/all.db" < "$T/q.sql" >/dev/null || die "query failed on SQLite"; e2=$(ms); echo $((e2 - s2)) >> "$T/lq"
done
psql -X -q -A -t "$F" -f "$T/q.sql" > "$T/q.pg"
sqlite3 -separator '|' "$T/all.db" < "$T/q.sql" > "$T/q.lite"
same=different; cmp -s "$T/q.pg" "$T/q.lite" && same="the same rows"
n=$(psql -X -A -t "$F" -c "SELECT count(*) || ' sessions, ' || (SELECT count(*) FROM sample) || ' samples' FROM session")
pq=$(median < "$T/q"); lq=$(median < "$T/lq")
echo "$NS sessions pushed from 10 databases in $((e - s)) ms ($n). The README's TLB-flush IPI fleet query over them (medians of $RUNS):"
echo
echo "| engine | wall time |"
echo "| --- | ---: |"
echo "| PostgreSQL (one partition per session, JIT off) | $pq ms |"
echo "| SQLite (the same $NS sessions in one file) | $lq ms |"
echo
echo "PostgreSQL/SQLite: $(awk -v a="$pq" -v b="$lq" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 1) }'); both gave $same."
