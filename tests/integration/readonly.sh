#!/bin/sh
# Analyzers only read (docs/architecture.md: analyze/ is read-only; the
# [DB] operand is opened read-only). A database of sessions recorded here
# (sched,tlb; sched; two profile labels, each with a bench; a watchpoint
# session; the c2c fixture of tests/unit/test_hitm) is copied onto a
# read-only file system (a small tmpfs remounted ro, or a read-only bind
# mount; SKIP when neither can be mounted, e.g. not root) and every
# analyzer runs on it in json and text: sessions, results, sched, sched
# --base/--new, ipis, hitm, watch, cgdiff, tree, folded, report (to
# stdout: md, json, text). Each must exit 0 with nothing on stderr and
# print the same document as on the writable original (a verb that opened
# the file for writing, or needed a journal, a -wal/-shm file or a
# temporary table on disk, fails there; one that reads something else
# differs). Then the file's sha256 is unchanged and no -journal, -wal or
# -shm file appeared (in a writable directory too: a chmod 0444 copy, where
# a verb that wrote anything would leave its bytes or a journal behind).
# Verbs that write (import -o, layout, record -o, bench -o) onto the
# read-only file fail with exit 2 and one line naming the file, before
# running anything, and leave it as it was.
# Prints TAP lines. Run from the repository root: sh tests/integration/readonly.sh
# Env: PERFDB (default $PWD/build/perfdb), PERFDB_BUILD (default build).
# shellcheck disable=SC2016,SC2154 # eval'd checks expand late; n, failed: lib/tap.sh
. "$(dirname "$0")/lib/setup.sh"
RO=$T/ro
mounted=
at_exit '[ -z "$mounted" ] || umount "$RO" 2>/dev/null'
trap 'exit 2' INT TERM HUP
DB=$T/orig/v.db
mkdir "$T/orig" "$T/fx" "$T/out" "$RO" "$T/w"

# rec LABEL ARGS...: perfdb record -q -o $DB -l LABEL ARGS
rec() {
	_l=$1; shift
	"$PERFDB" record -q -o "$DB" -l "$_l" "$@" >"$T/rec.out" 2>"$T/rec.err" ||
		{ sed 's/^/#   /' "$T/rec.err" | tail -3; false; }
}
# bench LABEL: two runs of yield under LABEL
bench() {
	"$PERFDB" bench -q -o "$DB" -l "$1" --runs 2 -- yield --seconds 0.1 >/dev/null 2>"$T/bench.err" ||
		{ sed 's/^/#   /' "$T/bench.err" | tail -3; false; }
}
sha() { sha256sum <"$1" | cut -d' ' -f1; }
# others DIR: the files in DIR besides v.db (a journal, -wal, -shm ...)
others() {
	for _f in "$1"/* "$1"/.[!.]*; do
		[ -e "$_f" ] && [ "${_f##*/}" != v.db ] && printf '%s ' "${_f##*/}"
	done
}

command -v perf >/dev/null 2>&1 || { skip "readonly: no perf here"; echo "1..$n"; exit 0; }

# --- the database ------------------------------------------------------------------
check "record -r sched,tlb (s1)" rec s1 -r sched,tlb -- tlbflush --seconds 0.3
check "record -r sched (s2)" rec s2 -r sched -- yield --seconds 0.3
check "record -r profile (p1)" rec p1 -r profile -- yield --seconds 0.3
check "record -r profile (p2)" rec p2 -r profile -- yield --seconds 0.3
check "record -r watch (w)" rec w -r watch --watch fs_shared.bitmap -- falseshare --layout shared --seconds 0.3
check "the c2c fixture imports (c2c)" eval \
	'"$B/tests/test_hitm" --write-fixtures "$T/fx" >/dev/null 2>&1 && "$PERFDB" import -q -o "$DB" -l c2c "$T/fx/intel.data"'
check "bench -l p1, bench -l p2" eval 'bench p1 && bench p2'

# The verbs, one a line: NAME|ARGUMENTS after the database.
cat >"$T/verbs" <<'EOF'
sessions|
results|
sched|-s s1
sched --base/--new|--base s1 --new s2
ipis|-s s1
hitm|-s c2c
watch|-s w
cgdiff|--base p1 --new p2
tree|-s p1
folded|-s p1
report|--base p1 --new p2
EOF

# analyze DIR TAG WHERE: every verb on DIR/v.db in json and text (and md
# for report) into $T/out/TAG.*, one TAP line per verb (WHERE says where);
# the database's path in the outputs becomes DB, to compare with the
# writable original's (TAG orig).
analyze() {
	while IFS='|' read -r name args; do
		verb=${name%% *}
		bad=
		for f in json text md; do
			[ $f = md ] && [ "$verb" != report ] && continue
			o=$T/out/$2.$verb.$(echo "$args" | tr -c 'a-z0-9\n' _).$f
			# shellcheck disable=SC2086 # args are words
			"$PERFDB" $verb "$1/v.db" $args --format $f >"$o.raw" 2>"$o.err"
			rc=$?
			sed "s|$1/v.db|DB|g" "$o.raw" >"$o"
			if [ $rc -ne 0 ] || [ -s "$o.err" ] || [ ! -s "$o" ]; then
				bad="$bad; $f: exit $rc: $(head -1 "$o.err")"
			elif [ "$2" != orig ] && ! cmp -s "$o" "$T/out/orig.${o#"$T/out/$2."}"; then
				bad="$bad; $f: not the document of the writable original"
			fi
		done
		if [ -z "$bad" ]; then
			ok "$3: $name: exit 0, nothing on stderr$([ "$2" != orig ] && echo ", the original's documents")"
		else
			not_ok "$3: $name"
			echo "#  ${bad#;}"
		fi
	done <"$T/verbs"
}

before=$(sha "$DB")
analyze "$T/orig" orig "writable original"
check "... and the original is unchanged (sha256), no -journal, -wal or -shm file beside it" \
	eval '[ "$(sha "$DB")" = "$before" ] && [ -z "$(others "$T/orig")" ]'

# --- a read-only file system ---------------------------------------------------------
# A tmpfs of four times the database, or a read-only bind mount of a copy.
size=$(( $(wc -c <"$DB") * 4 / 1048576 + 16 ))
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o "size=${size}m,mode=0755" perfdb-readonly "$RO" 2>/dev/null; then
	mounted=tmpfs
	if ! cp "$DB" "$RO/v.db" || ! mount -o remount,ro "$RO" 2>/dev/null; then
		umount "$RO"
		mounted=
	fi
fi
if [ -z "$mounted" ] && [ "$(id -u)" = 0 ]; then
	if mkdir "$T/bindsrc" && cp "$DB" "$T/bindsrc/v.db" && mount --bind "$T/bindsrc" "$RO" 2>/dev/null; then
		mounted=bind
		mount -o remount,bind,ro "$RO" 2>/dev/null || { umount "$RO"; mounted=; }
	fi
fi
if [ -z "$mounted" ]; then
	skip "cannot mount a read-only file system here (needs root): the read-only file system checks"
elif touch "$RO/probe" 2>/dev/null; then
	not_ok "the $mounted mount is read-only (a file could be created in it)"
else
	ok "a read-only $mounted mount holds a copy of the database"
	check "the copy is the database" [ "$(sha "$RO/v.db")" = "$before" ]
	analyze "$RO" ro "read-only file system"
	check "... and the file is unchanged (sha256)" [ "$(sha "$RO/v.db")" = "$before" ]

	# Verbs that write: refused before doing anything, one line naming the file.
	for w in "import|-q -o $RO/v.db $T/fx/intel.data" "layout|$RO/v.db" "layout -t|$RO/v.db -s c2c -t task_struct" \
		"record|-q -o $RO/v.db -r sched -- true" "bench|-q -o $RO/v.db -l ro --runs 1 -- true"; do
		name=${w%%|*}
		# shellcheck disable=SC2086 # the arguments are words
		"$PERFDB" ${name%% *} ${w#*|} >"$T/wout" 2>"$T/werr"
		rc=$?
		if [ $rc -eq 2 ] && [ "$(wc -l <"$T/werr")" -eq 1 ] && grep -q "$RO/v.db: " "$T/werr"; then
			ok "perfdb $name onto the read-only file: exit 2, one line naming the file"
		else
			not_ok "perfdb $name onto the read-only file: exit 2, one line naming the file"
			echo "#   exit $rc: $(head -3 "$T/werr" | tr '\n' ' ')"
		fi
	done
	check "after the verbs that write, the file is unchanged and alone" \
		eval '[ "$(sha "$RO/v.db")" = "$before" ] && [ -z "$(others "$RO")" ]'
fi

# --- a 0444 file in a writable directory -----------------------------------------------
cp "$DB" "$T/w/v.db" && chmod 0444 "$T/w/v.db"
analyze "$T/w" ro444 "0444 copy"
check "... the file is unchanged (sha256) and no -journal, -wal or -shm file appeared" \
	eval '[ "$(sha "$T/w/v.db")" = "$before" ] && [ -z "$(others "$T/w")" ]'
check "... and the original is unchanged by all of it" [ "$(sha "$DB")" = "$before" ]

echo "1..$n"
[ "$failed" -eq 0 ]
