#!/bin/sh
# Integration test of the watch recipe (perfdb record -r watch --watch ...)
# and perfdb watch, on real recordings made here with hardware
# write-watchpoints: workloads/falseshare on two CPUs watched on fields of
# its global fs_shared (store always vs check, packed vs padded vs shared:
# writes per CPU, ownership transfers, the verdicts; per-event counts
# against perf script on the kept perf.data; the reported store site is the
# instruction before the sample ip, checked with objdump), four watches and
# a fifth refused, a 16-byte field partly watched, a kernel refusal
# (cpu_entry_area) and a busy debug register given with the kernel's
# reason, TYPE.FIELD@ADDR, the workload's rate with --watch-baseline, a
# sched recipe beside, SIGINT, SIGTRAP (falseshare runs on; another workload
# dies, with a note), and mm_struct.mm_count of yield's worker
# process (--watch-mm fork) written from the scheduler; perfdb hitm on a
# watch session gives perfdb watch's document, whose tables cachelines and
# fields have the columns memory samples fill too.
# The canary: each recording's row of watch_canary (1000 writes to a
# variable of perfdb's, all caught; recorded beside two watches, a probe
# beside four), never a field of perfdb watch; and what perfdb says where
# hardware watchpoints are accepted and never fire (some virtual machines
# do that): record exits 2 with one line and stores nothing, doctor's
# watch recipe is not ok. An oracle perfdb takes no part in tells which
# machine this is: perf stat -e mem:ADDR/8:w counting 1000 writes of
# tests/quirk/bpwrite. Where it counts them all, everything runs; where
# it counts none, the recordings' checks are skipped, saying so. The
# machine that does not fire is also made here, on every machine, with
# tests/quirk/deafbp.so preloaded into perfdb and perf (breakpoints
# accepted, moved to a word nothing writes), which the oracle confirms.
# Kernel-address watchpoints (mm_struct.FIELD) are tried only where the
# kernel takes them (perf stat -a -e mem:KADDR/8:w, KADDR a kernel data
# symbol); some kernels refuse them even to root (EPERM), and their
# checks are then skipped, saying so. Prints TAP lines.
# Run from the repository root: sh tests/integration/watch.sh
# Env: PERFDB (default $PWD/build/perfdb), PERFDB_BUILD (default build).
# shellcheck disable=SC2016 # eval'd checks expand their variables late
. "$(dirname "$0")/lib/setup.sh"
W=$(cd "$B/workloads" 2>/dev/null && pwd)
DB=$T/w.db
n=0
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
q() { sqlite3 "$DB" "$1"; }
# rec ARGS...: perfdb record -o $DB ARGS; stdout, stderr, status in $T/{out,err,rc}
rec() {
	"$PERFDB" record -o "$DB" "$@" >"$T/out" 2>"$T/err"
	echo $? >"$T/rc"
}
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }
nsessions() { [ -s "$DB" ] && q "SELECT count(*) FROM session" 2>/dev/null || echo 0; }
no_tmp_left() { ! ls -a "$T" | grep -q '^\.perfdb-record-'; }
# wj: perfdb watch --format json of the latest session into $T/w.json
wj() { "$PERFDB" watch "$DB" --format json >"$T/w.json" 2>>"$T/err"; }
# js EXPR: python expression over j (the JSON document), s (its findings),
# f (its fields rows by watch name) and w (the first watched window) is true
js() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); s=j["findings"]
f={x["watch"]: x for x in s["fields"]}; w=s["windows"][0]
sys.exit(0 if eval(sys.argv[2]) else 1)' "$T/w.json" "$1"
}
# cpus_of WATCH: the CPUs that wrote the watched field, comma separated
cpus_of() {
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["findings"]
print(",".join(str(c["cpu"]) for c in s["cpus"] if c["watch"] == sys.argv[2]))' "$T/w.json" "$1"
}
end() { echo "1..$n"; exit 0; }

for tool in perf sqlite3 python3; do
	command -v $tool >/dev/null 2>&1 || { skip "watch: no $tool here"; end; }
done
[ "$(id -u)" = 0 ] || { skip "watch: needs root (system-wide watchpoints)"; end; }
if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then skip "watch: needs two CPUs"; end; fi
[ -x "$W/falseshare" ] && [ -x "$W/yield" ] || { not_ok "workloads are built"; end; }
FS=$W/falseshare
QK=$(cd "$B/tests/quirk" 2>/dev/null && pwd)
[ -x "$QK/bpwrite" ] && [ -f "$QK/deafbp.so" ] || { not_ok "tests/quirk is built"; end; }
DEAF=$QK/deafbp.so
# ASan's runtime wants to come first in a process; the preloaded library does.
DEAF_ASAN=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

# The oracles: whether watchpoints fire (bp_caught), whether the kernel
# takes them on its own addresses.
. "$(dirname "$0")/lib/watchpoints.sh"
fires=$(bp_caught)
echo "# oracle: perf stat's watchpoint caught ${fires:-none} of 1000 writes of bpwrite"
[ -n "$fires" ] || { skip "watch: perf stat cannot open a hardware watchpoint here"; end; }
# Whether the kernel takes watchpoints on its own addresses (a kernel
# data symbol's, else the first symbol's).
kaddr=$(awk '$2 ~ /^[dDbB]$/ && $1 !~ /^0+$/ { print "0x" $1; exit }' /proc/kallsyms)
[ -n "$kaddr" ] || kaddr=$(awk '$1 !~ /^0+$/ { print "0x" $1; exit }' /proc/kallsyms)
if [ -z "$kaddr" ]; then
	kwatch="" kwhy="/proc/kallsyms shows no kernel address to watch"
elif perf stat -a -e "mem:$kaddr/8:w" -- true >/dev/null 2>"$T/kperf"; then
	kwatch=1
else
	kwatch=""
	kwhy="the kernel refuses watchpoints on kernel addresses here (perf stat -a -e mem:$kaddr/8:w: $(grep -m1 -iE 'permission|denied|not supported|invalid' "$T/kperf" || echo failed))"
fi
[ -n "$kwatch" ] || echo "# $kwhy"


# --- usage errors: nothing runs -----------------------------------------------
rec -r watch --watch a,b,c,d,e -- "$FS"
check "a fifth watch: exit 1, says 4 debug registers" \
	eval 'rc_is 1 && grep -q "at most 4 watches: x86 has 4 debug registers (5 given)" "$T/err"'
rec -r watch --watch fs_shared.packed.bitmap_a,mm_struct.mm_count --watch a,b,c -- "$FS"
check "five over two --watch options: refused too" eval 'rc_is 1 && grep -q "(5 given)" "$T/err"'
rec -r watch -- "$FS"
check "-r watch without --watch: exit 1" eval 'rc_is 1 && grep -q "needs --watch" "$T/err"'
rec --watch mm_struct.mm_count -- "$FS"
check "--watch without -r watch: exit 1" eval 'rc_is 1 && grep -q "need -r watch" "$T/err"'
rec -r watch --watch mm_struct.no_such_field -- "$FS"
check "an unknown mm_struct field: exit 1, named" eval 'rc_is 1 && grep -q "no member .no_such_field." "$T/err"'
rec -r watch --watch fs_nosuch -- "$FS"
check "an unknown symbol of the binary: exit 1" eval 'rc_is 1 && grep -q "has no symbol .fs_nosuch." "$T/err"'
rec -r watch --watch fs_shared.packed.nope -- "$FS"
check "an unknown field of the global (DWARF): exit 1" eval 'rc_is 1 && grep -q "no member .packed.nope." "$T/err"'
rec -r watch --watch fs_shared:3 -- "$FS"
check "LEN 3: exit 1" eval 'rc_is 1 && grep -q "1, 2, 4 or 8" "$T/err"'
check "usage errors left no database and no temporary directory" eval '[ ! -e "$DB" ] && no_tmp_left'

# --- the kernel's refusals ---------------------------------------------------------------------
before=$(nsessions)
rec -r watch --watch 'mm_struct.mm_count@0xfffffe0000001000' -- "$FS" --seconds 0.2
check "a watchpoint the kernel refuses (cpu_entry_area): exit 2, its errno and reason, nothing recorded" \
	eval 'rc_is 2 && grep -q "perf_event_open(PERF_TYPE_BREAKPOINT mem:0xfffffe0000001000/4:w, cpu 0).*Invalid argument" "$T/err" && grep -q "nothing recorded" "$T/err" && [ "$(nsessions)" = "$before" ] && no_tmp_left'
check "... and the workload did not run" eval '! grep -q "^metric=" "$T/out"'
a=0x10000	# user addresses nothing maps: accepted, never written
perf stat -a -e "mem:$a/8:w,mem:$((a + 8))/8:w,mem:$((a + 16))/8:w,mem:$((a + 24))/8:w" -- sleep 30 >/dev/null 2>&1 &
busy=$!
# perfdb starts once perf stat holds its 4 events on every CPU (its
# perf_event fds), or perf stat has ended, not after a fixed sleep: a
# loaded machine can start perf slower than that.
held() { [ "$(ls -l "/proc/$busy/fd" 2>/dev/null | grep -c 'perf_event')" -ge $((4 * $(getconf _NPROCESSORS_ONLN))) ]; }
t0=$(date +%s)
while kill -0 "$busy" 2>/dev/null && ! held && [ $(($(date +%s) - t0)) -lt 25 ]; do sleep 0.1; done
rec -r watch --watch fs_shared.packed.bitmap_a -- "$FS" --seconds 0.2
kill "$busy" 2>/dev/null
wait "$busy" 2>/dev/null
if grep -q "mem:.*Invalid argument" "$T/err"; then
	skip "busy debug registers: perf stat could not hold them here"
else
	check "all 4 debug registers taken by another perf: exit 2, no free debug register" \
		eval 'rc_is 2 && grep -q "No space left on device: no free debug register" "$T/err" && [ "$(nsessions)" = "$before" ]'
fi

# --- watchpoints that are accepted and never fire (made so here) ------------------------------
rm -f "$DB"	# (whatever a failed check above left)
deaf=$(bp_caught "$DEAF")
check "the preloaded library makes watchpoints deaf: the oracle then catches 0 of 1000 writes" \
	eval '[ "$deaf" = 0 ]'
# deaf_rec ARGS...: rec with deafbp.so preloaded into perfdb and perf
deaf_rec() {
	env LD_PRELOAD="$DEAF" ASAN_OPTIONS="$DEAF_ASAN" "$PERFDB" record -o "$DB" "$@" >"$T/out" 2>"$T/err"
	echo $? >"$T/rc"
}
# one_line TEXT: TEXT is on stderr once, and no other line says "perfdb record: watch: hardware"
one_line() { [ "$(grep -c "perfdb record: watch: hardware watchpoints do not fire" "$T/err")" = 1 ] && grep -qF "$1" "$T/err"; }
dump() { sqlite3 "$DB" .dump 2>/dev/null | cksum; }
deaf_rec -r watch --watch fs_shared.packed.bitmap_a,fs_shared.packed.bitmap_b \
	-- "$FS" --threads 2 --layout packed --seconds 0.3
grep "do not fire" "$T/err" | sed 's/^/# /'
check "deaf watchpoints, two watches: exit 2, one line: 0 of 1000 writes to the canary were caught" \
	eval 'rc_is 2 && one_line "perfdb record: watch: hardware watchpoints do not fire here: 0 of 1000 writes to a watched variable were caught (perfdb'"'"'s canary, recorded beside the watches); the recording is not stored"'
check "... the workload ran, and nothing is stored: no database left, no temporary directory" \
	eval 'grep -q "^metric=" "$T/out" && [ ! -e "$DB" ] && no_tmp_left'
"$PERFDB" record -q -o "$DB" -- true >/dev/null 2>&1	# a database holding a session
was=$(dump)
deaf_rec -r watch --watch fs_shared.packed.bitmap_a,fs_shared.packed.bitmap_b,fs_shared.padded.bitmap_a,fs_shared.bitmap \
	-- "$FS" --threads 2 --layout packed --seconds 0.3
check "deaf watchpoints, four watches (the canary a probe): exit 2, one line, the workload never ran" \
	eval 'rc_is 2 && one_line "perfdb record: watch: hardware watchpoints do not fire here: 0 of 1000 writes to a watched variable were caught (perfdb'"'"'s canary, counted apart); nothing recorded" && ! grep -q "^metric=" "$T/out"'
check "... and the database is as it was" eval '[ "$(nsessions)" = 1 ] && [ "$(dump)" = "$was" ] && no_tmp_left'
rm -f "$DB"
env LD_PRELOAD="$DEAF" ASAN_OPTIONS="$DEAF_ASAN" "$PERFDB" doctor >"$T/doctor" 2>"$T/err"
grep "^recipe watch" "$T/doctor" | sed 's/^/# deaf: /'
check "deaf watchpoints: doctor's watch recipe is not ok, and says what it saw" \
	grep -Eq "^recipe watch +no +hardware watchpoints are accepted but do not fire: 0 of 1000 writes caught" "$T/doctor"

# --- this machine's watchpoints: the oracle decides what runs ---------------------------------------
"$PERFDB" doctor >"$T/doctor" 2>"$T/err"
grep "^recipe watch" "$T/doctor" | sed 's/^/# /'
if [ "$fires" -lt 1000 ]; then
	rec -r watch --watch fs_shared.packed.bitmap_a,fs_shared.packed.bitmap_b \
		-- "$FS" --threads 2 --layout packed --seconds 0.3
	grep "do not fire" "$T/err" | sed 's/^/# /'
	check "watchpoints do not fire here: record exits 2, one line, what was seen, nothing stored" \
		eval 'rc_is 2 && one_line " of 1000 writes to a watched variable were caught (perfdb'"'"'s canary, recorded beside the watches); the recording is not stored" && [ ! -e "$DB" ] && no_tmp_left'
	check "watchpoints do not fire here: doctor's watch recipe is not ok, and says what it saw" \
		grep -Eq "^recipe watch +no +hardware watchpoints are accepted but do not fire: [0-9]+ of 1000 writes caught" "$T/doctor"
	skip "the recordings' checks: hardware watchpoints do not fire here (perf stat's watchpoint caught $fires of 1000 writes of bpwrite)"
	end
fi
check "doctor: the watch recipe is ok, its watchpoint caught 1000 of 1000 writes" \
	grep -Eq "^recipe watch +ok +.* caught 1000 of 1000 writes" "$T/doctor"

# --- packed, store always: false sharing ------------------------------------------
rec -r watch --watch fs_shared.packed.bitmap_a,fs_shared.packed.bitmap_b --perf-data "$T/p.data" \
	-- "$FS" --threads 2 --layout packed --store always --seconds 0.5
S=$(q "SELECT max(id) FROM session")
check "packed/always: exit 0, one session" eval 'rc_is 0 && [ "$(nsessions)" = 1 ]'
check "the workload's metric line passes through" grep -q '^metric=falseshare_ops_per_sec ' "$T/out"
check "watch rows: two symbol fields of struct fs_shared, 8 bytes each, offsets 0 and 8" \
	eval '[ "$(q "SELECT group_concat(field || \"@\" || offset || \"/\" || len || \"/\" || kind || \"/\" || type_name, \" \") FROM watch WHERE session_id = $S")" = "fs_shared.packed.bitmap_a@0/8/symbol/struct fs_shared fs_shared.packed.bitmap_b@8/8/symbol/struct fs_shared" ]'
check "the events are the watched addresses (mem:0xADDR/8:w, bp_addr in config1)" \
	eval '[ "$(q "SELECT count(*) FROM watch w JOIN event e ON e.session_id = w.session_id AND e.type = 5 AND e.config1 = w.addr AND e.config2 = w.len WHERE w.session_id = $S")" = 2 ]'
PACKED=$S
check "the canary: recorded beside the watches, its event last, 1000 writes by perfdb, all caught" \
	eval '[ "$(q "SELECT c.how, c.len, c.writes, c.seen, e.idx = (SELECT max(idx) FROM event WHERE session_id = $S AND type = 5) FROM watch_canary c JOIN event e ON e.session_id = c.session_id AND e.type = 5 AND e.config1 = c.addr AND e.config2 = c.len WHERE c.session_id = $S")" = "recorded|8|1000|1000|1" ] && [ "$(q "SELECT p.comm FROM watch_canary c JOIN process p ON p.session_id = c.session_id AND p.pid = c.pid WHERE c.session_id = $S LIMIT 1")" = perfdb ]'
cev=$(q "SELECT printf('mem:0x%x', addr) || '|' || pid FROM watch_canary WHERE session_id = $S")
cmdline=$(q "SELECT perf_cmdline FROM session WHERE id = $S")
echo "# perf_cmdline: $cmdline"
check "perf ran system-wide, started disabled, enabled through its control fds, monotonic clock" \
	eval 'case "$cmdline" in *"record -o $T/p.data -a -m 1024 -g -e mem:0x"*"/8:w -e mem:0x"*"/8:w -D -1 --control fd:"*" -k monotonic") true ;; *) false ;; esac'
perf script -F event -i "$T/p.data" 2>/dev/null | awk '{ sub(/:$/, "", $1); c[$1]++ }
	END { for (e in c) print e "|" c[e] }' | sort >"$T/script"
q "SELECT name || '|' || nr_samples FROM event WHERE session_id = $S AND nr_samples > 0" | sort >"$T/db"
echo "# perf script -F event: $(tr '\n' ' ' <"$T/script")"
check "per-event sample counts equal perf script's on the kept file" \
	eval '[ -s "$T/script" ] && cmp -s "$T/script" "$T/db"'
check "perf script too sees the canary's event caught 1000 writes of perfdb's pid" \
	eval '[ "$(perf script -F pid,event -i "$T/p.data" 2>/dev/null | awk -v ev="${cev%|*}:" -v pid="${cev#*|}" "\$1 == pid && \$2 == ev" | wc -l)" = 1000 ]'
wj
check "perfdb watch --format json works" eval '[ -s "$T/w.json" ]'
check "both fields written often (> 1000 writes each)" \
	js 'f["fs_shared.packed.bitmap_a"]["writes"] > 1000 and f["fs_shared.packed.bitmap_b"]["writes"] > 1000'
check "writes of all samples = perf's count of the watches' events (inside the window)" \
	eval '[ "$(python3 -c "import json,sys; s=json.load(open(sys.argv[1]))[\"findings\"]; print(sum(x[\"writes\"] for x in s[\"fields\"]))" "$T/w.json")" = "$(awk -F"|" -v ev="${cev%|*}" "\$1 != ev { t += \$2 } END { print t }" "$T/script")" ]'
check "perfdb watch: the two watches are its fields, not the canary; verified, 1000 of 1000" \
	js 'sorted(f) == ["fs_shared.packed.bitmap_a", "fs_shared.packed.bitmap_b"] and len(s["fields"]) == 2 and w["watchpoints"] == "verified" and w["canary"] == "recorded" and w["canary_writes"] == w["canary_seen"] == 1000 and not any("verdict" in t for t in j["warnings"])'
check "bitmap_a written by CPU 0 only, bitmap_b by CPU 1 only" \
	eval '[ "$(cpus_of fs_shared.packed.bitmap_a)" = 0 ] && [ "$(cpus_of fs_shared.packed.bitmap_b)" = 1 ]'
check "no transfers of a field of its own; many of the line between the fields" \
	js 'f["fs_shared.packed.bitmap_a"]["transfers"] == 0 and s["cachelines"][0]["cross_field"] > 1000 and s["cachelines"][0]["same_field"] == 0'
check "one line, verdict false sharing" \
	js 'len(s["cachelines"]) == 1 and s["cachelines"][0]["verdict"] == "false sharing"'
check "writes per second are writes / watched seconds" \
	js 'abs(f["fs_shared.packed.bitmap_a"]["writes_per_sec"] - f["fs_shared.packed.bitmap_a"]["writes"] / w["seconds"]) < 1 and 0.45 < w["seconds"] < 5'
site=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["findings"]
x=[t for t in s["sites"] if t["watch"] == "fs_shared.packed.bitmap_a"][0]; print(x["store_site"], x["ip"])' "$T/w.json")
echo "# store site and ip: $site"
check "the store site is in worker (the loop is inlined there)" eval 'case "$site" in "worker+0x"*) true ;; *) false ;; esac'
# The ip is the instruction after the store: find it with objdump.
vaddr=$(nm "$FS" | awk '$3 == "fs_shared" { print $1 }')
obj=$(q "SELECT object_addr FROM watch WHERE session_id = $S AND idx = 0")
wstart=$(nm "$FS" | awk '$3 == "worker" { print $1 }')
ipv=$(python3 -c 'import sys; print(hex(int(sys.argv[1].split()[1], 16) - (int(sys.argv[2]) - int(sys.argv[3], 16))))' "$site" "$obj" "$vaddr")
off=$(python3 -c 'import sys; print(hex(int(sys.argv[1], 16) - 1 - int(sys.argv[2], 16)))' "$ipv" "$wstart")
prev=$(objdump -d --no-show-raw-insn "$FS" | awk -v ip="${ipv#0x}" '
	{ a = $1; sub(/:$/, "", a) } a == ip { print last; exit } /^ *[0-9a-f]+:/ { last = $0 }')
echo "# instruction before ip $ipv: $prev"
check "the instruction before the sample ip stores to memory (a trap reports the next one)" \
	eval 'echo "$prev" | grep -Eq "mov.*,\(%"'
check "the store site is worker+(ip-1 - worker)" eval '[ "${site%% *}" = "worker+$off" ]'
check "text output: the verdict and the ip-1 explanation" \
	eval '"$PERFDB" watch "$DB" >"$T/w.txt" && grep -q "false sharing" "$T/w.txt" && grep -q "ip-1" "$T/w.txt"'
check "md and csv output: the field in md, csv the table cachelines alone (or fields with --table)" \
	eval '"$PERFDB" watch "$DB" --format md | grep -q "| fs_shared | fs_shared | packed.bitmap_a |" && "$PERFDB" watch "$DB" --format csv >"$T/w.csv" && head -1 "$T/w.csv" | grep -q "^idx,session,address,evidence,cpumode," && [ "$(wc -l <"$T/w.csv")" = 2 ] && "$PERFDB" watch "$DB" --format csv --table fields | grep -q ",fs_shared.packed.bitmap_a,"'
check "the kept perf.data is there, the temporary directory gone" eval '[ -s "$T/p.data" ] && no_tmp_left'

# --- packed, store check: almost no writes ---------------------------------------------
rec -r watch --watch fs_shared.packed.bitmap_a,fs_shared.packed.bitmap_b \
	-- "$FS" --threads 2 --layout packed --store check --seconds 0.5
wj
check "packed/check: exit 0" rc_is 0
check "check-first stores: at most a few writes per field (the first store)" \
	js 'all(x["writes"] <= 3 for x in s["fields"])'
check "check-first stores: fewer transfers than the verdict needs, no sharing seen" \
	js 's["cachelines"][0]["transfers"] < 10 and s["cachelines"][0]["verdict"] == "no sharing seen"'

# --- padded: no sharing; shared: true sharing ----------------------------------------------
rec -r watch --watch fs_shared.padded.bitmap_a,fs_shared.padded.bitmap_b \
	-- "$FS" --threads 2 --layout padded --seconds 0.5
wj
check "padded/always: exit 0" rc_is 0
check "padded: two lines, each written by one CPU, no sharing seen on both" \
	js 'len(s["cachelines"]) == 2 and all(c["verdict"] == "no sharing seen" and c["transfers"] == 0 for c in s["cachelines"]) and all(x["writes"] > 1000 for x in s["fields"])'
rec -r watch --watch fs_shared.bitmap -- "$FS" --threads 2 --layout shared --seconds 0.5
wj
check "shared/always: exit 0" rc_is 0
check "shared: one field written by CPUs 0 and 1" eval '[ "$(cpus_of fs_shared.bitmap)" = 0,1 ]'
check "shared: many transfers of the field itself, verdict true sharing" \
	js 'f["fs_shared.bitmap"]["transfers"] > 1000 and s["cachelines"][0]["verdict"] == "true sharing"'

# --- four watches (the canary a probe); a 16-byte field ------------------------------------------
# (mm_struct.mm_mt only where the kernel takes watchpoints on its addresses)
fourth=mm_struct.mm_mt
[ -n "$kwatch" ] || fourth=fs_shared.bitmap
rec -r watch --watch fs_shared.packed.bitmap_a,fs_shared.packed.bitmap_b,fs_shared.padded.bitmap_a,$fourth \
	-- "$FS" --threads 2 --layout packed --seconds 0.3
S=$(q "SELECT max(id) FROM session")
wj
check "four watches: exit 0, four rows, four events with samples or not" \
	eval 'rc_is 0 && [ "$(q "SELECT count(*) FROM watch WHERE session_id = $S")" = 4 ] && [ "$(q "SELECT count(*) FROM event WHERE session_id = $S AND type = 5")" = 4 ]'
check "four watches take every debug register: the canary is a probe, counted apart, 1000 of 1000" \
	eval '[ "$(q "SELECT how, event IS NULL, writes, seen FROM watch_canary WHERE session_id = $S")" = "probe|1|1000|1000" ] && grep -q "canary mem:0x.*counted apart before perf starts (the watches take every debug register)" "$T/err" && js '"'w[\"watchpoints\"] == \"verified\" and w[\"canary\"] == \"probe\" and len(s[\"fields\"]) == 4'"
if [ -n "$kwatch" ]; then
	check "mm_struct.mm_mt (16 bytes) is partly watched, and record says so" \
		eval 'grep -q "mm_struct.mm_mt (struct maple_tree, 16 bytes .*only part of it is watched: 8 of its 16 bytes" "$T/err"'
	check "its row: len 8, partial, size 16, offset 64 (as BTF says)" \
		eval '[ "$(q "SELECT len, partial, size FROM watch WHERE session_id = $S AND field = '"'mm_struct.mm_mt'"'")" = "8|1|16" ]'
	check "perfdb watch warns of it" js 'any("mm_struct.mm_mt: only its first 8 of 16 bytes" in t for t in j["warnings"])'
	check "the mm_struct is a kernel address, the globals are user addresses" \
		eval '[ "$(q "SELECT sum(kind = '"'mm'"' AND object_addr < 0) + sum(kind = '"'symbol'"' AND object_addr > 0) FROM watch WHERE session_id = $S")" = 4 ]'
else
	skip "mm_struct.mm_mt partly watched (4 checks): $kwhy"
fi

# --- TYPE.FIELD@ADDR; --watch-baseline and a recipe beside ------------------------------------
if command -v setarch >/dev/null 2>&1; then
	addr=$(printf '0x%x' $((0x555555554000 + 0x$vaddr)))
	rec -r watch --watch "mm_struct.mm_count@$addr" \
		-- setarch -R "$FS" --threads 2 --layout packed --seconds 0.3
	S=$(q "SELECT max(id) FROM session")
	wj
	check "TYPE.FIELD@ADDR (4 bytes of bitmap_a, no ASLR): exit 0, an addr row" \
		eval 'rc_is 0 && [ "$(q "SELECT kind || \"/\" || len || \"/\" || printf(\"0x%x\", addr) FROM watch WHERE session_id = $S")" = "addr/4/$addr" ]'
	# setarch execs again: that exec's loader clears the .bss page in the
	# kernel (elf_load), a few writes from any CPU besides thread 0's
	check "its writes come from CPU 0 (thread 0 writes bitmap_a), but for the loader's" \
		js 'f["mm_struct.mm_count"]["writes"] > 1000 and sum(c["writes"] for c in s["cpus"] if c["cpu"] == 0) >= 0.99 * f["mm_struct.mm_count"]["writes"]'
else
	skip "no setarch: TYPE.FIELD@ADDR not tried"
fi
rec -r watch,sched --watch-baseline --watch fs_shared.packed.bitmap_a,fs_shared.packed.bitmap_b \
	-- "$FS" --threads 2 --layout packed --seconds 0.3
S=$(q "SELECT max(id) FROM session")
wj
check "--watch-baseline with -r watch,sched: exit 0" rc_is 0
check "the sched recipe recorded beside the watchpoints" \
	eval '[ "$(q "SELECT nr_samples > 0 FROM event WHERE session_id = $S AND name = '"'sched:sched_switch'"'")" = 1 ]'
check "--watch-baseline: the metric line twice, watched and unwatched" \
	eval '[ "$(q "SELECT group_concat(watched, \",\") FROM (SELECT watched FROM workload_metric WHERE session_id = $S ORDER BY watched)")" = 0,1 ]'
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["findings"]["rates"][0]
print("# falseshare ops/s: %.0f watched, %.0f unwatched" % (r["watched"], r["unwatched"]))' "$T/w.json"
check "perfdb watch shows the watched rate far below the unwatched one (one trap per store)" \
	js 's["rates"][0]["metric"] == "falseshare_ops_per_sec" and s["rates"][0]["watched"] < s["rates"][0]["unwatched"] / 10 and s["rates"][0]["unwatched_session"] == w["session"] == s["rates"][0]["session"]'
check "the perturbation note is printed with both rates" \
	js 'any(t.startswith("falseshare_ops_per_sec: ") and " watched vs " in t for t in j["notes"])'

# --- SIGINT -------------------------------------------------------------------------------------------
"$PERFDB" record -q -o "$DB" -r watch --watch fs_shared.bitmap -- "$FS" --layout shared --seconds 20 \
	>"$T/out" 2>"$T/err" &
pid=$!
sleep 3
kill -INT "$pid"
wait "$pid"
echo $? >"$T/rc"
S=$(q "SELECT max(id) FROM session")
check "SIGINT: the workload is stopped (SIGTERM: 143), what was recorded imported, marked interrupted" \
	eval 'rc_is 143 && [ "$(q "SELECT interrupted, exit_status FROM session WHERE id = $S")" = "1|143" ] && no_tmp_left'
check "... with its watch rows and samples" \
	eval '[ "$(q "SELECT count(*) FROM watch WHERE session_id = $S")" = 1 ] && "$PERFDB" watch "$DB" --format json >"$T/w.json" && js '"'f[\"fs_shared.bitmap\"][\"writes\"] > 100'"

# --- no tracefs mounted (a fresh boot): perfdb record mounts it, as perf does -----------------------
# In a mount namespace of its own, so that the other tests keep theirs.
if [ -z "$kwatch" ]; then
	skip "no tracefs mounted (mm_struct.mm_count needs it): $kwhy"
elif unshare -m --propagation private true 2>/dev/null; then
	unshare -m --propagation private sh -c '
		awk "\$3 == \"tracefs\" || \$3 == \"debugfs\" { print \$2 }" /proc/mounts | sort -r |
			while read -r m; do umount "$m" || exit 3; done
		grep -q " tracefs " /proc/mounts && exit 3
		"$0" record -o "$1" -r watch --watch mm_struct.mm_count -- true || exit
		grep -q " /sys/kernel/tracing tracefs " /proc/mounts || exit 4' "$PERFDB" "$DB" \
		>"$T/out" 2>"$T/err"
	echo $? >"$T/rc"
	check "no tracefs mounted: record -r watch mounts it on /sys/kernel/tracing and records (exit 0)" \
		eval 'rc_is 0 && ! grep -q "no tracefs" "$T/err"'
else
	skip "no tracefs mounted: unshare -m cannot make a mount namespace here"
fi

# --- SIGTRAP: a debug exception no watchpoint claimed reaches the workload so ---------------------
# (some kernels and hypervisors deliver them now and then; sent here with kill)
"$PERFDB" record -o "$DB" -r watch --watch fs_shared.packed.bitmap_a -- "$FS" --seconds 3 \
	>"$T/out" 2>"$T/err" &
pid=$!
# Sent once falseshare catches SIGTRAP (bit 5 of SigCgt in its /proc status):
# a trap before its sigaction would kill it, however long the wait had been.
catches_trap() {
	local m
	m=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null) && [ -n "$m" ] &&
		[ $(((0x$m >> 4) & 1)) = 1 ]
}
# No fixed count of tries: perf's start (it synthesizes every process
# first) can take seconds on a loaded machine; the wait ends when perfdb does.
fs="" seen="" t0=$(date +%s)
while kill -0 "$pid" 2>/dev/null && [ $(($(date +%s) - t0)) -lt 300 ]; do
	fs=$(pgrep -P "$pid" -x falseshare) && seen=1 && catches_trap "$fs" && break
	fs=""
	sleep 0.05
done
if [ -n "$fs" ]; then
	kill -TRAP "$fs"
else
	echo "# no SIGTRAP sent after $(($(date +%s) - t0)) s: falseshare ${seen:+seen but }never caught SIGTRAP as a child of perfdb"
fi
wait "$pid"
echo $? >"$T/rc"
check "falseshare takes a SIGTRAP and runs on: exit 0, sigtraps=1 on its metric line, said on stderr" \
	eval 'rc_is 0 && grep -q "^metric=falseshare_ops_per_sec .* sigtraps=1 " "$T/out" && grep -q "1 SIGTRAP taken and ignored" "$T/err"'
anyfield=mm_struct.mm_count
[ -n "$kwatch" ] || anyfield=mm_struct.mm_count@0x10000	# a user address nothing writes
rec -r watch --watch "$anyfield" -- sh -c 'sleep 0.3; kill -TRAP $$'
S=$(q "SELECT max(id) FROM session")
check "a workload killed by SIGTRAP: exit 133, its session kept, the note says what a SIGTRAP under watchpoints means" \
	eval 'rc_is 133 && [ "$(q "SELECT exit_status FROM session WHERE id = $S")" = 133 ] && grep -q "died of SIGTRAP while the write watchpoints were armed" "$T/err"'

# --- mm_struct.mm_count of yield's worker process -------------------------------------------------------
if [ -n "$kwatch" ]; then
	rec -r watch --watch-mm fork --watch mm_struct.mm_count -- "$W/yield" --seconds 1
	S=$(q "SELECT max(id) FROM session")
	wj
	check "yield, --watch-mm fork: exit 0, the worker process's mm (fork), a kernel address" \
		eval 'rc_is 0 && [ "$(q "SELECT mm_mode, object_addr < 0 FROM watch WHERE session_id = $S")" = "fork|1" ]'
	check "the watched pid is yield's worker process, not the one perfdb started" \
		eval '[ "$(q "SELECT count(*) FROM watch w JOIN process p ON p.session_id = w.session_id AND p.pid = w.pid WHERE w.session_id = $S AND p.comm = '"'yield'"' AND p.exec_gen = 0")" -ge 1 ]'
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["findings"]
print("# mm_count: %d writes, %.1f/s, %d transfers; CPUs %s; sites %s" % (s["fields"][0]["writes"], s["fields"][0]["writes_per_sec"], s["fields"][0]["transfers"], [(c["cpu"], c["writes"]) for c in s["cpus"]], [(t["store_site"], t["writes"]) for t in s["sites"]]))' "$T/w.json"
	check "mm_count is written from the scheduler's lazy-TLB grab/drop (__schedule, finish_task_switch, mmgrab/mmdrop)" \
		js 'any(t["store_site"].split("+")[0].split(".")[0] in ("__schedule", "finish_task_switch", "context_switch", "mmgrab", "mmdrop", "__mmdrop", "mmdrop_lazy_tlb_sched", "mmgrab_lazy_tlb") for t in s["sites"])'
else
	skip "yield's mm_struct.mm_count, --watch-mm fork (3 checks): $kwhy"
	S=$PACKED	# hitm and watch compared on the packed session instead
	"$PERFDB" watch "$DB" -s "$S" --format json >"$T/w.json" 2>>"$T/err"
fi
"$PERFDB" hitm "$DB" -s "$S" --format json >"$T/h.json" 2>>"$T/err"
check "perfdb hitm on a watch session shows the watched fields, as perfdb watch" \
	python3 -c 'import json,sys; h, w = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if h["verb"] == "hitm" and w["verb"] == "watch" and all(h[k] == w[k] for k in ("sessions", "findings", "warnings", "notes")) and w["findings"]["fields"] else 1)' "$T/h.json" "$T/w.json"
# The same model for both kinds of evidence: a memory-sample fixture's
# cachelines and fields have exactly the columns of this watch session's.
if mkdir -p "$T/fx" && "$B/tests/test_hitm" --write-fixtures "$T/fx" >/dev/null 2>&1 &&
	"$PERFDB" import -q -o "$T/fx/intel.db" "$T/fx/intel.data" &&
	"$PERFDB" hitm "$T/fx/intel.db" --format json >"$T/c2c.json" 2>>"$T/err"; then
	check "cachelines and fields: the same columns from memory samples (hitm) and watchpoints (watch)" \
		python3 -c 'import json,sys; c, w = (json.load(open(p))["findings"] for p in sys.argv[1:3])
common = {"cachelines": ["idx", "session", "address", "evidence", "verdict", "verdict_detail", "fields", "cpus", "cpu_list", "objects"],
          "fields": ["idx", "session", "evidence", "line_offset", "object", "object_address", "type", "field", "offset", "size", "writers", "writer_cpus", "code_sites"]}
good = True
for t, cols in common.items():
    good &= bool(c[t]) and bool(w[t]) and list(c[t][0]) == list(w[t][0])
    good &= all(r[k] is not None for r in w[t] for k in cols if k not in ("object", "object_address"))
    good &= all(r["evidence"] == "c2c" for r in c[t]) and all(r["evidence"] == "watch" for r in w[t])
sys.exit(0 if good else 1)' "$T/c2c.json" "$T/w.json"
else
	not_ok "the memory-sample fixture for the column comparison"
fi
echo "1..$n"
