#!/bin/sh
# The inputs coverage-guided fuzzing found (tests/fuzz/regress/, see
# tests/fuzz/README.md), imported by the real binary: each perf.data file
# there, and each raw TRACING_DATA blob of regress/tracing_data/ wrapped
# in the smallest perf.data that carries it (tests/fuzz/wrap_tracing_data.py).
# Each goes into a database already holding one good session. A case
# passes when perfdb exits 0 or 2 within 120 s, prints no sanitizer report
# (make asan runs this with the ASan+UBSan build: a crash, a leak or UB in
# perfdb or the libraries it calls fails the case), and on 2 prints
# exactly one line "perfdb import: FILE: offset N: what" and leaves the database
# byte for byte as it was (no journal); on 0 the database has one session
# more. The BTF and DWARF inputs (regress/btf/, regress/dwarf/) go to
# perfdb layout --btf/--dwarf the same way. Generated BTF (tests/tools/
# btf_chain): 40 levels of prototypes whose 2 parameters point to the
# previous one (a walk per parameter: 2^40 steps) refused within 10 s (3
# levels laid out), and 300 levels (a chain longer than any kernel's)
# refused; structs past
# the layout walk's bounds (anonymous nesting, members walked) refused, as
# are members of a type without an alignment (void, a prototype ...).
. "$(dirname "$0")/lib/setup.sh"
R=$(cd "$(dirname "$0")/../fuzz" && pwd)

if [ ! -x "$PERFDB" ]; then
	echo "not ok 1 - perfdb binary $PERFDB is missing (run make first)"
	exit 1
fi
# the base database: one good session (a small recording of the corpus)
if ! "$PERFDB" import -q -o "$T/base.db" "$R/corpus/perf_data/here-cpu-clock-fp.data" 2>"$T/err"; then
	not_ok "base import of here-cpu-clock-fp.data: $(head -1 "$T/err")"
	exit 1
fi
set --
for f in "$R"/regress/*.data; do
	[ -e "$f" ] && set -- "$@" "$f"
done
for f in "$R"/regress/tracing_data/*; do
	[ -f "$f" ] || continue
	w="$T/$(basename "$f").data"
	python3 "$R/wrap_tracing_data.py" "$f" "$w" && set -- "$@" "$w"
done
[ $# -gt 0 ] || { not_ok "no inputs in $R/regress"; exit 1; }

sessions() { sqlite3 "$1" 'SELECT count(*) FROM session'; }
for f in "$@"; do
	name=$(basename "$f")
	cp "$T/base.db" "$T/db"
	timeout 120 "$PERFDB" import -q -o "$T/db" "$f" >"$T/out" 2>"$T/err"
	rc=$?
	why=
	if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$T/err"; then
		why="sanitizer report: $(grep -m1 -E 'ERROR|runtime error' "$T/err")"
	elif [ $rc -eq 2 ]; then
		if [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -qE "^perfdb import: $f: offset [0-9]+: " "$T/err"; then
			why="exit 2 without exactly one line 'perfdb import: FILE: offset N: ...': $(head -3 "$T/err" | tr '\n' '|')"
		elif ! cmp -s "$T/db" "$T/base.db" || [ -e "$T/db-journal" ]; then
			why="exit 2 but the database changed"
		fi
	elif [ $rc -eq 0 ]; then
		[ "$(sessions "$T/db")" = 2 ] || why="exit 0 without a new session"
	else
		why="exit $rc: $(grep -v '^ *#' "$T/err" | head -2 | tr '\n' '|')"
	fi
	if [ -n "$why" ]; then
		not_ok "$name: $why"
	else
		ok "$name: exit $rc$( [ $rc -eq 2 ] && printf ' (%s)' "$(sed 's/^perfdb import: [^:]*: //' "$T/err" | cut -c1-100)")"
	fi
	rm -f "$T/db" "$T/db-journal"
done
# BTF and DWARF inputs: perfdb layout --btf/--dwarf FILE on the base
# database: exit 0 or 2 (one line, the database unchanged), no sanitizer
# report.
for f in "$R"/regress/btf/* "$R"/regress/dwarf/*; do
	[ -f "$f" ] || continue
	case $f in */btf/*) opt=--btf ;; *) opt=--dwarf ;; esac
	cp "$T/base.db" "$T/db"
	timeout 120 "$PERFDB" layout "$T/db" "$opt" "$f" -t seed >"$T/out" 2>"$T/err"
	rc=$?
	why=
	if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$T/err"; then
		why="sanitizer report: $(grep -m1 -E 'ERROR|runtime error' "$T/err")"
	elif [ $rc -eq 2 ]; then
		[ "$(wc -l <"$T/err")" -eq 1 ] || why="exit 2 without exactly one line: $(head -3 "$T/err" | tr '\n' '|')"
		cmp -s "$T/db" "$T/base.db" || why="exit 2 but the database changed"
		# a BTF input is refused as such, not for the struct it lacks
		[ "$opt" = --dwarf ] || grep -qE "corrupt BTF|cannot load BTF" "$T/err" ||
			why="exit 2 for another reason than the file: $(head -1 "$T/err")"
	elif [ $rc -ne 0 ]; then
		why="exit $rc: $(head -2 "$T/err" | tr '\n' '|')"
	fi
	if [ -n "$why" ]; then
		not_ok "layout $opt $(basename "$f"): $why"
	else
		ok "layout $opt $(basename "$f"): exit $rc"
	fi
done
# generated BTF: a chain of prototypes is checked in time linear in it
BC=$(pwd)/$B/tests/tools/btf_chain
[ -x "$BC" ] || make -s BUILD="$B" "$B/tests/tools/btf_chain" >&2
"$BC" 3 2 >"$T/chain3.btf" && "$BC" 40 2 >"$T/chain40.btf" && "$BC" 300 2 >"$T/chain300.btf" ||
	not_ok "tests/tools/btf_chain writes its files"
cp "$T/base.db" "$T/db"
timeout 10 "$PERFDB" layout "$T/db" --btf "$T/chain3.btf" -t mm_struct >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -q mm_struct "$T/out"; then
	ok "layout --btf of 3 levels of 2-parameter prototypes: laid out"
else
	not_ok "layout --btf of 3 levels of 2-parameter prototypes: exit $rc: $(head -1 "$T/err")"
fi
# refused_layout BTF SECONDS WANT DESC: layout --btf BTF of mm_struct is
# refused in one line saying WANT, the database unchanged
refused_layout() {
	cp "$T/base.db" "$T/db"
	timeout "$2" "$PERFDB" layout "$T/db" --btf "$1" -t mm_struct >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "$3" "$T/err" &&
		cmp -s "$T/db" "$T/base.db"; then
		ok "$4"
	else
		not_ok "$4: exit $rc: $(head -2 "$T/err" | tr '\n' '|')"
	fi
}
# refused_chain "ARGS:WANT" WHY: btf_chain --ARGS's file is refused in one
# line saying WANT, nothing stored (WHY goes into the check's name)
refused_chain() {
	args=${1%%:*} want=${1#*:}
	# shellcheck disable=SC2086
	"$BC" --$args >"$T/chain.btf" || not_ok "btf_chain --$args"
	refused_layout "$T/chain.btf" 20 "$want" \
		"layout --btf of btf_chain --$args: refused in one line, nothing stored ($2)"
}
refused_layout "$T/chain300.btf" 10 "chain longer than" \
	"layout --btf of 300 levels of prototypes: refused in one line, the database unchanged"
# 40 levels: 2^40 steps for a check that walked each parameter apart;
# refused (libbpf would stack over 16 declarations) within 10 s
refused_layout "$T/chain40.btf" 10 "more than 16 types at once" \
	"layout --btf of 40 levels of 2-parameter prototypes: refused within 10 s, one line"
# a layout past the walk's bounds is refused, not stored partial (fields
# attributed to the wrong members)
# (anonymous nesting past 16 is refused by the check of libbpf's stack
# first, the walk's own bound is behind it)
for c in "anon 20 1:more than 16 types at once\\|anonymous members nested deeper than 16" \
	"named 2 200:struct mm_struct: more than 1048576 members"; do
	refused_chain "$c" "past the walk's bounds"
done
# libbpf's btf_dump writes out anonymous structs whole, inside whatever
# it declares: one inside itself through a pointer (it recurses until the
# stack overflows) or a DAG of them (2^12 members) is refused before
# libbpf sees it; 2^8 is laid out. So is a struct whose alignment libbpf
# would take 2^30 steps to find, a chain of 60,000 anonymous structs (the
# check's own recursion would overflow the stack), an anonymous struct of
# 20,000 members whose alignments take 2^14 steps each, a struct of 200
# members of different types each writing out 20,000 members, and 10
# anonymous structs each pointing to the next (libbpf's declaration stack
# is reallocated under its feet past 16: a use after free).
"$BC" --inline 8 2 >"$T/inline8.btf" || not_ok "btf_chain --inline 8 2"
cp "$T/base.db" "$T/db"
if timeout 20 "$PERFDB" layout "$T/db" --btf "$T/inline8.btf" -t mm_struct >"$T/out" 2>"$T/err" &&
	[ "$(sqlite3 "$T/db" "SELECT count(*) FROM struct_layout WHERE struct_name = 'mm_struct'")" -gt 200 ] &&
	[ "$(sqlite3 "$T/db" "SELECT count(*) FROM struct_layout WHERE struct_name = 'mm_struct'
		AND (type_name GLOB '*[{};]*' AND type_name <> 'struct {...}' OR instr(type_name, char(10)))")" = 0 ]; then
	ok "layout --btf of 8 levels of anonymous structs of 2 named members: laid out, each type 'struct {...}' (a body past 1 KiB too)"
else
	not_ok "layout --btf of 8 levels of anonymous structs of 2 named members: $(head -2 "$T/err" | tr '\n' '|') $(sqlite3 "$T/db" "SELECT type_name FROM struct_layout WHERE instr(type_name, char(10)) LIMIT 1" | head -2)"
fi
for c in "selfptr:inside itself" "inline 12 2:that takes libbpf over 262144 steps" \
	"named 30 2:whose alignment takes over 65536 steps" \
	"ptrchain 60000:that takes libbpf over 262144 steps" \
	"ptrchain 10:declared through more than 16 types at once" \
	"heavy 20000:that takes libbpf over 262144 steps" \
	"pointers 20000 200:its members' types take libbpf over 4194304 steps"; do
	refused_chain "$c" "${c#*:}"
done
# a member of a type without an alignment (libbpf's btf_dump divides by
# it: a SIGFPE) is refused before libbpf sees the type
for k in proto var fwd void; do
	"$BC" --unaligned $k >"$T/unaligned.btf" || not_ok "btf_chain --unaligned $k"
	refused_layout "$T/unaligned.btf" 20 "member 1 of struct or union type [0-9]* has type .* no alignment" \
		"layout --btf of a struct member of type $k (no alignment): refused in one line, nothing stored"
done
[ "$failed" -eq 0 ]
