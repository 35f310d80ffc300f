#!/bin/sh
# Integration test of symbol sources through perf's build-id cache
# (collect/symbols/buildid_cache.c, dso_load.c, resolve.c), with a private cache:
# HOME=$T/home for perf record (which fills $HOME/.debug) and perfdb, and
# PERF_BUILDID_DIR (which perf sets for the scripts it runs) for perfdb:
#  - user binary: tests/programs/cgdiff_work.c recorded with cpu-clock;
#    imported while the binary is on disk (symbols from "elf"), then after
#    the file was replaced by another build: the symbols come from the
#    cache's copy, the same per-symbol sample counts as before, and perf
#    script names the same symbols; with an empty cache they are unknown
#    and the dso says why (build-id mismatch);
#  - kernel: a sched_switch recording imported with the cache's kallsyms
#    (named in session.kallsyms_source) gives the same kernel symbols as
#    /proc/kallsyms; a cache kallsyms at another KASLR base, or one written
#    before this boot, is not used: /proc/kallsyms is.
# Prints TAP lines. Run from the repository root.
# Env: PERFDB (default $PWD/build/perfdb), PERFDB_BUILD (default build).
. "$(dirname "$0")/lib/setup.sh"
PROG=tests/programs/cgdiff_work.c
private_perfdb
finish() { echo "1..${n:?}"; [ "${failed:?}" -eq 0 ]; exit $?; }

for tool in perf cc sqlite3 python3; do
	if ! command -v $tool >/dev/null 2>&1; then
		skip "$tool is not installed"
		finish
	fi
done
if ! perf record -q -e cpu-clock -o "$T/probe.data" -- true >/dev/null 2>&1; then
	skip "perf record does not work here"
	finish
fi

# q DB SQL: one value from a database.
q() { sqlite3 "$1" "$2"; }
# symbol_counts DB: "symbol count" per symbol of the work binary's samples.
symbol_counts() {
	q "$1" "SELECT y.name, count(*) FROM sample s JOIN symbol y ON y.id = s.symbol_id
		JOIN dso d ON d.id = y.dso_id WHERE d.path LIKE '%/cgdiffwork'
		GROUP BY y.name ORDER BY y.name"
}

# --- user binary -------------------------------------------------------
mkdir -p "$T/bin" "$T/home" "$T/empty"
cc -std=c11 -O0 -g -fno-omit-frame-pointer -o "$T/bin/cgdiffwork" "$PROG" ||
	{ not_ok "cc $PROG"; finish; }
HOME=$T/home perf record -q -e cpu-clock -F 999 -o "$T/user.data" -- \
	"$T/bin/cgdiffwork" --seconds 0.5 >/dev/null 2>"$T/rec.err"
check "perf record filled the private build-id cache" \
	sh -c "ls '$T'/home/.debug/.build-id/*/*/elf >/dev/null 2>&1"
HOME=$T/home "$PERFDB" import -q -o "$T/u1.db" "$T/user.data"
symbol_counts "$T/u1.db" >"$T/u1.syms"
check "work_b resolves from the binary on disk" grep -q '^work_b|' "$T/u1.syms"
check "its dso's symbols came from the ELF file" \
	test "$(q "$T/u1.db" "SELECT symbols FROM dso WHERE path LIKE '%/cgdiffwork'")" = elf

# Another build in the same place: the recorded build is only in the cache.
cc -std=c11 -O0 -g -fno-omit-frame-pointer -DVARIANT_B -o "$T/bin/cgdiffwork" "$PROG" ||
	{ not_ok "cc -DVARIANT_B $PROG"; finish; }
HOME=$T/home "$PERFDB" import -q -o "$T/u2.db" "$T/user.data"
symbol_counts "$T/u2.db" >"$T/u2.syms"
check "after a rebuild, the same symbols and counts from the cache" cmp -s "$T/u1.syms" "$T/u2.syms"
src=$(q "$T/u2.db" "SELECT symbols FROM dso WHERE path LIKE '%/cgdiffwork'")
case $src in
"build-id cache $T/home/.debug/.build-id/"*) ok "the dso names the cached copy ($src)" ;;
*) not_ok "the dso names the cached copy (got '$src')" ;;
esac
HOME=$T/home perf script -F ip,sym -i "$T/user.data" 2>/dev/null |
	awk '$2 ~ /^(work_a|work_b|work_c|recurse|helper)/ { print $2 }' | sort -u >"$T/perf.syms"
cut -d'|' -f1 "$T/u2.syms" | grep -E '^(work_a|work_b|work_c|recurse|helper)' | sort -u >"$T/db.syms"
check "perf script names the same work functions" cmp -s "$T/perf.syms" "$T/db.syms"
PERF_BUILDID_DIR=$T/empty "$PERFDB" import -q -o "$T/u3.db" "$T/user.data"
check "with an empty cache the rebuilt binary's symbols are unknown" \
	test "$(q "$T/u3.db" "SELECT count(*) FROM sample s JOIN symbol y ON y.id = s.symbol_id
		JOIN dso d ON d.id = y.dso_id WHERE d.path LIKE '%/cgdiffwork' AND y.name != '[unknown]'")" = 0
check "and the dso says why" \
	test "$(q "$T/u3.db" "SELECT symbols FROM dso WHERE path LIKE '%/cgdiffwork'")" = \
	"build-id mismatch: file on disk is another build"

# --- kernel ------------------------------------------------------------
if ! perf record -q -a -e sched:sched_switch -o "$T/k.data" -- sleep 0.2 >/dev/null 2>&1; then
	skip "no sched_switch recording here"
	finish
fi
kid=$(perf buildid-list -i "$T/k.data" 2>/dev/null | awk '$2 == "[kernel.kallsyms]" { print $1 }')
if [ -z "$kid" ]; then
	skip "the recording has no kernel build id"
	finish
fi
kdir=$T/kcache/.build-id/$(echo "$kid" | cut -c1-2)/$(echo "$kid" | cut -c3-)
mkdir -p "$kdir"
cat /proc/kallsyms >"$kdir/kallsyms"
ksyms() { q "$1" "SELECT y.name, count(*) FROM sample s JOIN symbol y ON y.id = s.symbol_id GROUP BY 1 ORDER BY 1"; }
"$PERFDB" import -q --kallsyms /proc/kallsyms -o "$T/k0.db" "$T/k.data"
PERF_BUILDID_DIR=$T/kcache "$PERFDB" import -q -o "$T/k1.db" "$T/k.data"
check "kernel symbols from the cache's kallsyms" \
	test "$(q "$T/k1.db" "SELECT kallsyms_source FROM session")" = "$kdir/kallsyms"
ksyms "$T/k0.db" >"$T/k0.syms"
ksyms "$T/k1.db" >"$T/k1.syms"
check "the same kernel symbols as /proc/kallsyms gives" cmp -s "$T/k0.syms" "$T/k1.syms"
check "and some are named" grep -q '^__schedule|' "$T/k1.syms"
# Every address moved by 2 MiB: another boot's KASLR base.
python3 -c '
import sys
for line in open("/proc/kallsyms"):
    addr, rest = line.split(" ", 1)
    sys.stdout.write("%016x %s" % (int(addr, 16) + (2 << 20), rest))' >"$kdir/kallsyms"
PERF_BUILDID_DIR=$T/kcache "$PERFDB" import -q -o "$T/k2.db" "$T/k.data"
check "a cache kallsyms at another KASLR base is not used" \
	test "$(q "$T/k2.db" "SELECT kallsyms_source FROM session")" = /proc/kallsyms
cat /proc/kallsyms >"$kdir/kallsyms"
touch -d @1 "$kdir/kallsyms"
PERF_BUILDID_DIR=$T/kcache "$PERFDB" import -q -o "$T/k3.db" "$T/k.data"
check "nor one written before this boot (modules may have moved)" \
	test "$(q "$T/k3.db" "SELECT kallsyms_source FROM session")" = /proc/kallsyms
finish
