#!/bin/sh
# Integration test of `perfdb bench` and `perfdb results`: a 2x2 matrix
# whose every stored metric is checked against what the workload printed
# (tests/programs/bench_work.sh logs it), the interleaved, sequential and
# random orders, warm-ups, resuming after SIGINT and SIGKILL (exactly the
# missing runs run; a second SIGINT; SIGHUP under nohup; --resume misuse),
# failing runs (exit status, no metric, a metric twice, a bad value, a
# timeout, closed output), what a run may not do (read stdin, leave
# processes behind), parameter names that clash with results' columns,
# plan and usage errors, recorded runs under perf
# with the perturbation, the motivating yield table, and results' numbers
# against a computation here. Prints TAP lines.
# Run from the repository root: sh tests/integration/bench.sh
# shellcheck disable=SC2016 # eval'd checks expand their variables late
. "$(dirname "$0")/lib/setup.sh"
WORK=$(pwd)/tests/programs/bench_work.sh
# A private copy: perf starts perfdb again for recorded runs.
private_perfdb workloads
DB=$T/b.db LOG=$T/log

q() { sqlite3 "$DB" "$1"; }
# bench ARGS...: perfdb bench -o $DB ARGS; stdout/stderr/status in $T/{out,err,rc}
bench() { "$PERFDB" bench -o "$DB" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }
one_line_err() { [ "$(wc -l <"$T/err")" -eq 1 ]; }

# --- a 2x2 matrix, 3 runs a cell -------------------------------------------
: >"$LOG"
bench -l m --runs 3 -p a=x,y -p b=1,2 -- sh "$WORK" "$LOG" {a} {b}
check "a 2x2 matrix of 3 runs: exit 0" rc_is 0
check "12 runs stored, every one ok" eval '[ "$(q "SELECT count(*) FROM bench_run WHERE status = '"'ok'"'")" = 12 ]'
check "the runs are interleaved: cells 0 1 2 3 0 1 2 3 0 1 2 3 in run order" \
	eval '[ "$(q "SELECT group_concat(cell, '"' '"') FROM (SELECT cell FROM bench_run ORDER BY seq)")" = "0 1 2 3 0 1 2 3 0 1 2 3" ]'
q "SELECT c1.value, c2.value, m.value FROM bench_run r JOIN run_metric m ON m.run_id = r.id
   JOIN bench_cell c1 ON c1.bench_id = r.bench_id AND c1.cell = r.cell AND c1.name = 'a'
   JOIN bench_cell c2 ON c2.bench_id = r.bench_id AND c2.cell = r.cell AND c2.name = 'b'
   ORDER BY r.seq" | awk -F'|' '{ printf "%s %s %.0f\n", $1, $2, $3 }' >"$T/stored"
awk '{ print $2, $3, $4 }' "$LOG" >"$T/printed"
check "every stored metric is the value the workload printed in that run, with the cell's parameters" \
	cmp -s "$T/stored" "$T/printed"
check "the workload's other stdout passes through, its metric lines do not" \
	eval '[ "$(grep -c "^other output of the workload$" "$T/out")" = 12 ] && ! grep -q "^metric=" "$T/out"'
check "units and better= are stored" eval '[ "$(q "SELECT DISTINCT unit || '"' '"' || better FROM run_metric")" = "ops/s higher" ]'
check "the bench knows its kernel and boot" eval '[ "$(q "SELECT boot_id = '"'$(cat /proc/sys/kernel/random/boot_id)'"' AND os_release = '"'$(uname -r)'"' AND length(kernel_build_id) >= 20 FROM bench")" = 1 ]'
"$PERFDB" results "$DB" -l m --format json >"$T/res.json" 2>"$T/err"
check "perfdb results' medians, means, spreads, min and max equal a computation from the log" \
	python3 - "$T/res.json" "$LOG" <<'PY'
import json, statistics as st, sys
d = json.load(open(sys.argv[1]))
log = [l.split() for l in open(sys.argv[2])]
rows = d["findings"]["results"]
assert d["verb"] == "results" and len(rows) == 4, rows
for r in rows:
    v = [float(x[3]) for x in log if x[1] == r["a"] and x[2] == r["b"]]
    want = {"runs": 3, "boots": 1, "median": st.median(v), "mean": st.mean(v),
            "stddev": st.stdev(v), "min": min(v), "max": max(v)}
    for k, x in want.items():
        assert abs(r[k] - x) <= 1e-9 * max(1, abs(x)), (k, r[k], x)
    assert abs(r["stddev_pct"] - 100 * st.stdev(v) / st.mean(v)) < 1e-9
    assert r["metric"] == "work" and r["unit"] == "ops/s" and r["failed"] == 0
PY
"$PERFDB" results "$DB" --format csv >"$T/res.csv"
check "results --format csv is one table, every row as many fields as the header" \
	python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); sys.exit(not (len(r) == 5 and len({len(x) for x in r}) == 1 and r[0][:3] == ["label", "a", "b"]))' "$T/res.csv"

# --- the same command again runs nothing; another plan under the label is refused
bench -l m --runs 3 -p a=x,y -p b=1,2 -- sh "$WORK" "$LOG" {a} {b}
check "the same command again: nothing left to run, exit 0" \
	eval 'rc_is 0 && [ "$(q "SELECT count(*) FROM bench_run")" = 12 ] && grep -q "0 of 12 runs to do" "$T/err"'
bench -l m --runs 4 -p a=x,y -p b=1,2 -- sh "$WORK" "$LOG" {a} {b}
check "another plan under the same label: exit 2, one line saying so" \
	eval 'rc_is 2 && one_line_err && grep -q "has another plan" "$T/err"'

# --- orders and warm-ups ---------------------------------------------------
: >"$LOG"
bench -l seq --runs 2 --order sequential -p a=x,y -p b=1 -- sh "$WORK" "$LOG" {a} {b}
check "--order sequential runs cell by cell" \
	eval '[ "$(q "SELECT group_concat(cell, '"' '"') FROM (SELECT r.cell FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE b.label = '"'seq'"' ORDER BY seq)")" = "0 0 1 1" ]'
order_of() { q "SELECT group_concat(cell, ' ') FROM (SELECT r.cell FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE b.label = '$1' ORDER BY seq)"; }
bench -l r1 --runs 4 --order random --seed 7 -p a=x,y,z -p b=1 -- sh "$WORK" "$LOG" {a} {b}
bench -l r2 --runs 4 --order random --seed 7 -p a=x,y,z -p b=1 -- sh "$WORK" "$LOG" {a} {b}
check "--order random with one seed gives one order, each cell 4 times" \
	eval '[ "$(order_of r1)" = "$(order_of r2)" ] && [ "$(order_of r1 | tr " " "\n" | sort | uniq -c | awk "{print \$1}" | sort -u)" = 4 ]'
bench -l r3 --runs 4 --order random -p a=x,y,z -p b=1 -- sh "$WORK" "$LOG" {a} {b}
check "--order random without --seed says the seed it took" grep -q "random order, seed [0-9]" "$T/err"
bench -l w --runs 2 --warmup 1 -p a=x -p b=1 -- sh "$WORK" "$LOG" {a} {b}
"$PERFDB" results "$DB" -l w --format json >"$T/w.json"
check "warm-ups run first and do not count" \
	eval '[ "$(q "SELECT group_concat(kind, '"' '"') FROM (SELECT kind FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '"'w'"' ORDER BY seq)")" = "warmup bare bare" ] &&
	      python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))[\"findings\"][\"results\"][0][\"runs\"] != 2)" "$T/w.json"'

# --- resume after SIGINT and after SIGKILL ---------------------------------
# resume_case SIG: 8 slow runs, SIG after about 1.3 s, then the same command
# (SIGINT) or --resume (SIGKILL) finishes; the second perfdb runs exactly
# the runs the first did not store.
resume_case() {
	sig=$1 label=res$1
	: >"$LOG"
	"$PERFDB" bench -o "$DB" -l $label --runs 4 -p a=x,y -p b=1 -- sh "$WORK" "$LOG" {a} {b} slow \
		>"$T/out" 2>"$T/err" &
	pid=$!
	sleep 1.3
	kill -"$sig" $pid
	wait $pid
	echo $? >"$T/rc"
	[ "$sig" = INT ] && check "SIGINT: the bench stops after the current run, exit 130, and says how to resume" \
		eval 'rc_is 130 && grep -q "Resume with: perfdb bench -o .* --resume -l $label" "$T/err"'
	sleep 0.6	# a run the SIGKILL orphaned ends (its output has no reader)
	before=$(q "SELECT count(*) FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '$label'")
	if [ "$sig" = INT ]; then
		bench -l $label --runs 4 -p a=x,y -p b=1 -- sh "$WORK" "$LOG" {a} {b} slow
	else
		bench --resume -l $label
	fi
	second=$(grep -c "^$(q "SELECT 1" >/dev/null; cat "$T/pid2" 2>/dev/null)" "$LOG" 2>/dev/null)
	total=$(q "SELECT count(*) FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '$label' AND status = 'ok'")
	slots=$(q "SELECT count(DISTINCT cell || '.' || kind || '.' || run) FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '$label'")
	# the runs the second perfdb made are the log lines whose PPID is not the first's
	second=$(awk -v p=$pid '$1 != p' "$LOG" | wc -l)
	check "SIG$sig after $before runs: the second invocation runs exactly the $((8 - before)) missing ones ($second), 8 ok runs, one per slot" \
		eval 'rc_is 0 && [ "$before" -ge 1 ] && [ "$before" -lt 8 ] && [ "$second" -eq $((8 - before)) ] && [ "$total" = 8 ] && [ "$slots" = 8 ]'
}
resume_case INT
resume_case KILL
bench --resume -l nosuch
check "--resume of a label without a bench: exit 1, one line" eval 'rc_is 1 && one_line_err'
"$PERFDB" bench -o "$DB" -l int2 --runs 4 -- sh "$WORK" "$LOG" x 1 slow >"$T/out" 2>"$T/err" &
pid=$!
sleep 0.6; kill -INT $pid; sleep 0.1; kill -INT $pid
wait $pid
echo $? >"$T/rc"
check "a second SIGINT stops the current run too: exit 130, that run not stored" \
	eval 'rc_is 130 && [ "$(q "SELECT count(*) FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '"'int2'"'")" -lt 2 ]'
(trap '' HUP; exec "$PERFDB" bench -o "$DB" -l nohup --runs 3 -- sh "$WORK" "$LOG" x 1 slow >"$T/out" 2>"$T/err") &
pid=$!
sleep 0.6; kill -HUP $pid
wait $pid
echo $? >"$T/rc"
check "SIGHUP ignored when perfdb started (nohup) stays ignored: the bench finishes, 3 runs" \
	eval 'rc_is 0 && [ "$(q "SELECT count(*) FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '"'nohup'"' AND status = '"'ok'"'")" = 3 ]'
bench --resume -l nohup --runs 9
check "--resume with a plan option: exit 1, one line (the plan is the database's)" eval 'rc_is 1 && one_line_err'
"$PERFDB" bench -o "$T/typo.db" --resume -l nohup >/dev/null 2>"$T/err"
echo $? >"$T/rc"
check "--resume naming a database that does not exist: exit 2, one line, no file made" \
	eval 'rc_is 2 && one_line_err && [ ! -e "$T/typo.db" ]'

# --- a second boot -----------------------------------------------------------
# The same label on another boot adds that boot's runs: the test stands in
# for a reboot by giving the first boot's bench another boot id.
: >"$LOG"
bench -l boots --runs 3 -p a=x -p b=1 -- sh "$WORK" "$LOG" {a} {b}
q "UPDATE bench SET boot_id = 'earlier-boot' WHERE label = 'boots'"
bench -l boots --runs 3 -p a=x -p b=1 -- sh "$WORK" "$LOG" {a} {b}
check "the same label on another boot adds a bench of that boot and runs all its runs" \
	eval 'rc_is 0 && [ "$(q "SELECT count(*) || '"' '"' || (SELECT count(*) FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '"'boots'"') FROM bench WHERE label = '"'boots'"'")" = "2 6" ]'
"$PERFDB" results "$DB" -l boots --format json >"$T/boots.json"
check "results of two boots: the median is the mean of the boots' medians, per-boot rows in boots" \
	python3 - "$T/boots.json" "$LOG" <<'PY'
import json, statistics as st, sys
f = json.load(open(sys.argv[1]))["findings"]
v = [float(l.split()[3]) for l in open(sys.argv[2])]
r = f["results"][0]
want = (st.median(v[:3]) + st.median(v[3:])) / 2
assert r["boots"] == 2 and r["runs"] == 6 and abs(r["median"] - want) < 1e-6 * want, (r, want)
assert sorted(b["median"] for b in f["boots"]) == sorted([st.median(v[:3]), st.median(v[3:])])
PY

# --- runs that fail --------------------------------------------------------
: >"$LOG"
bench -l f --runs 1 --timeout 2 -p mode=ok,fail,nometric,twice,bad,hang -- sh "$WORK" "$LOG" x 1 {mode}
check "failing runs: the bench goes on and exits 2" eval 'rc_is 2 && [ "$(q "SELECT count(*) FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '"'f'"'")" = 6 ]'
status_of() { q "SELECT r.status || ': ' || coalesce(r.error, '') FROM bench_run r JOIN bench b ON b.id = r.bench_id JOIN bench_cell c ON c.bench_id = b.id AND c.cell = r.cell WHERE b.label = 'f' AND c.value = '$1'"; }
check "a run that exits 3 is failed: exit status 3, its stdout tail kept" \
	eval 'status_of fail | grep -q "^failed: exit status 3" && [ -n "$(q "SELECT stdout_tail FROM bench_run WHERE exit_status = 3")" ]'
check "a run that prints no metric line is failed, saying so" eval 'status_of nometric | grep -q "^failed: printed no metric line"'
check "a metric printed twice is a failed run, saying so" eval 'status_of twice | grep -q "^failed: metric work printed twice"'
check "a non-numeric value is a failed run, saying so" eval 'status_of bad | grep -q "^failed: metric work: value .* is not a number"'
check "a run past --timeout is stopped and stored as a timeout" eval 'status_of hang | grep -q "^timeout: timed out after 2 s"'
check "the good run of the same bench is ok" eval 'status_of ok | grep -q "^ok: $"'
"$PERFDB" results "$DB" -l f --format json >"$T/f.json"
check "perfdb results warns of the 5 failed runs and lists them" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["findings"]; sys.exit(not (len(f["failures"]) == 5 and any("5 runs failed" in w for w in d["warnings"])))' "$T/f.json"

check "a malformed metric line still shows on stdout as the workload printed it" eval 'grep -q "^metric=work value=x" "$T/out"'
: >"$LOG"
mkfifo "$T/fifo"
sleep 60 >"$T/fifo" &
writer=$!
t0=$(date +%s%N)
bench -l g --runs 1 --timeout 2 -p mode=closed,orphan,stdin -- sh "$WORK" "$LOG" x 1 {mode} <"$T/fifo"
t1=$(date +%s%N)
kill "$writer" 2>/dev/null
status_of() { q "SELECT r.status || ': ' || coalesce(r.error, '') FROM bench_run r JOIN bench b ON b.id = r.bench_id JOIN bench_cell c ON c.bench_id = b.id AND c.cell = r.cell WHERE b.label = 'g' AND c.value = '$1'"; }
check "a run that closed its stdout and stderr still times out" eval 'status_of closed | grep -q "^timeout: timed out after 2 s"'
check "a run reads no terminal or pipe: its stdin is /dev/null (the bench took $(( (t1 - t0) / 1000000 )) ms; its stdin was a pipe held open 60 s)" \
	eval 'status_of stdin | grep -q "^ok: $" && [ $(( (t1 - t0) / 1000000000 )) -lt 20 ]'
check "a run that leaves a process behind is ok, the process is killed, the bench says so" \
	eval 'status_of orphan | grep -q "^ok: $" && ! ps -o stat= -p "$(cat "$LOG.orphan")" | grep -qv Z && grep -q "exited leaving processes that held its output" "$T/err"'
check "its wall time is its own, not the orphan's 30 s" \
	eval '[ "$(q "SELECT r.wall_ns < 5000000000 FROM bench_run r JOIN bench b ON b.id = r.bench_id JOIN bench_cell c ON c.bench_id = b.id AND c.cell = r.cell WHERE b.label = '"'g'"' AND c.value = '"'orphan'"'")" = 1 ]'

# --- parameter names ---------------------------------------------------------
"$PERFDB" results "$DB" --format json >"$T/all.json" 2>/dev/null
"$PERFDB" report "$DB" --base m --new m --format json >"$T/mm.json" 2>/dev/null
q "SELECT DISTINCT name FROM bench_param" >"$T/params"
python3 - "$T/params" "$T/all.json" "$T/mm.json" >"$T/cols" <<'PY'
import json, sys
params = set(open(sys.argv[1]).read().split())
cols = set()
def walk(v):
    if isinstance(v, list) and v and all(isinstance(r, dict) for r in v):
        for r in v:
            if params & set(r):
                cols.update(k for k in r if k not in params)
    elif isinstance(v, dict):
        for x in v.values():
            walk(x)
    if isinstance(v, list):
        for x in v:
            walk(x)
for f in sys.argv[2:]:
    walk(json.load(open(f))["findings"])
print("\n".join(sorted(cols)))
PY
taken=""
for c in $(cat "$T/cols"); do
	"$PERFDB" bench -o "$T/none.db" -l u -p "$c=1" -- true 2>/dev/null
	[ $? = 1 ] || taken="$taken $c"
done
check "every column next to the parameters in results and report ($(wc -l <"$T/cols") names) is refused as a parameter name${taken:+; accepted:$taken}" \
	eval '[ -z "$taken" ] && [ "$(wc -l <"$T/cols")" -gt 20 ] && [ ! -e "$T/none.db" ]'
bench -l u -p run=1,2 -- true
check "-p run=...: exit 1, one line naming the clash" eval 'rc_is 1 && one_line_err && grep -q "names a column of perfdb results" "$T/err"'

bench -l braces --runs 1 -p a=7 -- sh -c 'echo "metric=x value={a}"; echo "{{a}} {{ }} }"'
check "{NAME} is replaced; {{ and }} are literal braces ({{a}} gives {a}), a lone } stays" \
	eval 'rc_is 0 && grep -qx "{a} { } }" "$T/out" && [ "$(q "SELECT m.value FROM run_metric m JOIN bench_run r ON r.id = m.run_id JOIN bench b ON b.id = r.bench_id WHERE b.label = '"'braces'"'")" = 7.0 ]'

# --- usage errors ----------------------------------------------------------
for args in "--runs 2 -- true" "-l u -p 1x=a -- true" "-l u -p a=1,1 -- true" \
	"-l u -- sh -c {a}" "-l u -p a=1 -- true" "-l u --record-every 2 -- true" "-l u"; do
	# shellcheck disable=SC2086
	bench $args
	check "bench $args: exit 1, one line" eval 'rc_is 1 && one_line_err'
done
for args in "-l u -r bogus -- true" "-l u -- echo $(printf '\377')" "-l u -p a=$(printf '\300\257') -- echo {a}"; do
	# shellcheck disable=SC2086
	"$PERFDB" bench -o "$T/fresh.db" $args >"$T/out" 2>"$T/err"; echo $? >"$T/rc"
	check "bench $args: exit 1, one line, no database made" eval 'rc_is 1 && one_line_err && [ ! -e "$T/fresh.db" ]'
done
bench -l empty_r --runs 1 -r "" -- yield --seconds 0.1
check "-r '' records the profile recipe, as perfdb record -r '' does, and stores it so" \
	eval 'rc_is 0 && [ "$(q "SELECT recipes FROM bench WHERE label = '"'empty_r'"'")" = profile ]'
bench -l u -- /nonexistent/prog
check "a workload that does not exist is refused before any run: exit 2, one line" \
	eval 'rc_is 2 && one_line_err && grep -q "cannot run" "$T/err"'
check "... and no plan is stored for its label: the right command runs under it" \
	eval '[ "$(q "SELECT count(*) FROM bench WHERE label = '"'u'"'")" = 0 ] &&
	      "$PERFDB" bench -q -o "$DB" -l u --runs 1 -- sh "$WORK" "$T/u.log" 1 2 >/dev/null 2>&1'
"$PERFDB" bench -q -o "$T/never.db" -l u --runs 1 -p prog=sh,/nonexistent/prog -- {prog} "$WORK" "$T/u.log" 1 2 >/dev/null 2>"$T/err"
echo $? >"$T/rc"
check "a parameter naming a program that does not exist: refused before any run, no database made" \
	eval 'rc_is 2 && one_line_err && grep -q "cannot run '"'/nonexistent/prog'"'" "$T/err" && [ ! -e "$T/never.db" ]'

# --- recorded runs under perf ----------------------------------------------
bench -l rec --runs 2 -r sched -- yield --cpus 1 --seconds 0.3
check "-r sched: 2 bare and 2 recorded runs, each recorded run a session of the label" \
	eval 'rc_is 0 && [ "$(q "SELECT group_concat(kind || (session_id IS NOT NULL), '"' '"') FROM (SELECT kind, session_id FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '"'rec'"' ORDER BY seq)")" = "bare0 recorded1 bare0 recorded1" ] &&
	      [ "$(q "SELECT count(*) FROM session WHERE label = '"'rec'"'")" = 2 ]'
check "a recorded run's metric is stored with the run and with its session" \
	eval '[ "$(q "SELECT count(*) FROM bench_run r JOIN bench b ON b.id = r.bench_id JOIN run_metric m ON m.run_id = r.id JOIN workload_metric w ON w.session_id = r.session_id AND w.name = m.name AND w.value = m.value WHERE r.kind = '"'recorded'"' AND b.label = '"'rec'"'")" = 2 ]'
check "a recorded run has its start time and the end of its output, like a bare run" \
	eval '[ "$(q "SELECT count(*) FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '"'rec'"' AND started_ns > 1600000000000000000 AND stdout_tail LIKE '"'%metric=ctxsw_per_sec_per_cpu %'"'")" = 4 ]'
"$PERFDB" results "$DB" -l rec --format json >"$T/rec.json"
check "perfdb results states the perturbation: recorded against bare medians" \
	python3 - "$T/rec.json" "$DB" <<'PY'
import json, sqlite3, statistics as st, sys
p = json.load(open(sys.argv[1]))["findings"]["perturbation"][0]
db = sqlite3.connect(sys.argv[2])
val = lambda k: [r[0] for r in db.execute("SELECT m.value FROM bench_run r JOIN bench b ON b.id = r.bench_id JOIN run_metric m ON m.run_id = r.id WHERE b.label = 'rec' AND r.kind = ?", (k,))]
b, r = st.median(val("bare")), st.median(val("recorded"))
assert p["bare_runs"] == 2 and p["recorded_runs"] == 2
assert abs(p["bare_median"] - b) < 1e-6 and abs(p["recorded_median"] - r) < 1e-6
assert abs(p["change_pct"] - 100 * (r - b) / b) < 1e-9
print("# bare median %.0f, recorded %.0f (%+.1f%%)" % (b, r, p["change_pct"]), file=sys.stderr)
PY

# A side named by cells, LABEL:NAME=V, in the verbs that compare sessions:
# the recorded runs of those cells (found here by SQL), the same findings
# as the sessions named by id, and the note that the runs interleaved.
bench -l cells --runs 1 -p cpus=1,2 -r sched -- yield --cpus {cpus} --seconds 0.2
cell_sessions() {
	q "SELECT group_concat(session_id, ',') FROM (SELECT r.session_id FROM bench_run r JOIN bench b ON b.id = r.bench_id JOIN bench_cell c ON c.bench_id = r.bench_id AND c.cell = r.cell AND c.name = 'cpus' WHERE b.label = 'cells' AND c.value = '$1' AND r.session_id IS NOT NULL ORDER BY r.seq)"
}
s1=$(cell_sessions 1); s2=$(cell_sessions 2)
"$PERFDB" sched "$DB" --base cells:cpus=1 --new cells:cpus=2 --format json >"$T/cells.json" 2>"$T/err"
echo $? >"$T/rc"
"$PERFDB" sched "$DB" --base "$s1" --new "$s2" --format json >"$T/ids.json" 2>/dev/null
check "sched --base cells:cpus=1 --new cells:cpus=2: the recorded runs of each cell ($s1 against $s2), the findings of those sessions, the note on interleaved runs" \
	python3 - "$T/cells.json" "$T/ids.json" "$s1" "$s2" <<'PY'
import json, sys
c, i = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sides = {}
for s in c["sessions"]:
    sides.setdefault(s["side"], []).append(str(s["id"]))
assert sides == {"base": sys.argv[3].split(","), "new": sys.argv[4].split(",")}, (sides, sys.argv[3:])
f, g = dict(c["findings"]), dict(i["findings"])
assert (f.pop("base"), f.pop("new")) == ("cells:cpus=1", "cells:cpus=2") and f == {k: v for k, v in g.items() if k not in ("base", "new")}, "the findings differ"
assert any("cells of one bench (cells: cpus=1 against cpus=2)" in n for n in c["notes"]), c["notes"]
PY
"$PERFDB" sched "$DB" -s cells:cpus=2 --format json >"$T/one.json" 2>/dev/null
check "sched -s cells:cpus=2: that cell's recorded run" \
	eval '[ "$(python3 -c "import json,sys; print(\",\".join(str(s[\"id\"]) for s in json.load(open(sys.argv[1]))[\"sessions\"]))" "$T/one.json")" = "$s2" ]'
"$PERFDB" sched "$DB" --base cells:cpus=9 --new cells:cpus=2 >/dev/null 2>"$T/err"
echo $? >"$T/rc"
check "sched --base cells:cpus=9 (no such cell): exit 2, one line" eval 'rc_is 2 && one_line_err && grep -q "no cell of its bench has those values" "$T/err"'
bench -l unrec --runs 1 -p n=1,2 -- true {n}
"$PERFDB" sched "$DB" --base unrec:n=1 --new cells:cpus=2 >/dev/null 2>"$T/err"
echo $? >"$T/rc"
check "cells of a bench without recorded runs: exit 2, one line saying how to record them" eval 'rc_is 2 && one_line_err && grep -q "no run of those cells was recorded" "$T/err"'

# --- the motivating table: yield, shared vs private mm ----------------------
# Three rounds, each a sitting of perfdb's runs and then the same runs by
# hand, interleaved the same way: the machine's speed drifts by tens of
# percent between minutes, so the two are measured within seconds of
# each other; their medians against each other below.
for i in 1 2 3; do
	if [ $i = 1 ]; then
		bench -l yt --runs 1 -p cpus=1,2 -p mm=shared,private -- yield --cpus {cpus} --{mm}-mm --seconds 0.3
	else
		bench --resume -l yt --again
	fi
	rc_is 0 || break
	for cpus in 1 2; do for mm in shared private; do
		"$T/workloads/yield" --cpus $cpus --$mm-mm --seconds 0.3 2>/dev/null |
			sed -n 's/^metric=ctxsw_per_sec_per_cpu value=\([0-9]*\) .*/\1/p' >>"$T/hand.$cpus.$mm"
	done; done
done
check "yield over cpus x mm: 4 cells, 12 ok runs in 3 sittings" eval 'rc_is 0 && [ "$(q "SELECT count(*) || \" \" || count(DISTINCT r.sitting) FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE label = '"'yt'"' AND status = '"'ok'"'")" = "12 3" ]'
check "every run ran its cell: the metric line says cpus= and mode= of the cell" \
	eval '[ "$(q "SELECT count(*) FROM bench_run r JOIN bench b ON b.id = r.bench_id JOIN run_metric m ON m.run_id = r.id JOIN bench_cell c ON c.bench_id = b.id AND c.cell = r.cell AND c.name = '"'cpus'"' JOIN bench_cell k ON k.bench_id = b.id AND k.cell = r.cell AND k.name = '"'mm'"' WHERE label = '"'yt'"' AND m.line LIKE '"'% cpus='"' || c.value || '"' mode='"' || k.value || '"' %'"'")" = 12 ]'
for f in "$T"/hand.*; do sort -n "$f" | sed -n 2p >"$f.median"; done
"$PERFDB" results "$DB" -l yt --format json >"$T/yt.json"
check "perfdb results: 4 cells, parameters first, medians within 50% of the same runs made by hand (a shared machine)" \
	python3 - "$T/yt.json" "$T" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["findings"]["results"]
assert len(rows) == 4
for r in rows:
    hand = float(open("%s/hand.%s.%s.median" % (sys.argv[2], r["cpus"], r["mm"])).read())
    print("# cpus=%s %s: bench median %.0f, by hand %.0f (%+.1f%%)" % (r["cpus"], r["mm"], r["median"], hand, 100 * (r["median"] - hand) / hand), file=sys.stderr)
    assert abs(r["median"] - hand) <= 0.5 * hand
PY
"$PERFDB" results "$DB" -l yt >"$T/yt.txt"
check "the text table leads with the parameters" eval 'grep -Eq "^label +cpus +mm +metric" "$T/yt.txt"'
echo "1..$n"
[ "$failed" -eq 0 ]
