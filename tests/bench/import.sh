#!/bin/sh
# Benchmark (not a test): how fast `perfdb import` turns a large perf.data
# into a database, against `perf script` reading the same file, and how much
# memory it needs.
#   1. records sched:sched_switch system-wide around the yield workload
#      (perf record -a -m 2048, --seconds 3, longer until >= 1M samples);
#   2. times `perfdb import -q -o NEW.db FILE` and `perf script -i FILE
#      >/dev/null`, 3 runs each, interleaved, and reports the medians, the
#      samples per second of each, their ratio, the peak RSS of both and the
#      database bytes per sample;
#   3. records a file 3x as long and imports it, to show that perfdb's peak
#      RSS does not grow with the file size;
#   4. peak RSS whatever perf's -m and the CPU count: imports recordings
#      made with -m 4096 and -m 16384 (the size of a FINISHED_ROUND grows
#      with both) and a file written by build/tests/tools/cpu_rounds that
#      looks like 64 CPUs (64 interleaved per-CPU runs per round, rounds of
#      25 MiB); RSS figures, not timed tests;
#   5. prints a summary in markdown, for the README.
# Usage: sh tests/bench/import.sh [BUILD_DIR]   (make bench; default build)
# Env: BENCH_TMPDIR (where the recordings go, default $TMPDIR or /tmp; they
# take about 0.5 GB), BENCH_RUNS (runs per tool, default 3).
# Exit status 0, or 1 when something could not run.
B=${1:-build}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
PERFDB=$B/perfdb
YIELD=$B/workloads/yield
RUNS=${BENCH_RUNS:-3}
MIN_SAMPLES=1000000

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$PERFDB" ] || die "$PERFDB is missing: run make first"
[ -x "$YIELD" ] || die "$YIELD is missing: run make first"
command -v perf >/dev/null 2>&1 || die "perf is not installed"
T=$(mktemp -d "${BENCH_TMPDIR:-${TMPDIR:-/tmp}}/perfdb-bench.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM

# measure CMD...: runs CMD with stdout to /dev/null, stderr to $T/err;
# prints "MILLISECONDS PEAK_RSS_KB". Fails when CMD fails.
measure() {
	if [ -x /usr/bin/time ]; then
		s=$(date +%s%N)
		/usr/bin/time -f %M -o "$T/rss" "$@" >/dev/null 2>"$T/err" || return 1
		e=$(date +%s%N)
		echo "$(((e - s) / 1000000)) $(tail -1 "$T/rss")"
	else	# no /usr/bin/time: the child's ru_maxrss, through python3
		python3 - "$@" 2>"$T/err" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
ms = int((time.monotonic() - t) * 1000)
if rc:
    sys.exit(1)
print(ms, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
	fi
}

# record FILE SECONDS [PAGES]: the sched_switch recording around yield
record() {
	perf record -a -m "${3:-2048}" -e sched:sched_switch -o "$1" -- \
		"$YIELD" --seconds "$2" >"$T/yield.out" 2>"$T/perf.err" ||
		die "perf record failed: $(tail -3 "$T/perf.err")"
	if grep -qi 'lost' "$T/perf.err"; then
		echo "bench: perf: $(grep -i lost "$T/perf.err" | head -1)"
	fi
}

# session_col DB NAME: a column of the database's first session (perfdb sessions)
session_col() {
	"$PERFDB" sessions "$1" --format csv | awk -F, -v name="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		NR == 2 && c { print $c }'
}
samples() { session_col "$1" samples; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
secs() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }
per_sec() { awk -v n="$1" -v ms="$2" 'BEGIN { printf "%.0f", (ms > 0 ? n * 1000 / ms : 0) }'; }
thousands() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

echo "bench: perfdb import benchmark: $PERFDB"
echo "bench: $(perf version 2>/dev/null), kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs," \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"

# 1. a recording of at least MIN_SAMPLES samples
F=$T/small.data
seconds=3
n=0
for try in 1 2 3 4; do
	record "$F" "$seconds"
	rm -f "$T/count.db"
	"$PERFDB" import -q -o "$T/count.db" "$F" 2>"$T/err" ||
		die "perfdb import failed: $(cat "$T/err")"
	n=$(samples "$T/count.db")
	[ -n "$n" ] || die "no sample count from perfdb sessions"
	echo "bench: recorded ${seconds}s of yield: $n samples ($(session_col "$T/count.db" lost_events) lost)," \
		"$(mb "$(stat -c %s "$F")") MiB"
	[ "$n" -ge "$MIN_SAMPLES" ] && break
	[ "$try" -eq 4 ] && die "fewer than $MIN_SAMPLES samples after 4 tries"
	seconds=$(awk -v s="$seconds" -v n="$n" -v m="$MIN_SAMPLES" \
		'BEGIN { x = s * 1.3 * m / (n > 0 ? n : 1); if (x > 60) x = 60; printf "%.1f", x }')
done
rm -f "$T/count.db"

# 2. interleaved timed runs
: >"$T/pdb"
: >"$T/ps"
for i in $(seq "$RUNS"); do
	rm -f "$T/new.db"
	r=$(measure "$PERFDB" import -q -o "$T/new.db" "$F") ||
		die "perfdb import failed: $(tail -3 "$T/err")"
	echo "$r" >>"$T/pdb"
	p=$(measure perf script -i "$F") || die "perf script failed: $(tail -3 "$T/err")"
	echo "$p" >>"$T/ps"
	echo "bench: run $i: perfdb import $(secs "${r% *}") s, peak RSS ${r#* } KiB;" \
		"perf script $(secs "${p% *}") s, peak RSS ${p#* } KiB"
done
[ "$(samples "$T/new.db")" = "$n" ] || die "the timed import holds $(samples "$T/new.db") samples, not $n"
pdb_ms=$(cut -d' ' -f1 "$T/pdb" | median)
ps_ms=$(cut -d' ' -f1 "$T/ps" | median)
pdb_rss=$(cut -d' ' -f2 "$T/pdb" | sort -n | tail -1)
ps_rss=$(cut -d' ' -f2 "$T/ps" | sort -n | tail -1)
db_bytes=$(stat -c %s "$T/new.db")
file_bytes=$(stat -c %s "$F")
rm -f "$T/new.db"

# 3. a file three times as long (recorded longer until it holds 2.7x the
# samples: on a busy machine the rate drops as the recording grows)
L=$T/large.data
lseconds=$(awk -v s="$seconds" 'BEGIN { print s * 3 }')
for try in 1 2 3; do
	record "$L" "$lseconds"
	rm -f "$T/large.db"
	r=$(measure "$PERFDB" import -q -o "$T/large.db" "$L") ||
		die "perfdb import of the large file failed: $(tail -3 "$T/err")"
	l_ms=${r% *}
	l_rss=${r#* }
	ln=$(samples "$T/large.db")
	l_bytes=$(stat -c %s "$L")
	l_db=$(stat -c %s "$T/large.db")
	echo "bench: recorded ${lseconds}s of yield: $ln samples ($(session_col "$T/large.db" lost_events) lost)," \
		"$(mb "$l_bytes") MiB; perfdb import $(secs "$l_ms") s, peak RSS $l_rss KiB"
	awk -v a="$ln" -v b="$n" 'BEGIN { exit !(a >= 2.7 * b) }' && break
	[ "$try" -eq 3 ] && echo "bench: the large recording holds fewer than 2.7x the samples"
	lseconds=$(awk -v s="$lseconds" -v a="$ln" -v b="$n" \
		'BEGIN { x = s * 3.2 * b / (a > 0 ? a : 1); if (x > 90) x = 90; printf "%.1f", x }')
done
rm -f "$L" "$T/large.db"

# 4. peak RSS against perf's -m and the CPU count
# rss_of FILE: "SAMPLES PEAK_RSS_KB MIB" of importing FILE
rss_of() {
	rm -f "$T/rss.db"
	r=$(measure "$PERFDB" import -q -o "$T/rss.db" "$1") ||
		die "perfdb import of $1 failed: $(tail -3 "$T/err")"
	echo "$(samples "$T/rss.db") ${r#* } $(mb "$(stat -c %s "$1")")"
	rm -f "$T/rss.db" "$1"
}
CPU_ROUNDS=$B/tests/tools/cpu_rounds
[ -x "$CPU_ROUNDS" ] || die "$CPU_ROUNDS is missing: run make first"
: >"$T/rss_rows"
for m in 4096 16384; do
	record "$T/m.data" "$seconds" "$m"
	rss_of "$T/m.data" >"$T/rss_one"
	read -r rn rkb rmib <"$T/rss_one"
	echo "bench: -m $m: $rn samples, $rmib MiB, perfdb import peak RSS $rkb KiB"
	echo "| \`perf record -a -m $m\`, yield ${seconds} s | $(thousands "$rn") | $rmib MiB | $(mb $((rkb * 1024))) MiB |" >>"$T/rss_rows"
done
"$CPU_ROUNDS" "$T/cpus.data" 64 8192 10 || die "cpu_rounds failed"
rss_of "$T/cpus.data" >"$T/rss_one"
read -r rn rkb rmib <"$T/rss_one"
echo "bench: 64 CPUs (cpu_rounds): $rn samples, $rmib MiB, perfdb import peak RSS $rkb KiB"
echo "| cpu_rounds: 64 CPUs, 10 rounds of 64 x 8192 samples | $(thousands "$rn") | $rmib MiB | $(mb $((rkb * 1024))) MiB |" >>"$T/rss_rows"

# 5. the summary
ratio=$(awk -v a="$ps_ms" -v b="$pdb_ms" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
bps=$(awk -v d="$db_bytes" -v n="$n" 'BEGIN { printf "%.1f", d / n }')
lbps=$(awk -v d="$l_db" -v n="$ln" 'BEGIN { printf "%.1f", d / n }')
growth=$(awk -v a="$l_rss" -v b="$pdb_rss" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
cat <<EOF

### Import speed: perfdb import vs perf script

sched:sched_switch, \`perf record -a -m 2048\` around \`yield --seconds $seconds\`:
$(thousands "$n") samples, $(mb "$file_bytes") MiB of perf.data. Median of $RUNS runs each.

| | perfdb import | perf script >/dev/null |
|---|---:|---:|
| wall time | $(secs "$pdb_ms") s | $(secs "$ps_ms") s |
| samples per second | $(thousands "$(per_sec "$n" "$pdb_ms")") | $(thousands "$(per_sec "$n" "$ps_ms")") |
| peak RSS | $(mb $((pdb_rss * 1024))) MiB | $(mb $((ps_rss * 1024))) MiB |

perf script time / perfdb import time: **${ratio}x**. Database: $(mb "$db_bytes") MiB, $bps bytes per sample.

| recording | samples | perf.data | perfdb import | samples per second | peak RSS | DB bytes per sample |
|---|---:|---:|---:|---:|---:|---:|
| yield ${seconds} s | $(thousands "$n") | $(mb "$file_bytes") MiB | $(secs "$pdb_ms") s | $(thousands "$(per_sec "$n" "$pdb_ms")") | $(mb $((pdb_rss * 1024))) MiB | $bps |
| yield ${lseconds} s | $(thousands "$ln") | $(mb "$l_bytes") MiB | $(secs "$l_ms") s | $(thousands "$(per_sec "$ln" "$l_ms")") | $(mb $((l_rss * 1024))) MiB | $lbps |

Peak RSS of the larger import / the smaller: ${growth}x for $(awk -v a="$ln" -v b="$n" 'BEGIN { printf "%.1f", a / b }')x the samples.

Peak RSS of \`perfdb import\` whatever perf's \`-m\` and the CPU count (a round's size grows with both):

| file | samples | perf.data | perfdb import peak RSS |
|---|---:|---:|---:|
$(cat "$T/rss_rows")

Machine: $(getconf _NPROCESSORS_ONLN) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)), kernel $(uname -r), $(perf version 2>/dev/null); perfdb from $B.
EOF
exit 0
