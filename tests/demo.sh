#!/bin/sh
# The README's main job on a fresh machine: installs what perfdb needs,
# builds it, records the built-in workloads (tlbflush and yield) with the
# sched and tlb tracepoints into demo.db, prints the sessions and the IPI
# analysis, and writes a markdown report (demo-report.md).
set -eu
cd "$(dirname "$0")/.."
if [ "${PERFDB_SKIP_DEPS:-}" != 1 ]; then
	sh .ci/deps.sh --if-missing >/dev/null
fi
make -s -j2
db=${PERFDB_DEMO_DB:-demo.db}
rm -f "$db"
if ./build/perfdb record --help >/dev/null 2>&1; then
	./build/perfdb record -o "$db" -l tlbflush -r sched,tlb -- ./build/workloads/tlbflush --seconds 2
	./build/perfdb record -o "$db" -l yield -r sched -- ./build/workloads/yield --seconds 2
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	ev=sched:sched_switch,sched:sched_wakeup,tlb:tlb_flush,ipi:ipi_send_cpumask,csd:csd_queue_cpu
	perf record -q -a -m 1024 -e "$ev" -o "$tmp/tlb.data" -- ./build/workloads/tlbflush --seconds 2
	./build/perfdb import -o "$db" -l tlbflush "$tmp/tlb.data"
	perf record -q -a -m 1024 -e sched:sched_switch -o "$tmp/yield.data" -- ./build/workloads/yield --seconds 2
	./build/perfdb import -o "$db" -l yield "$tmp/yield.data"
fi
./build/perfdb sessions "$db"
report=${db%.db}-report.md
{
	echo "# perfdb demo: tlbflush and yield on $(uname -r)"
	echo
	echo "## Context switches (yield)"
	echo
	./build/perfdb sched "$db" -s yield --format md
	echo
	echo "## TLB-flush IPIs (tlbflush)"
	echo
	./build/perfdb ipis "$db" -s tlbflush --format md
} > "$report"
./build/perfdb ipis "$db" -s tlbflush | head -30
echo "database: $(pwd)/$db  (try: sqlite3 $db 'SELECT * FROM event_counts')"
echo "report:   $(pwd)/$report"
