#!/bin/sh
# perfdb import of the real-world perf.data files in $PERFDB_SHARED/perfdata
# (see its SOURCES.md), against perf itself. For every file:
#   - perfdb import into a fresh database exits 0, and perfdb sessions
#     --format json is valid;
#   - where perf 6.1 reads the file: per-event sample counts equal
#     `perf script -F event`'s; session metadata equals perf report
#     --header-only's; every sample's pid/tid, cpu, time (and tracepoint
#     fields) equal `perf script -F pid,tid,cpu,time,event,trace`'s; memory
#     samples' addr, data_src, weight, ins_lat, phys_addr equal perf
#     script's; mem_sample rows exist only for samples with memory
#     information (not for --call-graph dwarf's empty ADDR|DATA_SRC);
#     frame-pointer callchains have perf's depth; the pipe-mode file equals
#     perf script's default output too;
#   - the zstd file: copies of its stream, cut after every 10 records and
#     compressed again as a never-ended stream in one COMPRESSED record
#     (perf's own streams end where the decompressor's output buffer
#     happens to be full now and then): perf script's sample counts;
#   - the perf 6.8 c2c file, which perf 6.1 rejects (attr.size 136): the
#     numbers SOURCES.md gives (1521 ibs_op// samples, 1090 of them with the
#     all-N/A data_src 0x1e05080021), and all of the above on a copy whose
#     attrs are rewritten to perf 6.1's attr.size 128.
# Prints TAP lines. Run from the repository root: sh tests/integration/shared_perfdata.sh
# Env: PERFDB (default ./build/perfdb), PERFDB_BUILD (default build),
# PERFDB_SHARED (default ../shared).
. "$(dirname "$0")/lib/setup.sh"
SHARED=${PERFDB_SHARED:-$(pwd)/../shared}
D=$SHARED/perfdata
trap 'exit 130' INT TERM

if [ ! -x "$PERFDB" ]; then
	not_ok "perfdb binary $PERFDB exists (make -s first)"
	exit 1
fi
set -- "$D"/*.data
if [ ! -e "$1" ]; then
	skip "no perf.data files in $D"
	exit 0
fi
check "$# perf.data files in $D" [ "$#" -ge 9 ]
have_perf=1
if ! command -v perf >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	have_perf=0
	echo "# perf or python3 is not installed: import only"
fi

# has_bit DB BIT: some event of session 1 has sample_type bit BIT
has_bit() {
	[ "$(sqlite3 "$1" "SELECT count(*) FROM event WHERE session_id = 1 AND sample_type >> $2 & 1")" -gt 0 ]
}

IBS_NA=$((0x1e05080021))	# 128933429281: OP/LVL/SNOOP/LOCK/TLB N/A, lvl_num N/A
for f in "$@"; do
	b=$(basename "$f" .data)
	db=$T/$b.db
	start=$(date +%s)
	if "$PERFDB" import -q -o "$db" "$f" >"$T/imp.out" 2>"$T/imp.err"; then
		ok "$b: perfdb import exits 0"
	else
		not_ok "$b: perfdb import exits 0 (got $?: $(head -1 "$T/imp.err"))"
		continue
	fi
	if "$PERFDB" sessions "$db" --format json >"$db.json" 2>"$T/ses.err"; then
		oracle sessions-json "$db.json" "$b"
	else
		not_ok "$b: perfdb sessions --format json exits 0 ($(head -1 "$T/ses.err"))"
		continue
	fi
	[ $have_perf -eq 1 ] || continue

	# the file perf reads: the file, or for perf >= 6.3's attr.size 136
	# a copy with perf 6.1's attr.size 128
	pf=$f
	if ! perf script -i "$f" -F event >"$T/ev" 2>"$T/ps.err"; then
		case $b in
		*perf6.8-c2c-amd_ibs_op*)
			echo "# $b: perf 6.1 cannot read it: $(grep -v '^#' "$T/ps.err" | head -1)"
			oracle sql-eq "$db" "$b: 1521 samples (SOURCES.md)" 1521 \
				"SELECT nr_samples FROM session WHERE id = 1"
			oracle sql-eq "$db" "$b: all of them ibs_op// (SOURCES.md)" 1521 \
				"SELECT nr_samples FROM event WHERE session_id = 1 AND name = 'ibs_op//'"
			oracle sql-eq "$db" "$b: 1521 mem_sample rows" 1521 "SELECT count(*) FROM mem_sample"
			oracle sql-eq "$db" "$b: 1090 of them with data_src 0x1e05080021 (SOURCES.md: c2c's 'Unable to parse data source')" 1090 \
				"SELECT count(*) FROM mem_sample WHERE data_src = $IBS_NA"
			oracle sql-eq "$db" "$b: 330 loads (SOURCES.md: c2c report)" 330 \
				"SELECT count(*) FROM mem_sample WHERE mem_op & 2"
			oracle sql-eq "$db" "$b: 101 stores (SOURCES.md: c2c report)" 101 \
				"SELECT count(*) FROM mem_sample WHERE mem_op & 4"
			oracle sql-eq "$db" "$b: perf 6.8.12 on 6.8.0-124-generic x86_64 (SOURCES.md)" \
				"6.8.12 6.8.0-124-generic x86_64" \
				"SELECT perf_version || ' ' || os_release || ' ' || arch FROM session WHERE id = 1"
			pf=$T/$b-attr128.data
			if python3 "$LIB/perfdb_oracle.py" fix-attr-size "$f" "$pf" >"$T/fix.out" 2>&1 &&
				perf script -i "$pf" -F event >"$T/ev" 2>"$T/ps.err"; then
				ok "$b: perf 6.1 reads a copy with attr.size 128"
			else
				not_ok "$b: perf 6.1 reads a copy with attr.size 128 ($(cat "$T/fix.out" "$T/ps.err" | grep -v '^#' | head -1))"
				continue
			fi
			;;
		*)
			not_ok "$b: perf script reads it ($(grep -v '^#' "$T/ps.err" | head -1))"
			continue
			;;
		esac
	fi
	oracle counts "$db.json" 1 "$T/ev" "$b"
	perf report --header-only -i "$pf" >"$T/hdr" 2>/dev/null
	if grep -q '^# perf version' "$T/hdr"; then
		oracle header "$db" 1 "$T/hdr" "$b"
	else
		oracle sql-eq "$db" "$b: no header features (pipe mode without them): perf_version and os_release NULL" \
			0 "SELECT count(*) FROM session WHERE perf_version IS NOT NULL OR os_release IS NOT NULL"
	fi

	cols=$(python3 "$LIB/perfdb_oracle.py" cols "$db" 1)
	if perf script -i "$pf" -F "$cols,event,trace" >"$T/tr" 2>/dev/null; then
		oracle fields "$db" 1 "$T/tr" "$b" --cols "$cols" --trace
	else
		not_ok "$b: perf script -F $cols,event,trace runs"
	fi

	# memory samples: every sample of a memory event has its mem_sample row
	# with perf's values; --call-graph dwarf (STACK_USER) sets ADDR|DATA_SRC
	# too, with nothing in them: no rows for those
	if has_bit "$db" 13 && { has_bit "$db" 3 || has_bit "$db" 15; }; then
		if perf script -i "$pf" -F event,addr,data_src >"$T/mem" 2>/dev/null; then
			oracle memrows "$db" 1 "$T/mem" "$b"
		else
			not_ok "$b: perf script -F event,addr,data_src runs"
		fi
	elif has_bit "$db" 15; then
		mem=$(python3 "$LIB/perfdb_oracle.py" memcols "$db" 1)
		if [ -z "$mem" ]; then
			not_ok "$b: DATA_SRC samples have mem_sample rows"
		elif perf script -i "$pf" -F "$cols,event,$mem" >"$T/mf" 2>/dev/null; then
			oracle fields "$db" 1 "$T/mf" "$b" --cols "$cols" --mem "$mem" --no-ids
		else
			not_ok "$b: perf script -F $cols,event,$mem runs"
		fi
	fi

	# frame-pointer callchains (not --call-graph dwarf: perfdb does not
	# unwind stacks, perf does); perf script prints at most
	# kernel.perf_event_max_stack frames unless told otherwise
	if has_bit "$db" 5 && ! has_bit "$db" 13; then
		if perf script --max-stack 65535 -i "$pf" -F "$cols,event,ip,sym,symoff,dso" >"$T/cc" 2>/dev/null; then
			oracle chains "$db" 1 "$T/cc" "$b" --cols "$cols"
		else
			not_ok "$b: perf script -F ip,sym runs"
		fi
	fi

	# zstd: a reader must drain the decompressor after the last COMPRESSED
	# record, whatever its buffer holds at that point: copies of the
	# stream cut after 10, 20, ... records, never ended, each in one record
	if grep -q '^# compressed : Zstd' "$T/hdr"; then
		if command -v zstd >/dev/null 2>&1; then
			mkdir -p "$T/cuts"
			oracle zstd-cuts "$f" "$PERFDB" "$T/cuts" "$b" 10
		else
			skip "$b: copies of its zstd stream: no zstd program"
		fi
	fi

	# pipe mode: perf script's default output too
	if [ "$(od -An -tu8 -j8 -N8 "$f" | tr -d ' ')" = 16 ]; then
		if perf script -i "$pf" >"$T/def" 2>/dev/null; then
			oracle fields "$db" 1 "$T/def" "$b (default output)" --default
		else
			not_ok "$b: perf script (default output) runs"
		fi
	fi
	echo "# $b took $(($(date +%s) - start)) s"
	rm -f "$db" "$T/$b-attr128.data"
done
[ "$failed" -eq 0 ]
