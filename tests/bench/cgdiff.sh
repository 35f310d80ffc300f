#!/bin/sh
# Benchmark of `perfdb cgdiff` on two sessions of about a million callchain
# samples each. Records both variants of cgdiff_work.c system-wide (-a,
# cpu-clock -F 999 -g, for 4 s of the program's CPU time, with a file-reading
# background load for kernel stacks), imports them, then grows each session
# in place to >= 1,000,000 samples by repeating its own samples (shifted in
# time, same stacks, threads and events), and times cgdiff --base 1 --new 2
# (text output, default options), with --comm, and with --percent-limit 0
# --format json, best of 3 runs each.
# Usage, from the repository root: sh tests/bench/cgdiff.sh [BUILD] (make bench)
# Needs perf (system-wide recording: root or perf_event_paranoid <= 0),
# sqlite3 and cc.
B=${1:-build}
case $B in /*) PERFDB=$B/perfdb ;; *) PERFDB=$(pwd)/$B/perfdb ;; esac
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
DB=$T/bench.db

mkdir -p "$T/a" "$T/b" || exit 2
cc -O0 -g -fno-omit-frame-pointer -o "$T/a/cgdiffwork" tests/programs/cgdiff_work.c &&
	cc -O0 -g -fno-omit-frame-pointer -DVARIANT_B -o "$T/b/cgdiffwork" tests/programs/cgdiff_work.c ||
	exit 2

# load: reads files in a loop until killed (kernel read/page-cache stacks)
load() { while :; do find /usr/lib /usr/share -type f 2>/dev/null | head -2000 | xargs cat >/dev/null 2>&1; done; }
for v in a b; do
	load & lp=$!
	perf record -q -e cpu-clock -F 999 -g -a -o "$T/$v.data" -- "$T/$v/cgdiffwork" --seconds 4 \
		>/dev/null 2>"$T/err" || { cat "$T/err"; kill $lp; exit 2; }
	kill $lp; wait $lp 2>/dev/null
	"$PERFDB" import -q -o "$DB" -l "$v" "$T/$v.data" || exit 2
done

# Grow sessions 1 and 2 to R copies of their samples each (R so that the
# smaller reaches a million): session 2's rows
# move behind session 1's copies, ids stay contiguous and in time order.
n=$(sqlite3 "$DB" "SELECT min(nr_samples) FROM session")
R=$(( (1000000 + n - 1) / n ))
sqlite3 -cmd ".parameter set @r $R" "$DB" <<'EOF' || exit 2
CREATE TEMP TABLE s2 AS SELECT * FROM sample WHERE session_id = 2 ORDER BY id;
DELETE FROM sample WHERE session_id = 2;
CREATE TEMP TABLE k AS WITH RECURSIVE k(i) AS
  (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < @r - 1) SELECT i FROM k;
CREATE TEMP TABLE info AS SELECT id, first_sample_id AS f,
  last_sample_id - first_sample_id + 1 AS n, duration_ns AS d FROM session;
INSERT INTO sample(id, session_id, event_id, time, cpu, thread_id, ip, symbol_id, cpumode,
  period, stack_id) SELECT s.id + k.i * i.n, s.session_id, s.event_id, s.time + k.i * i.d, s.cpu,
  s.thread_id, s.ip, s.symbol_id, s.cpumode, s.period, s.stack_id
  FROM sample s, temp.k k, temp.info i WHERE s.session_id = 1 AND i.id = 1 AND k.i > 0;
INSERT INTO sample(id, session_id, event_id, time, cpu, thread_id, ip, symbol_id, cpumode,
  period, stack_id) SELECT (SELECT n * @r + 1 FROM temp.info WHERE id = 1) + (s.id - i.f) + k.i * i.n,
  s.session_id, s.event_id, s.time + k.i * i.d, s.cpu, s.thread_id, s.ip, s.symbol_id,
  s.cpumode, s.period, s.stack_id
  FROM temp.s2 s, temp.k k, temp.info i WHERE i.id = 2;
UPDATE session SET first_sample_id = (SELECT min(id) FROM sample WHERE session_id = session.id),
  last_sample_id = (SELECT max(id) FROM sample WHERE session_id = session.id),
  nr_samples = (SELECT count(*) FROM sample WHERE session_id = session.id);
EOF
echo "# $(sqlite3 "$DB" "SELECT group_concat(nr_samples, ' and ') FROM session") samples;" \
	"$(sqlite3 "$DB" "SELECT count(DISTINCT stack_id) FROM sample WHERE session_id = 1")" \
	"and $(sqlite3 "$DB" "SELECT count(DISTINCT stack_id) FROM sample WHERE session_id = 2")" \
	"distinct stacks; $(sqlite3 "$DB" "SELECT count(*) FROM stack") stack nodes"

# best ARGS...: the best wall time of 3 runs of perfdb ARGS (seconds)
best() {
	b=""
	for _ in 1 2 3; do
		s=$(date +%s.%N)
		"$PERFDB" "$@" >/dev/null || return 1
		e=$(date +%s.%N)
		b=$(echo "$s $e $b" | awk '{ t = $2 - $1; if ($3 == "" || t < $3) print t; else print $3 }')
	done
	printf '%.2f' "$b"
}
echo "cgdiff --base 1 --new 2:                           $(best cgdiff "$DB" --base 1 --new 2) s"
echo "cgdiff --base 1 --new 2 --comm cgdiffwork:         $(best cgdiff "$DB" --base 1 --new 2 \
	--comm cgdiffwork) s"
echo "cgdiff --base 1 --new 2 --percent-limit 0 -f json: $(best cgdiff "$DB" --base 1 --new 2 \
	--percent-limit 0 --format json) s"
