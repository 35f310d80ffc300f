#!/bin/sh
# make install and make uninstall into a DESTDIR: the binary, the workloads,
# a man page for perfdb and for every verb perfdb --verbs lists, each of
# which renders with no warning from man (MANWIDTH=80 man --warnings -l) and
# shows every long option the verb's --help lists; the bash completion,
# sourced in bash, completes a verb from its prefix and a verb's options
# (checked against --help); `man -M` finds perfdb-record by name; uninstall
# leaves no file behind.
set -u
. "$(dirname "$0")/lib/setup.sh"
D=$T/root

if ! make -s BUILD="$B" install DESTDIR="$D" PREFIX=/usr >"$T/install.out" 2>&1; then
	not_ok "make install DESTDIR PREFIX=/usr"; sed 's/^/# /' "$T/install.out" | head -20
	exit 1
fi
ok "make install DESTDIR PREFIX=/usr"
check "the binary is installed and runs" "$D/usr/bin/perfdb" --version
for w in yield tlbflush falseshare faults; do
	check "workload $w installed" test -x "$D/usr/libexec/perfdb/$w"
done

M=$D/usr/share/man/man1
if ! command -v man >/dev/null 2>&1; then
	skip "man is not installed (package man-db)"
else
	for v in "" $("$PERFDB" --verbs); do
		page=perfdb${v:+-$v}
		f=$M/$page.1
		if [ ! -f "$f" ]; then not_ok "$page.1 installed"; continue; fi
		MANWIDTH=80 man --warnings -l "$f" >"$T/page.txt" 2>"$T/warn.txt"
		rc=$?
		if [ $rc -eq 0 ] && [ ! -s "$T/warn.txt" ] && grep -q "^NAME" "$T/page.txt"; then
			ok "$page(1) renders with no warnings"
		else
			not_ok "$page(1) renders with no warnings (exit $rc)"; sed 's/^/# /' "$T/warn.txt" | head -5
		fi
		[ -n "$v" ] || continue
		# every long option --help lists is on the page
		missing=
		for o in $("$PERFDB" "$v" --help | grep -oE '^  (-[a-zA-Z], )?--(\[no-\])?[a-z0-9-]+' |
			   sed 's/.*--//; s/\[no-\]//'); do
			grep -q -e "--\(\[no-\]\)\?$o\b" "$T/page.txt" || missing="$missing $o"
		done
		if [ -z "$missing" ]; then ok "$page(1) lists every option of --help"
		else not_ok "$page(1) lacks options:$missing"; fi
	done
	if MANWIDTH=80 man -M "$D/usr/share/man" perfdb-record 2>/dev/null | grep -q "perfdb-record"; then
		ok "man perfdb-record finds the installed page"
	else
		not_ok "man perfdb-record finds the installed page"
	fi
fi

C=$D/usr/share/bash-completion/completions/perfdb
# complete WORDS...: what _perfdb offers for the last word of WORDS.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _perfdb; printf "%s\n" "${COMPREPLY[@]}"' \
		sh "$C" "$@" 2>&1 | sort | tr '\n' ' '
}
if [ ! -f "$C" ]; then
	not_ok "bash completion installed"
elif ! command -v bash >/dev/null 2>&1; then
	skip "bash is not installed"
else
	ok "bash completion installed"
	got=$(complete_words perfdb rec)
	[ "$got" = "record " ] && ok "perfdb rec<TAB> completes record" || not_ok "perfdb rec<TAB>: '$got'"
	got=$(complete_words perfdb s)
	[ "$got" = "sched sessions " ] && ok "perfdb s<TAB>: sched sessions" || not_ok "perfdb s<TAB>: '$got'"
	want=$("$PERFDB" record --help | grep -oE '^  (-[a-zA-Z], )?--(\[no-\])?[a-z0-9-]+' |
	       sed 's/.*--//' | awk '/^\[no-\]/ { sub(/^\[no-\]/, ""); print "--" $0; print "--no-" $0; next }
	       { print "--" $0 } END { print "--help" }' | sort | tr '\n' ' ')
	got=$(complete_words perfdb record --)
	[ "$got" = "$want" ] && ok "perfdb record --<TAB>: the long options of --help" ||
		{ not_ok "perfdb record --<TAB>"; echo "# want: $want"; echo "# got:  $got"; }
	got=$(complete_words perfdb sched --format m)
	[ "$got" = "md " ] && ok "perfdb sched --format m<TAB>: md" || not_ok "perfdb sched --format m<TAB>: '$got'"
	got=$(complete_words perfdb record -r sched -- bas)
	echo "$got" | grep -qw bash && ok "perfdb record -r sched -- bas<TAB>: commands (bash)" ||
		not_ok "perfdb record -r sched -- bas<TAB>: '$got'"
fi

if make -s BUILD="$B" uninstall DESTDIR="$D" PREFIX=/usr >"$T/uninstall.out" 2>&1; then
	left=$(find "$D" ! -type d)
	[ -z "$left" ] && ok "make uninstall removes every installed file" ||
		{ not_ok "make uninstall left files"; echo "$left" | sed 's/^/# /' | head; }
else
	not_ok "make uninstall"; sed 's/^/# /' "$T/uninstall.out" | head
fi
[ "$failed" -eq 0 ]
