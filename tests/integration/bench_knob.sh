#!/bin/sh
# perfdb bench --set PATH={NAME}: a knob in the matrix, on a real one
# (THP's enabled file): each run sees its cell's setting (the workload
# prints it), each run's values are stored (run_knob), the original
# setting is back after the bench, after SIGINT and SIGTERM, and after a
# kill -9 the next bench of the database writes it back and says so (a
# bench of another label, and --resume); perfdb doctor DB lists a knob a
# dead bench left. A value the kernel refuses fails that run and the bench
# goes on; a file outside /sys, /proc/sys and debugfs, /etc/passwd, a
# {NAME} that is no parameter and a file that cannot be written are
# refused before anything runs. Needs root and THP: skipped otherwise.
# The machine's own THP setting is written back at the end, whatever
# happens. Prints TAP lines. Run from the repository root:
# sh tests/integration/bench_knob.sh
# shellcheck disable=SC2016 # eval'd checks expand their variables late
. "$(dirname "$0")/lib/setup.sh"
THP=/sys/kernel/mm/transparent_hugepage/enabled
if [ "$(id -u)" != 0 ] || [ ! -w "$THP" ]; then
	skip "bench --set needs root and $THP"
	tap_end
fi
REAL=$(sed 's/.*\[\(.*\)\].*/\1/' "$THP")
at_exit "echo $REAL >$THP"
echo madvise >"$THP"	# a known setting, neither of the cells'
private_perfdb
DB=$T/k.db
q() { sqlite3 "$DB" "$1"; }
bench() { "$PERFDB" bench -o "$DB" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }
one_line_err() { [ "$(wc -l <"$T/err")" -eq 1 ]; }
thp() { sed 's/.*\[\(.*\)\].*/\1/' "$THP"; }
SEEN='echo metric=seen value=$(grep -c "\[always\]" '"$THP"')'
TAP_ERR=$T/err

# --- a sweep: each run sees its cell's setting ----------------------------
bench -l k --runs 2 -p thp=always,never --set "$THP={thp}" -- sh -c "$SEEN"
check "a THP sweep (--set the only use of {thp}): exit 0" rc_is 0
check "each run's metric is its cell's setting (1 under always, 0 under never)" \
	eval '[ "$(q "SELECT group_concat(x, '"' '"') FROM (SELECT c.value || '"'='"' || m.value AS x FROM bench_run r
	  JOIN run_metric m ON m.run_id = r.id JOIN bench_cell c ON c.bench_id = r.bench_id AND c.cell = r.cell ORDER BY r.seq)")" = "always=1.0 never=0.0 always=1.0 never=0.0" ]'
check "each run's knob value is stored (run_knob)" \
	eval '[ "$(q "SELECT count(*), sum(k.path = '"'$THP'"' AND k.value = c.value) FROM bench_run r JOIN run_knob k ON k.run_id = r.id
	  JOIN bench_cell c ON c.bench_id = r.bench_id AND c.cell = r.cell")" = "4|4" ]'
check "the original setting is back after the bench" eval '[ "$(thp)" = madvise ]'
check "bench_knob: the original saved (the bracketed word) and marked written back" \
	eval '[ "$(q "SELECT original, restored_at IS NOT NULL FROM bench_knob")" = "madvise|1" ]'
check "the plan holds the --set template (and bench_set)" \
	eval 'q "SELECT plan FROM bench" | grep -qF "\"set\":[{\"path\":\"$THP\",\"value\":\"{thp}\"}]" &&
	  [ "$(q "SELECT path || '"' '"' || value FROM bench_set")" = "$THP {thp}" ]'
bench --resume -l k --again
check "--resume --again sets the knobs from the stored plan" \
	eval 'rc_is 0 && [ "$(q "SELECT count(*) FROM run_knob")" = 8 ] && [ "$(thp)" = madvise ] &&
	  [ "$(q "SELECT count(*) FROM bench_knob WHERE restored_at IS NOT NULL")" = 2 ]'
bench -l bad --runs 1 -p thp=always,bogus --set "$THP={thp}" -- sh -c "$SEEN"
check "a value the kernel refuses fails that run with why, the other runs" \
	eval 'rc_is 2 && [ "$(q "SELECT group_concat(status, '"' '"') FROM (SELECT r.status FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE b.label = '"'bad'"' ORDER BY r.seq)")" = "ok failed" ] &&
	  q "SELECT error FROM bench_run WHERE status = '"'failed'"'" | grep -q "bogus.*$THP" && [ "$(thp)" = madvise ]'

# --- stopped: SIGINT, SIGTERM, kill -9 --------------------------------------
# start_bg DB LABEL: a bench of sleeps in the background ($pid), once its
# knob is set.
start_bg() {
	"$PERFDB" bench -o "$1" -l "$2" --runs 3 -p thp=always,never --set "$THP={thp}" -- sleep 0.2 \
		>/dev/null 2>"$T/bg.err" &
	pid=$!
	i=0
	while [ "$(thp)" = madvise ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
}
for sig in INT TERM; do
	start_bg "$T/$sig.db" s
	kill -"$sig" $pid
	wait $pid
	rc=$?
	check "SIG$sig: exit 130 and the setting written back" \
		eval '[ $rc = 130 ] && [ "$(thp)" = madvise ] &&
		  [ "$(sqlite3 "$T/$sig.db" "SELECT count(*) FROM bench_knob WHERE restored_at IS NULL")" = 0 ]'
done
start_bg "$T/kill.db" gone
kill -9 $pid
wait $pid 2>/dev/null
check "kill -9 leaves the knob changed (the test's premise)" eval '[ "$(thp)" != madvise ]'
"$PERFDB" doctor "$T/kill.db" --format json >"$T/doctor.json" 2>"$T/err"
check "perfdb doctor DB lists the knob a dead bench left" python3 - "$T/doctor.json" "$THP" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["findings"]["knobs"]
assert [(r["path"], r["state"], r["original"], r["label"]) for r in rows] == \
    [(sys.argv[2], "left changed by a bench that died", "madvise", "gone")], rows
PY
DB=$T/kill.db
bench -l other --runs 1 -- sh -c 'echo metric=x value=1'
check "the next bench of the database (another label) writes it back and says so in one line" \
	eval 'rc_is 0 && [ "$(thp)" = madvise ] && [ "$(grep -c "wrote '"'madvise'"' back to $THP, which bench '"'gone'"'" "$T/err")" = 1 ] &&
	  [ "$(q "SELECT count(*) FROM bench_knob WHERE restored_at IS NULL")" = 0 ]'
start_bg "$T/kill.db" gone
kill -9 $pid
wait $pid 2>/dev/null
bench --resume -l gone -q
check "and --resume of the dead bench does too" \
	eval '[ "$(thp)" = madvise ] && grep -q "wrote '"'madvise'"' back to $THP" "$T/err" &&
	  [ "$(q "SELECT count(*) FROM bench_knob WHERE restored_at IS NULL")" = 0 ]'

# --- refused before anything runs -------------------------------------------
DB=$T/refused.db
echo x >"$T/file"
ln -s /etc/passwd "$T/link"
for set in "$T/file={thp}" "/etc/passwd={thp}" "$T/link={thp}" "$THP={nope}" \
	/sys/kernel/mm/transparent_hugepage/hpage_pmd_size={thp} "/proc/sys={thp}"; do
	bench -l r --runs 1 -p thp=always,never --set "$set" -- sh -c "$SEEN"
	check "--set $set: refused, exit 1, one line, no database" \
		eval 'rc_is 1 && one_line_err && [ ! -e "$DB" ] && [ "$(thp)" = madvise ]'
done
ln -s "$THP" "$T/thp"
bench -l r -p thp=always --set "$THP={thp}" --set "$T/thp=never" -- true
check "two --set of one file (a symbolic link resolved) are refused" \
	eval 'rc_is 1 && one_line_err && grep -q "are one file ($THP)" "$T/err"'
bench -l r -p thp=always -p x=1 --set "$THP={thp}" -- true
check "a parameter used neither in the command nor in a --set is refused" \
	eval 'rc_is 1 && grep -q "parameter x is not used in the command nor in a --set" "$T/err"'
tap_end
