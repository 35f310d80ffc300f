#!/bin/sh
# Integration test of workloads/faults (huge-page-sized anonymous faults
# after a fragmenting phase): usage errors exit 1 with the usage; a run
# prints exactly THREADS * floor(SIZE / THREADS / HUGE) faults, each as a
# well-formed huge or base sample line followed by its fault-both line of
# the same value, then the ratio line, which matches an awk count of the
# huge lines; the THP setting on stderr is the one in sysfs; with the
# system in madvise or never mode, no fault without --madvise is huge;
# with --madvise and THP in madvise or always mode some are (skipped
# without THP); and the oracle: the process's AnonHugePages in
# /proc/PID/smaps_rollup, read while --hold keeps the regions mapped, is
# the huge count times the huge page size. The fragmenter's file is in
# $TMPDIR, already unlinked while the program runs, gone after.
# Run from the repository root: sh tests/integration/faults.sh
# shellcheck disable=SC2016 # eval'd checks expand their variables late
set -u
. "$(dirname "$0")/lib/setup.sh"
F=$B/workloads/faults
[ -x "$F" ] || make -s BUILD="$B" "$F" >&2 || { not_ok "build $F"; tap_end; }

THP=/sys/kernel/mm/transparent_hugepage
# thp NAME: the selected word of $THP/NAME, or absent
thp() { w=$(sed -n 's/.*\[\([a-z+]*\)\].*/\1/p' "$THP/$1" 2>/dev/null); echo "${w:-absent}"; }
ENABLED=$(thp enabled)
DEFRAG=$(thp defrag)
CHUNK=$(cat "$THP/hpage_pmd_size" 2>/dev/null || echo 2097152)
M=1048576
export TMPDIR="$T/tmp"

# run ARGS...: runs faults, leaving stdout, stderr, status in $T/{out,err,rc}
run() {
	"$F" "$@" >"$T/out" 2>"$T/err"
	echo $? >"$T/rc"
}
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }
usage_on_stderr() { grep -q '^Usage: faults ' "$T/err" && [ ! -s "$T/out" ]; }
# lines NAME: how many metric=NAME lines $T/out has
lines() { grep -c "^metric=$1 " "$T/out"; }

# well_formed N: every line but the last is a sample line of N threads,
# a huge or base one then a fault-both one with the same sample, more
# than 0 (a fault takes time); the last is the ratio line.
well_formed() {
	awk -v n="$1" '
	function sample(s) { sub(/^metric=[^ ]* sample=/, "", s); sub(/ .*/, "", s); return s }
	{ line[NR] = $0 }
	END {
		if (NR < 3 || NR % 2 == 0) exit 1
		kind = "^metric=fault-(huge|base)-" n " sample=[0-9]+\\.[0-9][0-9][0-9] unit=us better=lower$"
		both = "^metric=fault-both-" n " sample=[0-9]+\\.[0-9][0-9][0-9] unit=us better=lower$"
		for (i = 1; i < NR; i += 2)
			if (line[i] !~ kind || line[i + 1] !~ both || sample(line[i]) != sample(line[i + 1]) ||
			    sample(line[i]) + 0 <= 0)
				exit 1
		exit line[NR] !~ "^metric=faults_huge_ratio value=[01]\\.[0-9]+ unit=fraction better=higher faults=[0-9]+ huge=[0-9]+ threads=" n " madvise=(yes|no) fill=(yes|no) thp=[a-z+]+ defrag=[a-z+]+$"
	}' "$T/out"
}

# ratio_ok: the ratio line's value, faults= and huge= are the awk counts
# of the sample lines
ratio_ok() {
	awk '
	/^metric=fault-huge-/ { h++ }
	/^metric=fault-both-/ { b++ }
	/^metric=faults_huge_ratio / {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	}
	END {
		d = v["value"] - h / b
		exit !(b > 0 && d < 1e-6 && d > -1e-6 && v["faults"] == b && v["huge"] == h)
	}' "$T/out"
}

# field KEY: KEY's value in the ratio line
field() { tail -1 "$T/out" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# --- usage ---------------------------------------------------------------------------
run --help
check "--help prints the usage on stdout, exit 0" eval 'rc_is 0 && grep -q "^Usage: faults " "$T/out"'
for args in "--bogus" "stray" "--threads 0" "--threads 257" "--threads x" "--size 0" \
	"--size 1X" "--size -1" "--size 4T" "--fragment abc" "--fragment 1MB" \
	"--size $((CHUNK - 1))" "--threads 3 --size $((3 * CHUNK - 1))" "--size"; do
	# shellcheck disable=SC2086 # split on purpose
	run $args
	check "faults $args: usage on stderr, exit 1" eval 'rc_is 1 && usage_on_stderr'
done

# --- counts, lines, ratio ---------------------------------------------------------------
# 10M over 2 threads: floor(5M / CHUNK) each (2 with 2 MiB huge pages, not 5 in all)
for spec in "1 6M" "2 10M" "3 16M"; do
	threads=${spec% *} size=${spec#* }
	bytes=$((${size%M} * M))
	want=$((threads * (bytes / threads / CHUNK)))
	mkdir -p "$T/tmp"
	run --threads "$threads" --size "$size" --fragment 8M
	check "--threads $threads --size $size: exit 0" rc_is 0
	check "--threads $threads --size $size: $want fault-both lines" [ "$(lines "fault-both-$threads")" -eq "$want" ]
	check "--threads $threads --size $size: each fault a kind line and a fault-both line, then the ratio line" \
		well_formed "$threads"
	check "--threads $threads --size $size: fault-huge + fault-base lines = fault-both lines" \
		[ $(($(lines "fault-huge-$threads") + $(lines "fault-base-$threads"))) -eq "$want" ]
	check "--threads $threads --size $size: faults_huge_ratio = huge lines / all, faults= and huge= the counts" ratio_ok
	check "--threads $threads --size $size: the file is gone" [ -z "$(ls -A "$T/tmp")" ]
done
check "stderr says the THP setting of sysfs: enabled=$ENABLED defrag=$DEFRAG" \
	grep -q "^faults: THP enabled=$ENABLED defrag=$DEFRAG, huge page $((CHUNK / 1024)) KiB$" "$T/err"
check "the ratio line says thp=$ENABLED defrag=$DEFRAG madvise=no fill=no" \
	[ "$(field thp) $(field defrag) $(field madvise) $(field fill)" = "$ENABLED $DEFRAG no no" ]

run --size 8M --fragment 0 --fill
check "--fill --fragment 0: exit 0, $((8 * M / CHUNK)) faults well formed, fill=yes" \
	eval 'rc_is 0 && well_formed 1 && ratio_ok && [ "$(lines fault-both-1)" -eq $((8 * M / CHUNK)) ] && [ "$(field fill)" = yes ]'

# --- the system's THP setting decides without --madvise ---------------------------------
run --size 16M --fragment 0
case $ENABLED in
madvise|never|absent)
	check "THP $ENABLED, no --madvise: no fault is huge" eval 'rc_is 0 && [ "$(lines fault-huge-1)" -eq 0 ]' ;;
*) skip "THP is $ENABLED: the system may give huge pages without --madvise" ;;
esac

# --- the oracle: AnonHugePages while --hold keeps the regions --------------------------
rm -rf "$T/tmp"; mkdir "$T/tmp"
mkfifo "$T/in"
"$F" --madvise --threads 2 --size 64M --fragment 16M --hold <"$T/in" >"$T/out" 2>"$T/err" &
pid=$!
at_exit "kill $pid 2>/dev/null"
exec 3>"$T/in"
i=0
while ! grep -q '^metric=faults_huge_ratio' "$T/out" && kill -0 "$pid" 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.1; i=$((i + 1))
done
anon_kb=$(awk '/^AnonHugePages:/ { print $2 }' "/proc/$pid/smaps_rollup" 2>/dev/null)
all_kb=$(awk '/^Anonymous:/ { print $2 }' "/proc/$pid/smaps_rollup" 2>/dev/null)
ls -l "/proc/$pid/fd" >"$T/fds" 2>&1
ls -A "$T/tmp" >"$T/tmp_during"
exec 3>&-
wait "$pid"
echo $? >"$T/rc"
huge=$(lines fault-huge-2)
echo "# --madvise, THP $ENABLED/$DEFRAG: $huge of $(lines fault-both-2) faults huge, AnonHugePages $anon_kb kB"
check "--hold: exit 0 once stdin ends, output well formed" eval 'rc_is 0 && well_formed 2 && ratio_ok'
check "--hold: Anonymous $all_kb kB: the 64 MiB were all faulted (within 8 MiB of the process's own)" \
	eval '[ "${all_kb:-0}" -ge $((64 * 1024)) ] && [ "${all_kb:-0}" -le $((72 * 1024)) ]'
check "--hold: the fragmenter's file was unlinked while the program still had it open" \
	eval '[ ! -s "$T/tmp_during" ] && grep -q "$T/tmp/perfdb-faults-.* (deleted)" "$T/fds"'
case $ENABLED in
madvise)
	check "oracle: AnonHugePages $anon_kb kB = $huge huge faults * $((CHUNK / 1024)) kB" \
		[ "${anon_kb:-x}" = $((huge * CHUNK / 1024)) ] ;;
always)	# stacks and malloc arenas may get huge pages of their own: a few per thread
	check "oracle: AnonHugePages $anon_kb kB within 8 huge pages above $huge huge faults * $((CHUNK / 1024)) kB" \
		eval '[ "${anon_kb:-0}" -ge $((huge * CHUNK / 1024)) ] && [ "${anon_kb:-0}" -le $(((huge + 8) * CHUNK / 1024)) ]' ;;
*)
	check "oracle: AnonHugePages 0 kB and no huge fault with THP $ENABLED" [ "${anon_kb:-x} $huge" = "0 0" ] ;;
esac
case $ENABLED in
madvise|always) check "--madvise with THP $ENABLED: some faults are huge" [ "$huge" -gt 0 ] ;;
*) skip "no THP here ($THP: $ENABLED)" ;;
esac

# --- a failed run ------------------------------------------------------------------------
TMPDIR=$T/nowhere "$F" --size 4M --fragment 1M >"$T/out" 2>"$T/err"
echo $? >"$T/rc"
check "TMPDIR a missing directory: exit 2, said on stderr" \
	eval 'rc_is 2 && grep -q "^faults: fragmenter: cannot make a file" "$T/err" && [ ! -s "$T/out" ]'
tap_end
