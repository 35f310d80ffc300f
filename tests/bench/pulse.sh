#!/bin/sh
# Benchmark of the machine's pulse (collect/pulse.h): what its probes cost a
# bench. Runs `perfdb bench` of a workload that does next to nothing (one
# cell, 20 runs: a probe before every run) and of `yield --seconds 0.5` (2
# cells, 5 runs each: a probe before every round of 2 runs), and prints the
# probes' time bench states, per probe and per run, and as a share of the
# bench's wall time; then the spread of the pulse itself over the probes of
# each bench (its %stddev: how much a quiet machine's pulse moves from one
# probe to the next). Usage, from the repository root:
# sh tests/bench/pulse.sh [BUILD] (make bench)
B=${1:-build}
case $B in /*) PERFDB=$B/perfdb ;; *) PERFDB=$(pwd)/$B/perfdb ;; esac
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
DB=$T/pulse.db
echo "# machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
	"$(getconf _NPROCESSORS_ONLN) CPUs, kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
one() { # one LABEL BENCH-ARGS...: the bench, and its line of figures
	label=$1; shift
	t0=$(date +%s%N)
	"$PERFDB" bench -o "$DB" -l "$label" "$@" >/dev/null 2>"$T/err" || { cat "$T/err"; exit 2; }
	t1=$(date +%s%N)
	sed -n 's/.* \([0-9]*\) runs\{0,1\} in .*pulse: \([0-9]*\) probes\{0,1\}, \([0-9.]*\) s).*/\1 \2 \3/p' "$T/err" |
		while read -r runs probes secs; do
			awk -v l="$label" -v r="$runs" -v p="$probes" -v s="$secs" -v w="$(( (t1 - t0) / 1000 ))" 'BEGIN {
				printf "%-22s %4d runs %4d probes  %7.2f ms a probe  %7.2f ms a run  %5.2f%% of the bench\n",
					l, r, p, 1000 * s / p, 1000 * s / r, 100 * s / (w / 1e6) }'
		done
}
one "trivial (1 cell)" --runs 20 -- sh -c 'echo metric=x value=1'
one "yield 0.5 s (2 cells)" --runs 5 -p mm=shared,private -- yield --{mm}-mm --seconds 0.5
sqlite3 "$DB" "SELECT '# pulse over the probes of ' || b.label || ': integer ' ||
	printf('%.1f', avg(p)) || ' M/s per CPU, %stddev ' || printf('%.2f', 100 * sqrt((sum(p * p) - sum(p) * sum(p) / count(*)) / (count(*) - 1)) / avg(p)) ||
	'; memory ' || printf('%.2f', avg(m)) || ' GB/s, %stddev ' || printf('%.2f', 100 * sqrt((sum(m * m) - sum(m) * sum(m) / count(*)) / (count(*) - 1)) / avg(m)) ||
	' (' || count(*) || ' probes)'
	FROM (SELECT DISTINCT r.bench_id, r.pulse_int p, r.pulse_mem m FROM bench_run r) x JOIN bench b ON b.id = x.bench_id GROUP BY b.label"
