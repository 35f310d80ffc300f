#!/bin/sh
# Lost data, against perf's own count: recordings made to lose events
# (perf record -m 1, one ring-buffer page per CPU, around workloads that
# switch, flush and trap fast) are imported and `perfdb sessions` must say
# what `perf report --stats` says: the number of LOST records ("LOST
# events") and, per event, the lost samples ("LOST_SAMPLES events"); the
# LOST records' counts per CPU must add up to the session's lost_events.
# Then every analyzer (sched, sched --base/--new, ipis, hitm, watch, tree,
# folded, cgdiff, report) must warn first, with the numbers and the CPUs,
# and carry the findings object "lost"; a recording that lost nothing gets
# no such warning; --time on sched counts only the LOST records whose span
# (since the record before on their CPU) overlaps the window, and a CPU
# that kept nothing there is said to have lost its events, not to have
# switched 0 times; a session that kept no sample of an event says perf
# lost them. Prints TAP lines.
# Env: PERFDB (the perfdb binary), PERFDB_BUILD (holds workloads/).
. "$(dirname "$0")/lib/setup.sh"
W=$B/workloads

if ! command -v perf >/dev/null 2>&1 || ! perf record -q -e sched:sched_switch -o "$T/probe.data" -- true >/dev/null 2>&1; then
	skip "perf cannot record sched:sched_switch here"
	[ "$failed" -eq 0 ]
	exit
fi

# stats_check DATA DB ID: the session's lost counts against perf report --stats.
stats_check() {
	perf report --stats -i "$1" >"$T/stats.txt" 2>/dev/null
	"$PERFDB" sessions "$2" -s "$3" --format json >"$T/sess.json"
	python3 - "$T/stats.txt" "$T/sess.json" <<'PY'
import json, re, sys
txt = open(sys.argv[1]).read().split("\n")
records, per_event, ev = 0, {}, None
for line in txt:
    m = re.match(r"^(\S.*) stats:$", line)
    if m:
        ev = None if m.group(1) == "Aggregated" else m.group(1)
        continue
    m = re.match(r"^\s+(\w+) events:\s+(\d+)", line)
    if not m:
        continue
    if ev is None and m.group(1) == "LOST":
        records = int(m.group(2))
    elif ev is not None and m.group(1) == "LOST_SAMPLES":
        per_event[ev] = int(m.group(2))
d = json.load(open(sys.argv[2]))["findings"]
s = d["sessions"][0]
mine = {}
for r in d["lost"]:
    if r["what"] == "samples":
        mine[r["event"]] = mine.get(r["event"], 0) + r["lost"]
per_cpu = sum(r["lost"] for r in d["lost"] if r["what"] == "records")
nrec = sum(r["perf_records"] for r in d["lost"] if r["what"] == "records")
bad = []
if s["lost_records"] != records or nrec != records:
    bad.append("LOST records: perf %d, perfdb %s (per CPU rows %d)" % (records, s["lost_records"], nrec))
if mine != per_event:
    bad.append("lost samples per event: perf %s, perfdb %s" % (per_event, mine))
if s["lost_samples"] != sum(per_event.values()):
    bad.append("lost_samples %s, perf's sum %d" % (s["lost_samples"], sum(per_event.values())))
if per_cpu != s["lost_events"]:
    bad.append("per-CPU lost %d, lost_events %s" % (per_cpu, s["lost_events"]))
if records == 0:
    bad.append("the recording lost nothing: the test needs one that does")
for b in bad:
    print("# " + b)
print("# perf: %d LOST records, lost samples %s; perfdb lost_events %s" % (records, per_event, s["lost_events"]))
sys.exit(1 if bad else 0)
PY
}

# lost_some DATA: whether perf report --stats counts LOST records in DATA.
lost_some() {
	perf report --stats -i "$1" 2>/dev/null | grep -qE '^ +LOST events: +[1-9]'
}

# 1. sched_yield threads, sched tracepoints, one page per CPU. On a machine
# busy with other work the threads switch less and may lose nothing in
# 0.5 s: then again, longer (up to 4 s).
DB=$T/y.db
for secs in 0.5 1 2 4; do
	perf record -q -a -m 1 -e sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_migrate_task,sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit \
		-o "$T/y.data" -- "$W/yield" --seconds $secs >/dev/null 2>&1
	! lost_some "$T/y.data" || break
done
"$PERFDB" import -q -o "$DB" -l y "$T/y.data" 2>"$T/err" || not_ok "import y: $(head -1 "$T/err")"
check "yield -m 1: LOST records and per-event lost samples equal perf report --stats" stats_check "$T/y.data" "$DB" 1

# 2. Every recipe perfdb has that runs here, around falseshare (traps,
# flushes, switches, profile samples): -r sched,tlb,profile,watch -m 1.
A=$T/a.db
"$PERFDB" record -q -o "$A" -l a -r sched,tlb,profile,watch -m 1 \
	--watch fs_shared.packed.bitmap_a,fs_shared.packed.bitmap_b --perf-data "$T/a.data" \
	-- "$W/falseshare" --seconds 0.5 >/dev/null 2>"$T/err" || not_ok "record a: $(head -1 "$T/err")"
check "falseshare -r sched,tlb,profile,watch -m 1: lost counts equal perf report --stats" stats_check "$T/a.data" "$A" 1
"$PERFDB" import -q -o "$A" -l b "$T/a.data" 2>/dev/null

# warns FILE VERB: the first warning is the lost-data one, with the LOST
# records' numbers per CPU, and findings.lost holds them.
warns() {
	python3 - "$1" "$T/sess.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))["findings"]
lost = d["findings"].get("lost")
assert lost and lost["events"] > 0 and lost["records"] > 0 and lost["cpus"], lost
w = [x for x in d["warnings"] if " lost " in x and "perf's LOST records" in x and lost["doubtful"] in x]
assert len(w) == 1, d["warnings"]
cpus = [r for r in s["lost"] if r["what"] == "records"]
for r in cpus:
    assert ("CPU %d: " % r["cpu"]) in w[0], (r, w[0])
assert lost["doubtful"] and lost["doubtful"] in w[0], w[0]
PY
}
"$PERFDB" sessions "$A" -s 1 --format json >"$T/sess.json"
for v in "sched -s a" "sched -s a --latency" "ipis -s a" "hitm -s a" "watch -s a" "tree -s a" "folded -s a" \
	 "cgdiff --base a --new b" "sched --base a --new b" "report --base a --new b"; do
	# shellcheck disable=SC2086 # $v is the verb and its options
	"$PERFDB" $v "$A" --format json >"$T/v.json" 2>"$T/v.err"
	check "perfdb $v: a lost-data warning naming the CPUs, findings.lost" warns "$T/v.json"
	# shellcheck disable=SC2086
	"$PERFDB" $v "$A" --format text >"$T/v.txt" 2>/dev/null
	check "perfdb $v text: the lost-data warning before the first table" \
		awk '/^warning: .* lost [0-9]+ events/ && !w { w = NR } /^# / && NR > 1 && !h { h = NR }
		     END { exit !(w && (!h || w < h)) }' "$T/v.txt"
done

# 3. The window: only LOST records inside --time count.
"$PERFDB" sessions "$DB" --format json >"$T/sess.json"
python3 - "$DB" >"$T/win" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
ts = [t for (t,) in c.execute("SELECT time FROM lost WHERE kind = 'lost' ORDER BY time")]
mid = ts[len(ts) // 2]
n = c.execute("SELECT coalesce(sum(n), 0) FROM lost WHERE kind = 'lost' AND time >= ?", (mid,)).fetchone()[0]
print("%d.%09d %d" % (mid // 10**9, mid % 10**9, n))
PY
read -r from want <"$T/win"
"$PERFDB" sched "$DB" --time "$from," --format json >"$T/w.json"
check "sched --time FROM,: the warning counts the LOST records from FROM on ($want events)" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); l = d["findings"]["lost"]; sys.exit(not (l["events"] == int(sys.argv[2]) and "the window lost %s events" % sys.argv[2] in d["warnings"][0]))' "$T/w.json" "$want"

# 3b. A LOST record is written once the buffer has room again: it covers
# its CPU's time since the record before it (perf script, every record
# shown, is the oracle), and a window inside that span lost its count.
perf script -i "$T/y.data" --ns --show-lost-events --show-task-events --show-mmap-events \
	--show-namespace-events --show-cgroup-events --show-switch-events -F cpu,time,event \
	>"$T/y.script" 2>/dev/null
python3 - "$T/y.script" "$DB" >"$T/span" <<'PY'
import re, sqlite3, sys
last, lost = {}, []
for line in open(sys.argv[1]):
    m = re.match(r"\s*\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+)", line)
    if not m:
        continue
    cpu, t = int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3))
    if m.group(4) == "PERF_RECORD_LOST":
        lost.append((t, cpu, last.get(cpu)))
    last[cpu] = t
c = sqlite3.connect(sys.argv[2])
mine = c.execute("SELECT time, cpu, since FROM lost WHERE kind = 'lost' ORDER BY time, cpu").fetchall()
bad = [(a, tuple(b)) for a, b in zip(sorted(lost), mine) if a != tuple(b)]
if len(lost) != len(mine) or bad or not lost:
    print("# perf script: %d LOST, perfdb %d; differing (time, cpu, since): %s" % (len(lost), len(mine), bad[:3]))
    sys.exit(0)
# The widest span, a window strictly inside it (after since, before time).
t, cpu, since = max((x for x in lost if x[2] is not None), key=lambda x: x[0] - x[2])
lo, hi = since + (t - since) // 3, t - (t - since) // 3
n = c.execute("SELECT coalesce(sum(n), 0) FROM lost WHERE kind = 'lost' AND time >= ? AND since < ?", (lo, hi)).fetchone()[0]
print("ok %d.%09d,%d.%09d %d" % (lo // 10**9, lo % 10**9, hi // 10**9, hi % 10**9, n))
PY
read -r okw win want <"$T/span"
check "every LOST record's span starts at its CPU's record before it (perf script)" [ "$okw" = ok ]
if [ "$okw" = ok ]; then
	"$PERFDB" sched "$DB" --time "$win" --format json >"$T/w.json"
	check "sched --time inside a LOST record's span (before its time): the window lost $want events" \
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); l = d["findings"].get("lost") or {}; sys.exit(not (int(sys.argv[2]) > 0 and l.get("events") == int(sys.argv[2])))' "$T/w.json" "$want"
	# perf kept nothing of that CPU inside its span: the CPU's 0 switches
	# there are not a measurement, and its row and a warning say so.
	check "sched --time inside a LOST span: that CPU's row shows 0 switches as 'lost N events', a warning and findings.unseen cpus_lost name it" \
		python3 -c '
import json, sqlite3, sys
d = json.load(open(sys.argv[1]))
f = d["findings"]
lost = {r["cpu"]: r["events"] for r in f["lost"]["cpus"] if r["cpu"] is not None and r["events"]}
zero = [r for r in f["cpus"] if r["cpu"] in lost and r["switches"] == 0]
assert zero, (lost, f["cpus"])
for r in zero:
    assert r["unseen"] == "lost %d events" % lost[r["cpu"]] and r["lost_events"] == lost[r["cpu"]], r
u = [x for x in f["unseen"] if x["what"] == "cpus_lost"]
assert len(u) == 1 and sorted(u[0]["cpus"]) == sorted(r["cpu"] for r in zero) and u[0]["warning"] in d["warnings"], (u, d["warnings"])
assert "not a measurement" in u[0]["warning"], u
' "$T/w.json"
fi

# 3c. A session that kept none of an event's samples is not one that never
# recorded the event: sched says perf lost them (not which recipe records
# sched_switch), or, when nothing was lost, that the event never fired.
cp "$DB" "$T/none.db"
sqlite3 "$T/none.db" "DELETE FROM sample WHERE event_id IN (SELECT id FROM event WHERE name = 'sched:sched_switch');
	UPDATE event SET nr_samples = 0 WHERE name = 'sched:sched_switch'"
"$PERFDB" sched "$T/none.db" >/dev/null 2>"$T/none.err"; rc=$?
check "sched, every sched_switch sample lost: exit 2, 'recorded sched:sched_switch but holds none of its samples: perf lost'" \
	sh -c '[ "$1" = 2 ] && grep -q "^perfdb sched: .*: session 1 recorded sched:sched_switch but holds none of its samples: perf lost [1-9][0-9]* events (LOST records) and [0-9]* samples of it (LOST_SAMPLES); record again with a larger buffer" "$2"' - "$rc" "$T/none.err"
check "sched, every sched_switch sample lost: not 'has no ... events (record them'" \
	sh -c '! grep -q "has no\|record them" "$1"' - "$T/none.err"
sqlite3 "$T/none.db" "DELETE FROM lost; UPDATE session SET nr_lost = 0, nr_lost_samples = 0, nr_lost_records = 0"
"$PERFDB" sched "$T/none.db" >/dev/null 2>"$T/none.err"; rc=$?
check "sched, sched_switch recorded, no sample, nothing lost: exit 2, 'never fired there, and perf lost nothing: a measured zero'" \
	sh -c '[ "$1" = 2 ] && grep -q "session 1 recorded sched:sched_switch, which never fired there, and perf lost nothing: a measured zero" "$2"' - "$rc" "$T/none.err"

# 4. Nothing lost: no warning, no findings.lost.
N=$T/n.db
"$PERFDB" record -q -o "$N" -l n -r sched -- "$W/yield" --seconds 0.05 >/dev/null 2>&1
if [ "$(sqlite3 "$N" "SELECT coalesce(nr_lost, 0) + coalesce(nr_lost_samples, 0) FROM session")" = 0 ]; then
	"$PERFDB" sched "$N" --format json >"$T/n.json"
	check "a recording that lost nothing: no lost warning, no findings.lost" \
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(any(" lost " in w for w in d["warnings"]) or "lost" in d["findings"])' "$T/n.json"
else
	skip "the 0.05 s recording with the default buffer lost events too"
fi
[ "$failed" -eq 0 ]
