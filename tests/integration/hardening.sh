#!/bin/sh
# Hardening (issue 12), each case driven as a user would and checked by
# exit status, message and what is on disk afterwards:
# - private by default: databases (import, record, bench) and kept
#   perf.data are 0600 under umask 000, 022 and 077, a hot -journal left by
#   a killed import too, the temporary record directory 0700; an existing
#   database its group or others can read gets one warning naming what it
#   reveals; layout never creates a file;
# - many writers: 6 imports, 2 records and a bench started at once into a
#   NEW database all succeed, and each imported session equals a lone
#   import's (per-event counts, and sched's json findings); a reader
#   (sessions, sched) works while an import runs;
# - nothing left behind: SIGINT, SIGTERM, SIGHUP and SIGPIPE to perfdb
#   during record reach the workload as they are (it logs what it got),
#   the session is complete and marked interrupted, no temporary
#   directory or process is left; `record 2>&1 | head -1` and a workload
#   writing forever into `| head -1` end cleanly; after a SIGKILL, perf and
#   the workload stop and the next record removes the stale directory but
#   not a live record's;
# - refuse what would mislead: a missing --kallsyms, --btf or --dwarf file
#   (import, record, layout) and an offline -C CPU give exit 2 and one line
#   before anything is created or changed; readers refuse a missing or
#   empty file without creating or changing it, and a FIFO at once.
# Prints TAP lines. Run from the repository root: sh tests/integration/hardening.sh
# Env: PERFDB (default $PWD/build/perfdb), PERFDB_BUILD (default build).
# shellcheck disable=SC2016,SC2154 # eval'd checks expand late; n, failed: lib/tap.sh
. "$(dirname "$0")/lib/setup.sh"
W=$(cd "$B/workloads" 2>/dev/null && pwd)
[ -z "$KEEP" ] || keep_tmp
# A private copy: perf starts perfdb again (the workload's wrapper).
private_perfdb

mode() { stat -c %a "$1"; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
q() { sqlite3 "$1" "$2"; }
no_tmp_left() { ! ls -a "$1" | grep -q '^\.perfdb-record-'; }
lines() { grep -c '' "$1"; }
# wait_started DIR: waits (at most 30 s) until a record in DIR runs its workload.
wait_started() {
	_i=0
	while [ $_i -lt 300 ] && ! grep -qs '^started' "$1"/.perfdb-record-*/status; do
		sleep 0.1; _i=$((_i + 1))
	done
}

for tool in perf sqlite3 python3; do
	if ! command -v $tool >/dev/null 2>&1; then
		skip "hardening: no $tool here"
		echo "1..$n"
		exit 0
	fi
done
if ! perf record -q -a -e sched:sched_switch -o "$T/probe.data" -- true >/dev/null 2>&1; then
	skip "perf cannot record sched tracepoints here"
	echo "1..$n"
	exit 0
fi

# --- private by default -----------------------------------------------------------------
"$PERFDB" record -q -o "$T/c.db" -r sched --perf-data "$T/c.data" -- "$W/yield" --seconds 0.3 >/dev/null 2>"$T/err"
check "a recording to import (record -r sched --perf-data)" [ -s "$T/c.data" ]
for m in 000 022 077; do
	mkdir "$T/u$m"
	(umask $m && "$PERFDB" import -q -o "$T/u$m/i.db" "$T/c.data") 2>"$T/err"
	(umask $m && "$PERFDB" record -q -o "$T/u$m/r.db" -r sched --perf-data "$T/u$m/kept.data" \
		-- "$W/yield" --seconds 0.1 >/dev/null) 2>>"$T/err"
	(umask $m && "$PERFDB" bench -q -o "$T/u$m/b.db" -l b --runs 1 -- "$W/yield" --seconds 0.05 >/dev/null) 2>>"$T/err"
	check "umask $m: import, record, bench create their databases 0600, the kept perf.data 0600" \
		eval '[ "$(mode "$T/u$m/i.db") $(mode "$T/u$m/r.db") $(mode "$T/u$m/b.db") $(mode "$T/u$m/kept.data")" = "600 600 600 600" ]'
done
check "... and said nothing (no warning about their own databases)" eval '! grep -v "^yield:" "$T/err"'

# The temporary directory of a recording, seen while it runs.
(umask 000 && "$PERFDB" record -q -o "$T/u000/r.db" -r sched -- sleep 2 >/dev/null 2>&1) &
pid=$!
wait_started "$T/u000"
tmp=$(ls -d "$T"/u000/.perfdb-record-* 2>/dev/null | head -1)
check "umask 000: the temporary record directory is 0700, its files 0600" \
	eval '[ -n "$tmp" ] && [ "$(mode "$tmp")" = 700 ] && [ -z "$(find "$tmp" -type f ! -perm 600)" ]'
wait $pid

# wait_journal PID DB: waits (busily: an import is short) until DB-journal
# exists, i.e. the import is writing; false if PID ended first.
wait_journal() { _i=0; while [ $_i -lt 1000000 ] && [ ! -e "$2-journal" ] && kill -0 "$1" 2>/dev/null; do _i=$((_i + 1)); done; [ -e "$2-journal" ]; }
# A hot journal: an import killed in the middle (its journal has the database's mode).
big=$T/big.data
"$PERFDB" record -q -o "$T/big.db" -r sched --perf-data "$big" -- "$W/yield" --seconds 0.5 >/dev/null 2>&1
cp "$T/u022/i.db" "$T/j.db"
(umask 000 && exec "$PERFDB" import -q -o "$T/j.db" "$big") &
pid=$!
wait_journal $pid "$T/j.db"
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
if [ -e "$T/j.db-journal" ]; then
	check "an import SIGKILLed in its transaction leaves a -journal of mode 0600" [ "$(mode "$T/j.db-journal")" = 600 ]
	"$PERFDB" import -q -o "$T/j.db" "$T/c.data" 2>"$T/err"
	check "... the next import rolls it back and adds its own session alone" \
		eval '[ "$(q "$T/j.db" "SELECT count(*) FROM session")" = 2 ] && [ ! -e "$T/j.db-journal" ]'
else
	skip "the import ended before its -journal was seen"
	skip "... (rollback of a hot journal)"
fi

# An existing database others may read.
cp "$T/u022/i.db" "$T/w.db"
for m in 644:other 640:group; do
	chmod "${m%%:*}" "$T/w.db"
	"$PERFDB" import -q -o "$T/w.db" "$T/c.data" 2>"$T/err"
	rc=$?
	check "importing into a $m-readable (${m%%:*}) database: exit 0, one warning naming the mode, the KASLR base and kernel pointers" \
		eval '[ $rc = 0 ] && [ "$(lines "$T/err")" = 1 ] &&
			grep -q "warning: $T/w.db is readable by .*${m#*:}.* (mode 0${m%%:*}); it holds kernel addresses .*KASLR base.*kernel pointers.*chmod 600" "$T/err"'
done
chmod 600 "$T/w.db"
"$PERFDB" import -q -o "$T/w.db" "$T/c.data" 2>"$T/err"
check "... a 0600 one: no warning" [ ! -s "$T/err" ]

"$PERFDB" layout "$T/none.db" -t mm_struct 2>"$T/err"
rc=$?
check "layout of a missing database: exit 2, one line, no file made" \
	eval '[ $rc = 2 ] && [ "$(lines "$T/err")" = 1 ] && [ ! -e "$T/none.db" ]'

# --- many writers ------------------------------------------------------------------------
"$PERFDB" import -q -o "$T/lone.db" "$T/c.data"
mkdir "$T/cc"
for i in 1 2 3 4 5 6; do
	("$PERFDB" import -q -o "$T/cc/new.db" -l imp "$T/c.data" 2>"$T/cc/err.i$i"; echo $? >"$T/cc/rc.i$i") &
done
for i in 1 2; do
	("$PERFDB" record -q -o "$T/cc/new.db" -l rec -r sched -- "$W/yield" --seconds 0.2 \
		>/dev/null 2>"$T/cc/err.r$i"; echo $? >"$T/cc/rc.r$i") &
done
("$PERFDB" bench -q -o "$T/cc/new.db" -l ben --runs 2 -r sched --record-every 2 -- "$W/yield" --seconds 0.1 \
	>/dev/null 2>"$T/cc/err.b"; echo $? >"$T/cc/rc.b") &
wait
check "6 imports, 2 records and a bench at once into a new database: all exit 0, nothing on stderr" \
	eval '[ "$(cat "$T"/cc/rc.* | sort -u)" = 0 ] && ! cat "$T"/cc/err.* | grep -v "^yield:"'
check "... 9 sessions: 6 imported, 2 recorded (each complete: workload, exit status 0, samples), the bench's recorded run" \
	eval '[ "$(q "$T/cc/new.db" "SELECT label, count(*) FROM session GROUP BY label ORDER BY label" | tr "\n" " ")" = "ben|1 imp|6 rec|2 " ] &&
		[ "$(q "$T/cc/new.db" "SELECT kind, count(*), count(session_id) FROM bench_run GROUP BY kind ORDER BY kind" | tr "\n" " ")" = "bare|2|0 recorded|1|1 " ] &&
		[ "$(q "$T/cc/new.db" "SELECT count(*) FROM session WHERE label = '"'rec'"' AND exit_status = 0 AND workload LIKE '"'%yield%'"' AND nr_samples > 0")" = 2 ]'
check "... no temporary directory left, the database 0600" eval 'no_tmp_left "$T/cc" && [ "$(mode "$T/cc/new.db")" = 600 ]'
counts() { q "$1" "SELECT event, samples FROM event_counts WHERE session_id = $2 ORDER BY event"; }
findings() {
	"$PERFDB" sched "$1" -s "$2" --format json | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["findings"], sort_keys=True))'
}
counts "$T/lone.db" 1 >"$T/lone.counts"
findings "$T/lone.db" 1 >"$T/lone.json"
"$PERFDB" sched "$T/lone.db" -s 1 --format json >"$T/lone.json.full"
same=0
for s in $(q "$T/cc/new.db" "SELECT id FROM session WHERE label = 'imp'"); do
	counts "$T/cc/new.db" "$s" | cmp -s - "$T/lone.counts" &&
		findings "$T/cc/new.db" "$s" | cmp -s - "$T/lone.json" && same=$((same + 1))
done
echo "# lone import: $(tr '\n' ' ' <"$T/lone.counts")"
check "... each imported session equals a lone import's (per-event counts, sched json findings): $same of 6" [ $same = 6 ]

# Readers while an import runs (into an existing database): three copies
# in one import, so that it outlasts a reader.
"$PERFDB" import -q -o "$T/lone.db" "$big" "$big" "$big" &
pid=$!
reads=0 bad=0 during=0
while kill -0 $pid 2>/dev/null && [ $reads -lt 100 ]; do
	if "$PERFDB" sessions "$T/lone.db" --format json >"$T/r.json" 2>"$T/r.err" &&
		"$PERFDB" sched "$T/lone.db" -s 1 --format json | cmp -s - "$T/lone.json.full" 2>>"$T/r.err"; then
		kill -0 $pid 2>/dev/null && during=$((during + 1))
	else
		bad=$((bad + 1)); sed 's/^/#   /' "$T/r.err" | head -3
	fi
	reads=$((reads + 1))
done
wait $pid
rc=$?
echo "# readers: $reads runs of sessions+sched, $during ended while the import still ran"
check "readers (sessions, sched) during an import: every one exits 0, sched prints what it printed before; the import ends well" \
	eval '[ $bad = 0 ] && [ $rc = 0 ] && [ "$(q "$T/lone.db" "SELECT count(*) FROM session")" = 4 ]'
if [ $during -gt 0 ]; then ok "... at least one reader finished while the import ran ($during)"
else skip "the import ended before a reader did"; fi

# --- nothing left behind -------------------------------------------------------------------
cat >"$T/sigwl" <<'EOF'
#!/bin/sh
# Logs each stop signal it gets into $1 and exits 128+N on the first.
f=$1
trap 'echo INT >>"$f"; exit 130' INT
trap 'echo TERM >>"$f"; exit 143' TERM
trap 'echo HUP >>"$f"; exit 129' HUP
trap 'echo PIPE >>"$f"; exit 141' PIPE
echo started >>"$f"
i=0
while [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
echo timeout >>"$f"
EOF
chmod +x "$T/sigwl"
mkdir "$T/sig"
S=$T/sig/s.db
# perfdb keeps a SIGHUP that was ignored when it started (nohup): so that
# these cases hold under a nohup'd test run too, perfdb starts with every
# stop signal at its default (env --default-signal).
for sig in INT:130 TERM:143 HUP:129 PIPE:141; do
	name=${sig%%:*} st=${sig#*:}
	env --default-signal=INT,TERM,HUP,PIPE "$PERFDB" record -q -o "$S" -r sched -l "$name" -- "$T/sigwl" "$T/sig/log.$name" >/dev/null 2>"$T/sig/err.$name" &
	pid=$!
	wait_started "$T/sig"
	sleep 0.5
	kill -"$name" $pid
	wait $pid
	rc=$?
	check "SIG$name to perfdb record: exit $st, the workload got SIG$name alone" \
		eval '[ $rc = $st ] && [ "$(tr "\n" " " <"$T/sig/log.$name")" = "started $name " ]'
	check "... the session is complete: interrupted, exit_status $st, samples; no temporary directory, no process left" \
		eval '[ "$(q "$S" "SELECT interrupted, exit_status, nr_samples > 0, workload LIKE '"'%sigwl%'"' FROM session WHERE label = '"'$name'"'")" = "1|$st|1|1" ] &&
			no_tmp_left "$T/sig" && ! pgrep -f "$T/sig/log.$name" >/dev/null'
done

mkdir "$T/pipe"
P=$T/pipe/p.db
("$PERFDB" record -o "$P" -r sched -- "$W/yield" --seconds 0.3 2>&1; echo $? >"$T/pipe/rc") | head -1 >"$T/pipe/out"
check "record ... 2>&1 | head -1: perfdb exits 0 (the workload's), head got perf's command line" \
	eval '[ "$(cat "$T/pipe/rc")" = 0 ] && grep -q "^perfdb record: .*perf record" "$T/pipe/out"'
check "... one complete session (exit_status 0, not interrupted), no temporary directory" \
	eval '[ "$(q "$P" "SELECT count(*), exit_status, interrupted, nr_samples > 0 FROM session")" = "1|0|0|1" ] && no_tmp_left "$T/pipe"'
(timeout 60 "$PERFDB" record -q -o "$P" -r sched -l yes -- sh -c 'while :; do echo y; done'; echo $? >"$T/pipe/rc") | head -1 >/dev/null
check "a workload writing forever into | head -1: it gets SIGPIPE, perfdb exits 141, its session stored" \
	eval '[ "$(cat "$T/pipe/rc")" = 141 ] && [ "$(q "$P" "SELECT exit_status, interrupted FROM session WHERE label = '"'yes'"'")" = "141|0" ] && no_tmp_left "$T/pipe"'

# A recording that cannot be imported (a perf that writes a broken file).
mkdir "$T/bad"
cat >"$T/bad/perf" <<'EOF'
#!/bin/sh
# perf record -o FILE ... -- CMD...: a broken FILE, then CMD.
while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift 2 ;; --) shift; break ;; *) shift ;; esac; done
printf 'PERFILE2 but nothing else' >"$out"
"$@"
EOF
chmod +x "$T/bad/perf"
PERFDB_PERF=$T/bad/perf "$PERFDB" record -q -o "$T/bad/b.db" -r sched -- true >/dev/null 2>"$T/bad/err"
rc=$?
kept=$(ls "$T"/bad/perfdb-record-*.data 2>/dev/null)
check "a recording that fails to import: exit 2, kept as perfdb-record-PID.data (0600) beside the database, said so" \
	eval '[ $rc = 2 ] && [ -n "$kept" ] && [ "$(mode "$kept")" = 600 ] && grep -q "the recording is kept in $kept" "$T/bad/err"'
check "... no temporary directory left, and no database (it was made for nothing)" \
	eval 'no_tmp_left "$T/bad" && [ ! -e "$T/bad/b.db" ]'

# A stop signal during the import: rolled back, and a database made for it removed.
mkdir "$T/stop"
for case in new:INT existing:TERM; do
	kind=${case%%:*} sig=${case#*:}
	D=$T/stop/$kind.db
	[ "$kind" = existing ] && cp "$T/u022/i.db" "$D"
	"$PERFDB" import -o "$D" "$big" >/dev/null 2>"$T/stop/err" &
	pid=$!
	if wait_journal $pid "$D"; then
		kill -"$sig" $pid
		wait $pid
		rc=$?
		if [ "$kind" = new ]; then
			check "SIG$sig during an import into a new database: exit 130, one line, no database and no journal left" \
				eval '[ $rc = 130 ] && [ "$(lines "$T/stop/err")" = 1 ] && grep -q "$big: interrupted by signal 2 (Interrupt): nothing of it imported" "$T/stop/err" && [ ! -e "$D" ] && [ ! -e "$D-journal" ]'
		else
			check "SIG$sig during an import into an existing database: exit 143, its sessions as before, no journal left" \
				eval '[ $rc = 143 ] && [ "$(q "$D" "SELECT count(*) FROM session")" = "$(q "$T/u022/i.db" "SELECT count(*) FROM session")" ] && [ ! -e "$D-journal" ]'
		fi
	else
		wait $pid
		skip "the import into a $kind database ended before its journal was seen"
	fi
done
"$PERFDB" record -o "$T/stop/r.db" -r sched -- "$W/yield" --seconds 2 >/dev/null 2>"$T/stop/err" &
pid=$!
_i=0; while [ $_i -lt 300 ] && ! grep -qs "Captured" "$T/stop/err"; do sleep 0.05; _i=$((_i + 1)); done
if wait_journal $pid "$T/stop/r.db"; then
	kill -INT $pid
	wait $pid
	rc=$?
	check "SIGINT during record's own import into a database it made: exit 130, said so, no database, no temporary directory" \
		eval '[ $rc = 130 ] && grep -q "interrupted by signal 2 (Interrupt) during the import: nothing imported" "$T/stop/err" && [ ! -e "$T/stop/r.db" ] && [ ! -e "$T/stop/r.db-journal" ] && no_tmp_left "$T/stop"'
else
	wait $pid
	skip "record's import ended before its journal was seen"
fi

# A stop signal at once, or while record opens its database and makes its
# temporary files (SIGINT not ignored, as it is for a background job of sh):
# a complete session or none (no database made), nothing left, exit 130.
for d in 0 0.01 0.03 0.06; do
	D=$T/stop/e$d.db
	env --default-signal=INT "$PERFDB" record -q -o "$D" -r sched -- "$W/yield" --seconds 0.3 >/dev/null 2>"$T/stop/err" &
	pid=$!
	# from perfdb's exec on (env, before it, still ignores SIGINT)
	while kill -0 $pid 2>/dev/null && [ "$(cat /proc/$pid/comm 2>/dev/null)" != perfdb ]; do :; done
	sleep $d
	kill -INT $pid
	wait $pid
	rc=$?
	if [ ! -e "$D" ]; then seen="no database"
	elif [ "$(q "$D" "SELECT count(*), interrupted, nr_samples = (SELECT count(*) FROM sample) FROM session")" = "1|1|1" ]; then seen="a complete session"
	else seen="a database of $(q "$D" "SELECT count(*) FROM session") sessions"; fi
	check "SIGINT ${d} s after record started: no database and exit 130, or a complete session (130, or 143: the workload stopped before its start), no temporary directory ($seen, $rc)" \
		eval '{ { [ "$seen" = "no database" ] && [ $rc = 130 ]; } || { [ "$seen" = "a complete session" ] && { [ $rc = 130 ] || [ $rc = 143 ]; }; }; } && [ ! -e "$D-journal" ] && no_tmp_left "$T/stop"'
done

mkdir "$T/kill"
K=$T/kill/k.db
# wait_log FILE: waits (at most 30 s) for a workload's "started" in FILE.
wait_log() { _i=0; while [ $_i -lt 300 ] && ! grep -qs started "$1"; do sleep 0.1; _i=$((_i + 1)); done; }
"$PERFDB" record -q -o "$K" -r sched -l live -- "$T/sigwl" "$T/kill/log.live" >/dev/null 2>"$T/kill/err.live" &
live=$!
wait_log "$T/kill/log.live"
livedir=$(ls -a "$T/kill" | grep '^\.perfdb-record-')
"$PERFDB" record -q -o "$K" -r sched -- "$T/sigwl" "$T/kill/log.k" >/dev/null 2>&1 &
pid=$!
wait_log "$T/kill/log.k"
kill -KILL $pid
wait $pid 2>/dev/null
i=0
while [ $i -lt 100 ] && pgrep -f "$T/kill/log.k" >/dev/null; do sleep 0.1; i=$((i + 1)); done
check "SIGKILL of perfdb record: perf and the workload stop too (within 10 s; the workload got SIGTERM)" \
	eval '! pgrep -f "$T/kill/log.k" >/dev/null && grep -q TERM "$T/kill/log.k"'
stale=$(ls -a "$T/kill" | grep '^\.perfdb-record-' | grep -v "^$livedir\$")
check "... its temporary directory is left" [ -n "$stale" ]
"$PERFDB" record -o "$K" -r sched -l next -- true >/dev/null 2>"$T/kill/err"
check "the next record removes the stale directory, saying so, and not a live record's" \
	eval 'grep -q "removed $T/kill/$stale, left by a recording that did not end" "$T/kill/err" &&
		[ ! -e "$T/kill/$stale" ] && [ -n "$livedir" ] && [ -d "$T/kill/$livedir" ]'
kill -INT $live
wait $live
rc=$?
check "... the live record goes on and ends with its session (exit 130), nothing left" \
	eval '[ $rc = 130 ] && [ "$(q "$K" "SELECT label FROM session ORDER BY id" | tr "\n" " ")" = "next live " ] && no_tmp_left "$T/kill"'

# directories of another name than perfdb's .perfdb-record-PID-XXXXXX are
# never swept, however old and unlocked
mkdir "$T/foreign"
for f in .perfdb-record-notes .perfdb-record-12-abcdefg .perfdb-record-12-abc .perfdb-record--abcdef; do
	mkdir "$T/foreign/$f" && echo keep >"$T/foreign/$f/file" && touch -d '2 hours ago' "$T/foreign/$f"
done
"$PERFDB" record -o "$T/foreign/f.db" -r sched -- true >/dev/null 2>"$T/foreign/err"
check "record leaves old .perfdb-record-* directories not named as perfdb names them, and their files" \
	eval '! grep -q removed "$T/foreign/err" && [ "$(cat "$T"/foreign/.perfdb-record-*/file | grep -c keep)" = 4 ]'

# an old directory of perfdb's name whose pid lives (pid 1, no perfdb) is
# swept; one whose pid lives as a perfdb, or that holds a folder, is left
# whole, saying so for the folder
mkdir "$T/sweep"
for dn in 1-aaaaaa 999999999-bbbbbb; do
	mkdir "$T/sweep/.perfdb-record-$dn" && echo x >"$T/sweep/.perfdb-record-$dn/perf.data"
done
mkdir -p "$T/sweep/.perfdb-record-999999998-cccccc/sub" && echo x >"$T/sweep/.perfdb-record-999999998-cccccc/status"
touch -d '2 hours ago' "$T"/sweep/.perfdb-record-*
"$PERFDB" record -o "$T/sweep/s.db" -r sched -- true >/dev/null 2>"$T/sweep/err"
check "record sweeps an old directory of pid 1 (no perfdb: the pid was reused) and a dead pid's, saying so" \
	eval '[ ! -e "$T/sweep/.perfdb-record-1-aaaaaa" ] && [ ! -e "$T/sweep/.perfdb-record-999999999-bbbbbb" ] &&
		grep -q "removed $T/sweep/.perfdb-record-1-aaaaaa" "$T/sweep/err"'
check "... and leaves one that holds a folder whole, saying why" \
	eval '[ -e "$T/sweep/.perfdb-record-999999998-cccccc/status" ] && [ -d "$T/sweep/.perfdb-record-999999998-cccccc/sub" ] &&
		grep -q "left $T/sweep/.perfdb-record-999999998-cccccc.*holds more than files" "$T/sweep/err"'
mkdir "$T/sweep/mine" && chown 65534 "$T/sweep/mine" 2>/dev/null && mkdir "$T/sweep/theirs" &&
	mkdir "$T/sweep/theirs/.perfdb-record-999999997-dddddd" && chown 65534 "$T/sweep/theirs/.perfdb-record-999999997-dddddd" &&
	touch -d '2 hours ago' "$T/sweep/theirs/.perfdb-record-999999997-dddddd" &&
	"$PERFDB" record -o "$T/sweep/theirs/t.db" -r sched -- true >/dev/null 2>&1
check "... and leaves another user's" [ -d "$T/sweep/theirs/.perfdb-record-999999997-dddddd" ]

# --perf-data never destroys a file: an existing one (and its .old), the
# database, a directory are refused before anything is recorded
mkdir "$T/pd" && echo old >"$T/pd/v5.old"
"$PERFDB" record -q -o "$T/pd/r.db" --perf-data "$T/pd/v5" -r sched -- true >/dev/null 2>&1
check "record --perf-data NEW: exit 0, the recording there (0600), the session's source" \
	eval '[ "$(stat -c %a "$T/pd/v5")" = 600 ] && [ "$(q "$T/pd/r.db" "SELECT source FROM session")" = "$T/pd/v5" ] &&
		[ "$(cat "$T/pd/v5.old")" = old ]'
sum=$(sha "$T/pd/v5")
"$PERFDB" record -q -o "$T/pd/new.db" --perf-data "$T/pd/./new.db" -r sched -- true >/dev/null 2>"$T/pd/err"
rc=$?
check "record --perf-data naming the database yet to be made: exit 2, one line, nothing made" \
	eval '[ $rc = 2 ] && [ "$(lines "$T/pd/err")" = 1 ] && [ ! -e "$T/pd/new.db" ] && ! ls "$T/pd" | grep -q "^perfdb-record-"'
for target in v5 r.db .; do
	"$PERFDB" record -q -o "$T/pd/r.db" --perf-data "$T/pd/$target" -r sched -- true >/dev/null 2>"$T/pd/err"
	rc=$?
	check "record --perf-data $target (exists): exit 2, one line, nothing replaced or renamed, no session added" \
		eval '[ $rc = 2 ] && [ "$(lines "$T/pd/err")" = 1 ] && [ "$(sha "$T/pd/v5")" = "$sum" ] &&
			[ "$(cat "$T/pd/v5.old")" = old ] && [ ! -e "$T/pd/r.db.old" ] && [ ! -e "$T/pd/..old" ] &&
			[ "$(q "$T/pd/r.db" "SELECT count(*) FROM session")" = 1 ]'
done

# --- refuse what would mislead -------------------------------------------------------------
# a database missing a table or a column: one line naming it, exit 2,
# from readers and writers alike (no SQL text, never exit 0)
mkdir "$T/part"
cp "$T/u022/i.db" "$T/part/ns.db" && sqlite3 "$T/part/ns.db" "DROP TABLE sample"
cp "$T/u022/i.db" "$T/part/nc.db" && sqlite3 "$T/part/nc.db" "ALTER TABLE session DROP COLUMN pulse_mem"
for v in sessions report sched tree; do
	case $v in report) extra="--base x --new y" ;; *) extra= ;; esac
	# shellcheck disable=SC2086
	"$PERFDB" $v "$T/part/ns.db" $extra >"$T/part/out" 2>"$T/part/err"
	rc=$?
	check "$v on a database without its sample table: exit 2, one line naming the table, nothing on stdout" \
		eval '[ $rc = 2 ] && [ "$(lines "$T/part/err")" = 1 ] && grep -q "not a complete perfdb database: table '"'sample'"' is missing" "$T/part/err" && [ ! -s "$T/part/out" ]'
done
for v in "tree $T/part/missing.db" "folded $T/part" "sched $T/part/missing.db"; do
	# shellcheck disable=SC2086
	"$PERFDB" $v >/dev/null 2>"$T/part/err"
	rc=$?
	check "$v: exit 2, one line from the opener (as every verb), not a usage error" \
		eval '[ $rc = 2 ] && [ "$(lines "$T/part/err")" = 1 ] && grep -Eq "No such file or directory|is a directory" "$T/part/err"'
done
"$PERFDB" tree 12 >/dev/null 2>"$T/part/err"
rc=$?
check "tree 12 (a session where the database goes): exit 1, the usage line" \
	eval '[ $rc = 1 ] && grep -q "a session is given as" "$T/part/err"'
"$PERFDB" import -o "$T/part/nc.db" "$T/c.data" >/dev/null 2>"$T/part/err"
rc=$?
check "import into a database that lacks a column: exit 2, one line naming it, nothing added" \
	eval '[ $rc = 2 ] && [ "$(lines "$T/part/err")" = 1 ] && grep -q "table '"'session'"' has no column '"'pulse_mem'"'" "$T/part/err" &&
		[ "$(q "$T/part/nc.db" "SELECT count(*) FROM session")" = "$(q "$T/u022/i.db" "SELECT count(*) FROM session")" ]'

mkdir "$T/ref"
cp "$T/u022/i.db" "$T/ref/e.db"	# small: its hash is taken twice
before=$(sha "$T/ref/e.db")
# one_line_2 DESC WHAT CMD...: CMD exits 2 with one line on stderr matching WHAT.
one_line_2() {
	_d=$1 _w=$2; shift 2
	"$@" >/dev/null 2>"$T/ref/err"
	_rc=$?
	if [ $_rc = 2 ] && [ "$(lines "$T/ref/err")" = 1 ] && grep -q -- "$_w" "$T/ref/err"; then ok "$_d"
	else not_ok "$_d (exit $_rc)"; sed 's/^/#   /' "$T/ref/err" | head -3; fi
}
one_line_2 "import --kallsyms /nonexistent into a new database: exit 2, one line" \
	"perfdb import: --kallsyms /nonexistent: No such file or directory" \
	"$PERFDB" import -o "$T/ref/n.db" --kallsyms /nonexistent "$T/c.data"
one_line_2 "import --btf /nonexistent: exit 2, one line" "--btf /nonexistent: No such file" \
	"$PERFDB" import -o "$T/ref/n.db" --btf /nonexistent "$T/c.data"
one_line_2 "import --dwarf DIRECTORY: exit 2, one line" "--dwarf $T: Is a directory" \
	"$PERFDB" import -o "$T/ref/n.db" --dwarf "$T" "$T/c.data"
one_line_2 "import --kallsyms /nonexistent into an existing database: exit 2, one line" \
	"--kallsyms /nonexistent" "$PERFDB" import -o "$T/ref/e.db" --kallsyms /nonexistent "$T/c.data"
one_line_2 "record --btf /nonexistent: exit 2, one line" "perfdb record: --btf /nonexistent" \
	"$PERFDB" record -o "$T/ref/n.db" -r sched --btf /nonexistent -- true
one_line_2 "record --dwarf /nonexistent into an existing database: exit 2, one line" "--dwarf /nonexistent" \
	"$PERFDB" record -o "$T/ref/e.db" -r sched --dwarf /nonexistent -- true
one_line_2 "layout --btf /nonexistent: exit 2, one line" "perfdb layout: --btf /nonexistent" \
	"$PERFDB" layout "$T/ref/e.db" --btf /nonexistent -t mm_struct
off=$(($(sed 's/.*[-,]//' /sys/devices/system/cpu/online) + 1))
one_line_2 "record -C $off (not online): exit 2, one line naming the online CPUs" \
	"-C $off: CPU $off is not online (online CPUs: $(cat /sys/devices/system/cpu/online))" \
	"$PERFDB" record -o "$T/ref/n.db" -r sched -C "$off" -- true
one_line_2 "record -C 0,$off into an existing database: exit 2" "CPU $off is not online" \
	"$PERFDB" record -o "$T/ref/e.db" -r sched -C "0,$off" -- true
check "... none of them made a database, changed the existing one or left a directory" \
	eval '[ ! -e "$T/ref/n.db" ] && [ "$(sha "$T/ref/e.db")" = "$before" ] && no_tmp_left "$T/ref" &&
		[ "$(ls "$T/ref")" = "e.db
err" ]'
"$PERFDB" record -q -o "$T/ref/e.db" -r sched -C 0 -- true 2>"$T/ref/err"
rc=$?
check "record -C 0 (online) records: exit 0, a session more" \
	eval '[ $rc = 0 ] && [ "$(q "$T/ref/e.db" "SELECT count(*) FROM session")" = $(($(q "$T/u022/i.db" "SELECT count(*) FROM session") + 1)) ]'
: >"$T/ref/empty.db"
for v in sessions "sched -s 1" "results" "layout -t mm_struct"; do
	# shellcheck disable=SC2086 # the verb's words
	one_line_2 "$v on an empty file: exit 2, one line saying so" "empty file, not a perfdb database" \
		"$PERFDB" ${v%% *} "$T/ref/empty.db" $(echo "$v" | sed -n 's/^[a-z]* //p')
	# shellcheck disable=SC2086
	one_line_2 "$v on a missing file: exit 2, one line" "missing.db: No such file or directory" \
		"$PERFDB" ${v%% *} "$T/ref/missing.db" $(echo "$v" | sed -n 's/^[a-z]* //p')
done
check "... the empty file stays empty, the missing one missing" \
	eval '[ ! -s "$T/ref/empty.db" ] && [ ! -e "$T/ref/missing.db" ]'
mkfifo "$T/ref/fifo.db"
one_line_2 "sessions on a FIFO: exit 2 at once (no writer awaited), one line" "not a regular file" \
	timeout 20 "$PERFDB" sessions "$T/ref/fifo.db"
one_line_2 "import -o a FIFO: exit 2 at once, one line" "not a regular file" \
	timeout 20 "$PERFDB" import -o "$T/ref/fifo.db" "$T/c.data"
one_line_2 "sched on a perf.data file: exit 2, says so with the import command" \
	"a perf.data recording, not a perfdb database; import it with: perfdb import" \
	"$PERFDB" sched "$T/c.data"

echo "1..$n"
[ "$failed" -eq 0 ]
