#!/bin/sh
# Integration test of `perfdb ipis` and `perfdb sched` on recordings made
# here: workloads/tlbflush with its helper spinning, sleeping, yielding and
# sharing its CPU with another process (every IPI's class on arrival against
# an independent classifier of perf script's text, lib/ipi_oracle.py, and
# against the receiver's tlb_flush reason, for every received IPI; counts
# against plain SQL over the same tables), and workloads/yield (the worker process's switches per second
# per CPU against the figure the workload printed, within 5%). Also the
# output formats (the JSON envelope, csv's one table, --table, --tables),
# -n ROWS, -s by label, several sessions of one label, --base/--new, the
# lost-events warning, CPUs (-C) and tasks perf did not record, and the
# exit statuses. On a machine whose kernel flushes other CPUs' TLBs without
# IPIs (a paravirtualized flush_tlb_multi: lib/flush_ipis.sh tells it from
# perf script's text of each recording), there is no IPI to count: what
# perfdb ipis says instead (its warning, the counts null) is checked, and
# the checks of IPI figures are skipped with that reason. Prints TAP lines.
# Env: PERFDB (the perfdb binary), PERFDB_BUILD (holds workloads/).
. "$(dirname "$0")/lib/setup.sh"
. "$LIB/flush_ipis.sh"

NCPU=$(getconf _NPROCESSORS_ONLN)
TLB_EV=sched:sched_switch,sched:sched_process_exec,sched:sched_process_fork,sched:sched_process_exit,sched:sched_migrate_task,tlb:tlb_flush,ipi:ipi_send_cpu,ipi:ipi_send_cpumask,csd:csd_queue_cpu,csd:csd_function_entry,csd:csd_function_exit
SCHED_EV=sched:sched_switch,sched:sched_migrate_task,sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit

# record FILE EVENTS CMD...: perf record -a of CMD into FILE; the workload's
# stdout in FILE.out. Fails when perf fails.
record() {
	f=$1; e=$2; shift 2
	perf record -q -a -m 1024 -e "$e" -o "$f" -- "$@" >"$f.out" 2>"$f.err"
}

# field FILE KEY: KEY=VALUE from the metric line in FILE.
field() { tr ' ' '\n' <"$1" | sed -n "s/^$2=//p"; }

# json_ok FILE: FILE holds one JSON document.
json_ok() { python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }

# out_ok RC OUT [ERR]: exit status RC was 0, OUT is not empty, ERR is.
out_ok() { [ "$1" -eq 0 ] && [ -s "$2" ] && { [ -z "$3" ] || [ ! -s "$3" ]; }; }

# jq_py FILE EXPR: evaluates the Python expression EXPR with d = the JSON in
# FILE and f = its findings.
jq_py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); f=d['findings']; print($2)" "$1"; }

if ! command -v perf >/dev/null || [ "$NCPU" -lt 2 ] ||
	! record "$T/probe.data" "$TLB_EV" true; then
	skip "perf cannot record the sched/tlb/csd tracepoints here, or fewer than 2 CPUs"
	exit 0
fi

# --- ipis on tlbflush, helper spinning, sleeping, yielding, sharing ----------
# Each recording is classified twice: by perfdb and by lib/ipi_oracle.py, an
# independent classifier written from `perf script` text and the kernel's
# rules (flush_tlb_func): both must give every IPI the same class on arrival
# (the class x receiver's reason matrices are equal), and the kernel's own
# reason must confirm every received IPI's class. Where the kernel flushed
# without IPIs, perfdb must say so when the oracle counts 25 or more flushes
# of an mm another CPU was running (its guard needs 20), never a count.
#
# unseen_ipis JSON ORACLE WHAT: checks what perfdb ipis says (JSON) of a
# recording whose flush IPIs cannot be seen: its warning, flush_ipis_visible
# false and null counts, or, when the oracle counts fewer than 25 flushes of
# an mm another CPU was running, no IPI at all.
unseen_ipis() {
	check "ipis $3 on a kernel that flushed without IPIs ($UNSEEN_WHY): the warning and null counts (or, with fewer than 25 flushes the oracle sees reach a running CPU, no IPI)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f, o = d["findings"], json.load(open(sys.argv[2]))
w = " ".join(d["warnings"])
if f.get("flush_ipis_visible") is False:
    assert f["ipis"] is None and f["wasted"] is None and f["targets"] is None, f
    assert "without IPIs" in w and "not measurements" in w, w
    s = f["flush_ipi_check"]["sessions"]
    assert all(x["flushes_remote_running"] >= 20 and 100 * x["ipis_to_remote_running"] < x["flushes_remote_running"] for x in s), s
else:
    assert o["remote_flushes"] < 25 and f["ipis"] == 0, (o["remote_flushes"], f["ipis"])
' "$1" "$2"
}
for kind in spin sleep yield share; do
	data=$T/tlb-$kind.data
	if ! record "$data" "$TLB_EV" "$B/workloads/tlbflush" --seconds 0.5 --tasks 1 --others $kind; then
		not_ok "perf record tlbflush --others $kind"; sed 's/^/# /' "$data.err" | head -5; continue
	fi
	"$PERFDB" import -q -o "$T/t.db" -l "tlb-$kind" "$data" || { not_ok "import $kind"; continue; }
	"$PERFDB" ipis "$T/t.db" -s "tlb-$kind" --format json >"$T/$kind.json"
	check "ipis --others $kind: exit 0, valid JSON" json_ok "$T/$kind.json"
	perf script -i "$data" --ns --show-task-events -F pid,tid,cpu,time,event,trace 2>/dev/null |
		python3 "$LIB/ipi_oracle.py" >"$T/$kind.oracle"
	seen=$(flush_ipis_of "$data")
	echo "$seen" >"$T/$kind.seen"
	if [ "${seen%% *}" = unseen ]; then
		UNSEEN_WHY="oracle: $seen"
		echo "# --others $kind: no flush IPI in perf script's text ($seen): this kernel flushes without IPIs"
		unseen_ipis "$T/$kind.json" "$T/$kind.oracle" "--others $kind"
		for what in "classes and verdicts add up" "the independent classifier's classes" \
			"receivers' reasons confirm the classes" "ipis = flush_tlb_func queues" "receiver reason5"; do
			skip "ipis --others $kind: $what: no flush IPI on this machine ($UNSEEN_WHY)"
		done
		a=$(sqlite3 "$T/t.db" "SELECT count(*) FROM tlb_flush f JOIN sample s ON s.id = f.sample_id JOIN session se ON s.id BETWEEN se.first_sample_id AND se.last_sample_id WHERE se.label = 'tlb-$kind' AND f.reason = 4")
		check "ipis --others $kind: attempts = tlb_flush reason 4 ($a)" \
			[ "$(jq_py "$T/$kind.json" 'f["attempts"]')" = "$a" ]
		continue
	fi
	check "ipis --others $kind: the classes and the receivers' verdicts each add up to the IPIs; wasted = other" \
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["findings"]
t, r = d["targets"], d["receiver"]
assert set(t) == {"running", "lazy", "other", "unknown", "unverified"}, t
assert set(r) == {"reason1", "reason5", "reason0", "none"}, r
assert sum(t.values()) == d["ipis"] == sum(r.values()), (t, r, d["ipis"])
assert d["wasted"] == t["other"] and d["unverified"] == t["unverified"], d
assert sum(d["unverified_why"].values()) == t["unverified"], d["unverified_why"]
assert sum(d["unknown_why"].values()) == t["unknown"], d["unknown_why"]
assert 0 <= d["switched_near_send"] <= d["ipis"] and sum(d["switched_near_send_by_class"].values()) == d["switched_near_send"]
assert d["ipis"] > 0 and d["attempts"] >= 0 and d["source"] == "csd"
' "$T/$kind.json"
	echo "# --others $kind: perfdb: $(jq_py "$T/$kind.json" 'f["ipis"]') IPIs, classes $(jq_py "$T/$kind.json" 'f["targets"]'), switched_near_send $(jq_py "$T/$kind.json" 'f["switched_near_send"]'), receiver $(jq_py "$T/$kind.json" 'f["receiver"]'), agreement $(jq_py "$T/$kind.json" 'f["agreement"]["pct"]')% of $(jq_py "$T/$kind.json" 'f["agreement"]["compared"]')"
	echo "# --others $kind: oracle: $(cat "$T/$kind.oracle")"
	check "ipis --others $kind: the same IPIs and classes as the independent classifier of perf script's text" python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
o = json.load(open(sys.argv[2]))
# Where the oracle contradicts the kernel (the receiver'"'"'s own tlb_flush
# reason), the oracle'"'"'s model missed something: each such IPI may sit in
# another class and matrix cell than perfdb'"'"'s, and no other may. The
# oracle is allowed a few of those (1 in 1000), perfdb none (next check).
# perfdb may decline a class the oracle gives where it saw what the
# oracle does not model (a switch the kernel did not trace, a mm no task
# named): such unknowns are said (unknown_why), and as many may differ.
assert f["ipis"] == o["ipis"], (f["ipis"], o["ipis"])
u = f["unknown_why"]
declined = u["untraced_switch"] + u["target_mm_unknown"] + u["lazy_unsure"]
assert declined <= max(2, o["received"] // 1000), ("perfdb declined", u)
if declined:
    print("# perfdb: %d IPIs of class unknown after what the recording could not show: %s" % (declined, u), file=sys.stderr)
slack = 2 * o["mismatches"] + 2 * declined
assert o["mismatches"] <= max(2, o["received"] // 1000), ("oracle", o["mismatches"], o["examples"])
dc = sum(abs(f["targets"][c] - o["classes"][c]) for c in o["classes"])
assert dc <= slack, (f["targets"], o["classes"], o["examples"])
dm = sum(abs(f["matrix"][c][v] - o["matrix"][c][v]) for c in o["matrix"] for v in o["matrix"][c])
assert dm <= slack, (f["matrix"], o["matrix"], o["examples"])
' "$T/$kind.json" "$T/$kind.oracle"
	check "ipis --others $kind: received IPIs: other exactly where the receiver traced reason 5, running with 1 or none, lazy with 0 (perfdb: all but 1 in 1000)" python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
o = json.load(open(sys.argv[2]))
a = f["agreement"]
# A CPU can leave a lazily held mm without a trace (switched to init_mm
# in idle): the timeline then says lazy where the kernel traces reason 5.
# Nothing in the recording shows it, so perfdb and the oracle both miss
# it; a few of those (1 in 1000) are allowed, and reported as disagreement.
assert o["received"] > 0, o
# perfdb compares the received IPIs it gave a class; its unknowns are the
# oracle'"'"'s but for those it declined with a reason (see the check above)
u = f["unknown_why"]
declined = u["untraced_switch"] + u["target_mm_unknown"] + u["lazy_unsure"]
assert a["compared"] == o["received"] - f["targets"]["unknown"], (a, o["received"])
assert abs(f["targets"]["unknown"] - o["classes"]["unknown"]) <= declined + 2 * o["mismatches"], (f["targets"], o["classes"])
allowed = max(2, a["compared"] // 1000)
assert a["compared"] - a["agreeing"] <= allowed and a["compared"] - a["wasted_agreeing"] <= allowed, (a, allowed)
' "$T/$kind.json" "$T/$kind.oracle"
	# The same numbers by plain SQL over the session's rows.
	sid=$(sqlite3 "$T/t.db" "SELECT id FROM session WHERE label = 'tlb-$kind'")
	range="BETWEEN (SELECT first_sample_id FROM session WHERE id = $sid) AND (SELECT last_sample_id FROM session WHERE id = $sid)"
	q=$(sqlite3 "$T/t.db" "SELECT count(*) FROM csd_queue_cpu WHERE sample_id $range AND func_sym GLOB 'flush_tlb_func*'")
	a=$(sqlite3 "$T/t.db" "SELECT count(*) FROM tlb_flush WHERE sample_id $range AND reason = 4")
	# reason-5 flushes inside a remote csd function (csd != 0; local calls
	# of flush_tlb_func trace reason 5 too, without an IPI).
	r5=$(sqlite3 "$T/t.db" "WITH ev AS (
		SELECT s.id, s.cpu, 'e' AS k, e.csd FROM csd_function_entry e JOIN sample s ON s.id = e.sample_id WHERE e.sample_id $range
		UNION ALL SELECT s.id, s.cpu, 'x', x.csd FROM csd_function_exit x JOIN sample s ON s.id = x.sample_id WHERE x.sample_id $range
		UNION ALL SELECT s.id, s.cpu, 'f', NULL FROM tlb_flush f JOIN sample s ON s.id = f.sample_id WHERE f.sample_id $range AND f.reason = 5),
		o AS (SELECT k, lag(k) OVER w AS pk, lag(csd) OVER w AS pcsd FROM ev WINDOW w AS (PARTITION BY cpu ORDER BY id))
		SELECT count(*) FROM o WHERE k = 'f' AND pk = 'e' AND pcsd != 0")
	check "ipis --others $kind: ipis = flush_tlb_func queues in csd_queue_cpu ($q)" \
		[ "$(jq_py "$T/$kind.json" 'f["ipis"]')" = "$q" ]
	check "ipis --others $kind: attempts = tlb_flush reason 4 ($a)" \
		[ "$(jq_py "$T/$kind.json" 'f["attempts"]')" = "$a" ]
	# (all of them but an odd one whose sender's csd_queue_cpu perf did not
	# record, which happens)
	check "ipis --others $kind: receiver reason5 = tlb_flush reason 5 inside remote csd functions ($r5, 2% or 2 missing allowed)" \
		python3 -c 'import sys; a, b = int(sys.argv[1]), int(sys.argv[2]); sys.exit(not (a <= b and b - a <= max(2, 0.02 * b)))' \
		"$(jq_py "$T/$kind.json" 'f["receiver"]["reason5"]')" "$r5"
done
# unseen KIND: whether the oracle found no flush IPI in KIND's recording.
unseen() { [ "$(cut -d' ' -f1 "$T/$1.seen" 2>/dev/null)" = unseen ]; }
# SPIN: the oracle's word on the spin recording (the one the checks of
# formats and sessions below read): "unseen" where no flush IPI can be seen.
SPIN=$(cut -d' ' -f1 "$T/spin.seen" 2>/dev/null)
for kind in spin yield; do
	[ -f "$T/$kind.json" ] || continue
	if unseen $kind; then skip "ipis --others $kind: most IPIs arrive while the helper runs the mm: no flush IPI here"; continue; fi
	check "ipis --others $kind: most IPIs arrive while the helper runs the mm" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["findings"]
sys.exit(not d["targets"]["running"] > d["ipis"] / 2)' "$T/$kind.json"
done
if unseen share; then
	skip "ipis --others share: wasted IPIs seen: no flush IPI here"
elif [ -f "$T/share.json" ]; then
	check "ipis --others share: IPIs that find the CPU on the other process's mm are seen (wasted > 0)" \
		python3 -c 'import json,sys; sys.exit(not json.load(open(sys.argv[1]))["findings"]["wasted"] > 0)' "$T/share.json"
fi
if unseen sleep; then
	skip "ipis -w 0: the classes do not change with the window: no flush IPI here"
elif [ -f "$T/sleep.json" ]; then
	"$PERFDB" ipis "$T/t.db" -s tlb-sleep --format json -w 0 >"$T/sleep-w0.json"
	check "ipis -w 0: switched_near_send is a count besides the classes: the classes do not change with the window" python3 -c '
import json, sys
a, b = (json.load(open(p))["findings"] for p in sys.argv[1:3])
sys.exit(not (a["targets"] == b["targets"] and b["switched_near_send"] <= a["switched_near_send"] and b["window_us"] == 0))' \
		"$T/sleep.json" "$T/sleep-w0.json"
fi

# --- without csd events: IPIs from ipi_send after a flush attempt -------------
if record "$T/nocsd.data" sched:sched_switch,tlb:tlb_flush,ipi:ipi_send_cpu,ipi:ipi_send_cpumask \
	"$B/workloads/tlbflush" --seconds 0.5 --tasks 1 --others spin &&
	"$PERFDB" import -q -o "$T/t.db" -l nocsd "$T/nocsd.data"; then
	"$PERFDB" ipis "$T/t.db" -s nocsd --format json >"$T/nocsd.json"
	seen=$(flush_ipis_of "$T/nocsd.data")
	if [ "${seen%% *}" = unseen ]; then
		UNSEEN_WHY="oracle: $seen"
		perf script -i "$T/nocsd.data" --ns --show-task-events -F pid,tid,cpu,time,event,trace 2>/dev/null |
			python3 "$LIB/ipi_oracle.py" >"$T/nocsd.oracle"
		unseen_ipis "$T/nocsd.json" "$T/nocsd.oracle" "without csd events"
	else
		echo "# without csd events: $(jq_py "$T/nocsd.json" 'f["ipis"]') IPIs, classes $(jq_py "$T/nocsd.json" 'f["targets"]'), agreement $(jq_py "$T/nocsd.json" 'f["agreement"]["pct"]')% of $(jq_py "$T/nocsd.json" 'f["agreement"]["compared"]')"
		check "ipis without csd events: source ipi_send, said so, IPIs found, those without a reason 1/5 flush unverified (no_csd), >= 95% agreement" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["findings"]
a = f["agreement"]
t = f["targets"]
sys.exit(not (f["source"] == "ipi_send" and any("csd" in n for n in d["notes"]) and f["ipis"] > 0
	      and t["unverified"] == f["unverified_why"]["no_csd"] == f["receiver"]["none"]
	      and a["compared"] > 0 and a["pct"] >= 95))' "$T/nocsd.json"
	fi
else
	not_ok "perf record / import without csd events"
fi

# --- formats, sessions, errors ------------------------------------------------
for f in text md csv; do
	"$PERFDB" ipis "$T/t.db" -s tlb-spin --format $f --timeline >"$T/out.$f" 2>"$T/err.$f"
	check "ipis --format $f --timeline: exit 0, output, nothing on stderr" out_ok $? "$T/out.$f" "$T/err.$f"
done
check "ipis text: summary, matrix, process, pair, callsite, CPU and timeline tables" \
	sh -c 'for t in "TLB-flush IPIs" "Class on arrival vs receiver" "Per flushed process" "Per sender" "Per callsite" "Per CPU" "Loaded mm per CPU"; do grep -q "^# $t" "$1" || exit 1; done' sh "$T/out.text"
check "ipis md: GitHub tables" grep -q '^| what ' "$T/out.md"
check "ipis: the flushed process is tlbflush" grep -q 'tlbflush' "$T/out.text"
"$PERFDB" ipis "$T/t.db" >/dev/null; check "ipis without -s: the latest session, exit 0" [ $? -eq 0 ]
"$PERFDB" ipis "$T/t.db" -s nosuch 2>"$T/err"; rc=$?
check "ipis -s nosuch: exit 2, one line on stderr" [ "$rc.$(wc -l <"$T/err")" = 2.1 ]
"$PERFDB" ipis "$T/t.db" --bogus 2>/dev/null; check "ipis --bogus: exit 1" [ $? -eq 1 ]
"$PERFDB" ipis "$T/nosuch.db" 2>/dev/null; check "ipis on a missing database: exit 2" [ $? -eq 2 ]
"$PERFDB" ipis --help | grep -q '^usage: perfdb ipis'; check "ipis --help" [ $? -eq 0 ]
"$PERFDB" ipis "$T/t.db" -s tlb-spin -w x 2>"$T/err"; rc=$?
check "ipis -w x: exit 1, one line naming --window" [ "$rc.$(wc -l <"$T/err").$(grep -c -- --window "$T/err")" = 1.1.1 ]
# csv: one table (the summary, the main one), every record as many fields
# as the header, its IPI count the JSON's.
check "ipis --format csv: one table, the summary, every row as many fields as the header" python3 -c '
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
f = json.load(open(sys.argv[2]))["findings"]
assert rows[0] == ["what", "level", "count", "per_sec", "pct", "pct_of"], rows[0]
assert len(rows) == 1 + len(f["summary"]) > 2, (len(rows), len(f["summary"]))
assert all(len(r) == len(rows[0]) for r in rows), [len(r) for r in rows]
ipis = [r for r in rows if r[0] == "flush IPIs (requests to remote CPUs)"]
assert len(ipis) == 1, ipis
if sys.argv[3] == "unseen":	# no flush IPI can be seen: an empty count, not 0
    assert f["ipis"] is None and ipis[0][2] == "", (ipis, f["ipis"])
else:
    assert int(ipis[0][2]) == f["ipis"] > 0, (ipis, f["ipis"])
' "$T/out.csv" "$T/spin.json" "$SPIN"
"$PERFDB" ipis "$T/t.db" -s tlb-spin --tables --timeline >"$T/tables"
check "ipis --tables: the table names, in order, with their titles" python3 -c '
import sys
lines = open(sys.argv[1]).read().splitlines()
names = [l.split("\t")[0] for l in lines]
assert names == ["summary", "class_vs_receiver", "processes", "pairs", "callsites", "cpus", "timeline"], names
assert all("\t" in l and l.split("\t", 1)[1] for l in lines), lines
' "$T/tables"
"$PERFDB" ipis "$T/t.db" -s tlb-spin --tables | grep -c timeline >"$T/n"
check "ipis --tables without --timeline: no timeline table" [ "$(cat "$T/n")" = 0 ]
"$PERFDB" ipis "$T/t.db" -s tlb-spin --table processes --format csv >"$T/procs.csv"
check "ipis --table processes --format csv: that table, its rows those of the JSON" python3 -c '
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
p = json.load(open(sys.argv[2]))["findings"]["processes"]
assert rows[0][:4] == ["pid", "comm", "attempts", "ipis"], rows[0]
assert [int(r[3]) if r[3] else None for r in rows[1:]] == [x["ipis"] for x in p][:len(rows) - 1] and len(rows) - 1 == len(p), (rows, p)
' "$T/procs.csv" "$T/spin.json"
"$PERFDB" ipis "$T/t.db" -s tlb-spin --table processes >"$T/procs.text"
check "ipis --table processes (text): only the per-process table" \
	sh -c 'grep -q "^# Per flushed process" "$1" && ! grep -q "^# TLB-flush IPIs" "$1" && ! grep -q "^# Per CPU" "$1"' sh "$T/procs.text"
"$PERFDB" ipis "$T/t.db" -s tlb-spin --table timeline 2>"$T/err"; rc=$?
check "ipis --table timeline without --timeline: exit 1, one line" [ "$rc.$(wc -l <"$T/err")" = 1.1 ]
# Without csd and ipi_send events there are no IPIs to see: exit 2.
if record "$T/sched-only.data" sched:sched_switch sleep 0.2 &&
	"$PERFDB" import -q -o "$T/sched-only.db" -l schedonly "$T/sched-only.data"; then
	"$PERFDB" ipis "$T/sched-only.db" >"$T/out" 2>"$T/err"; rc=$?
	check "ipis on a session without csd or ipi_send events: exit 2, one line naming the events and the tlb recipe, no output" \
		sh -c '[ "$1.$(wc -l <"$2")" = 2.1 ] && [ ! -s "$3" ] && grep -q "csd:csd_queue_cpu, ipi:ipi_send_cpu or ipi:ipi_send_cpumask" "$2" && grep -q "perfdb record -r tlb" "$2"' \
		sh "$rc" "$T/err" "$T/out"
else
	not_ok "perf record / import of sched:sched_switch alone"
fi
# Lost events: a warning saying how many, and the counts in the findings
# (the session row says what perf lost; set here on a copy).
cp "$T/t.db" "$T/lost.db"
sqlite3 "$T/lost.db" "UPDATE session SET nr_lost = 7, nr_lost_samples = 3 WHERE label = 'tlb-spin'"
"$PERFDB" ipis "$T/lost.db" -s tlb-spin --format json >"$T/lost.json"
check "ipis on a session that lost events: a warning with the numbers, lost_events/lost_samples, the same IPI counts" python3 -c '
import json, sys
d, a = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
f = d["findings"]
assert f["lost_events"] == 7 and f["lost_samples"] == 3, f
# (and, after it, the warning that flush IPIs cannot be seen, where they cannot)
assert len(d["warnings"]) == 1 + (sys.argv[3] == "unseen"), d["warnings"]
assert "lost 7 events and 3 samples" in d["warnings"][0] and "lower bounds" in d["warnings"][0], d["warnings"]
assert f["ipis"] == a["findings"]["ipis"] and f["targets"] == a["findings"]["targets"]
' "$T/lost.json" "$T/spin.json" "$SPIN"
"$PERFDB" ipis "$T/lost.db" -s tlb-spin >"$T/lost.text"
check "ipis text on a session that lost events: the warning first" sh -c 'head -1 "$1" | grep -q "^warning: the recording lost 7 events"' sh "$T/lost.text"
if [ -f "$T/tlb-spin.data" ]; then
	"$PERFDB" import -q -o "$T/two.db" -l twice "$T/tlb-spin.data" "$T/tlb-spin.data"
	"$PERFDB" ipis "$T/two.db" -s twice --format json >"$T/two.json"
	check "ipis -s LABEL of two sessions adds them up" python3 -c '
import json, sys
da, db = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
a, b = da["findings"], db["findings"]
if sys.argv[3] == "unseen":	# no flush IPI can be seen: both sessions said so
    sys.exit(not (b["ipis"] is None and [s["session"] for s in b["flush_ipi_check"]["sessions"]] == [1, 2]
                  and b["attempts"] == 2 * a["attempts"]))
sys.exit(not (b["ipis"] == 2 * a["ipis"] and [s["id"] for s in db["sessions"]] == [1, 2]
	      and b["targets"]["other"] == 2 * a["targets"]["other"]))' \
		"$T/spin.json" "$T/two.json" "$SPIN"
	# -n ROWS: the two sessions' processes are separate rows (at least two).
	"$PERFDB" ipis "$T/two.db" -s twice --format json -n 0 >"$T/rows0.json"
	"$PERFDB" ipis "$T/two.db" -s twice --format json -n 1 >"$T/rows1.json"
	"$PERFDB" ipis "$T/two.db" -s twice --format json --rows 1 >"$T/rowsl.json"
	check "ipis -n 1 / --rows 1: one per-process and one pair row, the busiest; -n 0: all; other tables whole" python3 -c '
import json, sys
a, b, c = (json.load(open(p))["findings"] for p in sys.argv[1:4])
# (no pair where no flush IPI can be seen)
assert len(a["processes"]) >= 2 and len(a["pairs"]) >= (sys.argv[4] != "unseen"), a["processes"]
assert b["processes"] == a["processes"][:1] and b["pairs"] == a["pairs"][:1], (b["processes"], b["pairs"])
assert c["processes"] == b["processes"] and c["pairs"] == b["pairs"]
assert b["cpus"] == a["cpus"] and b["callsites"] == a["callsites"] and b["ipis"] == a["ipis"]
' "$T/rows0.json" "$T/rows1.json" "$T/rowsl.json" "$SPIN"
	"$PERFDB" ipis "$T/two.db" -s twice -n 1 --table processes >"$T/rows1.text"
	check "ipis -n 1 (text): the table says how many rows it shows" grep -q '^# the 1 busiest of ' "$T/rows1.text"
fi

# --- sched on yield ------------------------------------------------------------
# yield_run MODE: records yield --MODE-mm into $T/MODE.data and y-MODE.db,
# and checks the worker processes' switches and rate against its own line.
yield_run() {
	yd=$T/$1.data
	if ! record "$yd" "$SCHED_EV" sh -c 'echo $$ >"$0"; exec "$1" --seconds 0.5 --"$2"-mm' \
		"$T/$1.pid" "$B/workloads/yield" "$1" || ! "$PERFDB" import -q -o "$T/y-$1.db" -l yield "$yd"; then
		not_ok "perf record / import of yield --$1-mm"; return 1
	fi
	"$PERFDB" sched "$T/y-$1.db" --format json -n 0 >"$T/sched-$1.json"
	check "sched --format json ($1 mm): exit 0, valid JSON" json_ok "$T/sched-$1.json"
	value=$(field "$yd.out" value); switches=$(field "$yd.out" switches)
	coord=$(cat "$T/$1.pid")
	# The worker processes: children of the workload's own process.
	workers=$(sqlite3 "$T/y-$1.db" "SELECT DISTINCT c.pid FROM process c JOIN process p ON p.id = c.parent_id WHERE p.pid = $coord AND c.pid != $coord")
	got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = {int(p) for p in sys.argv[2].split()}
rows = [r for r in d["findings"]["processes"] if r["pid"] in w]
print(len(rows), sum(r["switches"] for r in rows), sum(r["per_sec_per_cpu"] for r in rows) / max(len(rows), 1))' \
		"$T/sched-$1.json" "$workers")
	set -- "$1" $got
	# Records perf lost (its buffer full on a loaded machine) are switches
	# perfdb cannot see: the count may fall short by them, never more.
	lost=$(sqlite3 "$T/y-$1.db" "SELECT coalesce(sum(coalesce(nr_lost, 0) + coalesce(nr_lost_samples, 0)), 0) FROM session")
	echo "# yield --$1-mm printed value=$value switches=$switches; perfdb sched: $2 worker process(es), $3 switches, $4 per second per CPU (over their lifetime); perf lost $lost record(s)"
	check "sched ($1 mm): the workers' switches match the workload's count (within 1%, less what perf lost)" \
		python3 -c 'import sys; a, b, l = map(float, sys.argv[1:]); sys.exit(not (a <= 1.01 * b and a + l >= 0.99 * b))' "$3" "$switches" "$lost"
	check "sched ($1 mm): switches per second per CPU within 5% of the workload's figure ($4 vs $value)" \
		python3 -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(not abs(a - b) <= 0.05 * b)' "$4" "$value"
}
yield_run private
if yield_run shared; then
	ydata=$T/shared.data
	cp "$T/y-shared.db" "$T/y.db"
	cp "$T/sched-shared.json" "$T/sched.json"
	# Over the workload's own interval (its start_ns/end_ns, perf's clock).
	t0=$(field "$ydata.out" start_ns); t1=$(field "$ydata.out" end_ns)
	w=$(printf '%d.%09d,%d.%09d' $((t0 / 1000000000)) $((t0 % 1000000000)) $((t1 / 1000000000)) $((t1 % 1000000000)))
	"$PERFDB" sched "$T/y.db" --time "$w" --format json -n 0 >"$T/schedw.json"
	# (clamped to the recording: the workload reads its end clock after its
	# last switch, and perf may have stopped before that moment came)
	check "sched --time START,END: the window is the workload's interval, within the recording" python3 -c '
import json, sqlite3, sys
d = json.load(open(sys.argv[1]))["findings"]
first, last = sqlite3.connect(sys.argv[4]).execute("SELECT first_time, last_time FROM session").fetchone()
t0, t1 = int(sys.argv[2]), int(sys.argv[3])
sys.exit(not (d["start_ns"] == max(t0, first) and d["end_ns"] == min(t1, last) and t1 - last < 50000000))' \
		"$T/schedw.json" "$t0" "$t1" "$T/y.db"
	echo "# per-CPU mean over the workload's interval (every task, not only the workers): $(jq_py "$T/schedw.json" 'round(f["mean_per_cpu"]["per_sec"])')/s; the workload printed $value/s"
	# Every switch inside the window, counted by SQL; and the window holds
	# most of the workers' switches (not all: perf may stop, or the threads
	# start yielding, a little outside the clock readings of the workload).
	check "sched --time: the CPUs' switches are the window's sched_switch rows (SQL), most of the workload's" python3 -c '
import json, sqlite3, sys
d = json.load(open(sys.argv[1]))["findings"]
n = sqlite3.connect(sys.argv[3]).execute("SELECT count(*) FROM sched_switch w JOIN sample s ON s.id = w.sample_id WHERE s.time BETWEEN ? AND ?", (d["start_ns"], d["end_ns"])).fetchone()[0]
got = sum(c["switches"] for c in d["cpus"])
sys.exit(not (got == n and got >= 0.9 * float(sys.argv[2])))' "$T/schedw.json" "$switches" "$T/y.db"
	check "sched: per-CPU switches = SQL count of sched_switch per CPU" python3 -c '
import json, sqlite3, sys
d = json.load(open(sys.argv[1]))["findings"]
db = sqlite3.connect(sys.argv[2])
want = dict(db.execute("SELECT s.cpu, count(*) FROM sched_switch w JOIN sample s ON s.id = w.sample_id GROUP BY s.cpu"))
got = {c["cpu"]: c["switches"] for c in d["cpus"] if c["switches"]}
sys.exit(not got == want)' "$T/sched.json" "$T/y.db"
	check "sched: same-mm switches dominate a yield ping-pong of threads" python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["findings"]["mean_per_cpu"]
sys.exit(not m["same_mm_per_sec"] > m["other_mm_per_sec"])' "$T/sched.json"
	for f in text md csv; do
		"$PERFDB" sched "$T/y.db" --format $f >"$T/s.$f"
		check "sched --format $f: exit 0, output" out_ok $? "$T/s.$f"
	done
	check "sched text: per-CPU table with a mean row, per-process table" \
		sh -c 'grep -q "^# Context switches per CPU" "$1" && grep -q "^mean " "$1" && grep -q "^# Per process" "$1"' sh "$T/s.text"
	"$PERFDB" import -q -o "$T/y.db" -l yield2 "$ydata"
	"$PERFDB" sched "$T/y.db" --base yield --new yield2 --format json >"$T/cmp.json"
	check "sched --base/--new: the same recording on both sides shows 0% change" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["findings"]
r = [x for x in d["compare"] if x["metric"] == "switches/s per CPU"][0]
sys.exit(not (r["base"] > 0 and abs(r["change_pct"]) < 1e-9 and d["base_runs"] == 1))' "$T/cmp.json"
	"$PERFDB" sched "$T/y.db" --base yield --new nosuch 2>/dev/null
	check "sched --new with an unknown label: exit 2" [ $? -eq 2 ]
fi
# --- sched: CPUs and tasks perf did not record --------------------------------
# perf record -C 0 records CPU 0 alone: the other CPUs' rows are unknown
# (null, "not recorded"), not 0, the mean is CPU 0's, and a warning and
# findings.unseen say which. perf runs on CPU 1, so the workload execs
# there (taskset widens its CPUs first), unrecorded: its threads are
# unknown tasks, not kernel threads.
if taskset -c 1 perf record -q -a -C 0 -m 1024 -e "$SCHED_EV" -o "$T/c0.data" -- \
	taskset -c "0-$((NCPU - 1))" "$B/workloads/yield" --seconds 0.3 --shared-mm \
	>/dev/null 2>&1 && "$PERFDB" import -q -o "$T/c0.db" -l c0 "$T/c0.data"; then
	"$PERFDB" sched "$T/c0.db" --format json >"$T/c0.json"
	check "sched of perf record -C 0: the other CPUs' rows null and 'not recorded', CPU 0 measured, the mean CPU 0's" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["findings"]
rows = {r["cpu"]: r for r in f["cpus"]}
assert rows[0]["switches"] > 0 and (rows[0]["unseen"] is None or rows[0]["unseen"] == "lost %d events" % rows[0]["lost_events"]), rows[0]
others = [r for c, r in rows.items() if c != 0]
assert others and all(r["switches"] is None and r["per_sec"] is None and r["idle_pct"] is None and r["unseen"] == "not recorded" for r in others), others
assert f["mean_per_cpu"]["switches"] == rows[0]["switches"], (f["mean_per_cpu"], rows[0])
u = [x for x in f["unseen"] if x["what"] == "cpus_not_recorded"]
assert len(u) == 1 and u[0]["cpus"] == sorted(c for c in rows if c) and u[0]["recorded"] == "0" and u[0]["warning"] in d["warnings"], u
assert "session 1 recorded only CPU 0 (perf record -C 0)" in u[0]["warning"] and "unknown (-), not 0" in u[0]["warning"], u
' "$T/c0.json"
	"$PERFDB" sched "$T/c0.db" >"$T/c0.text"
	check "sched text of perf record -C 0: CPU 1's row says not recorded" grep -Eq '^ +1 +- +- .* not recorded$' "$T/c0.text"
	check "sched of perf record -C 0: the workload's unnamed threads (exec on CPU 1) are unknown tasks, not kernel threads" python3 -c '
import json, sys
r = [r for r in json.load(open(sys.argv[1]))["findings"]["cpus"] if r["cpu"] == 0][0]
sys.exit(not r["idle_kthread_per_sec"] < 0.1 * r["per_sec"])' "$T/c0.json"
	"$PERFDB" import -q -o "$T/c0.db" -l all "$ydata"
	"$PERFDB" sched "$T/c0.db" --base c0 --new all --format json >"$T/c0cmp.json"
	check "sched --base (-C 0) --new (-a): the -C 0 side's per-CPU means are over CPU 0, and the warning says so" python3 -c '
import json, sys
d, c0 = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["findings"]
r = [x for x in d["findings"]["compare"] if x["metric"] == "switches/s per CPU"][0]
assert abs(r["base"] - c0["mean_per_cpu"]["per_sec"]) < 1e-6 * r["base"], (r, c0["mean_per_cpu"])
assert any("recorded only CPU 0" in w for w in d["warnings"]), d["warnings"]
' "$T/c0cmp.json" "$T/c0.json"
else
	not_ok "taskset -c 1 perf record -a -C 0 / import of yield"
fi
# perf record of a workload without -a: only its tasks' switches away.
if perf record -q -m 1024 -e sched:sched_switch -o "$T/task.data" -- "$B/workloads/yield" --seconds 0.1 >/dev/null 2>&1 &&
	"$PERFDB" import -q -o "$T/task.db" "$T/task.data"; then
	"$PERFDB" sched "$T/task.db" --format json >"$T/task.json"
	check "sched of a per-task recording (no -a, no -C): a warning and findings.unseen recorded_per_task" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
u = [x for x in d["findings"]["unseen"] if x["what"] == "recorded_per_task"]
assert len(u) == 1 and u[0]["session"] == 1 and "recorded per task" in u[0]["warning"] and u[0]["warning"] in d["warnings"], d["warnings"]
' "$T/task.json"
	check "sched of a recording without sched_migrate_task: migrations null, not 0, and findings.unseen no_migrations" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["findings"]
assert all(r["migrations_in"] is None and r["migrations_out"] is None for r in f["cpus"]), f["cpus"]
u = [x for x in f["unseen"] if x["what"] == "no_migrations"]
assert len(u) == 1 and u[0]["session"] == 1 and u[0]["warning"] in d["warnings"], d["warnings"]
' "$T/task.json"
	"$PERFDB" import -q -o "$T/task.db" -l with "$ydata"
	"$PERFDB" sched "$T/task.db" --base 1 --new with --format json >"$T/taskcmp.json"
	check "sched --base (no sched_migrate_task) --new (with): no migrations row, a warning saying why" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = [r["metric"] for r in d["findings"]["compare"]]
assert "switches/s per CPU" in m and "migrations/s per CPU" not in m, m
assert any("recorded no sched_migrate_task events" in w and "the migrations row is left out" in w for w in d["warnings"]), d["warnings"]
' "$T/taskcmp.json"
	check "sched of a perf record -a recording: no unseen warning, no findings.unseen" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit("unseen" in d["findings"] or any("not recorded" in w or "per task" in w for w in d["warnings"]))' "$T/sched.json"
else
	not_ok "perf record / import of yield per task"
fi
"$PERFDB" sched "$T/y.db" --base yield 2>/dev/null; check "sched --base without --new: exit 1" [ $? -eq 1 ]
"$PERFDB" sched "$T/y.db" --time 5,1 2>/dev/null; check "sched --time with end before start: exit 1" [ $? -eq 1 ]
# A window that misses the recording saw nothing: its zeros are said to be
# no measurement (a warning, findings.unseen window_outside).
[ -n "${w:-}" ] || not_ok "no yield recording for the window checks"
[ -n "${w:-}" ] && "$PERFDB" sched "$T/y.db" -s yield --time 1,2 --format json >"$T/out.json"
check "sched --time outside the recording: a warning and findings.unseen window_outside with the recording's span" python3 -c '
import json, sqlite3, sys
d = json.load(open(sys.argv[1]))
first, last = sqlite3.connect(sys.argv[2]).execute("SELECT first_time, last_time FROM session WHERE label = ?", ("yield",)).fetchone()
u = [x for x in d["findings"].get("unseen", []) if x["what"] == "window_outside"]
assert len(u) == 1 and u[0]["first_ns"] == first and u[0]["last_ns"] == last and u[0]["warning"] in d["warnings"], u
assert "the window 1.000000000,2.000000000 lies outside session" in u[0]["warning"], u
' "$T/out.json" "$T/y.db"
[ -n "${w:-}" ] && "$PERFDB" sched "$T/y.db" -s yield --time "$w" --format json >"$T/out.json"
check "sched --time inside the recording: no window_outside" python3 -c '
import json, sys
sys.exit(any(x["what"] == "window_outside" for x in json.load(open(sys.argv[1]))["findings"].get("unseen", [])))' "$T/out.json"
"$PERFDB" sched --help | grep -q '^usage: perfdb sched'; check "sched --help" [ $? -eq 0 ]
echo "1..$n"
