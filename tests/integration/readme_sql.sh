#!/bin/sh
# Runs every ```sql block of README.md against a database made from a fresh
# recording (sched_switch, sched_wakeup, tlb_flush, csd_queue_cpu around
# tlbflush) and a
# small bench: each must run without error and return at least one row, and
# one answer of each is checked against a computation that does not use
# perfdb: perf script's own text of the same perf.data (per-event counts,
# switches per CPU, flushes, full flushes and pages per reason, csd
# callsites, switched-in threads, each task's wakeup latencies to its next
# switch-in, one thread's events in a window), and for the bench query the runs asked
# for times the metric lines the workload itself prints. A README query
# this script has no check for fails, so a new example comes with one.
# Where the kernel flushes other CPUs' TLBs without IPIs (lib/flush_ipis.sh
# on the recording), the fleet query of flush IPIs has no row to give:
# that check is skipped, saying why, and perfdb ipis must say so instead.
set -u
. "$(dirname "$0")/lib/setup.sh"
. "$LIB/flush_ipis.sh"
ev=sched:sched_switch,sched:sched_wakeup,tlb:tlb_flush,csd:csd_queue_cpu
if ! perf record -q -a -m 1024 -e "$ev" -o "$T/r.data" -- "$B/workloads/tlbflush" --seconds 0.3 >/dev/null 2>&1; then
	skip "perf record failed"; exit 0
fi
"$PERFDB" import -q -o "$T/r.db" "$T/r.data" || { not_ok "import"; exit 1; }
seen=$(flush_ipis_of "$T/r.data")
if [ "${seen%% *}" = unseen ]; then
	echo "# no flush IPI in perf script's text of the recording ($seen): this kernel flushes without IPIs"
	"$PERFDB" ipis "$T/r.db" --format json >"$T/ipis.json"
	check "perfdb ipis on it says the flush IPIs cannot be seen, their rate null ($seen)" python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
sys.exit(not (f["flush_ipis_visible"] is False and f["ipis_per_sec"] is None))' "$T/ipis.json"
fi
# a small bench too, for the bench queries
"$PERFDB" bench -q -o "$T/r.db" -l readme --runs 2 -p cpus=1,2 -- "$B/workloads/yield" --cpus '{cpus}' --seconds 0.05 \
	>/dev/null 2>&1 || { not_ok "bench"; exit 1; }
# what the workload prints: its metric lines, once
"$B/workloads/yield" --cpus 1 --seconds 0.05 2>/dev/null | grep -c '^metric=' >"$T/yield.metrics"
perf script -i "$T/r.data" -F cpu,event,trace >"$T/script.txt" 2>/dev/null ||
	{ not_ok "perf script"; exit 1; }
# the same with each sample's tid and time in ns, for the questions by time
perf script -i "$T/r.data" --ns -F tid,cpu,time,event,trace >"$T/script_t.txt" 2>/dev/null ||
	{ not_ok "perf script --ns"; exit 1; }
awk -v dir="$T" '/^```sql/ { n++; f = dir "/q" n ".sql"; on = 1; next }
	/^```/ { on = 0 } on { print > f }' README.md
count=0
for q in "$T"/q*.sql; do
	[ -e "$q" ] || continue
	count=$((count + 1))
	title=$(head -1 "$q" | sed 's/^-- //')
	out=$(sqlite3 -bail "$T/r.db" < "$q" 2>&1)
	if [ $? -eq 0 ] && [ -n "$out" ] && ! echo "$out" | grep -q '^Error'; then
		ok "README query: $title"
		printf '%s\n' "$out" >"${q%.sql}.out"
	elif [ -z "$out" ] && [ "${seen%% *}" = unseen ] && echo "$title" | grep -q '^Fleet: TLB-flush IPIs'; then
		skip "README query: $title: no row, as there is no flush IPI on this machine (oracle: $seen)"
	elif [ -z "$out" ] && echo "$title" | grep -q '^Which functions queue' && ! grep -q 'csd:csd_queue_cpu:' "$T/script.txt"; then
		skip "README query: $title: no row, as perf script shows no csd_queue_cpu in the recording"
	else
		not_ok "README query: $title"; echo "$out" | sed 's/^/# /' | head -5
	fi
done
[ "$count" -ge 3 ] && ok "README has $count SQL examples" || not_ok "README has only $count SQL examples"

python3 - "$T" >"$T/oracle.out" 2>&1 <<'PY'
import collections, glob, os, re, sys
T = sys.argv[1]
events = collections.Counter(); switches = collections.Counter(); nexts = collections.Counter()
flush = collections.defaultdict(lambda: [0, 0, 0]); csd = collections.Counter()
for line in open(os.path.join(T, "script.txt"), errors="replace"):
    m = re.match(r"\s*\[(\d+)\]\s+(\S+):\s(.*)", line)
    if not m:
        continue
    cpu, ev, rest = int(m.group(1)), m.group(2), m.group(3)
    events[ev] += 1
    if ev == "sched:sched_switch":
        switches[cpu] += 1
        n = re.search(r"==> next_comm=(.*) next_pid=(\d+) next_prio=", rest)
        nexts[(n.group(1), n.group(2))] += 1
    elif ev == "tlb:tlb_flush":
        f = re.match(r"pages:(-?\d+) reason:.*\((\d+)\)$", rest.strip())
        r = flush[f.group(2)]; pages = int(f.group(1))
        r[0] += 1
        if pages == -1: r[1] += 1
        elif pages > 0: r[2] += pages
    elif ev == "csd:csd_queue_cpu":
        c = re.search(r"callsite=(\S+) func=(\S+)", rest)
        csd[(c.group(1), c.group(2))] += 1
metrics = int(open(os.path.join(T, "yield.metrics")).read().split()[0])

# From the timed text: every sample (tid, ns, cpu, event), and each task's
# wakeup latencies: a sched_wakeup of pid P waits until the next
# sched_switch to P, on any CPU (wakeups with none after them left out).
timed = []; pending = collections.defaultdict(list); waits = collections.defaultdict(list)
for line in open(os.path.join(T, "script_t.txt"), errors="replace"):
    m = re.match(r"\s*(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):\s(.*)", line)
    if not m:
        continue
    tid, cpu, ns, ev, rest = int(m.group(1)), int(m.group(2)), int(m.group(3)) * 10**9 + int(m.group(4)), m.group(5), m.group(6)
    timed.append((tid, ns, cpu, ev))
    if ev == "sched:sched_wakeup":
        w = re.search(r"comm=(.*) pid=(\d+) prio=", rest)
        pending[int(w.group(2))].append((w.group(1), ns))
    elif ev == "sched:sched_switch":
        n = re.search(r"==> next_comm=.* next_pid=(\d+) next_prio=", rest)
        pid = int(n.group(1))
        for comm, t in pending.pop(pid, []):
            waits[(comm, pid)].append(ns - t)

def rows(q):
    return [l.split("|") for l in open(q[:-4] + ".out").read().splitlines()]

def check(ok, what, detail=""):
    print(("ok - " if ok else "not ok - ") + what)
    if not ok and detail:
        print("# " + detail)

for q in sorted(glob.glob(os.path.join(T, "q*.sql"))):
    title = open(q).readline().strip("- \n")
    if not os.path.exists(q[:-4] + ".out"):
        continue
    R = rows(q); low = title.lower()
    if low.startswith("samples per event"):
        got = {r[1]: int(r[2]) for r in R if int(r[2])}
        check(got == dict(events), f"'{title}': per-event counts = perf script's", f"{got} vs {dict(events)}")
    elif low.startswith("context switches per cpu"):
        got = {int(r[1]): int(r[2]) for r in R}
        check(got == dict(switches), f"'{title}': switches per CPU = perf script's sched_switch per CPU",
              f"{got} vs {dict(switches)}")
    elif low.startswith("tlb flushes by reason"):
        got = sorted((int(r[2]), int(r[3]), int(r[4] or 0)) for r in R)
        want = sorted(tuple(v) for v in flush.values())
        check(got == want, f"'{title}': flushes, full flushes (pages -1) and pages per reason = perf script's",
              f"{got} vs {want}")
        if not any(v[1] for v in flush.values()):
            print(f"skip - '{title}' with full flushes # the recording has no pages=-1 flush")
    elif low.startswith("which functions queue"):
        got = [(r[0], r[1], int(r[2])) for r in R]
        want = csd.most_common(1)[0]
        check(got[0][2] == want[1] and all(csd[(a, b)] == n for a, b, n in got),
              f"'{title}': every row's count = perf script's csd_queue_cpu (callsite, func) count",
              f"{got[:3]} vs {csd.most_common(3)}")
    elif low.startswith("the threads that were switched in"):
        got = [(r[0], r[1], int(r[2])) for r in R]
        check(got[0][2] == nexts.most_common(1)[0][1] and all(nexts[(c, p)] == n for c, p, n in got),
              f"'{title}': every row's count = perf script's next_comm/next_pid count, the first the most",
              f"{got[:3]} vs {nexts.most_common(3)}")
    elif low.startswith("every run of every bench cell"):
        runs = collections.Counter((r[3], r[4]) for r in R if r[0] == "readme")
        want = {(p, str(k)): metrics for p in ("cpus=1", "cpus=2") for k in (1, 2)}
        check(dict(runs) == want, f"'{title}': 2 cells x 2 runs, each with the {metrics} metric lines yield prints",
              f"{dict(runs)} vs {want}")
    elif low.startswith("fleet: tlb-flush ipis"):
        import sqlite3
        dur = sqlite3.connect(os.path.join(T, "r.db")).execute("SELECT duration_ns FROM session").fetchone()[0] / 1e9
        n = sum(v for (c, f), v in csd.items() if f.startswith("flush_tlb_func"))
        ok = len(R) == 1 and R[0][2] == "1" and abs(float(R[0][3]) - n / dur) <= 0.051 and \
            0 <= float(R[0][4]) <= float(R[0][3])
        check(ok, f"'{title}': one kernel and host, 1 session, IPIs per second = perf script's "
              f"flush_tlb_func csd_queue_cpu count / the session's length, wasted <= all", f"{R} vs {n} / {dur}")
    elif low.startswith("fleet: context switches per second"):
        got = {r[0]: (int(r[4]), float(r[5]), float(r[6]), float(r[7])) for r in R}
        check(sorted(got) == ["cpus=1", "cpus=2"] and all(v[0] == 2 and v[2] <= v[1] <= v[3] for v in got.values()),
              f"'{title}': the 2 cells, 2 runs each, lowest <= mean <= highest", f"{got}")
    elif low.startswith("fleet: every run of one bench cell"):
        got = sorted((r[3], r[4], r[6]) for r in R)
        check(got == [("readme", "1", "switches/s/CPU"), ("readme", "2", "switches/s/CPU")],
              f"'{title}': the cell cpus=2's 2 runs, in switches/s/CPU", f"{got}")
    elif low.startswith("wakeup latency per task"):
        # SQLite's round() and Python's differ on halves (85957.45 us: 85957.5
        # and 85957.4): compare with the unrounded microseconds, within 0.05
        got = [(r[0], int(r[1]), int(r[2]), float(r[3]), float(r[4])) for r in R]
        want = {k: (len(v), sum(v) / len(v) / 1e3, max(v) / 1e3) for k, v in waits.items()}
        top = max(max(v) / 1e3 for v in waits.values()) if waits else None
        bad = [g for g in got if (g[0], g[1]) not in want or want[(g[0], g[1])][0] != g[2] or
               abs(want[(g[0], g[1])][1] - g[3]) > 0.051 or abs(want[(g[0], g[1])][2] - g[4]) > 0.051]
        check(got and not bad and abs(got[0][4] - top) <= 0.051 and len(got) == min(10, len(want)),
              f"'{title}': every task's wakeups, mean and max wait = perf script's (wakeup to the next "
              f"switch-in of its pid), the first the largest", f"{bad[:3] or got[:3]} vs top {top}")
    elif low.startswith("events of one thread in a time window"):
        import sqlite3
        first = sqlite3.connect(os.path.join(T, "r.db")).execute(
            "SELECT first_time FROM session ORDER BY id LIMIT 1").fetchone()[0]
        t0, t1 = first + 50000000, first + 60000000
        tid = int(R[0][0]) if R else -1
        got = sorted((int(r[2]), int(r[3]), r[4]) for r in R)
        want = sorted((ns - t0, cpu, ev) for t, ns, cpu, ev in timed if t == tid and t0 <= ns < t1)
        busiest = collections.Counter(t for t, ns, cpu, ev in timed if t0 <= ns < t1)
        check(got and got == want and all(int(r[0]) == tid for r in R) and
              busiest[tid] == max(busiest.values()),
              f"'{title}': tid {tid}'s samples from 50 to 60 ms in (time, CPU, event) = perf script's, "
              f"and no thread has more there", f"{len(got)} rows vs {len(want)}; {busiest.most_common(2)}")
    else:
        check(False, f"'{title}': no independent check in readme_sql.sh for this README query")
PY
rc=$?
tap_results "$T/oracle.out"
[ $rc -eq 0 ] || not_ok "the checks' script exited $rc"
[ "$failed" -eq 0 ]
