#!/bin/sh
# perfdb bench and record reading a workload's output in a format
# (--parse FORMAT, collect/parse/) and keeping distributions (sample=
# lines: run_dist, run_sample). Checked from the rows: --parse help lists
# every format; an unknown one is a usage error before anything runs; the
# format is part of the plan (bench.parse; --resume keeps it); regex
# takes each expression's first group with its unit and better=; output
# that does not parse fails that run with a reason naming the format and
# the bench goes on; time's metrics are the run's own usage, to the
# nanosecond; a run of the built-in faults workload keeps every fault's
# latency, and each run's count, mean, stddev, min, p50, p90, p99, max
# and BAmean-95/99 are recomputed here from run_sample by the definitions
# (mmtests' nearest-rank rule) in Python; results and report --stat
# compare runs on that statistic (recomputed), with a note saying so, and
# report charts each side's runs' p50, p90 and p99;
# perfdb record --parse stores the same in workload_metric and
# workload_dist. Prints TAP lines. Run from the repository root.
# shellcheck disable=SC2016 # eval'd checks expand their variables late
. "$(dirname "$0")/lib/setup.sh"
private_perfdb workloads
DB=$T/p.db
py() { python3 - "$@"; }
run() { "$PERFDB" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }
q() { sqlite3 "$DB" "$1"; }

# --- the formats and usage --------------------------------------------------
lists_all() { # every format that exists (the table's) listed with its metrics
	for f in metric will-it-scale perf-bench hackbench stress-ng fio thpscale time regex; do
		grep -q "^  $f\$" "$T/out" || return 1
	done
	[ "$(grep -c "^      metrics: " "$T/out")" = 9 ]
}
run bench --parse help
check "--parse help: exit 0, every format listed with its metrics" eval 'rc_is 0 && lists_all'
run bench -o "$DB" -l x --parse nosuch -- true
check "--parse nosuch: exit 1, one line listing the formats, no database made" \
	eval 'rc_is 1 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "no format .nosuch.; the formats are metric, " "$T/err" && [ ! -e "$DB" ]'
run bench -o "$DB" -l x --parse 'regex:a=/x (/' -- true
check "--parse regex with a bad expression: exit 1, one line naming it" \
	eval 'rc_is 1 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "regex: a: " "$T/err"'
run bench -o "$DB" -l x --parse 'regex:a=/x [0-9]/' -- true
check "--parse regex without a group: exit 1, it says so" eval 'rc_is 1 && grep -q "has no group" "$T/err"'

# --- regex, and output that does not parse ------------------------------------
# say.sh N prints its own lines; N=0: no line the expressions match.
cat >"$T/say.sh" <<'SH'
echo "starting"
[ "$1" = 0 ] && exit 0
echo "throughput: $((1000 * $1)).5 ops/s (run $1)"
echo "latency $1 ms"
SH
run bench -q -o "$DB" -l rx --runs 2 -p n=1,0,3 --order sequential \
	--parse 'regex:tput=/throughput: ([0-9.]+)/ops/s,higher,lat=/latency ([0-9]+) ms/ms,lower' -- sh "$T/say.sh" '{n}'
check "bench --parse regex: exit 2 (a run failed), the plan keeps the format" \
	eval 'rc_is 2 && [ "$(q "SELECT parse FROM bench WHERE label = '"'rx'"'")" = "regex:tput=/throughput: ([0-9.]+)/ops/s,higher,lat=/latency ([0-9]+) ms/ms,lower" ]'
cat >"$T/rx.sql" <<'SQL'
SELECT c.value || ':' || m.name || '=' || m.value || ' ' || m.unit || ' ' || m.better
FROM run_metric m JOIN bench_run r ON r.id = m.run_id JOIN bench_cell c ON c.bench_id = r.bench_id AND c.cell = r.cell
WHERE r.run = 1 ORDER BY r.seq, m.rowid;
SQL
check "each expression's first group, with its unit and better=; the line it came from" \
	eval '[ "$(sqlite3 "$DB" <"$T/rx.sql" | tr "\n" ";")" = "1:tput=1000.5 ops/s higher;1:lat=1.0 ms lower;3:tput=3000.5 ops/s higher;3:lat=3.0 ms lower;" ] &&
	  [ "$(q "SELECT m.line FROM run_metric m JOIN bench_run r ON r.id = m.run_id WHERE m.name = '"'tput'"' AND r.cell = 2 AND r.run = 2")" = "throughput: 3000.5 ops/s (run 3)" ]'
check "output that does not parse: that cell's runs failed naming the format and the metric, the others ok" \
	eval '[ "$(q "SELECT group_concat(r.cell || r.status, \" \") FROM bench_run r ORDER BY r.seq")" = "0ok 0ok 1failed 1failed 2ok 2ok" ] &&
	  [ "$(q "SELECT DISTINCT error FROM bench_run WHERE status = '"'failed'"'")" = "regex: tput: no line of the output matched" ]'
run bench -o "$DB" -l rx --resume --parse time
check "--resume with --parse: exit 1 (the plan's format is stored)" eval 'rc_is 1 && grep -q -- "--parse" "$T/err"'
run bench -q -o "$DB" -l rx --resume --again
check "--resume --again reads with the stored format" \
	eval '[ "$(q "SELECT count(*) FROM run_metric m JOIN bench_run r ON r.id = m.run_id WHERE r.sitting = 2 AND m.name = '"'tput'"'")" = 4 ]'

# --- time -------------------------------------------------------------------
run bench -q -o "$DB" -l tm --runs 2 --parse time -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo metric=ignored value=1'
check "--parse time: elapsed_s, user_s and sys_s are the run's wall, user and system time (ns exact), other lines ignored" \
	eval 'rc_is 0 && [ "$(q "SELECT count(*) FROM run_metric m JOIN bench_run r ON r.id = m.run_id JOIN bench b ON b.id = r.bench_id
	  WHERE b.label = '"'tm'"' AND ((m.name = '"'elapsed_s'"' AND abs(m.value * 1e9 - r.wall_ns) < 1) OR
	  (m.name = '"'user_s'"' AND abs(m.value * 1e9 - r.user_ns) < 1) OR (m.name = '"'sys_s'"' AND abs(m.value * 1e9 - r.sys_ns) < 1))
	  AND m.unit = '"'s'"' AND m.better = '"'lower'"'")" = 6 ] && [ "$(q "SELECT count(*) FROM run_metric WHERE name = '"'ignored'"'")" = 0 ]'

# --- distributions: the faults workload ----------------------------------------
run bench -q -o "$DB" -l fa --runs 3 -p t=1,2 -- faults --threads '{t}' --size 16M --fragment 1M
check "faults under bench: exit 0, 6 runs, each with its fault latencies (8 faults a run)" \
	eval 'rc_is 0 && [ "$(q "SELECT count(DISTINCT d.run_id) || \" \" || min(d.count) || \" \" || max(d.count) FROM run_dist d WHERE d.name LIKE '"'fault-both-%'"'")" = "6 8 8" ]'
check "every run's summary is its samples' (count, mean, stddev, min, p50, p90, p99, max, BAmean-95/99 recomputed)" \
	py "$DB" <<'PY'
import math, sqlite3, statistics as st, sys
db = sqlite3.connect(sys.argv[1])
n = 0
for run, name, better, *stored in db.execute("SELECT run_id, name, better, count, mean, stddev, min, p50, p90, p99, max, bamean95, bamean99 FROM run_dist"):
    v = sorted(x for (x,) in db.execute("SELECT value FROM run_sample WHERE run_id = ? AND name = ? ORDER BY seq", (run, name)))
    c = len(v)
    rank = lambda p: max(1, c * p // 100)
    best = v if better != "higher" else v[::-1]
    want = [c, st.mean(v), st.stdev(v) if c > 1 else 0.0, v[0], v[rank(50) - 1], v[rank(90) - 1], v[rank(99) - 1], v[-1],
            st.mean(best[:rank(95)]), st.mean(best[:rank(99)])]
    assert all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) for a, b in zip(stored, want)), (run, name, stored, want)
    m = db.execute("SELECT value FROM run_metric WHERE run_id = ? AND name = ?", (run, name)).fetchone()[0]
    assert math.isclose(m, want[1], rel_tol=1e-12), (m, want[1])
    n += 1
assert n >= 12, n
PY
"$PERFDB" results "$DB" -l fa --stat p90 --format json >"$T/res.json" 2>"$T/err"
check "results --stat p90: each cell's median is the median of its runs' p90, a note says which statistic" \
	py "$DB" "$T/res.json" <<'PY'
import json, sqlite3, statistics as st, sys
db = sqlite3.connect(sys.argv[1])
d = json.load(open(sys.argv[2]))
rows = [r for r in d["findings"]["results"] if r["metric"].startswith("fault-both-") and r["runs"]]
assert len(rows) == 2, rows
for r in rows:
    v = [x for (x,) in db.execute("SELECT d.p90 FROM run_dist d JOIN bench_run r ON r.id = d.run_id JOIN bench_cell c ON c.bench_id = r.bench_id AND c.cell = r.cell AND c.name = 't' WHERE c.value = ? AND d.name = ? AND r.kind = 'bare'", (r["t"], r["metric"]))]
    assert len(v) == 3 and abs(r["median"] - st.median(v)) <= 1e-9 * st.median(v), (r, v)
assert any("compared on each run's p90" in x for x in d.get("notes", [])), d.get("notes")
PY
run bench -q -o "$DB" -l fb --runs 3 -p t=1,2 -- faults --threads '{t}' --size 16M --fragment 1M
"$PERFDB" report "$DB" --base fa --new fb --stat p99 --format json >"$T/rep.json" 2>"$T/err"
check "report --stat p99: each side's mean is the mean of its runs' p99" \
	py "$DB" "$T/rep.json" <<'PY'
import json, sqlite3, statistics as st, sys
db = sqlite3.connect(sys.argv[1])
d = json.load(open(sys.argv[2]))
k = [k for k in d["findings"] if k.startswith("metric_fault-both") or k.startswith("metric_fault_both")]
assert k, list(d["findings"])
def p99(label, t):
    return [x for (x,) in db.execute("SELECT d.p99 FROM run_dist d JOIN bench_run r ON r.id = d.run_id JOIN bench b ON b.id = r.bench_id JOIN bench_cell c ON c.bench_id = r.bench_id AND c.cell = r.cell AND c.name = 't' WHERE b.label = ? AND c.value = ? AND d.name LIKE 'fault-both-%' AND r.kind = 'bare' AND r.status = 'ok'", (label, t))]
rows = [r for key in k for r in d["findings"][key]]
assert rows
for r in rows:
    a, b = p99("fa", r["t"]), p99("fb", r["t"])
    assert abs(r["base"] - st.mean(a)) <= 1e-9 * st.mean(a) and abs(r["new"] - st.mean(b)) <= 1e-9 * st.mean(b), (r, a, b)
PY
check "report: each distribution's shape, each side's runs' p50, p90, p99 (run_dist's) per cell" \
	py "$DB" "$T/rep.json" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
f = json.load(open(sys.argv[2]))["findings"]
for t in ("1", "2"):
    rows = f["shape_fault_both_" + t]
    for side, label in (("base", "fa"), ("new", "fb")):
        want = sorted(("t=%s %s" % (t, p), v) for run in db.execute("SELECT d.p50, d.p90, d.p99 FROM run_dist d JOIN bench_run r ON r.id = d.run_id JOIN bench b ON b.id = r.bench_id WHERE b.label = ? AND d.name = ? AND r.kind = 'bare' AND r.status = 'ok'", (label, "fault-both-" + t)) for p, v in zip(("p50", "p90", "p99"), run))
        got = sorted((r["cell"], r["value"]) for r in rows if r["side"] == side)
        assert len(want) == 9 and got == want, (t, side, got, want)
PY

# --- a value and samples of one name; record --parse ---------------------------
printf '%s\n' 'echo "metric=m value=1"' 'echo "metric=m sample=2"' >"$T/both.sh"
run bench -q -o "$DB" -l both --runs 1 -- sh "$T/both.sh"
check "a metric printed as a value and as samples: the run fails saying so" \
	eval '[ "$(q "SELECT r.error FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE b.label = '"'both'"'")" = "metric m printed as a value and as samples" ]'
R=$T/r.db
run record -q -o "$R" -l rec -r sched --parse 'regex:tput=/throughput: ([0-9.]+)/ops/s,higher' -- sh "$T/say.sh" 2
check "record --parse regex: the metric in workload_metric, with its line" \
	eval 'rc_is 0 && [ "$(sqlite3 "$R" "SELECT name || \" \" || value || \" \" || unit || \" \" || better || \" \" || line FROM workload_metric")" = "tput 2000.5 ops/s higher throughput: 2000.5 ops/s (run 2)" ]'
run record -q -o "$R" -l recf -r sched -- faults --size 8M --fragment 0
check "record of faults: its distributions in workload_dist and workload_sample, the mean in workload_metric" \
	eval 'rc_is 0 && [ "$(sqlite3 "$R" "SELECT d.count || \" \" || (SELECT count(*) FROM workload_sample s WHERE s.session_id = d.session_id AND s.name = d.name) || \" \" || (abs(m.value - d.mean) < 1e-9)
	  FROM workload_dist d JOIN workload_metric m ON m.session_id = d.session_id AND m.name = d.name WHERE d.name = '"'fault-both-1'"'")" = "4 4 1" ]'
run record -o "$R" -l recx -r sched --parse 'regex:tput=/nothing ([0-9]+)/' -- sh "$T/say.sh" 2
check "record whose output does not parse: the session is kept, no metric, one line says why" \
	eval 'rc_is 0 && grep -q "regex: tput: no line of the output matched; no metric stored" "$T/err" &&
	  [ "$(sqlite3 "$R" "SELECT count(*) FROM session s LEFT JOIN workload_metric m ON m.session_id = s.id WHERE s.label = '"'recx'"' AND m.name IS NULL")" = 1 ]'
run record -q -o "$R" -r watch --watch x:8 --parse time -- true
check "record -r watch --parse time: exit 1 (watch reads metric lines only)" eval 'rc_is 1 && grep -q "watch reads metric lines only" "$T/err"'
tap_end
