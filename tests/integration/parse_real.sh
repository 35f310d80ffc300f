#!/bin/sh
# --parse will-it-scale and --parse thpscale against the real tools:
# will-it-scale's tlb_flush2_threads and mmtests' thpscale are built in $T
# from $PERFDB_SHARED/third_party (skipped, counted as skips, when it is
# absent or a library they need is missing) and run for a few seconds;
# what tests/tools/parse_file reads from their output is compared with
# what awk reads from the same output on its own: the binary's average:
# line and that over its -t, its measured seconds; the count, mean,
# minimum and maximum of the fault latencies of each kind.
set -u
. "$(dirname "$0")/lib/setup.sh"
TP=${PERFDB_SHARED:-/nonexistent}/third_party
PF=$(pwd)/$B/tests/tools/parse_file
CC=${CC:-cc}

# same FILE NAME COUNT MEAN MIN MAX: FILE (parse_file's output) has the
# distribution NAME with these (the mean within 1e-12 of it).
same() {
	awk -v n="$2" -v c="$3" -v m="$4" -v lo="$5" -v hi="$6" '
		$1 == "dist" && $2 == n { d = $4 - m; if (d < 0) d = -d
			found = $3 == c && d <= 1e-12 * (m < 0 ? -m : m) && $5 == lo && $6 == hi && $7 == "us" && $8 == "lower" }
		END { exit !found }' "$1"
}

# build_wis: tlb_flush2_threads in $T/wis; 0, or 1 after a skip or not_ok.
build_wis() {
	if [ ! -d "$TP/will-it-scale" ]; then
		skip "will-it-scale: no $TP/will-it-scale"
		return 1
	fi
	cp -r "$TP/will-it-scale" "$T/wis" && chmod -R u+w "$T/wis" || { not_ok "will-it-scale copied into \$T"; return 1; }
	make -C "$T/wis" tlb_flush2_threads >"$T/wis.make" 2>&1 && return 0
	if grep -q 'hwloc' "$T/wis.make"; then
		skip "will-it-scale: no libhwloc to build it with (libhwloc-dev)"
	else
		not_ok "will-it-scale: make tlb_flush2_threads"
		tail -5 "$T/wis.make" | sed 's/^/#   /'
	fi
	return 1
}

# check_wis: a 2-thread run of 2 measured seconds, parsed and read by awk.
check_wis() {
	(cd "$T/wis" && ./tlb_flush2_threads -t 2 -s 2) >"$T/wis.out" 2>"$T/wis.err"
	"$PF" will-it-scale "$T/wis.out" -- ./tlb_flush2_threads -t 2 -s 2 >"$T/wis.pf" 2>&1 ||
		{ not_ok "parse_file will-it-scale on a real run"; sed 's/^/#   /' "$T/wis.pf" "$T/wis.out"; return; }
	ok "parse_file will-it-scale reads a real tlb_flush2_threads -t 2 -s 2"
	# the tool's own: its average, that over 2 threads, its measured seconds
	# shellcheck disable=SC2046 # awk prints the words
	set -- $(awk -F'[: ]' '/^measurement$/ { m = 1; next }
		m && /^min:/ { n++; s += $6; if (n == 1 || $6 < lo) lo = $6; if ($6 > hi) hi = $6 }
		/^average:/ { avg = $2 }
		END { printf "%d %d %d %.17g %d %d %d\n", avg, int(avg / 2), n, s / (n ? n : 1), lo, hi, int(s / (n ? n : 1)) }' \
		"$T/wis.out")
	[ "$3" -eq 2 ] && [ "$7" -eq "$1" ] && ok "awk: 2 measured seconds, their integer mean $7 is the average: line's" ||
		not_ok "awk: $3 measured seconds of mean $7, average: $1"
	grep -qx "metric ops_per_sec $1 ops/s higher" "$T/wis.pf" && ok "ops_per_sec $1 is the average: line's" ||
		{ not_ok "ops_per_sec is not the average: line's $1"; sed 's/^/#   /' "$T/wis.pf"; }
	grep -qx "metric per_thread_ops $2 ops/s higher" "$T/wis.pf" && ok "per_thread_ops $2 is int($1 / 2)" ||
		{ not_ok "per_thread_ops is not int($1 / 2) = $2"; sed 's/^/#   /' "$T/wis.pf"; }
	awk -v c="$3" -v m="$4" -v lo="$5" -v hi="$6" '$1 == "dist" && $2 == "ops_per_sec_each_s" {
		d = $4 - m; found = $3 == c && d * d <= 1e-24 * m * m && $5 == lo && $6 == hi }
		END { exit !found }' "$T/wis.pf" &&
		ok "ops_per_sec_each_s: the $3 measured seconds (mean $4, min $5, max $6)" ||
		{ not_ok "ops_per_sec_each_s is not the measured seconds ($3, $4, $5, $6)"; sed 's/^/#   /' "$T/wis.pf"; }
}

# build_thp: thpscale in $T and its work file; 0, or 1 after a skip or not_ok.
build_thp() {
	if [ ! -d "$TP/mmtests-thpscale" ]; then
		skip "thpscale: no $TP/mmtests-thpscale"
		return 1
	fi
	if ! $CC -O2 -o "$T/thpscale" "$TP/mmtests-thpscale/thpscale.c" -lpthread -lnuma >"$T/thp.make" 2>&1; then
		if grep -q 'numa' "$T/thp.make"; then
			skip "thpscale: no libnuma to build it with (libnuma-dev)"
		else
			not_ok "thpscale built"
			tail -5 "$T/thp.make" | sed 's/^/#   /'
		fi
		return 1
	fi
	# MAPSIZE and 16 MiB more, as mmtests' thpscale-bench makes it
	head -c $(((64 + 16) << 20)) /dev/urandom >"$T/workfile"
}

# check_thp MADV: a 2-thread run over 64 MiB (4 MiB a fault: 16 faults),
# parsed and read by awk, kind by kind.
check_thp() {
	"$T/thpscale" 2 67108864 "$T/workfile" "$1" >"$T/thp.out" 2>&1
	"$PF" thpscale "$T/thp.out" -- ./thpscale 2 67108864 "$T/workfile" "$1" >"$T/thp.pf" 2>&1 ||
		{ not_ok "parse_file thpscale on a real run (madvise $1)"; sed 's/^/#   /' "$T/thp.pf"; return; }
	for kind in base huge both; do
		# shellcheck disable=SC2046 # awk prints the words
		set -- $(awk -v k="$kind" '$1 == "fault" && (k == "both" || $3 == k) {
			n++; s += $4; if (n == 1 || $4 < lo) lo = $4; if ($4 > hi) hi = $4 }
			END { printf "%d %.17g %d %d\n", n, s / (n ? n : 1), lo, hi }' "$T/thp.out")
		if [ "$1" -eq 0 ]; then
			grep -q "^dist fault-$kind-2 " "$T/thp.pf" && not_ok "fault-$kind-2 without a $kind fault" ||
				ok "no $kind fault, no fault-$kind-2"
		elif same "$T/thp.pf" "fault-$kind-2" "$@"; then
			ok "fault-$kind-2: $1 faults, mean $2, min $3, max $4 us as awk reads them"
		else
			not_ok "fault-$kind-2 is not $1 faults, mean $2, min $3, max $4 us"
			sed 's/^/#   /' "$T/thp.pf"
		fi
	done
	[ "$(grep -c '^fault ' "$T/thp.out")" -eq 16 ] && ok "16 fault lines (64 MiB / 2 threads / 2 MiB / 2, each)" ||
		not_ok "$(grep -c '^fault ' "$T/thp.out") fault lines, not 16"
}

if build_wis; then
	check_wis
fi
if build_thp; then
	check_thp 1
	check_thp 0
fi
# shellcheck disable=SC2154 # failed: lib/tap.sh
[ "$failed" -eq 0 ]
