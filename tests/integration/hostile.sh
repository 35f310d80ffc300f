#!/bin/sh
# Integration test: `perfdb import` of hostile perf.data files, whose memory
# and time must follow what the file holds, not what it declares. Each file
# is written by tests/tools/hostile (sparse where it is zeros):
#   ids         65,536 attrs each declaring 2^24 ids at one offset of an
#               8 GiB sparse file (the reader kept 128 MiB per attr: 7.2 GB
#               before failing)
#   ids-shared  65,536 attrs whose ids sections are the same 8 bytes
#   ids-many    4 attrs of 2^20 disjoint ids each (more than the reader keeps)
#   cmdline     a 64 MiB CMDLINE section of 16M empty arguments (a heap
#               block each: ~700 MB)
#   event_desc  a 64 MiB EVENT_DESC section of 2.8M nameless events
#   attrs       65,536 zeroed attrs of 4,096 bytes (a 256 MiB table that was
#               read whole), and 65,537 attrs of 144 bytes (an exact multiple
#               past the count limit, once "not a multiple of 144")
#   mmaps       one process with 40,000 mmaps and as many samples (the maps
#               were copied and re-sorted per insert: 45 s)
#   mmaps-chain 100,000 mmaps in the order that made the treap of maps a
#               chain when its priorities had a fixed seed (20,000: 5 s
#               against 0.06 s; 10^5 and more: a stack overflow)
#   forks       one process with 20,000 mmaps forked 20,000 times, a sample
#               in each child (every fork copied every map: 3.7 GB and
#               out of memory under a 4 GB cap, after 42 s)
#   fifo-mmap   an mmap naming a FIFO, with a sample in it (open(2) of it
#               hung forever)
#   fifo-cache  an mmap of a missing file whose build id's entry in the
#               build-id cache ($PERF_BUILDID_DIR) is a FIFO
#   fifo-input  a FIFO with no writer given as the file to import
#   cpu-far     samples and a LOST record on CPU 2^29-1, NRCPUS saying 2^29
#               (the per-CPU times of lost records: 4 GiB), and CPU 4e9
#               without NRCPUS; then sched on a session saying 2^29 CPUs,
#               and hitm on a memory sample of CPU 2^29-1
# Each import runs under timeout, with its peak RSS measured (/usr/bin/time)
# and, outside ASan, its address space capped (prlimit), into a database that
# holds one good session. Refused files: exit 2, the one line
# "perfdb import: FILE: offset N: what" with the offset expected, and the database
# byte-for-byte as before. Accepted ones: exit 0 within the bounds.
# Prints TAP lines. Run from the repository root.
# Env: PERFDB (default $PWD/build/perfdb), PERFDB_BUILD (default build).
. "$(dirname "$0")/lib/setup.sh"
H=$(pwd)/$B/tests/tools/hostile
finish() { echo "1..${n:?}"; [ "${failed:?}" -eq 0 ]; exit $?; }

[ -x "$H" ] || make -s BUILD="$B" "$B/tests/tools/hostile" >&2
for tool in sqlite3 timeout; do
	command -v $tool >/dev/null 2>&1 || { skip "$tool is not installed"; finish; }
done
TIME=/usr/bin/time
[ -x $TIME ] || TIME=
# ASan reserves terabytes of address space and doubles the heap: no cap,
# looser bounds
SCALE=1 CAP="prlimit --as=4000000000"
case "$PERFDB" in *asan*) SCALE=4 CAP= ;; esac
command -v prlimit >/dev/null 2>&1 || CAP=

DB=$T/db.db
"$H" mmaps "$T/good.data" 10 && "$PERFDB" import -q -o "$DB" "$T/good.data" >/dev/null ||
	{ not_ok "the good session imports"; finish; }
cp "$DB" "$T/before.db"

# measure NAME MAX_S ARGS...: perfdb ARGS under timeout MAX_S and the cap;
# sets rc, err (stderr), rss (KB, or 0 when unmeasured), secs.
measure() {
	_name=$1 _max=$2
	shift 2
	_t0=$(date +%s)
	if [ -n "$TIME" ]; then
		# shellcheck disable=SC2086
		timeout "$_max" $TIME -f %M -o "$T/$_name.rss" $CAP "$PERFDB" "$@" \
			>"$T/$_name.out" 2>"$T/$_name.err"
	else
		# shellcheck disable=SC2086
		timeout "$_max" $CAP "$PERFDB" "$@" >"$T/$_name.out" 2>"$T/$_name.err"
	fi
	rc=$?
	secs=$(($(date +%s) - _t0))
	rss=$(tail -1 "$T/$_name.rss" 2>/dev/null | grep -E '^[0-9]+$' || echo 0)
	err=$(cat "$T/$_name.err")
}

# run NAME FILE MAX_MB MAX_S: imports FILE into $DB under the bounds.
run() {
	measure "$1" "$4" import -q -o "$DB" "$2"
}

# within NAME MAX_MB MAX_S: ok when rss and time stayed in the bounds.
within() {
	if [ "$rc" -eq 124 ]; then
		not_ok "$1: within $3 s (killed by timeout)"
	elif [ "$rss" -gt $(($2 * 1024 * SCALE)) ]; then
		not_ok "$1: peak RSS $((rss / 1024)) MB is over $(($2 * SCALE)) MB"
	else
		ok "$1: peak RSS $((rss / 1024)) MB (bound $(($2 * SCALE)) MB), ${secs} s (bound $3 s)"
	fi
}

# refused NAME FILE MAX_MB MAX_S OFFSET TEXT: the import fails as it should.
refused() {
	run "$1" "$2" "$3" "$4"
	within "$1" "$3" "$4"
	_lines=$(wc -l <"$T/$1.err")
	case "$err" in
	"perfdb import: $2: offset $5: "*"$6"*)
		if [ "$rc" -eq 2 ] && [ "$_lines" -eq 1 ]; then
			ok "$1: exit 2, one line: ${err#perfdb import: "$2": }"
		else
			not_ok "$1: exit $rc, $_lines lines: $err"
		fi ;;
	*) not_ok "$1: exit $rc, expected 'offset $5: ...$6...', got: $err" ;;
	esac
	if cmp -s "$DB" "$T/before.db" && [ ! -e "$DB-journal" ] && [ ! -e "$DB-wal" ]; then
		ok "$1: the database is as it was"
	else
		not_ok "$1: the database changed"
		cp "$T/before.db" "$DB"
	fi
}

# accepted NAME FILE MAX_MB MAX_S: the import succeeds within the bounds.
accepted() {
	run "$1" "$2" "$3" "$4"
	within "$1" "$3" "$4"
	if [ "$rc" -eq 0 ]; then ok "$1: exit 0"; else not_ok "$1: exit $rc: $err"; fi
}

# last_session SQL: the value of SQL for the session imported last.
last_session() {
	sqlite3 "$DB" "$(echo "$1" | sed 's/@S/(SELECT max(id) FROM session)/g')"
}

"$H" ids "$T/ids.data" 8192 &&
	refused ids "$T/ids.data" 64 30 168 "attrs declare more than 2097152 sample ids together"
"$H" ids-shared "$T/ids-shared.data" &&
	refused ids-shared "$T/ids-shared.data" 64 30 248 "overlaps another attr's"
"$H" ids-many "$T/ids-many.data" &&
	refused ids-many "$T/ids-many.data" 64 30 328 "attrs declare more than 2097152 sample ids together"
"$H" cmdline "$T/cmdline.data" 64 &&
	refused cmdline "$T/cmdline.data" 192 30 208 "cmdline: 16777215 arguments are more than the 1048576 perfdb reads"
"$H" event_desc "$T/event_desc.data" 64 &&
	refused event_desc "$T/event_desc.data" 192 30 208 "event_desc: 2796202 events are more than the 65536 perfdb reads"
"$H" attrs "$T/attrs-past.data" 65537 144 &&
	refused attrs-past-limit "$T/attrs-past.data" 64 30 32 "attrs section holds 65537 attrs, more than the 65536 perfdb reads"
"$H" attrs "$T/attrs.data" 65536 4096 &&
	accepted attrs-4096 "$T/attrs.data" 128 60
cp "$DB" "$T/before.db"

"$H" mmaps "$T/mmaps.data" 40000 && accepted mmaps "$T/mmaps.data" 128 20
check "mmaps: 40,000 maps stored, every sample in /nonexistent/h.so" test \
	"$(last_session "SELECT (SELECT count(*) FROM mmap WHERE session_id = @S) || ' ' ||
		(SELECT count(*) FROM sample s JOIN symbol y ON y.id = s.symbol_id
		 JOIN dso d ON d.id = y.dso_id
		 WHERE s.session_id = @S AND d.path = '/nonexistent/h.so')")" = "40000 40000"

"$H" mmaps-chain "$T/mmaps-chain.data" 100000 && accepted mmaps-chain "$T/mmaps-chain.data" 128 20
check "mmaps-chain: 100,000 maps stored, every sample in /nonexistent/h.so" test \
	"$(last_session "SELECT (SELECT count(*) FROM mmap WHERE session_id = @S) || ' ' ||
		(SELECT count(*) FROM sample s JOIN symbol y ON y.id = s.symbol_id
		 JOIN dso d ON d.id = y.dso_id
		 WHERE s.session_id = @S AND d.path = '/nonexistent/h.so')")" = "100000 100000"

"$H" forks "$T/forks.data" 20000 && accepted forks "$T/forks.data" 128 20
check "forks: each child's sample is in the map it inherited" test \
	"$(last_session "SELECT count(*) FROM sample s JOIN symbol y ON y.id = s.symbol_id
		JOIN dso d ON d.id = y.dso_id
		WHERE s.session_id = @S AND d.path = '/nonexistent/h.so'")" = 20000

mkfifo "$T/fifo" || { not_ok "mkfifo"; finish; }
"$H" mmap-of "$T/fifo-mmap.data" "$T/fifo" && accepted fifo-mmap "$T/fifo-mmap.data" 64 20
check "fifo-mmap: the FIFO's dso says why it has no symbols" test \
	"$(last_session "SELECT symbols FROM dso WHERE session_id = @S AND path = '$T/fifo'")" = \
	"elf: $T/fifo: not a regular file"

BID=ab0123456789abcdef0123456789abcdef012345
mkdir -p "$T/cache/.build-id/ab/${BID#ab}" && mkfifo "$T/cache/.build-id/ab/${BID#ab}/elf" ||
	{ not_ok "build-id cache FIFO"; finish; }
PERF_BUILDID_DIR=$T/cache
export PERF_BUILDID_DIR
"$H" mmap-of "$T/fifo-cache.data" /nonexistent/lib.so $BID &&
	accepted fifo-cache "$T/fifo-cache.data" 64 20
unset PERF_BUILDID_DIR
check "fifo-cache: the dso is left without symbols" test \
	"$(last_session "SELECT symbols FROM dso WHERE session_id = @S AND path = '/nonexistent/lib.so'")" = \
	"elf: /nonexistent/lib.so: No such file or directory"

cp "$DB" "$T/before.db"
run fifo-input "$T/fifo" 64 20
within fifo-input 64 20
case "$err" in
"perfdb import: $T/fifo: a FIFO with no writer"*) check "fifo-input: exit 2, one line: $err" test "$rc" -eq 2 ;;
*) not_ok "fifo-input: exit $rc: $err" ;;
esac
check "fifo-input: the database is as it was" cmp -s "$DB" "$T/before.db"

# A CPU number far past any machine's, in a sample and a LOST record's
# trailer (the per-CPU times lost records are dated from were once sized
# by it: 4 GiB for CPU 2^29), with the NRCPUS feature saying 2^29 CPUs
# and without it.
"$H" cpu-far "$T/cpu-far.data" 536870911 536870912 &&
	accepted cpu-far "$T/cpu-far.data" 64 20
check "cpu-far: the sample on CPU 536870911 and its LOST record of 5 are stored" test \
	"$(last_session "SELECT (SELECT group_concat(cpu) FROM (SELECT cpu FROM sample
		WHERE session_id = @S ORDER BY cpu)) || ' ' || nr_cpus_avail || ' ' ||
		(SELECT n || ':' || cpu FROM lost WHERE session_id = @S)
		FROM session WHERE id = @S")" = "1,536870911 536870912 5:536870911"
"$H" cpu-far "$T/cpu-far0.data" 4000000000 0 &&
	accepted cpu-far-no-nrcpus "$T/cpu-far0.data" 64 20

# A database whose session says 2^29 CPUs online (a database is also
# what another machine pushed): the analyzers size nothing by it.
if "$PERFDB" import -q -o "$T/tp.db" "$LIB/../../fuzz/corpus/perf_data/here-tracepoints.data" &&
	sqlite3 "$T/tp.db" "UPDATE session SET nr_cpus_online = 536870912, nr_cpus_avail = 536870912"; then
	measure sched-cpus 20 sched "$T/tp.db"
	within "sched on a session of 2^29 CPUs" 64 20
	check "sched on a session of 2^29 CPUs: exit 0, CPU 0's 5 switches" \
		sh -c "[ $rc -eq 0 ] && grep -qE '^ +0 +5 ' '$T/sched-cpus.out'"
else
	not_ok "the tracepoint session imports"
fi
# A memory sample on CPU 2^29-1 (hitm keeps CPU sets as bitsets: 1.9 GB
# and 29 s for this one sample before CPUs past 65535 became unknown).
[ -x "$B/tests/test_hitm" ] || make -s BUILD="$B" "$B/tests/test_hitm" >&2
mkdir -p "$T/fx" && "$B/tests/test_hitm" --write-fixtures "$T/fx" >/dev/null 2>&1
if "$PERFDB" import -q -o "$T/c2c.db" "$T/fx/intel.data" &&
	sqlite3 "$T/c2c.db" "UPDATE sample SET cpu = 536870911
		WHERE id = (SELECT min(sample_id) FROM mem_sample)"; then
	measure hitm-cpu 20 hitm "$T/c2c.db"
	within "hitm with a memory sample on CPU 536870911" 64 20
	check "hitm with a memory sample on CPU 536870911: exit 0" test "$rc" -eq 0
else
	not_ok "the c2c fixture imports"
fi
finish
