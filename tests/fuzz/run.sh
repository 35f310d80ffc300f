#!/bin/sh
# Runs every libFuzzer harness of BUILD/fuzz/ for SECONDS seconds each,
# one after the other, from its seed corpus (tests/fuzz/corpus/NAME, the
# perf.data one for fuzz_import too, plus tests/fuzz/regress/ for the
# perf.data, tracing-data, BTF and DWARF harnesses) into a working corpus in
# BUILD/fuzz-corpus/HARNESS (kept between runs, so coverage builds up).
# Each run stops at the first crash, leak (but libtraceevent's own:
# lsan.supp), timeout (-timeout, 10 s an
# input), out-of-memory (-rss_limit_mb, 2 GiB) or sanitizer report and
# writes the input to BUILD/fuzz-artifacts/HARNESS/; the script then
# goes on with the next harness and exits 1 at the end. One summary line
# per harness: executions, exec/s, coverage (cov: edges, ft: features).
# Usage: tests/fuzz/run.sh BUILD SECONDS [HARNESS...]
# Env: FUZZ_NICE (nice level, default 19: the fuzzers are long CPU-bound
# jobs).
BUILD=${1:?usage: run.sh BUILD SECONDS [HARNESS...]}
SECONDS_EACH=${2:?usage: run.sh BUILD SECONDS [HARNESS...]}
shift 2
[ $# -gt 0 ] || set -- $(cd "$BUILD/fuzz" && ls fuzz_* 2>/dev/null)
[ $# -gt 0 ] || { echo "run.sh: no harnesses in $BUILD/fuzz (make fuzz-build)" >&2; exit 2; }
SRC=$(cd "$(dirname "$0")" && pwd)
# leaks inside libtraceevent on malformed formats are its own (lsan.supp)
export LSAN_OPTIONS="suppressions=$SRC/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
failed=0
for h in "$@"; do
	case $h in
	fuzz_import | fuzz_perf_data) seeds="$SRC/corpus/perf_data $SRC/regress" ;;
	fuzz_tracing_data) seeds="$SRC/corpus/tracing_data $SRC/regress/tracing_data" ;;
	fuzz_btf | fuzz_dwarf | fuzz_pull_rows) seeds="$SRC/corpus/${h#fuzz_} $SRC/regress/${h#fuzz_}" ;;
	*) seeds="$SRC/corpus/${h#fuzz_}" ;;
	esac
	work="$BUILD/fuzz-corpus/$h" art="$BUILD/fuzz-artifacts/$h"
	log="$BUILD/fuzz-logs/$h.log"
	mkdir -p "$work" "$art" "$(dirname "$log")"
	# shellcheck disable=SC2086 # seeds is a list of directories
	nice -n "${FUZZ_NICE:-19}" "$BUILD/fuzz/$h" -max_total_time="$SECONDS_EACH" \
		-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=65536 \
		-close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$art/" \
		"$work" $seeds >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	rate=$(echo "$last" | sed -n 's/.* exec\/s: \([0-9]*\).*/\1/p')
	if [ $rc -ne 0 ]; then
		failed=1
		echo "FAIL $h: exit $rc after ${execs:-?} executions; $(grep -E 'ERROR:|SUMMARY:|Test unit written' "$log" | head -3 | tr '\n' ' ')(log: $log)"
	else
		echo "ok   $h: ${execs:-?} executions in ${SECONDS_EACH}s (${rate:-?} exec/s), cov: ${cov:-?} ft: ${ft:-?}"
	fi
done
exit $failed
