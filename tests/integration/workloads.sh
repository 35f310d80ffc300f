#!/bin/sh
# Integration test of the reproducer programs in workloads/ (yield, tlbflush,
# falseshare): option handling and exit codes, a short run of each mode
# printing one well-formed metric line with a positive value, and yield's
# switch count against perf stat's context-switches (faults, which prints
# a distribution and has no --seconds, has faults.sh). Prints TAP lines.
# Run from the repository root: sh tests/integration/workloads.sh
# Env: PERFDB_BUILD (default build) holds workloads/NAME; missing ones are made.
# shellcheck disable=SC2016 # eval'd checks expand their variables late
. "$(dirname "$0")/lib/setup.sh"
W=$B/workloads
n=0
NCPU=$(getconf _NPROCESSORS_ONLN)

# This test's own TAP helpers, in place of tap.sh's (setup.sh): failures
# are counted by tests/run.sh from the "not ok" lines, not by the exit status.
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - # SKIP $*"; }
check() { # check DESCRIPTION COMMAND...: ok if COMMAND succeeds
	desc=$1; shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

for w in yield tlbflush falseshare; do
	[ -x "$W/$w" ] || make -s BUILD="$B" "$W/$w" >&2 || echo "# cannot build $W/$w"
done

# run NAME ARGS...: runs $W/NAME, leaving stdout, stderr, status in $T/{out,err,rc}
run() {
	prog=$1; shift
	"$W/$prog" "$@" >"$T/out" 2>"$T/err"
	echo $? >"$T/rc"
}
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }
usage_on_stderr() { grep -q '^Usage: ' "$T/err" && [ ! -s "$T/out" ]; }

# field KEY: the value of KEY=... in the (first) metric line in $T/out
field() { head -1 "$T/out" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# metric_ok NAME KEY=VALUE...: the first line on stdout is metric=NAME's,
# all key=value tokens, value > 0, unit= and better=higher given, 0.4 <=
# seconds <= 3, the given pairs present; every stdout line a metric line
# (tlbflush prints a second, per task); a human line on stderr, exit 0.
metric_ok() {
	mname=$1; shift
	rc_is 0 || return 1
	[ "$(grep -vc '^metric=' "$T/out")" -eq 0 ] || return 1
	head -1 "$T/out" | grep -Eq '^metric=[a-z_]+ value=[0-9.]+ unit=[^ =]+ better=higher( [a-z_]+=[^ =]+)+$' ||
		return 1
	[ "$(field metric)" = "$mname" ] || return 1
	awk -v v="$(field value)" -v s="$(field seconds)" \
		'BEGIN { exit !(v + 0 > 0 && s + 0 >= 0.4 && s + 0 <= 3) }' || return 1
	for kv in "$@"; do grep -Eq " $kv( |$)" "$T/out" || return 1; done
	grep -q '^[a-z]*: .*[0-9]' "$T/err"
}

# --- options and exit codes ------------------------------------------------
for w in yield tlbflush falseshare; do
	run $w --help
	check "$w --help prints the usage on stdout, exit 0" \
		eval 'rc_is 0 && grep -q "^Usage: $w " "$T/out"'
	run $w --bogus
	check "$w --bogus: usage on stderr, exit 1" eval 'rc_is 1 && usage_on_stderr'
	run $w stray
	check "$w with a stray argument: exit 1" eval 'rc_is 1 && usage_on_stderr'
	for s in 0 -1 abc 1x nan; do
		run $w --seconds "$s"
		check "$w --seconds $s: exit 1" eval 'rc_is 1 && usage_on_stderr'
	done
done
for args in "--cpus 0" "--cpus x" "--cpus" "--shared-mm --private-mm"; do
	# shellcheck disable=SC2086
	run yield $args
	check "yield $args: exit 1" eval 'rc_is 1 && usage_on_stderr'
done
for args in "--tasks 0" "--others bogus" "--cpus 1-0" "--cpus 0,0" "--cpus 0," \
	"--cpus -1" "--threads --processes"; do
	# shellcheck disable=SC2086
	run tlbflush $args
	check "tlbflush $args: exit 1" eval 'rc_is 1 && usage_on_stderr'
done
for args in "--threads 0" "--threads 9" "--layout bogus" "--store bogus"; do
	# shellcheck disable=SC2086
	run falseshare $args
	check "falseshare $args: exit 1" eval 'rc_is 1 && usage_on_stderr'
done

run yield --cpus $((NCPU + 1)) --seconds 0.5
check "yield --cpus $((NCPU + 1)): CPU $NCPU not available, exit 2" \
	eval 'rc_is 2 && grep -q "CPU $NCPU is not available" "$T/err" && [ ! -s "$T/out" ]'
run tlbflush --cpus "$NCPU" --seconds 0.5
check "tlbflush --cpus $NCPU: not available, exit 2" \
	eval 'rc_is 2 && grep -q "CPU $NCPU is not available" "$T/err"'
run tlbflush --tasks "$NCPU" --others spin --seconds 0.5
check "tlbflush --tasks $NCPU --others spin: no CPU left for helpers, exit 2" rc_is 2
if [ "$NCPU" -lt 8 ]; then
	run falseshare --threads $((NCPU + 1)) --seconds 0.5
	check "falseshare --threads $((NCPU + 1)): CPU $NCPU not available, exit 2" \
		eval 'rc_is 2 && grep -q "CPU $NCPU is not available" "$T/err"'
else
	skip "falseshare unavailable CPU: $NCPU CPUs >= its 8-thread limit"
fi

# --- short runs ------------------------------------------------------------
for mode in shared private; do
	run yield --$mode-mm --seconds 0.5
	check "yield --$mode-mm runs 0.5 s, prints a metric line" \
		metric_ok ctxsw_per_sec_per_cpu mode=$mode cpus="$NCPU"
	echo "# yield $mode mm: $(cat "$T/out")"
	check "yield --$mode-mm: value = switches / seconds / cpus" \
		awk -v v="$(field value)" -v w="$(field switches)" -v s="$(field seconds)" \
		-v c="$(field cpus)" 'BEGIN { r = w / s / c; exit !(v >= 0.99 * r && v <= 1.01 * r) }'
done
run yield --cpus 1 --seconds 0.5
check "yield --cpus 1 runs" metric_ok ctxsw_per_sec_per_cpu mode=shared cpus=1

if [ "$NCPU" -ge 2 ]; then others_list="none spin sleep yield share"; else others_list=none; fi
for mode in threads processes; do
	for others in $others_list; do
		run tlbflush --$mode --others "$others" --seconds 0.5
		check "tlbflush --$mode --others $others runs, prints a metric line" \
			metric_ok tlbflush_ops_per_sec mode=$mode others="$others"
		echo "# tlbflush $mode others=$others: $(field value) ops/s, tasks=$(field tasks)"
	done
done
check "tlbflush: value is the sum of task_values, one per task" \
	awk -v v="$(field value)" -v tv="$(field task_values)" -v t="$(field tasks)" \
	'BEGIN { k = split(tv, a, ","); s = 0; for (i = 1; i <= k; i++) s += a[i];
		 exit !(k == t && v >= s - k && v <= s + k) }'
run tlbflush --cpus 0 --seconds 0.5
check "tlbflush --cpus 0: one task" metric_ok tlbflush_ops_per_sec tasks=1 cpu_list=0
run tlbflush --tasks 2 --seconds 0.5
check "tlbflush's second line is the per-task rate (will-it-scale's per_thread_ops): per_task of the first" \
	eval '[ "$(sed -n 2p "$T/out" | sed -n "s/^metric=tlbflush_ops_per_sec_per_task value=\([0-9]*\) unit=ops\/s better=higher tasks=2$/\1/p")" = "$(field per_task)" ]'

for layout in packed padded shared; do
	for store in always check; do
		run falseshare --layout $layout --store $store --seconds 0.5
		check "falseshare --layout $layout --store $store runs, prints a metric line" \
			metric_ok falseshare_ops_per_sec layout=$layout store=$store
	done
done

# --verbose: the fields really sit where the layout says (line= per thread)
lines() { sed -n 's/.* field=fs_shared\.[a-z._]* offset=[0-9]* line=\([0-9]*\) .*/\1/p' "$T/err"; }
if [ "$NCPU" -ge 2 ]; then
	run falseshare --threads 2 --layout packed --seconds 0.5 --verbose
	check "falseshare --verbose packed: both fields in one cacheline" \
		eval '[ "$(lines | wc -l)" -eq 2 ] && [ "$(lines | sort -u | wc -l)" -eq 1 ] &&
			grep -q "fs_shared at 0x" "$T/err" && grep -q "packed.bitmap_b" "$T/err"'
	run falseshare --threads 2 --layout padded --seconds 0.5 --verbose
	check "falseshare --verbose padded: fields in two cachelines" \
		eval '[ "$(lines | sort -u | wc -l)" -eq 2 ] && grep -q "padded.bitmap_b" "$T/err"'
else
	skip "falseshare --verbose layouts: one CPU"
fi

# --- yield against perf stat -------------------------------------------------
# perf_cs [PERF-STAT-OPTION]: runs yield under perf stat -e context-switches;
# prints perf's count (or why there is none, prefixed "skip:"); the run's
# metric line is left in $T/out.
perf_cs() {
	if ! perf stat -e context-switches "$@" -x, -o "$T/perf" -- \
		"$W/yield" --seconds 0.5 >"$T/out" 2>"$T/err"; then
		echo "skip: perf stat failed: $(head -1 "$T/err")"
		return
	fi
	cs=$(sed -n 's/^\([^,]*\),[^,]*,context-switches,.*/\1/p' "$T/perf")
	case "$cs" in
	''|*[!0-9]*) echo "skip: context-switches is '${cs:-missing}'" ;;
	*) echo "$cs" ;;
	esac
}
# within10 A B: A and B differ by at most 10% of B
within10() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d;
	exit !(a > 0 && d <= 0.10 * b) }'; }

if ! command -v perf >/dev/null 2>&1; then
	skip "yield vs perf stat: no perf"
else
	# Counted on the workload's own tasks: the same switches getrusage counts
	# (plus a few at start and exit), whatever else the machine runs.
	cs=$(perf_cs)
	case "$cs" in
	skip:*) skip "yield vs perf stat: ${cs#skip: }" ;;
	*)
		sw=$(field switches)
		echo "# yield switches=$sw, perf stat context-switches of its tasks=$cs"
		check "yield switches within 10% of perf stat's context-switches of its tasks" \
			within10 "$sw" "$cs"
		;;
	esac
	# System-wide (-a) adds every other task's switches: close on an idle
	# machine, but not a check, since other work on the machine inflates it.
	cs=$(perf_cs -a)
	case "$cs" in
	skip:*) echo "# yield vs perf stat -a: ${cs#skip: }" ;;
	*)
		sw=$(field switches)
		if within10 "$sw" "$cs"; then verdict="within 10%"; else verdict="NOT within 10% (busy machine?)"; fi
		echo "# yield switches=$sw, perf stat -a context-switches=$cs: $verdict"
		;;
	esac
fi

# --- informational: false sharing on 2 CPUs (not a check: machines are noisy)
if [ "$NCPU" -ge 2 ]; then
	run falseshare --threads 2 --layout packed --store always --seconds 0.5
	packed=$(field value)
	run falseshare --threads 2 --layout padded --store always --seconds 0.5
	padded=$(field value)
	awk -v a="$packed" -v b="$padded" 'BEGIN { if (a > 0)
		printf "# falseshare 2 threads, store always: packed %.0f, padded %.0f ops/s, padded/packed %.2f\n", a, b, b / a }'
fi
