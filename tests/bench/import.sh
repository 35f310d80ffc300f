#!/bin/sh
# Benchmark (not a test): how fast `perfdb import` turns a perf.data into a
# database, against two peers measured in the same run on the same file:
# `perf script > /dev/null`, and the SQLite floor (build/bench/sqlite_floor:
# the rows that import stored, inserted into a fresh file as fast as SQLite
# goes from C; its reading of them is timed apart and left out).
#   1. records sched:sched_switch system-wide around the yield workload
#      (perf record -a -m 4096) until it holds at least 1M, 2M and 8M
#      samples (BENCH_SIZES, in millions);
#   2. per recording, BENCH_RUNS (default 3) interleaved runs of perfdb
#      import, perf script and the floor; medians, peak RSS, and the ratios
#      perfdb/floor and perf-script/perfdb (the goals: at most 1.5 and at
#      least 5);
#   3. times the README's two questions by thread and time (wakeup latency,
#      one thread's events in a window) on a session of at least 1M
#      sched_switch + sched_wakeup samples (perf bench sched pipe);
#   4. peak RSS whatever perf's -m and the CPU count: imports recordings
#      made with -m 4096 and -m 16384 (the size of a FINISHED_ROUND grows
#      with both) and a file written by build/tests/tools/cpu_rounds that
#      looks like 64 CPUs (64 interleaved per-CPU runs per round, rounds of
#      25 MiB); RSS figures, not timed tests;
#   5. prints a summary in markdown, for the README.
# Usage: sh tests/bench/import.sh [BUILD_DIR]   (make bench; default build)
# Env: BENCH_TMPDIR (where the recordings go, default $TMPDIR or /tmp; the
# 8M one takes about 1 GB), BENCH_RUNS, BENCH_SIZES (default "1 2 8").
# Exit status 0, or 1 when something could not run.
B=${1:-build}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
PERFDB=$B/perfdb
YIELD=$B/workloads/yield
FLOOR=$B/bench/sqlite_floor
RUNS=${BENCH_RUNS:-3}
SIZES=${BENCH_SIZES:-1 2 8}
README=$(dirname "$0")/../../README.md

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$PERFDB" ] || die "$PERFDB is missing: run make first"
[ -x "$YIELD" ] || die "$YIELD is missing: run make first"
[ -x "$FLOOR" ] || die "$FLOOR is missing: run make bench"
command -v perf >/dev/null 2>&1 || die "perf is not installed"
command -v sqlite3 >/dev/null 2>&1 || die "sqlite3 is not installed"
T=$(mktemp -d "${BENCH_TMPDIR:-${TMPDIR:-/tmp}}/perfdb-bench.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM

# measure CMD...: runs CMD with stdout to $T/out (or to $OUT when set: perf
# script's goes to /dev/null, as the goal is stated), stderr to $T/err;
# prints "MILLISECONDS PEAK_RSS_KB". Fails when CMD fails.
measure() {
	o=${OUT:-$T/out}
	if [ -x /usr/bin/time ]; then
		s=$(date +%s%N)
		/usr/bin/time -f %M -o "$T/rss" "$@" >"$o" 2>"$T/err" || return 1
		e=$(date +%s%N)
		echo "$(((e - s) / 1000000)) $(tail -1 "$T/rss")"
	else	# no /usr/bin/time: the child's ru_maxrss, through python3
		python3 - "$o" "$@" 2>"$T/err" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[2:], stdout=open(sys.argv[1], "w"))
ms = int((time.monotonic() - t) * 1000)
if rc:
    sys.exit(1)
print(ms, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
	fi
}

# session_col DB NAME: a column of the database's first session (perfdb sessions)
session_col() {
	"$PERFDB" sessions "$1" --format csv | awk -F, -v name="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		NR == 2 && c { print $c }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
secs() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
thousands() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# record FILE SECONDS [EVENTS -- CMD...]: a system-wide recording (default:
# sched_switch around yield) with perf's -m $PAGES (default 4096)
record() {
	f=$1 s=$2
	shift 2
	if [ $# -eq 0 ]; then
		set -- sched:sched_switch -- "$YIELD" --seconds "$s"
	fi
	ev=$1
	shift 2
	perf record -a -m "${PAGES:-4096}" -e "$ev" -o "$f" -- "$@" >"$T/workload.out" 2>"$T/perf.err" ||
		die "perf record failed: $(tail -3 "$T/perf.err")"
}

# import_count FILE DB: imports FILE into a new DB; prints its samples
import_count() {
	rm -f "$2"
	"$PERFDB" import -q -o "$2" "$1" 2>"$T/err" || die "perfdb import failed: $(cat "$T/err")"
	session_col "$2" samples
}

echo "bench: perfdb import benchmark: $PERFDB"
echo "bench: $(perf version 2>/dev/null), kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs," \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); load average $(load)"

# 1. the rate of samples per second of yield here, then one recording per size
record "$T/probe.data" 0.5
rate=$(import_count "$T/probe.data" "$T/probe.db")
rate=$((rate * 2))
rm -f "$T/probe.data" "$T/probe.db"
[ "$rate" -gt 0 ] || die "the probe recording holds no samples"
echo "bench: yield gives about $(thousands "$rate") sched_switch samples per second here"

# record_size M: $T/M.data with at least M million samples; sets n_M, s_M
record_size() {
	want=$(($1 * 1000000))
	s=$(awk -v w="$want" -v r="$rate" 'BEGIN { printf "%.1f", 1.15 * w / r + 0.1 }')
	for try in 1 2 3 4; do
		record "$T/$1.data" "$s"
		n=$(import_count "$T/$1.data" "$T/$1.db")
		echo "bench: recorded ${s}s of yield: $(thousands "$n") samples ($(session_col "$T/$1.db" lost_samples) lost)," \
			"$(mb "$(stat -c %s "$T/$1.data")") MiB"
		[ "$n" -ge "$want" ] && break
		[ "$try" -eq 4 ] && die "fewer than $want samples after 4 tries"
		s=$(awk -v s="$s" -v n="$n" -v w="$want" \
			'BEGIN { x = s * 1.2 * w / (n > 0 ? n : 1); if (x > 120) x = 120; printf "%.1f", x }')
	done
	eval "n_$1=$n s_$1=$s"
}

# run_size M: the interleaved runs on $T/M.data; appends a table row to $T/rows
run_size() {
	F=$T/$1.data
	: >"$T/pdb"; : >"$T/ps"; : >"$T/fl"
	for i in $(seq "$RUNS"); do
		rm -f "$T/new.db"
		r=$(measure "$PERFDB" import -q -o "$T/new.db" "$F") ||
			die "perfdb import failed: $(tail -3 "$T/err")"
		echo "$r" >>"$T/pdb"
		p=$(OUT=/dev/null measure perf script -i "$F") || die "perf script failed: $(tail -3 "$T/err")"
		echo "$p" >>"$T/ps"
		measure "$FLOOR" "$T/new.db" "$T/floor.db" >/dev/null || die "the floor failed: $(tail -3 "$T/err")"
		fl=$(sed -n 's/.* insert_ms=\([0-9]*\) .*/\1/p' "$T/out")
		echo "$fl" >>"$T/fl"
		echo "bench: ${1}M run $i: perfdb import $(secs "${r% *}") s (peak RSS ${r#* } KiB);" \
			"perf script $(secs "${p% *}") s; floor $(secs "$fl") s ($(cat "$T/out")); load $(load)"
	done
	n=$(eval echo "\$n_$1")
	[ "$(session_col "$T/new.db" samples)" = "$n" ] || die "the timed import holds other samples than $n"
	[ "$(sqlite3 "$T/floor.db" 'SELECT count(*) FROM sample')" = "$n" ] || die "the floor stored other samples than $n"
	pdb=$(cut -d' ' -f1 "$T/pdb" | median)
	ps=$(cut -d' ' -f1 "$T/ps" | median)
	fl=$(median <"$T/fl")
	rss=$(cut -d' ' -f2 "$T/pdb" | sort -n | tail -1)
	echo "| $(thousands "$n") | $(mb "$(stat -c %s "$F")") MiB | $(secs "$pdb") s | $(secs "$fl") s |" \
		"$(secs "$ps") s | **$(ratio "$pdb" "$fl")** | **$(ratio "$ps" "$pdb")** |" \
		"$(mb $((rss * 1024))) MiB | $(awk -v d="$(stat -c %s "$T/new.db")" -v n="$n" 'BEGIN { printf "%.1f", d / n }') |" >>"$T/rows"
	rm -f "$T/new.db" "$T/floor.db" "$F" "$T/$1.db"
}

: >"$T/rows"
for m in $SIZES; do
	record_size "$m"
	run_size "$m"
done

# 3. the README's SQL by thread and time, on a sched_switch + sched_wakeup session
readme_query() {	# readme_query TITLE_START: that ```sql block of the README
	awk -v t="$1" '/^```sql/ { on = 1; keep = 0; next } /^```/ { on = 0 }
		on && !keep && index($0, "-- " t) == 1 { keep = 1 } on && keep' "$README"
}
loops=400000
for try in 1 2 3; do
	record "$T/w.data" 0 sched:sched_switch,sched:sched_wakeup -- perf bench sched pipe -l "$loops"
	wn=$(import_count "$T/w.data" "$T/w.db")
	[ "$wn" -ge 1000000 ] && break
	loops=$(awk -v l="$loops" -v n="$wn" 'BEGIN { printf "%d", l * 1.2 * 1000000 / (n > 0 ? n : 1) }')
done
nwake=$(sqlite3 "$T/w.db" "SELECT nr_samples FROM event WHERE name = 'sched:sched_wakeup'")
: >"$T/sqlrows"
for title in "Wakeup latency" "Events of one thread"; do
	readme_query "$title" >"$T/q.sql"
	[ -s "$T/q.sql" ] || die "README has no SQL example titled '$title'"
	: >"$T/qt"
	for i in $(seq "$RUNS"); do
		r=$(measure sqlite3 -bail "$T/w.db" <"$T/q.sql") || die "'$title' failed: $(tail -3 "$T/err")"
		echo "${r% *}" >>"$T/qt"
	done
	echo "bench: README '$title': $(tr '\n' ' ' <"$T/qt")ms; load $(load)"
	echo "| $(head -1 "$T/q.sql" | sed 's/^-- //') | $(secs "$(median <"$T/qt")") s |" >>"$T/sqlrows"
done

# 4. peak RSS against perf's -m and the CPU count
# rss_of FILE: "SAMPLES PEAK_RSS_KB MIB" of importing FILE
rss_of() {
	rm -f "$T/rss.db"
	r=$(measure "$PERFDB" import -q -o "$T/rss.db" "$1") ||
		die "perfdb import of $1 failed: $(tail -3 "$T/err")"
	echo "$(session_col "$T/rss.db" samples) ${r#* } $(mb "$(stat -c %s "$1")")"
	rm -f "$T/rss.db" "$1"
}
CPU_ROUNDS=$B/tests/tools/cpu_rounds
[ -x "$CPU_ROUNDS" ] || die "$CPU_ROUNDS is missing: run make first"
: >"$T/rss_rows"
for m in 4096 16384; do
	PAGES=$m record "$T/m.data" 3
	rss_of "$T/m.data" >"$T/rss_one"
	read -r rn rkb rmib <"$T/rss_one"
	echo "bench: -m $m: $rn samples, $rmib MiB, perfdb import peak RSS $rkb KiB"
	echo "| \`perf record -a -m $m\`, yield 3 s | $(thousands "$rn") | $rmib MiB | $(mb $((rkb * 1024))) MiB |" >>"$T/rss_rows"
done
"$CPU_ROUNDS" "$T/cpus.data" 64 8192 10 || die "cpu_rounds failed"
rss_of "$T/cpus.data" >"$T/rss_one"
read -r rn rkb rmib <"$T/rss_one"
echo "bench: 64 CPUs (cpu_rounds): $rn samples, $rmib MiB, perfdb import peak RSS $rkb KiB"
echo "| cpu_rounds: 64 CPUs, 10 rounds of 64 x 8192 samples | $(thousands "$rn") | $rmib MiB | $(mb $((rkb * 1024))) MiB |" >>"$T/rss_rows"

# 5. the summary
cat <<EOF

### Import speed: perfdb import, the SQLite floor, perf script

sched:sched_switch, \`perf record -a -m 4096\` around \`yield\`; median of $RUNS
interleaved runs each (perf script with its stdout to /dev/null). The floor
inserts the same rows into a fresh file
(tests/bench/sqlite_floor.c); goals: perfdb/floor <= 1.5, perf-script/perfdb >= 5.

| samples | perf.data | perfdb import | SQLite floor | perf script | perfdb/floor | perf-script/perfdb | perfdb peak RSS | DB bytes per sample |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|
$(cat "$T/rows")

### SQL by thread and time

README queries on a session of $(thousands "$wn") samples ($(thousands "$nwake") sched_wakeup,
the rest sched_switch; \`perf bench sched pipe -l $loops\`), \`sqlite3\`, median of $RUNS:

| query | time |
|---|---:|
$(cat "$T/sqlrows")

### Peak RSS whatever perf's -m and the CPU count

A round's size grows with both; \`perfdb import\` peak RSS:

| file | samples | perf.data | perfdb import peak RSS |
|---|---:|---:|---:|
$(cat "$T/rss_rows")

Machine: $(getconf _NPROCESSORS_ONLN) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), kernel $(uname -r), $(perf version 2>/dev/null); load average at the end $(load); perfdb from $B.
EOF
exit 0
