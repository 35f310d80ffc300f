#!/bin/sh
# perfdb sched --latency against perf sched latency -p, and sched
# --base/--new's spread against a computation by hand; a session whose
# sample ids are out of time order against the same session in order.
#  - A recording of `perf bench sched messaging` (processes, then threads)
#    with the tracepoints perf 6.1's sched latency reads (sched_switch,
#    sched_wakeup, sched_wakeup_new; sched_waking left out: perf before 6.4
#    ignores it) is imported; for every task perf sched latency -p lists,
#    perfdb's latency table has the same count, mean and max (to the
#    0.001 ms perf prints) and the max's start (to the microsecond), and no
#    task perf does not list; the per-process table adds up its tasks.
#    A session without wakeup events says --latency cannot see the waits
#    that begin with one.
#  - Three sessions a side of workloads/yield: each compare row's mean
#    (shown, and its % change), median (JSON), min and max over the runs
#    equal those of the sessions' own figures (perfdb sched -s ID), the
#    interval is Student's t interval of the
#    difference of the means at level 1 - 0.05 / rows, the mark is set
#    exactly where it excludes 0, and no row is 0 in every run of both
#    sides. Prints TAP lines.
# Env: PERFDB (the perfdb binary), PERFDB_BUILD (holds workloads/).
. "$(dirname "$0")/lib/setup.sh"
W=$B/workloads
EV=sched:sched_switch,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_migrate_task,sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit

if ! command -v perf >/dev/null 2>&1 || ! perf record -q -e sched:sched_switch -o "$T/probe.data" -- true >/dev/null 2>&1; then
	skip "perf cannot record sched:sched_switch here"
	[ "$failed" -eq 0 ]
	exit
fi

# latency_check DATA DB: perf sched latency -p against perfdb sched --latency.
latency_check() {
	perf sched latency -p -i "$1" >"$T/perf.txt" 2>/dev/null
	"$PERFDB" sched "$2" --latency -n 0 --format json >"$T/lat.json" || return 1
	python3 - "$T/perf.txt" "$T/lat.json" <<'PY'
import json, re, sys
perf = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s+(\S.*?):(\d+)\s+\|\s+[\d.]+ ms \|\s+(\d+) \| avg:\s+([\d.]+) ms \| max:\s+([\d.]+) ms \| max start:\s+([\d.]+) s", line)
    if m:
        perf[int(m.group(2))] = (int(m.group(3)), float(m.group(4)), float(m.group(5)), float(m.group(6)))
f = json.load(open(sys.argv[2]))["findings"]
mine = {r["tid"]: r for r in f["latency"]}
bad = []
for tid, (n, avg, mx, start) in perf.items():
    r = mine.get(tid)
    if r is None:
        bad.append("tid %d: perf %s, perfdb none" % (tid, perf[tid]))
    elif r["waits"] != n or abs(r["mean_ms"] - avg) > 0.0011 or abs(r["max_ms"] - mx) > 0.0011 or \
            (mx > 0 and abs(r["max_start_s"] - start) > 1.5e-6):
        bad.append("tid %d: perf %s, perfdb %s" % (tid, perf[tid], (r["waits"], r["mean_ms"], r["max_ms"], r["max_start_s"])))
for tid in mine:
    if tid not in perf:
        bad.append("tid %d: perfdb %s, not in perf's list" % (tid, mine[tid]))
procs = {}
for r in f["latency"]:
    p = procs.setdefault(r["pid"], [0, 0.0, 0.0, 0])
    p[0] += r["waits"]; p[1] += r["mean_ms"] * r["waits"]; p[2] = max(p[2], r["max_ms"]); p[3] += 1
for r in f["latency_processes"]:
    p = procs.get(r["pid"])
    if not p or p[0] != r["waits"] or abs(p[1] / p[0] - r["mean_ms"]) > 1e-9 or p[2] != r["max_ms"] or p[3] != r["threads"]:
        bad.append("process %s: tasks add up to %s, row %s" % (r["pid"], p, r))
if len(f["latency_processes"]) != len(procs):
    bad.append("%d processes, %d rows" % (len(procs), len(f["latency_processes"])))
for b in bad[:10]:
    print("# " + b)
print("# %d tasks, %d waits in perf sched latency -p; %d process rows" % (len(perf), sum(v[0] for v in perf.values()), len(f["latency_processes"])))
sys.exit(1 if bad or len(perf) < 10 else 0)
PY
}

for mode in "" -t; do
	perf record -q -a -e "$EV" -o "$T/m$mode.data" -- perf bench sched messaging $mode -g 2 -l 200 >/dev/null 2>&1
	"$PERFDB" import -q -o "$T/m$mode.db" -l m "$T/m$mode.data" 2>"$T/err" || not_ok "import: $(head -1 "$T/err")"
	check "perf bench sched messaging ${mode:-(processes)}: per-task count, mean, max and max start equal perf sched latency -p" \
		latency_check "$T/m$mode.data" "$T/m$mode.db"
done
"$PERFDB" sched "$T/m.db" --latency --format csv >"$T/lat.csv"
check "sched --latency --format csv: the latency table" sh -c 'head -1 "$1" | grep -q "^tid,pid,comm,waits,mean_ms,max_ms,max_start_s,max_end_s$"' sh "$T/lat.csv"

# Without wakeup events the waits that begin with a wakeup are not seen:
# --latency says so (findings.unseen no_wakeups, no_wakeup_new), and says
# nothing on a session that recorded them.
perf record -q -a -e sched:sched_switch -o "$T/sw.data" -- "$W/yield" --seconds 0.1 >/dev/null 2>&1
"$PERFDB" import -q -o "$T/sw.db" "$T/sw.data" 2>"$T/err" || not_ok "import: $(head -1 "$T/err")"
"$PERFDB" sched "$T/sw.db" --latency --format json >"$T/sw.json"
# unseen_is FILE CODE...: the findings' unseen entries about wakeups are CODE...
unseen_is() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); u = [x for x in d["findings"].get("unseen", []) if x["what"].startswith("no_wakeup")]; w = sorted(x["what"] for x in u); print("# unseen:", w); sys.exit(not (w == sys.argv[2:] and all(x["warning"] in d["warnings"] for x in u)))' "$@"; }
check "sched --latency, sched_switch alone recorded: warnings no_wakeups and no_wakeup_new" unseen_is "$T/sw.json" no_wakeup_new no_wakeups
"$PERFDB" sched "$T/m.db" --latency --format json >"$T/m.json"
check "sched --latency, wakeups recorded: no such warning" unseen_is "$T/m.json"
"$PERFDB" sched "$T/sw.db" --format json >"$T/sw0.json"
check "sched without --latency: no wakeup warning" unseen_is "$T/sw0.json"

# Sample ids out of time order (records perf delivered behind its ordering
# window keep a later id): the contents of two neighbouring sample rows of
# different times on one CPU, mid-session, swapped. sched reads the events
# in id order and, at the first out of order, again sorted by time: the
# tables must be those of the session as recorded (without the sort they
# are not).
cp "$T/m.db" "$T/u.db"
sqlite3 "$T/u.db" <<'EOF'
CREATE TEMP TABLE p AS SELECT a.id AS a, a.id + 1 AS b FROM sample a JOIN sample b ON b.id = a.id + 1
  WHERE a.time < b.time AND a.cpu = b.cpu
  AND a.id >= (SELECT (first_sample_id + last_sample_id) / 2 FROM session)
  ORDER BY a.id LIMIT 1;
CREATE TEMP TABLE r AS SELECT * FROM sample WHERE id IN (SELECT a FROM p UNION SELECT b FROM p);
UPDATE r SET id = CASE id WHEN (SELECT a FROM p) THEN (SELECT b FROM p) ELSE (SELECT a FROM p) END;
DELETE FROM sample WHERE id IN (SELECT id FROM r);
INSERT INTO sample SELECT * FROM r;
EOF
"$PERFDB" sched "$T/m.db" --latency -n 0 --format json >"$T/m.json"
"$PERFDB" sched "$T/u.db" --latency -n 0 --format json >"$T/u.json"
check "sample ids out of time order: sched --latency's tables equal the recorded session's" \
	eval '[ "$(sqlite3 "$T/u.db" "SELECT count(*) FROM sample a JOIN sample b ON b.id = a.id + 1 WHERE b.time < a.time")" -ge 1 ] && [ -s "$T/m.json" ] && cmp -s "$T/m.json" "$T/u.json"'

# The A/B spread.
AB=$T/ab.db
for l in base base base new new new; do
	"$PERFDB" record -q -o "$AB" -l $l -r sched -- "$W/yield" --seconds 0.1 >/dev/null 2>&1 || not_ok "record $l"
done
"$PERFDB" sched "$AB" --base base --new new -n 3 --format json >"$T/cmp.json"
for id in 1 2 3 4 5 6; do
	"$PERFDB" sched "$AB" -s $id -n 0 --format json >"$T/s$id.json"
done
check "sched --base/--new: means, medians, ranges, change of the means, intervals and marks as computed by hand from each session's figures" \
	python3 - "$T" <<'PY'
import json, math, sys
T = sys.argv[1]
def tcdf(x, df):
    # P(T <= x) by Simpson's rule on the density (x >= 0)
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    pdf = lambda t: c * (1 + t * t / df) ** (-(df + 1) / 2)
    n = 20000; h = x / n
    s = pdf(0) + pdf(x) + sum((4 if i % 2 else 2) * pdf(i * h) for i in range(1, n))
    return 0.5 + s * h / 3
def tq(p, df):
    lo, hi = 0.0, 200.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if tcdf(mid, df) < p else (lo, mid)
    return (lo + hi) / 2
def metrics(f):
    cpus = [r for r in f["cpus"] if isinstance(r["cpu"], int)]
    secs = f["seconds"]; m = f["mean_per_cpu"]
    v = {"switches/s per CPU": m["per_sec"], "same-mm switches/s per CPU": m["same_mm_per_sec"],
         "other-mm switches/s per CPU": m["other_mm_per_sec"], "idle/kthread switches/s per CPU": m["idle_kthread_per_sec"],
         "unknown-task switches/s per CPU": m["unknown_per_sec"],
         "migrations/s per CPU": sum(r["migrations_in"] for r in cpus) / len(cpus) / secs}
    for r in f["processes"]:
        v[r["comm"] + " switches/s"] = v.get(r["comm"] + " switches/s", 0) + r["per_sec"]
        v[r["comm"] + " run s"] = v.get(r["comm"] + " run s", 0) + r["run_s"]
    return v
side = {"base": [metrics(json.load(open("%s/s%d.json" % (T, i)))["findings"]) for i in (1, 2, 3)],
        "new": [metrics(json.load(open("%s/s%d.json" % (T, i)))["findings"]) for i in (4, 5, 6)]}
rows = json.load(open(T + "/cmp.json"))["findings"]["compare"]
conf = 1 - 0.05 / len(rows)
q = tq(1 - (1 - conf) / 2, 4)
bad = []
close = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
for r in rows:
    vb = sorted(s.get(r["metric"], 0) for s in side["base"]); vn = sorted(s.get(r["metric"], 0) for s in side["new"])
    if not any(vb + vn):
        bad.append("%s: 0 in every run, shown" % r["metric"])
    mb, mn = sum(vb) / 3, sum(vn) / 3
    # 3 runs a side: the means beside the interval of their difference,
    # the medians in the JSON only
    want = (mb, vb[0], vb[2], mn, vn[0], vn[2], vb[1], vn[1])
    got = (r["base"], r["base_min"], r["base_max"], r["new"], r["new_min"], r["new_max"],
           r["base_median"], r["new_median"])
    if not all(close(a, b) for a, b in zip(want, got)):
        bad.append("%s: by hand %s, perfdb %s" % (r["metric"], want, got))
    if mb and not close(r["change_pct"], 100 * (mn - mb) / mb):
        bad.append("%s: change %s, of the means by hand %g" % (r["metric"], r["change_pct"], 100 * (mn - mb) / mb))
    var = (sum((x - mb) ** 2 for x in vb) + sum((x - mn) ** 2 for x in vn)) / 4
    if var == 0:
        continue
    half = q * math.sqrt(var * (1 / 3 + 1 / 3))
    lo, hi = mn - mb - half, mn - mb + half
    if abs(lo - r["ci95_low"]) > 1e-5 * max(1, abs(lo)) or abs(hi - r["ci95_high"]) > 1e-5 * max(1, abs(hi)):
        bad.append("%s: interval by hand [%g, %g], perfdb [%g, %g]" % (r["metric"], lo, hi, r["ci95_low"], r["ci95_high"]))
    if r["significant"] != (lo > 0 or hi < 0):
        bad.append("%s: significant %s, interval [%g, %g]" % (r["metric"], r["significant"], lo, hi))
for b in bad:
    print("# " + b)
print("# %d rows compared, level %.4f" % (len(rows), conf))
sys.exit(1 if bad or len(rows) < 6 else 0)
PY
"$PERFDB" sched "$AB" --base base --new new -n 3 >"$T/cmp.txt"
check "sched --base/--new text: ranges and the interval column" \
	sh -c 'grep -q "base_min" "$1" && grep -q "95% interval new-base" "$1" && grep -q "Bonferroni" "$1"' sh "$T/cmp.txt"
[ "$failed" -eq 0 ]
