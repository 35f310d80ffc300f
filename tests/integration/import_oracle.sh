#!/bin/sh
# perfdb import against perf itself, on recordings made here: for each
# recording, perfdb's per-event sample counts equal `perf script -F event`'s,
# and every sample's pid/tid, cpu, time (at the microsecond perf prints) and
# tracepoint fields, formatted as the kernel's print format does, equal
# `perf script -F pid,tid,cpu,time,event,trace` (see lib/perfdb_oracle.py).
#   a  tracepoints of the sched/tlb/c2c recipes, -a -m 1024, around tlbflush,
#      yield and sleep
#   b  the same with -g: callchain depth and frame symbols against
#      `perf script -F ...,ip,sym,symoff,dso`
#   c  the same with -z (zstd COMPRESSED records)
#   d  the same in pipe mode (perf record -o -), imported from the file and
#      from stdin (`perfdb import -o DB -`)
#   e  cpu-clock -F 999 -g around falseshare: user-space callchains, each
#      sample's symbol and innermost frame against perf's first frame; and a
#      copy with one user frame set to 0xffffffffffffffff, a callchain perf
#      drops as corrupt
#   f  cpu-clock -F 999 -g around tests/programs/cxx_work.cc (when a C++
#      compiler is installed): C++ frames named as perf names them
#      (demangled, without parameters)
#   g  cpu-clock -F 999 --call-graph dwarf around falseshare: user stacks
#      unwound from the registers and stack copies against perf's own
#      unwinding (`perf script --no-inline`: perfdb does not add perf's
#      inline frames)
# Also: a file imported twice gives two sessions with equal counts, and
# `perfdb sessions --format json` is valid JSON. ipi_send_cpumask, which perf
# 6.1 cannot print, is checked for plausible target CPUs instead.
# Prints TAP lines. Run from the repository root: sh tests/integration/import_oracle.sh
# Env: PERFDB (default ./build/perfdb), PERFDB_BUILD (default build);
# for debugging: IMPORT_ORACLE_PARTS (default "a b c d e f g") picks recordings,
# IMPORT_ORACLE_KEEP=DIR keeps their perf.data files there.
. "$(dirname "$0")/lib/setup.sh"
W=$(cd "$B" 2>/dev/null && pwd)/workloads
trap 'exit 130' INT TERM
PARTS=${IMPORT_ORACLE_PARTS:-a b c d e f g}
KEEP=${IMPORT_ORACLE_KEEP:-}
want() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
keep() { [ -z "$KEEP" ] || { mkdir -p "$KEEP" && cp "$@" "$KEEP/"; }; }
NCPU=$(getconf _NPROCESSORS_ONLN)

if ! command -v perf >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	skip "import oracle: perf or python3 is not installed"
	exit 0
fi
for w in tlbflush yield falseshare; do
	[ -x "$W/$w" ] || make -s BUILD="$B" "$B/workloads/$w" >&2 || echo "# cannot build $W/$w"
done
if [ ! -x "$PERFDB" ]; then
	not_ok "perfdb binary $PERFDB exists (make -s first)"
	exit 1
fi
if ! perf record -q -a -e sched:sched_switch -o "$T/probe.data" -- true >"$T/probe.err" 2>&1; then
	skip "import oracle: perf record -a of tracepoints fails here: $(head -1 "$T/probe.err")"
	exit 0
fi

# The recipes' tracepoints that this kernel has (perf list), in recipe order.
WANT="sched:sched_switch sched:sched_waking sched:sched_wakeup sched:sched_wakeup_new
sched:sched_migrate_task sched:sched_process_fork sched:sched_process_exec
sched:sched_process_exit tlb:tlb_flush ipi:ipi_send_cpu ipi:ipi_send_cpumask
csd:csd_queue_cpu csd:csd_function_entry csd:csd_function_exit
irq_vectors:call_function_entry irq_vectors:call_function_exit
irq_vectors:call_function_single_entry irq_vectors:call_function_single_exit
mmap_lock:mmap_lock_start_locking mmap_lock:mmap_lock_acquire_returned
mmap_lock:mmap_lock_released mmap:exit_mmap"
perf list --raw-dump tracepoint 2>/dev/null | tr ' ' '\n' >"$T/have"
EV="" missing=""
for e in $WANT; do
	if grep -qx "$e" "$T/have"; then EV=${EV:+$EV,}$e; else missing="$missing $e"; fi
done
[ -z "$missing" ] || echo "# left out, this kernel lacks them:$missing"
case ",$EV," in
*,sched:sched_switch,*) ;;
*) skip "import oracle: no sched:sched_switch tracepoint"; exit 0 ;;
esac

cat >"$T/work.sh" <<EOF
"$W/tlbflush" --seconds 0.2 >/dev/null 2>&1
"$W/yield" --seconds 0.05 >/dev/null 2>&1
sleep 0.05
EOF

# record LABEL FILE PERF-OPTION...: perf record -a of the tracepoints around
# the workload into FILE; with the option "-o -" (pipe mode) perf writes to
# stdout, which goes to FILE.
record() {
	label=$1 file=$2; shift 2
	case " $* " in
	*" -o - "*)
		perf record -q -a -e "$EV" -m 1024 "$@" -- sh "$T/work.sh" >"$file" 2>"$T/rec.err" ;;
	*)
		perf record -q -a -e "$EV" -m 1024 "$@" -o "$file" -- sh "$T/work.sh" \
			>"$T/rec.out" 2>"$T/rec.err" ;;
	esac
	rc=$?
	if [ $rc -eq 0 ] && [ -s "$file" ]; then
		ok "$label: perf record -a -m 1024${*:+ $*} of $(echo "$EV" | tr ',' '\n' | wc -l) tracepoints ($(wc -c <"$file") bytes)"
		return 0
	fi
	not_ok "$label: perf record -a $* exited $rc"
	sed 's/^/#   /' "$T/rec.err" | head -5
	return 1
}

# perf_outputs FILE: FILE.ev (perf script -F event) and FILE.tr (the
# fields); fails when perf script does.
perf_outputs() {
	perf script -i "$1" -F event >"$1.ev" 2>"$T/ps.err" &&
		perf script -i "$1" -F pid,tid,cpu,time,event,trace >"$1.tr" 2>>"$T/ps.err"
	rc=$?
	[ $rc -eq 0 ] || { echo "# perf script -i $1 failed:"; sed 's/^/#   /' "$T/ps.err" | head -5; }
	return $rc
}

# import_db LABEL FILE DB [stdin]: imports FILE (from stdin with the fourth
# argument) into a fresh DB and writes DB.json (perfdb sessions); fails
# (saying so) when either command does.
import_db() {
	label=$1 file=$2 db=$3
	rm -f "$db"
	if [ "${4:-}" = stdin ]; then
		# shellcheck disable=SC2002 # the point is a pipe on stdin
		cat "$file" | "$PERFDB" import -q -o "$db" - >"$T/imp.out" 2>"$T/imp.err"
		rc=$?
		how="cat FILE | perfdb import -o DB -"
	else
		"$PERFDB" import -q -o "$db" "$file" >"$T/imp.out" 2>"$T/imp.err"
		rc=$?
		how="perfdb import -o DB FILE"
	fi
	if [ $rc -ne 0 ]; then
		not_ok "$label: $how exits 0 (got $rc: $(head -1 "$T/imp.err"))"
		return 1
	fi
	ok "$label: $how exits 0"
	sed 's/^/# stderr: /' "$T/imp.err" | head -3
	if ! "$PERFDB" sessions "$db" --format json >"$db.json" 2>"$T/ses.err"; then
		not_ok "$label: perfdb sessions --format json exits 0 ($(head -1 "$T/ses.err"))"
		return 1
	fi
	oracle sessions-json "$db.json" "$label"
}

# import_check LABEL FILE DB [FIELDS-OPTION...]: import_db, then session 1
# against perf's output for FILE (FILE.ev; FILE.tr has the fields $COLS).
COLS=pid,tid,cpu,time
import_check() {
	label=$1 file=$2 db=$3; shift 3
	import_db "$label" "$file" "$db" || return 1
	oracle counts "$db.json" 1 "$file.ev" "$label"
	oracle fields "$db" 1 "$file.tr" "$label" --cols "$COLS" --trace "$@"
	[ "$COLS" = pid,tid,time ] || oracle cpumask "$db" 1 "$NCPU" "$label"
}

# took LABEL: a comment with the seconds since the last one.
last=$(date +%s)
took() { now=$(date +%s); echo "# $1 took $((now - last)) s"; last=$now; }

# --- a: tracepoints ---------------------------------------------------------
if ! want a; then
	:
elif record a "$T/a.data" && perf_outputs "$T/a.data"; then
	import_check a "$T/a.data" "$T/a.db"
	# the same file again, into the same database, with a label
	if "$PERFDB" import -q -o "$T/a.db" -l again "$T/a.data" 2>"$T/imp.err" &&
		"$PERFDB" sessions "$T/a.db" --format json >"$T/a2.json"; then
		oracle sessions-json "$T/a2.json" "a twice"
		oracle same-counts "$T/a2.json" 1 2 a
		check "a: the second session has label 'again', the first none" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["sessions"]
sys.exit(not (len(s) == 2 and s[0]["label"] is None and s[1]["label"] == "again"))' "$T/a2.json"
	else
		not_ok "a: importing the file a second time exits 0 ($(head -1 "$T/imp.err"))"
	fi
	keep "$T/a.data"
	rm -f "$T/a.db" "$T/a.data"*
else
	not_ok "a: no recording, nothing compared"
fi
want a && took a

# --- b: tracepoints with callchains -----------------------------------------
if ! want b; then
	:
elif record b "$T/b.data" -g && perf_outputs "$T/b.data"; then
	import_check b "$T/b.data" "$T/b.db"
	if perf script --max-stack 65535 -i "$T/b.data" -F cpu,time,event,ip,sym,symoff,dso >"$T/b.cc" 2>/dev/null; then
		# other programs on the machine may have garbage user stacks,
		# whose callchains perf drops: part e tests that case on its own;
		# symbols are compared on the workload's own threads, the same on
		# every run
		oracle chains "$T/b.db" 1 "$T/b.cc" b --cols cpu,time --syms --discarded-ok \
			--sym-comms sh,tlbflush,yield,sleep
	else
		not_ok "b: perf script -F ip,sym,symoff,dso runs"
	fi
	keep "$T/b.data"
	rm -f "$T/b.db" "$T/b.data"* "$T/b.cc"
else
	not_ok "b: no recording, nothing compared"
fi
want b && took b

# --- c: zstd compressed -----------------------------------------------------
if ! want c; then
	:
elif record c "$T/c.data" -z && perf_outputs "$T/c.data"; then
	if perf report --header-only -i "$T/c.data" 2>/dev/null | grep -q '^# compressed : Zstd'; then
		ok "c: the recording has COMPRESSED (zstd) records"
	else
		skip "c: perf record -z wrote no COMPRESSED records (perf built without zstd?)"
	fi
	import_check c "$T/c.data" "$T/c.db"
	keep "$T/c.data"
	rm -f "$T/c.db" "$T/c.data"*
else
	not_ok "c: no recording, nothing compared"
fi
want c && took c

# --- d: pipe mode, from the file and from stdin ------------------------------
if ! want d; then
	:
elif record d "$T/d.data" -o - && perf_outputs "$T/d.data"; then
	check "d: the recording is in pipe mode (16-byte header)" \
		[ "$(od -An -tu8 -j8 -N8 "$T/d.data" | tr -d ' ')" = 16 ]
	# perf 6.1 prints a pipe-mode file's tracepoint code pointers as
	# addresses (no kernel symbols for them): compare those
	import_check d "$T/d.data" "$T/d.db" --raw-syms
	# from stdin: the same counts, and the same rows as from the file
	if import_db "d stdin" "$T/d.data" "$T/d-stdin.db" stdin; then
		oracle counts "$T/d-stdin.db.json" 1 "$T/d.data.ev" "d stdin"
		oracle same-db "$T/d.db" "$T/d-stdin.db" "d stdin vs file"
	fi
	keep "$T/d.data"
	rm -f "$T/d.db" "$T/d-stdin.db" "$T/d.data"*
else
	not_ok "d: no recording, nothing compared"
fi
want d && took d

# --- e: cpu-clock profile with user-space callchains -------------------------
if ! want e; then
	:
elif perf record -q -e cpu-clock -F 999 -g -o "$T/e.data" -- "$W/falseshare" --seconds 0.3 \
	>/dev/null 2>"$T/rec.err"; then
	ok "e: perf record -e cpu-clock -F 999 -g around falseshare"
	if perf script -i "$T/e.data" -F event >"$T/e.data.ev" 2>/dev/null &&
		perf script -i "$T/e.data" -F pid,tid,time,event >"$T/e.data.tr" 2>/dev/null &&
		perf script --max-stack 65535 -i "$T/e.data" -F pid,tid,time,event,ip,sym,symoff,dso >"$T/e.cc" 2>/dev/null; then
		COLS=pid,tid,time	# not system-wide: no CPU in the samples
		if import_check e "$T/e.data" "$T/e.db"; then
			oracle chains "$T/e.db" 1 "$T/e.cc" e --cols pid,tid,time --syms
		fi
		# A callchain with a value perf knows as no context marker (a
		# garbage user frame 0xffffffffffffffff): perf drops the callchain.
		if python3 "$LIB/perfdb_oracle.py" corrupt-chain "$T/e.data" "$T/e-bad.data" >"$T/cc.out" 2>&1 &&
			perf script --max-stack 65535 -i "$T/e-bad.data" -F pid,tid,time,event,ip,sym,symoff,dso >"$T/e-bad.cc" 2>/dev/null &&
			"$PERFDB" import -q -o "$T/e-bad.db" "$T/e-bad.data" 2>"$T/imp.err"; then
			cat "$T/cc.out"
			oracle chains "$T/e-bad.db" 1 "$T/e-bad.cc" "e, one user frame 0xffffffffffffffff" --cols pid,tid,time
			check "e: the dropped callchain is counted in data_quality" \
				test "$(sqlite3 "$T/e-bad.db" "SELECT count FROM data_quality WHERE what = 'corrupt callchains dropped'")" = 1
		else
			not_ok "e: a copy with one corrupt callchain imports ($(tail -1 "$T/cc.out") $(head -1 "$T/imp.err"))"
		fi
		keep "$T/e.data"
	else
		not_ok "e: perf script reads the profile"
	fi
else
	not_ok "e: perf record -e cpu-clock -g exits 0 ($(head -1 "$T/rec.err"))"
fi
want e && took e

# --- f: C++ symbols ---------------------------------------------------------
CXX_PROG=$(pwd)/tests/programs/cxx_work.cc
if ! want f; then
	:
elif ! command -v c++ >/dev/null 2>&1; then
	skip "f: no C++ compiler (c++) to build $CXX_PROG"
elif ! c++ -O0 -g -fno-omit-frame-pointer -o "$T/cxxwork" "$CXX_PROG" 2>"$T/cxx.err"; then
	not_ok "f: c++ builds $CXX_PROG ($(head -1 "$T/cxx.err"))"
elif perf record -q -e cpu-clock -F 999 -g -o "$T/f.data" -- "$T/cxxwork" --seconds 0.3 \
	>/dev/null 2>"$T/rec.err"; then
	ok "f: perf record -e cpu-clock -F 999 -g around cxxwork"
	if perf script -i "$T/f.data" -F event >"$T/f.data.ev" 2>/dev/null &&
		perf script -i "$T/f.data" -F pid,tid,time,event >"$T/f.data.tr" 2>/dev/null &&
		perf script --max-stack 65535 -i "$T/f.data" -F pid,tid,time,event,ip,sym,symoff,dso >"$T/f.cc" 2>/dev/null; then
		COLS=pid,tid,time
		if import_check f "$T/f.data" "$T/f.db"; then
			oracle chains "$T/f.db" 1 "$T/f.cc" f --cols pid,tid,time --syms
			# which work:: functions were sampled varies; the names must not
			sqlite3 "$T/f.db" "SELECT DISTINCT y.name FROM stack s JOIN symbol y ON y.id = s.symbol_id
				WHERE y.name LIKE 'work::%'" | sort >"$T/f.db.names"
			sed -n 's/^[[:space:]]*[0-9a-f]* \(work::.*\)+0x[0-9a-f]* (.*$/\1/p' "$T/f.cc" | sort -u >"$T/f.perf.names"
			check "f: the work:: frames carry perf's demangled names ($(tr '\n' ' ' <"$T/f.db.names"))" \
				sh -c "[ -s '$T/f.db.names' ] && cmp -s '$T/f.db.names' '$T/f.perf.names'"
			check "f: no symbol of cxxwork is left mangled" \
				sh -c "[ \"\$(sqlite3 '$T/f.db' \"SELECT count(*) FROM symbol y JOIN dso d ON d.id = y.dso_id
					WHERE d.path LIKE '%cxxwork' AND y.name LIKE '\\_Z%' ESCAPE '\\'\")\" = 0 ]"
		fi
		keep "$T/f.data"
	else
		not_ok "f: perf script reads the profile"
	fi
else
	not_ok "f: perf record -e cpu-clock -g around cxxwork exits 0 ($(head -1 "$T/rec.err"))"
fi
want f && took f

# --- g: --call-graph dwarf --------------------------------------------------
if ! want g; then
	:
elif perf record -q -e cpu-clock -F 999 --call-graph dwarf -o "$T/g.data" -- "$W/falseshare" --seconds 0.3 \
	>/dev/null 2>"$T/rec.err"; then
	ok "g: perf record -e cpu-clock -F 999 --call-graph dwarf around falseshare"
	if perf script -i "$T/g.data" -F event >"$T/g.data.ev" 2>/dev/null &&
		perf script -i "$T/g.data" -F pid,tid,time,event >"$T/g.data.tr" 2>/dev/null &&
		perf script --no-inline --max-stack 65535 -i "$T/g.data" -F pid,tid,time,event,ip,sym,symoff,dso >"$T/g.cc" 2>/dev/null; then
		COLS=pid,tid,time
		if import_check g "$T/g.data" "$T/g.db"; then
			oracle chains "$T/g.db" 1 "$T/g.cc" g --cols pid,tid,time --syms
			check "g: user callers were unwound (stacks of 3 frames and more)" \
				sh -c "sqlite3 '$T/g.db' 'SELECT max(depth) FROM stack' | grep -qv '^[01]\$'"
		fi
		keep "$T/g.data"
	else
		not_ok "g: perf script reads the dwarf profile"
	fi
else
	not_ok "g: perf record --call-graph dwarf exits 0 ($(head -1 "$T/rec.err"))"
fi
want g && took g
[ "$failed" -eq 0 ]
