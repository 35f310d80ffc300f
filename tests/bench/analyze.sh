#!/bin/sh
# Benchmark (not a test) of the analyzers against a plain scan of the rows
# they read: perfdb sched, ipis, hitm, watch and cgdiff on sessions of about
# 1M and 10M events, and sched --base/--new over 6 sessions. Each analyzer
# runs 3 times, interleaved with two peers over the same session in the same
# run: "scan", the sqlite3 shell printing the columns the analyzer needs
# (SELECT COLS FROM sample WHERE id BETWEEN first AND last > /dev/null; for
# memory samples mem_sample joined to sample), and "sum", the same rows read
# without printing (SELECT count(*), total(COL)...: SQLite's own floor).
# Prints the medians of wall and CPU time (user + system: what a loaded
# machine disturbs least), perfdb/scan, perfdb/sum and perfdb's peak RSS
# (/usr/bin/time -f %M), whose growth from 1M to 10M events says whether
# its memory is flat in the number of events.
#
# The sessions are recordings made here, then grown:
#   sched   perf record -a -m 4096 -e (the sched recipe's events) around
#           workloads/yield; 6 more short ones for --base/--new
#   ipis    perf record -a -m 4096 -e (the tlb recipe's events) around
#           workloads/tlbflush --others yield
#   watch   perfdb record -r watch --watch fs_shared.packed.bitmap_a,_b
#           around workloads/falseshare (hardware watchpoints: root); hitm
#           on the same session (this machine may have no PMU, so no
#           memory samples: hitm reads the watchpoint samples)
#   hitm-c2c the intel c2c fixture of tests/unit/test_hitm (memory samples
#           as perf c2c record writes them)
#   cgdiff  two recordings of tests/programs/cgdiff_work.c (cpu-clock -g)
# A session is grown to N events by repeating its own samples (and their
# mem_sample rows) in SQL, each copy shifted in time by the session's length
# and in id by its number of samples: ids stay contiguous and in time order,
# threads, processes and stacks stay those of the recording; the watch
# rows' window is stretched to the grown session.
# Usage: sh tests/bench/analyze.sh [BUILD_DIR]   (make bench; default build)
# Env: PERFDB (the perfdb to measure, default BUILD_DIR/perfdb),
# BENCH_TMPDIR (where the databases go, default $TMPDIR or /tmp; about
# 3.2 GB), BENCH_KEEP=DIR (make the databases in DIR and keep them, reuse
# those already there), BENCH_RUNS (runs per command, default 3),
# BENCH_SIZES (default "1000000 10000000"), BENCH_ONLY (the cases to run,
# default all: "sched tlb watch c2c cgdiff sched6").
# Needs perf (system-wide: root or perf_event_paranoid <= 0), sqlite3, cc.
# Exit status 0, or 1 when something could not run.
B=${1:-build}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
PERFDB=${PERFDB:-$B/perfdb}
W=$B/workloads
RUNS=${BENCH_RUNS:-3}
SIZES=${BENCH_SIZES:-"1000000 10000000"}
ONLY=${BENCH_ONLY:-"sched tlb watch c2c cgdiff sched6"}
# wanted CASE: whether BENCH_ONLY names CASE
wanted() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$PERFDB" ] && [ -x "$W/yield" ] && [ -x "$W/tlbflush" ] || die "run make first"
for t in perf sqlite3 cc; do command -v $t >/dev/null 2>&1 || die "$t is not installed"; done
[ -x /usr/bin/time ] || die "/usr/bin/time is not installed (package time)"
if [ -n "$BENCH_KEEP" ]; then
	mkdir -p "$BENCH_KEEP" || die "cannot make $BENCH_KEEP"
	D=$(cd "$BENCH_KEEP" && pwd)
	T=$(mktemp -d "$D/tmp.XXXXXX") || die "mktemp failed"
else
	T=$(mktemp -d "${BENCH_TMPDIR:-${TMPDIR:-/tmp}}/perfdb-bench.XXXXXX") || die "mktemp failed"
	D=$T
fi
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM

SCHED_EV=sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_migrate_task,sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit
TLB_EV=tlb:tlb_flush,ipi:ipi_send_cpu,ipi:ipi_send_cpumask,csd:csd_queue_cpu,csd:csd_function_entry,csd:csd_function_exit,irq_vectors:call_function_entry,irq_vectors:call_function_exit,irq_vectors:call_function_single_entry,irq_vectors:call_function_single_exit,sched:sched_switch,sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit

# q DB SQL: one sqlite3 query.
q() { sqlite3 "$1" "$2"; }

# record DB LABEL EVENTS CMD...: perf record -a -m 4096 of CMD, imported
# into DB as a new session labelled LABEL.
record() {
	db=$1 label=$2 ev=$3
	shift 3
	perf record -q -a -m 4096 -e "$ev" -o "$T/r.data" -- "$@" >/dev/null 2>"$T/err" &&
		"$PERFDB" import -q -o "$db" -l "$label" "$T/r.data" 2>>"$T/err" ||
		{ cat "$T/err" >&2; rm -f "$T/r.data"; return 1; }
	rm -f "$T/r.data"
}

# grow DB N: grows the database's last session to at least N samples by
# repeating its samples (see the top); the session must be the last one.
grow() {
	n=$(q "$1" "SELECT nr_samples FROM session ORDER BY id DESC LIMIT 1")
	[ "$n" -gt 0 ] || return 1
	r=$(( ($2 + n - 1) / n ))
	[ "$r" -gt 1 ] || return 0
	sqlite3 -cmd ".parameter set @r $r" "$1" <<'EOF'
CREATE TEMP TABLE info AS SELECT id, first_sample_id AS f, last_sample_id AS l,
  last_sample_id - first_sample_id + 1 AS n, last_time - first_time + 1 AS d
  FROM session ORDER BY id DESC LIMIT 1;
CREATE TEMP TABLE k AS WITH RECURSIVE k(i) AS
  (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < @r - 1) SELECT i FROM k;
BEGIN;
INSERT INTO sample(id, session_id, event_id, time, cpu, thread_id, ip, symbol_id, cpumode,
  period, stack_id, f1, f2, f3, f4, f5, f6, f7)
  SELECT s.id + k.i * i.n, s.session_id, s.event_id, s.time + k.i * i.d, s.cpu, s.thread_id,
  s.ip, s.symbol_id, s.cpumode, s.period, s.stack_id, s.f1, s.f2, s.f3, s.f4, s.f5, s.f6, s.f7
  FROM temp.k k, temp.info i, sample s WHERE s.id BETWEEN i.f AND i.l ORDER BY k.i, s.id;
INSERT INTO mem_sample SELECT m.sample_id + k.i * i.n, m.addr, m.phys_addr, m.weight,
  m.ins_lat, m.data_src, m.mem_op, m.mem_lvl, m.lvl_num, m.snoop, m.snoopx, m.remote,
  m.mem_lock, m.dtlb, m.hops, m.blk
  FROM temp.k k, temp.info i, mem_sample m WHERE m.sample_id BETWEEN i.f AND i.l
  ORDER BY k.i, m.sample_id;
UPDATE event SET nr_samples = nr_samples * @r WHERE session_id = (SELECT id FROM temp.info);
UPDATE watch SET ended_ns = (SELECT first_time + d * @r - 1 FROM temp.info, session
  WHERE session.id = temp.info.id) WHERE session_id = (SELECT id FROM temp.info);
UPDATE session SET last_sample_id = first_sample_id + (SELECT n FROM temp.info) * @r - 1,
  nr_samples = (SELECT n FROM temp.info) * @r,
  last_time = first_time + (SELECT d FROM temp.info) * @r - 1,
  duration_ns = (SELECT d FROM temp.info) * @r WHERE id = (SELECT id FROM temp.info);
COMMIT;
EOF
}

# make_db NAME N MAKER [LAST_N]: $D/NAME-N.db, made by MAKER DB and its
# last session grown to LAST_N (default N) samples; kept when BENCH_KEEP
# already holds it.
make_db() {
	f=$D/$1-$2.db
	[ -s "$f" ] && return 0
	rm -f "$f" "$f.tmp"
	"$3" "$f.tmp" && grow "$f.tmp" "${4:-$2}" && mv "$f.tmp" "$f" || { rm -f "$f.tmp"; return 1; }
}

# The makers: DB (empty) gets one session (cgdiff: two, base and new).
mk_sched() { record "$1" yield "$SCHED_EV" "$W/yield" --seconds 0.5; }
mk_tlb() { record "$1" tlbflush "$TLB_EV" "$W/tlbflush" --tasks 1 --others yield --seconds 1; }
mk_watch() {
	"$PERFDB" record -q -o "$1" -l falseshare -r watch \
		--watch fs_shared.packed.bitmap_a,fs_shared.packed.bitmap_b -- \
		"$W/falseshare" --threads 2 --layout packed --store always --seconds 0.5 \
		>/dev/null 2>"$T/err" || { cat "$T/err" >&2; return 1; }
}
mk_c2c() {
	mkdir -p "$T/fx" && "$B/tests/test_hitm" --write-fixtures "$T/fx" >/dev/null 2>&1 &&
		"$PERFDB" import -q -o "$1" -l c2c "$T/fx/intel.data" 2>"$T/err" ||
		{ cat "$T/err" >&2; return 1; }
}
mk_cgdiff() {
	for v in a b; do
		cc -O0 -g -fno-omit-frame-pointer -o "$T/cgdiffwork" \
			$([ $v = b ] && echo -DVARIANT_B) tests/programs/cgdiff_work.c || return 1
		perf record -q -e cpu-clock -F 999 -g -a -o "$T/r.data" -- "$T/cgdiffwork" --seconds 2 \
			>/dev/null 2>"$T/err" &&
			"$PERFDB" import -q -o "$1" -l "$v" "$T/r.data" 2>>"$T/err" ||
			{ cat "$T/err" >&2; return 1; }
		# each grows to half the size (make_db grows the new one)
		if [ $v = a ]; then grow "$1" $((CG_N / 2)) || return 1; fi
	done
	rm -f "$T/r.data"
}
# six sessions of the sched recipe, 3 base (--private-mm) and 3 new
mk_sched6() {
	for i in 1 2 3 4 5 6; do
		l=new m=--shared-mm
		if [ $i -le 3 ]; then l=base m=--private-mm; fi
		record "$1" $l "$SCHED_EV" "$W/yield" $m --seconds 0.3 || return 1
	done
}

# run_once CMD...: runs CMD (stdout to /dev/null); prints "SECONDS RSS_KB
# CPU_SECONDS" (CPU: user + system).
run_once() {
	/usr/bin/time -f '%e %M %U %S' -o "$T/time" "$@" >/dev/null 2>"$T/err" ||
		{ cat "$T/err" >&2; return 1; }
	tail -1 "$T/time" | awk '{ print $1, $2, $3 + $4 }'
}

# median FILE COLUMN: the median of a column of numbers.
median() { cut -d' ' -f"$2" "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# ratio A B: A / B with two decimals (0 when B is 0).
ratio() { echo "$1 $2" | awk '{ printf "%.2f", ($2 > 0 ? $1 / $2 : 0) }'; }

# bench WHAT DB COLS FROM ID VERB ARGS...: times perfdb VERB DB ARGS
# against the two scans of COLS FROM the rows whose ID is in DB's sample id
# range, RUNS times each, interleaved; prints one line.
bench() {
	what=$1 db=$2 cols=$3 from=$4 idcol=$5 verb=$6
	shift 6
	lo=$(q "$db" "SELECT min(first_sample_id) FROM session")
	hi=$(q "$db" "SELECT max(last_sample_id) FROM session")
	n=$(q "$db" "SELECT count(*) FROM $from WHERE $idcol BETWEEN $lo AND $hi")
	sums=$(echo "$cols" | tr ',' '\n' | sed "s/.*/total(&)/" | paste -sd,)
	: >"$T/a"; : >"$T/s"; : >"$T/f"
	for _ in $(seq "$RUNS"); do
		run_once "$PERFDB" "$verb" "$db" "$@" >>"$T/a" &&
			run_once sqlite3 "$db" "SELECT $cols FROM $from WHERE $idcol BETWEEN $lo AND $hi" \
				>>"$T/s" &&
			run_once sqlite3 "$db" "SELECT count(*), $sums FROM $from WHERE $idcol BETWEEN $lo AND $hi" \
				>>"$T/f" || return 1
	done
	a=$(median "$T/a" 1) s=$(median "$T/s" 1) f=$(median "$T/f" 1)
	ac=$(median "$T/a" 3) sc=$(median "$T/s" 3) fc=$(median "$T/f" 3)
	printf '%-24s %9d %6.2f %6.2f %6.2f %6s %6s %6.2f %6.2f %6.2f %6s %6s %7d\n' "$what" "$n" \
		"$a" "$s" "$f" "$(ratio "$a" "$s")" "$(ratio "$a" "$f")" "$ac" "$sc" "$fc" \
		"$(ratio "$ac" "$sc")" "$(ratio "$ac" "$fc")" $(($(median "$T/a" 2) / 1024))
}

echo "# perfdb analyzers against a plain scan of their rows: $(nproc) CPUs, load average" \
	"$(cut -d' ' -f1-3 /proc/loadavg) at the start; medians of $RUNS runs. wall: seconds;"
echo "# cpu: user + system seconds; scan: sqlite3 printing the columns; sum: sqlite3 reading"
echo "# them into total(); rss: perfdb's peak RSS, MB"
printf '%-24s %9s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %7s\n' "analyzer" "rows" "wall" "scan" \
	"sum" "/scan" "/sum" "cpu" "scan" "sum" "/scan" "/sum" "rss"
SCHED_COLS=id,time,cpu,thread_id,event_id,f2,f4,f6
TLB_COLS=id,time,cpu,thread_id,event_id,f1,f2,f3,f4,f5,f6
WATCH_COLS=id,time,cpu,thread_id,event_id,ip,cpumode,symbol_id
MEM_COLS=s.time,s.cpu,s.ip,s.cpumode,s.thread_id,s.symbol_id,m.addr,m.weight,m.mem_op,m.mem_lvl,m.snoop
MEM_FROM="mem_sample m JOIN sample s ON s.id = m.sample_id"
CG_COLS=id,event_id,stack_id,symbol_id,period
status=0
for N in $SIZES; do
	CG_N=$N
	if ! wanted sched; then
		:
	elif make_db sched "$N" mk_sched; then
		bench "sched" "$D/sched-$N.db" "$SCHED_COLS" sample id sched --format json || status=1
		bench "sched --latency" "$D/sched-$N.db" "$SCHED_COLS" sample id \
			sched --latency --format json || status=1
	else
		status=1
	fi
	! wanted tlb || { make_db tlb "$N" mk_tlb && bench "ipis" "$D/tlb-$N.db" "$TLB_COLS" \
		sample id ipis --format json; } || status=1
	if ! wanted watch; then
		:
	elif [ "$(id -u)" = 0 ] && make_db watch "$N" mk_watch; then
		bench "watch" "$D/watch-$N.db" "$WATCH_COLS" sample id watch --format json || status=1
		bench "hitm (watchpoints)" "$D/watch-$N.db" "$WATCH_COLS" sample id \
			hitm --format json || status=1
	else
		echo "# watch: not run (needs root and hardware watchpoints)"
	fi
	! wanted c2c || { make_db c2c "$N" mk_c2c && bench "hitm (memory samples)" "$D/c2c-$N.db" \
		"$MEM_COLS" "$MEM_FROM" m.sample_id hitm --format json; } || status=1
	! wanted cgdiff || { make_db cgdiff "$N" mk_cgdiff $((N / 2)) && bench "cgdiff" \
		"$D/cgdiff-$N.db" "$CG_COLS" sample id cgdiff --base a --new b --format json; } ||
		status=1
done
! wanted sched6 || { make_db sched6 0 mk_sched6 && bench "sched --base/--new, 6" \
	"$D/sched6-0.db" "$SCHED_COLS" sample id sched --base base --new new --format json; } ||
	status=1
exit $status
