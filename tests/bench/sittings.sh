#!/bin/sh
# The report's error rates across sittings (docs/statistics.md, "The
# machine in the verdict"), measured on this machine with real runs:
#  - A/A over quiet sittings: SITTINGS (default 20) sittings of the same
#    bench (yield, 2 cells, 5 runs of 0.15 s), one label each; every pair
#    of them compared: how many reports mark a change (the false-positive
#    rate with one sitting a side), and how many had the machine change;
#  - the same sittings two by two as sides of 2 sittings (--again): the
#    rate when the test is on the sittings' means;
#  - A/A beside busy loops: HOGS (default 5) pairs of a quiet sitting and
#    one beside a busy loop on every CPU: reports that mark a change, and
#    reports that name the machine;
#  - a real -20% change: REAL (default 5) pairs of spin_work --cost 1 and
#    --cost 1.25 in two sittings: reports that mark it.
# Usage, from the repository root: sh tests/bench/sittings.sh [BUILD]
# (make bench; SITTINGS, HOGS, REAL in the environment).
B=${1:-build}
case $B in /*) PERFDB=$B/perfdb ;; *) PERFDB=$(pwd)/$B/perfdb ;; esac
K=${SITTINGS:-20} H=${HOGS:-5} R=${REAL:-5}
T=$(mktemp -d) || exit 2
PIDS=
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
cc -O2 -std=c11 -o "$T/spin_work" tests/programs/spin_work.c || exit 2
cpus=$(getconf _NPROCESSORS_ONLN)
echo "# machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $cpus CPUs," \
	"kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
yb() { # yb DB LABEL [--again]
	"$PERFDB" bench -q -o "$1" -l "$2" $3 --runs 5 -p cpus=1,$cpus -- yield --cpus {cpus} --seconds 0.15 \
		>/dev/null 2>&1 || { echo "bench failed" >&2; exit 2; }
}
verdict() { # verdict DB BASE NEW: "marked changed" (0/1 each)
	"$PERFDB" report "$1" --base "$2" --new "$3" --format json 2>/dev/null | python3 -c '
import json, sys
f = json.load(sys.stdin)["findings"]
rows = [r for k, v in f.items() if k.startswith("metric_") for r in v]
print(int(any(r["significant"] and not r["machine_explains"] for r in rows)), int(f["machine_verdict"]["changed"]))'
}
hogs_on() { i=0; while [ $i -lt "$cpus" ]; do sh -c 'while :; do :; done' & PIDS="$PIDS $!"; i=$((i + 1)); done; }
hogs_off() { for p in $PIDS; do kill $p; done; PIDS=; }

k=1; while [ $k -le "$K" ]; do yb "$T/aa.db" "s$k"; k=$((k + 1)); done
pairs=0 marked=0 changed=0
a=1; while [ $a -le "$K" ]; do
	b=$((a + 1)); while [ $b -le "$K" ]; do
		set -- $(verdict "$T/aa.db" "s$a" "s$b")
		pairs=$((pairs + 1)) marked=$((marked + $1)) changed=$((changed + $2))
		b=$((b + 1))
	done
	a=$((a + 1))
done
echo "A/A, one quiet sitting a side: $marked of $pairs reports marked a change; the machine changed in $changed"

# sides of 2 sittings: sittings 2i-1 and 2i of one label, made again with --again
k=1; while [ $k -le "$K" ]; do
	yb "$T/two.db" "t$(( (k + 1) / 2 ))" "$( [ $((k % 2)) = 0 ] && echo --again)"
	k=$((k + 1))
done
L=$((K / 2)) pairs=0 marked=0 changed=0
a=1; while [ $a -le $L ]; do
	b=$((a + 1)); while [ $b -le $L ]; do
		set -- $(verdict "$T/two.db" "t$a" "t$b")
		pairs=$((pairs + 1)) marked=$((marked + $1)) changed=$((changed + $2))
		b=$((b + 1))
	done
	a=$((a + 1))
done
echo "A/A, two quiet sittings a side (tested on the sittings' means): $marked of $pairs reports marked a change; the machine changed in $changed"

marked=0 named=0 h=1
while [ $h -le "$H" ]; do
	yb "$T/hog.db" "q$h"; hogs_on; yb "$T/hog.db" "h$h"; hogs_off
	set -- $(verdict "$T/hog.db" "q$h" "h$h")
	marked=$((marked + $1)) named=$((named + $2)) h=$((h + 1))
done
echo "A/A, the new sitting beside a busy loop on every CPU: $marked of $H reports marked a change; $named named the machine"

marked=0 changed=0 r=1
while [ $r -le "$R" ]; do
	for c in 1 1.25; do
		"$PERFDB" bench -q -o "$T/real.db" -l "c$c-$r" --runs 5 -- "$T/spin_work" --seconds 0.15 --cost $c >/dev/null 2>&1
	done
	set -- $(verdict "$T/real.db" "c1-$r" "c1.25-$r")
	marked=$((marked + $1)) changed=$((changed + $2)) r=$((r + 1))
done
echo "a real -20% change (spin_work --cost 1.25), one sitting a side: $marked of $R reports marked it; the machine changed in $changed"
