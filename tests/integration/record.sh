#!/bin/sh
# Integration test of `perfdb record` on real recordings made here: the
# sched, tlb and profile recipes around the workloads (session metadata,
# per-event counts against `perf script -F event` on the kept perf.data,
# kallsyms snapshot, mm_struct layout), the c2c refusal before the workload
# starts, a recipe event the kernel lacks, SIGINT during a recording, a
# workload that cannot run, perf failing, exit statuses passed through
# (3, 255, a signal), usage errors, and `perfdb doctor`. Prints TAP lines.
# Run from the repository root: sh tests/integration/record.sh
# Env: PERFDB (default $PWD/build/perfdb), PERFDB_BUILD (default build).
# shellcheck disable=SC2016 # eval'd checks expand their variables late
. "$(dirname "$0")/lib/setup.sh"
W=$(cd "$B/workloads" 2>/dev/null && pwd)
DB=$T/rec.db
n=0
# A private copy: perf starts perfdb again (as the workload's wrapper), and
# a rebuild of $PERFDB in the middle of a run must not pull it away.
ORIG=$PERFDB
private_perfdb

# This test's own TAP helpers, in place of tap.sh's (setup.sh): a failed
# check shows the last lines of $T/err, the verb's stderr, and failures
# are counted by tests/run.sh from the "not ok" lines, not by the exit status.
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - # SKIP $*"; }
check() { # check DESCRIPTION COMMAND...: ok if COMMAND succeeds; else the last stderr
	desc=$1; shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; sed 's/^/#   stderr: /' "$T/err" 2>/dev/null | tail -4; fi
}
q() { sqlite3 "$DB" "$1"; }	# q SQL: one query's rows, '|'-separated
# rec ARGS...: perfdb record -o $DB ARGS; stdout, stderr, status in $T/{out,err,rc}
rec() {
	"$PERFDB" record -o "$DB" "$@" >"$T/out" 2>"$T/err"
	echo $? >"$T/rc"
}
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }
nsessions() { q "SELECT count(*) FROM session" 2>/dev/null || echo 0; }
no_tmp_left() { ! ls -a "$T" | grep -q '^\.perfdb-record-'; }

for tool in perf sqlite3; do
	if ! command -v $tool >/dev/null 2>&1; then
		skip "perfdb record: no $tool here"
		echo "1..$n"
		exit 0
	fi
done
for w in yield tlbflush falseshare; do
	[ -x "$W/$w" ] || { not_ok "workload $B/workloads/$w is built"; echo "1..$n"; exit 1; }
done

# --- usage errors -----------------------------------------------------------
rec -r bogus -- true
check "unknown recipe: exit 1, the recipes listed" \
	eval 'rc_is 1 && grep -q "unknown recipe .bogus. (recipes: sched, tlb, profile, c2c, watch)" "$T/err"'
rec -r sched
check "no workload: exit 1" rc_is 1
rec -r sched -F 100 -- true
check "-F without profile: exit 1" rc_is 1
rec -m 3 -- true
check "-m 3 (not a power of 2): exit 1" rc_is 1
check "usage errors left no database behind" eval '[ ! -e "$DB" ]'

# --- sched around yield, perf.data kept ---------------------------------------
rec -l base -r sched --perf-data "$T/sched.data" -- "$W/yield" --seconds 0.3
check "record -r sched around yield: exit 0" rc_is 0
check "the workload's own output passes through" grep -q '^metric=ctxsw_per_sec_per_cpu ' "$T/out"
S=$(q "SELECT max(id) FROM session")
check "the workload's metric line is stored with the session, its value, unit and better=" \
	eval '[ "$(q "SELECT name || '"' '"' || cast(value AS INTEGER) || '"' '"' || unit || '"' '"' || better FROM workload_metric WHERE session_id = $S")" = "ctxsw_per_sec_per_cpu $(sed -n "s/^metric=ctxsw_per_sec_per_cpu value=\([0-9]*\) .*/\1/p" "$T/out") switches/s/CPU higher" ]'
check "one session, labelled base" eval '[ "$(q "SELECT count(*) || label FROM session")" = 1base ]'
check "os_release is uname -r" eval '[ "$(q "SELECT os_release FROM session WHERE id = $S")" = "$(uname -r)" ]'
check "workload stored as typed, exit_status 0, interrupted 0, wall_ns > 0.3 s" \
	eval '[ "$(q "SELECT workload, exit_status, interrupted, wall_ns > 300000000 FROM session WHERE id = $S")" = "$W/yield --seconds 0.3|0|0|1" ]'
cmdline=$(q "SELECT perf_cmdline FROM session WHERE id = $S")
echo "# perf_cmdline: $cmdline"
check "perf_cmdline: perf record -o FILE -a -m 1024 -e sched:... -- wrapper -- workload" \
	eval 'case "$cmdline" in *"perf record -o $T/sched.data -a -m 1024 -e sched:sched_switch -e sched:sched_waking "*"-e sched:sched_process_exit -- "*" record __exec "*" -- $W/yield --seconds 0.3") true ;; *) false ;; esac'
check "source is the kept file" eval '[ "$(q "SELECT source FROM session WHERE id = $S")" = "$T/sched.data" ]'
perf script -F event -i "$T/sched.data" 2>/dev/null | awk '{ sub(/:$/, "", $1); c[$1]++ }
	END { for (e in c) print e "|" c[e] }' | sort >"$T/script"
q "SELECT name || '|' || nr_samples FROM event WHERE session_id = $S AND nr_samples > 0 ORDER BY name" | sort >"$T/db"
q "SELECT e.name || '|' || count(*) FROM sample s JOIN event e ON e.id = s.event_id
   WHERE s.session_id = $S GROUP BY e.name" | sort >"$T/rows"
echo "# perf script -F event: $(tr '\n' ' ' <"$T/script")"
check "per-event counts equal perf script -F event on the kept file" \
	eval '[ -s "$T/script" ] && cmp -s "$T/script" "$T/db"'
check "sample rows per event equal them too" cmp -s "$T/script" "$T/rows"
check "sched_switch samples > 1000 (yield switches ~100k/s)" \
	eval '[ "$(q "SELECT nr_samples FROM event WHERE session_id = $S AND name = '"'sched:sched_switch'"'")" -gt 1000 ]'
check "the yield threads are in the session" \
	eval '[ "$(q "SELECT count(*) FROM thread WHERE session_id = $S AND comm = '"'yield'"'")" -ge 2 ]'
check "kallsyms snapshot stored for the session" \
	eval '[ "$(q "SELECT count(*) FROM kallsyms WHERE session_id = $S AND size > 100000")" = 1 ] &&
		q "SELECT kallsyms_source FROM session WHERE id = $S" | grep -q "^/proc/kallsyms (snapshot"'
if [ -r /sys/kernel/btf/vmlinux ]; then
	check "mm_struct layout stored: whole struct, mm_count and context.tlb_gen" \
		eval '[ "$(q "SELECT count(*) FROM struct_layout WHERE session_id = $S AND struct_name = '"'mm_struct'"' AND member IN ('"''"', '"'mm_count'"', '"'context.tlb_gen'"')")" = 3 ]'
	if command -v pahole >/dev/null 2>&1; then
		want=$(pahole -C mm_struct /sys/kernel/btf/vmlinux 2>/dev/null | sed -n 's/.*[ *]mm_users; *\/\* *\([0-9]*\) .*/\1/p')
		check "mm_users at pahole's offset ($want)" \
			eval '[ -n "$want" ] && [ "$(q "SELECT offset FROM struct_layout WHERE session_id = $S AND member = '"'mm_users'"'")" = "$want" ]'
	fi
else
	skip "no /sys/kernel/btf/vmlinux: no layouts"
fi
check "kernel symbols resolved (sched_switch samples in kernel functions)" \
	eval '[ "$(q "SELECT count(*) FROM sample s JOIN symbol y ON y.id = s.symbol_id WHERE s.session_id = $S AND y.name LIKE '"'%schedule%'"'")" -gt 0 ]'
check "the kept perf.data is there, the temporary directory is gone" \
	eval '[ -s "$T/sched.data" ] && no_tmp_left'

# --- tlb around tlbflush --------------------------------------------------------
rec -r tlb -- "$W/tlbflush" --seconds 0.3
S=$(q "SELECT max(id) FROM session")
check "record -r tlb around tlbflush: exit 0" rc_is 0
check "tlb: 14 distinct events asked for, none twice" \
	eval '[ "$(q "SELECT count(*) || '"'/'"' || count(DISTINCT name) FROM event WHERE session_id = $S AND name NOT LIKE '"'dummy%'"'")" = 14/14 ]'
check "tlb: tlb:tlb_flush samples recorded" \
	eval '[ "$(q "SELECT nr_samples FROM event WHERE session_id = $S AND name = '"'tlb:tlb_flush'"'")" -gt 0 ]'
check "tlb: tlb_flush rows in its typed table" \
	eval '[ "$(q "SELECT count(*) FROM tlb_flush f JOIN sample s ON s.id = f.sample_id WHERE s.session_id = $S")" -gt 0 ]'
check "the temporary perf.data is removed" no_tmp_left

# --- profile around falseshare ----------------------------------------------------
rec -r profile -- "$W/falseshare" --seconds 0.3
S=$(q "SELECT max(id) FROM session")
cmdline=$(q "SELECT perf_cmdline FROM session WHERE id = $S")
echo "# perf_cmdline: $cmdline"
check "record -r profile around falseshare: exit 0" rc_is 0
check "profile: -F 999, -g, not system-wide" \
	eval 'case "$cmdline" in *" -a "*) false ;; *" -m 1024 -F 999 -e "*" -g -- "*) true ;; *) false ;; esac'
check "profile: cycles or cpu-clock samples with call stacks" \
	eval '[ "$(q "SELECT count(*) FROM sample s JOIN event e ON e.id = s.event_id WHERE s.session_id = $S AND e.name IN ('"'cycles'"', '"'cpu-clock'"') AND s.stack_id IS NOT NULL")" -gt 50 ]'
check "profile: most samples in falseshare's threads" \
	eval '[ "$(q "SELECT 2 * sum(t.comm = '"'falseshare'"') > count(*) FROM sample s JOIN thread t ON t.id = s.thread_id WHERE s.session_id = $S")" = 1 ]'

# --- c2c refused before the workload starts ------------------------------------------
before=$(nsessions)
if perf mem record -e list 2>&1 | grep -Eq ': available|\[ok\]'; then
	skip "c2c refusal: this machine has memory events"
else
	rec -r c2c -- sh -c ": >'$T/marker'"
	check "record -r c2c without memory events: exit 2" rc_is 2
	check "c2c: the workload never ran (no marker file)" eval '[ ! -e "$T/marker" ]'
	check "c2c: one line says why (perf's words) and points at -r watch" \
		eval 'grep -q "memory events not supported" "$T/err" && grep -q -- "-r watch" "$T/err" && [ "$(wc -l <"$T/err")" -eq 1 ]'
	check "c2c: no session added" eval '[ "$(nsessions)" = "$before" ]'
fi

# --- an event the kernel lacks ----------------------------------------------------------
PERFDB_EXTRA_EVENTS=nosuch:event,sched:sched_switch rec -r sched -- true
S=$(q "SELECT max(id) FROM session")
check "missing event: the record still succeeds" rc_is 0
check "missing event: exactly one warning line, naming it" \
	eval '[ "$(grep -c warning "$T/err")" = 1 ] && grep warning "$T/err" | grep -q "nosuch:event"'
check "missing event: left out of perf's command line, the rest recorded" \
	eval '! q "SELECT perf_cmdline FROM session WHERE id = $S" | grep -q nosuch &&
		[ "$(q "SELECT count(*) FROM event WHERE session_id = $S AND name LIKE '"'sched:%'"'")" = 8 ]'

# --- SIGINT during a recording ---------------------------------------------------------
"$PERFDB" record -o "$DB" -r sched -- sleep 10.0417 >"$T/out" 2>"$T/err" &
pid=$!
i=0	# wait (at most 20 s) for the workload to start, then 1 s more
while [ $i -lt 200 ] && ! grep -qs started "$T"/.perfdb-record-*/status; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -INT $pid
wait $pid
rc=$?
S=$(q "SELECT max(id) FROM session")
check "SIGINT: perfdb imports what was recorded and exits with the workload's status (130: it got SIGINT too)" \
	eval '[ $rc = 130 ] && q "SELECT workload FROM session WHERE id = $S" | grep -q "^sleep 10.0417$"'
check "SIGINT: the session is marked interrupted = 1, exit_status 130" \
	eval '[ "$(q "SELECT interrupted, exit_status, nr_samples > 0 FROM session WHERE id = $S")" = "1|130|1" ]'
check "SIGINT: the workload is gone, the temporary files too" \
	eval '! pgrep -f "sleep 10.0417" >/dev/null && no_tmp_left'

# --- workloads that cannot run, perf failing ------------------------------------------------
before=$(nsessions)
rec -r sched -- "$T/no-such-program"
check "nonexistent workload path: exit 2, says it cannot run it" \
	eval 'rc_is 2 && grep -q "cannot run .*no-such-program.*No such file" "$T/err"'
rec -r sched -- perfdb-no-such-command
check "unknown command: exit 2, command not found" \
	eval 'rc_is 2 && grep -q "command not found" "$T/err"'
: >"$T/not-exec"
rec -r sched -- "$T/not-exec"
check "non-executable workload: exit 2" eval 'rc_is 2 && grep -q "Permission denied" "$T/err"'
PERFDB_PERF=false rec -r sched -- true
check "perf failing before the workload: exit 2, says so" \
	eval 'rc_is 2 && grep -q "perf failed before the workload started" "$T/err"'
check "none of these added a session or left files" \
	eval '[ "$(nsessions)" = "$before" ] && no_tmp_left'

# --- exit statuses passed through -------------------------------------------------------
for st in 3 255; do
	rec -r sched -- sh -c "exit $st"
	S=$(q "SELECT max(id) FROM session")
	check "workload exits $st: perfdb exits $st, session exit_status $st" \
		eval 'rc_is $st && [ "$(q "SELECT exit_status, interrupted FROM session WHERE id = $S")" = "$st|0" ]'
done
rec -r sched -- sh -c 'kill -USR1 $$'
S=$(q "SELECT max(id) FROM session")
check "workload killed by SIGUSR1: perfdb exits 138, session exit_status 138" \
	eval 'rc_is 138 && [ "$(q "SELECT exit_status FROM session WHERE id = $S")" = 138 ]'

# --- built-in workloads by name ---------------------------------------------------
"$ORIG" record -q -o "$T/b.db" -r sched -- yield --seconds 0.1 >/dev/null 2>"$T/err"; rc=$?
check "a built-in workload is found by name (yield, not in PATH)" \
	eval '[ $rc = 0 ] && [ "$(sqlite3 "$T/b.db" "SELECT workload LIKE '"'"'%/workloads/yield %'"'"' FROM session")" = 1 ]'

# --- doctor --------------------------------------------------------------------------
# has_rows: every check of the doctor's table is in $T/out
has_rows() {
	for c in perf perf_event_paranoid tracefs "recipe sched" "recipe tlb" "recipe profile" \
		"recipe c2c" "recipe watch" "PMU cycles" "memory events" BTF kallsyms \
		"packages (run)" "packages (build)" "packages (test)"; do
		grep -q "^$c  " "$T/out" || return 1
	done
}
"$PERFDB" doctor >"$T/out" 2>"$T/err"; rc=$?
check "doctor: exit 0, a row per check" eval '[ $rc = 0 ] && has_rows'
check "doctor: sched's 8 events present here" grep -q '^recipe sched  *ok  *8/8 events present' "$T/out"
# Where watchpoints fire (perf stat's own counts them: lib/watchpoints.sh),
# the watch recipe is ok; where they are accepted and never fire, it is not.
. "$(dirname "$0")/lib/watchpoints.sh"
fires=$(bp_caught)
if [ "${fires:-0}" -ge 1000 ]; then
	check "doctor: hardware breakpoints work here (watch: 1000 of 1000 writes caught)" \
		grep -q '^recipe watch  *ok  .*caught 1000 of 1000 writes' "$T/out"
elif [ -n "$fires" ]; then
	check "doctor: hardware breakpoints do not fire here (perf stat caught $fires of 1000), and doctor says so" \
		grep -q '^recipe watch  *no  *hardware watchpoints are accepted but do not fire' "$T/out"
else
	check "doctor: perf cannot open a hardware breakpoint here, nor can doctor" grep -q '^recipe watch  *no  ' "$T/out"
fi
# the packages rows against dpkg-query asked one package at a time
if command -v dpkg-query >/dev/null 2>&1; then
	want=
	for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/[[:space:]].*//' .ci/packages); do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			want="$want $p"
	done
	got=$(sed -n 's/^note: to install the Debian packages perfdb uses that are missing: apt-get install -y//p' "$T/out")
	check "doctor: the missing Debian packages are those dpkg-query says ('${want# }')" \
		[ "$got" = "$want" ]
else
	skip "doctor's packages: no dpkg-query"
fi
# a dpkg-query that knows two packages as not installed and one not at all
mkdir -p "$T/fakebin"
cat >"$T/fakebin/dpkg-query" <<'EOF'
#!/bin/sh
shift 2
for p; do
	case $p in
	linux-perf|clang) echo "$p un " ;;
	pahole) echo "dpkg-query: no packages found matching $p" >&2 ;;
	*) echo "$p:amd64 ii " ;;
	esac
done
exit 1
EOF
chmod +x "$T/fakebin/dpkg-query"
PATH="$T/fakebin:$PATH" "$PERFDB" doctor >"$T/out" 2>"$T/err"; rc=$?
check "doctor: missing packages per role, with the apt-get line" eval '[ $rc = 0 ] &&
	grep -q "^packages (run)  *partial  *1 of 2 missing: linux-perf (apt-get install linux-perf)" "$T/out" &&
	grep -q "^packages (build)  *ok  *all [0-9]* installed" "$T/out" &&
	grep -q "^packages (test)  *partial  *2 of [0-9]* missing: clang pahole " "$T/out" &&
	grep -qx "note: to install the Debian packages perfdb uses that are missing: apt-get install -y linux-perf clang pahole" "$T/out"'
"$PERFDB" doctor --format json >"$T/out" 2>"$T/err"; rc=$?
if command -v python3 >/dev/null 2>&1; then
	check "doctor --format json: valid JSON, objects of check/status/detail" \
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = d["findings"]["checks"]
assert d["verb"] == "doctor" and len(r) >= 11 and all(list(x) == ["check", "status", "detail"] for x in r)' "$T/out"
else
	check "doctor --format json: exit 0" eval '[ $rc = 0 ] && grep -q "\"check\": \"BTF\"" "$T/out"'
fi
echo "1..$n"
