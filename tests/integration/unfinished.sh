#!/bin/sh
# Integration test of `perfdb import` on a perf.data that perf record never
# finished (killed: the header's data size is still 0 and there are no
# feature sections after the records). Made from a finished recording
# (system-wide sched_switch around yield): a copy with data size 0 and the
# feature sections cut off imports with a warning, every sample of the
# original (perf script's count), the samples' fields as perf script prints
# them for the original, and a data_quality row; a copy also cut inside its
# last record imports without that record and says so; a copy with nothing
# after the header imports as an empty session. (perf script itself reads
# none of these.) Prints TAP lines. Run from the repository root.
# Env: PERFDB (default $PWD/build/perfdb), PERFDB_BUILD (default build).
. "$(dirname "$0")/lib/setup.sh"
W=$(pwd)/$B/workloads
finish() { echo "1..${n:?}"; [ "${failed:?}" -eq 0 ]; exit $?; }

for tool in perf python3 sqlite3; do
	command -v $tool >/dev/null 2>&1 || { skip "$tool is not installed"; finish; }
done
[ -x "$W/yield" ] || make -s BUILD="$B" "$B/workloads/yield" >&2
if ! perf record -q -a -e sched:sched_switch -o "$T/full.data" -- "$W/yield" --seconds 0.2 \
	>/dev/null 2>"$T/rec.err"; then
	skip "perf record -a of sched_switch fails here: $(head -1 "$T/rec.err")"
	finish
fi

# unfinish IN OUT [CUT]: OUT = IN with data size 0 and only the bytes up to
# the data's end, less CUT more bytes.
unfinish() {
	python3 - "$1" "$2" "${3:-0}" <<'PY'
import struct, sys
src, dst, cut = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = bytearray(open(src, "rb").read())
off, size = struct.unpack_from("<QQ", b, 40)
struct.pack_into("<Q", b, 48, 0)
open(dst, "wb").write(b[:off + size - cut])
PY
}

samples() { q "$1" "SELECT coalesce(sum(nr_samples), 0) FROM session"; }
q() { sqlite3 "$1" "$2"; }
want=$(perf script -i "$T/full.data" -F event 2>/dev/null | wc -l)

unfinish "$T/full.data" "$T/u.data"
"$PERFDB" import -q -o "$T/u.db" "$T/u.data" >"$T/out" 2>"$T/err"
rc=$?
check "an unfinished file imports (exit $rc)" test "$rc" = 0
check "with one warning saying perf record did not finish it" \
	sh -c "grep -c 'did not finish this file' '$T/err' | grep -qx 1"
check "every sample of the original ($want, as perf script counts them)" test "$(samples "$T/u.db")" = "$want"
perf script -i "$T/full.data" -F pid,tid,cpu,time 2>/dev/null |
	tr -d '[]:' | awk '{ printf "%s %d %s\n", $1, $2, $3 }' | sort >"$T/perf.rows"
q "$T/u.db" "SELECT t.pid || '/' || t.tid, s.cpu, printf('%d.%06d', s.time / 1000000000, s.time / 1000 % 1000000)
	FROM sample s JOIN thread t ON t.id = s.thread_id" | tr '|' ' ' | sort >"$T/db.rows"
check "their pid/tid, cpu and time equal perf script's on the original" cmp -s "$T/perf.rows" "$T/db.rows"
check "a data_quality row says the file is unfinished" \
	test "$(q "$T/u.db" "SELECT count(*) FROM data_quality WHERE what LIKE 'unfinished file%'")" = 1

unfinish "$T/full.data" "$T/cut.data" 3
"$PERFDB" import -q -o "$T/cut.db" "$T/cut.data" >"$T/out" 2>"$T/err"
rc=$?
check "cut inside its last record, it imports (exit $rc)" test "$rc" = 0
got=$(samples "$T/cut.db")
check "without that record ($got of $want samples)" sh -c "[ '$got' -ge $((want - 1)) ] && [ '$got' -le '$want' ]"
check "and says how many bytes it left out" grep -q 'the file ends inside a record: [0-9]* bytes left out' "$T/err"

python3 -c 'import struct, sys; b = open(sys.argv[1], "rb").read(); off = struct.unpack_from("<Q", b, 40)[0]; open(sys.argv[2], "wb").write(b[:off])' \
	"$T/u.data" "$T/empty.data"
"$PERFDB" import -q -o "$T/empty.db" "$T/empty.data" >"$T/out" 2>"$T/err"
rc=$?
check "with no records at all it imports as an empty session (exit $rc)" \
	sh -c "[ $rc = 0 ] && [ \"\$(sqlite3 '$T/empty.db' 'SELECT count(*) FROM session')\" = 1 ] && [ '$(samples "$T/empty.db")' = 0 ]"
finish
