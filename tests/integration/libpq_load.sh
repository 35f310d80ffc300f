#!/bin/sh
# libpq is loaded at run time, by push and pull only (schema/pg_lib.h), no
# PostgreSQL server needed: perfdb starts without libpq and the libraries
# it brings (TLS, Kerberos, LDAP); a libpq that cannot be loaded (PERFDB_LIBPQ names
# a missing file, or a library without libpq's functions) makes push and
# pull exit 2 with one line saying so, before they create or change any
# file, while the other verbs work; the libpq of the system is found
# by default (push then gets as far as connecting).
# Run from the repository root. Env: PERFDB, PERFDB_BUILD.
. "$(dirname "$0")/lib/setup.sh"
TAP_ERR=$T/err
sha() { sha256sum "$1" | cut -d' ' -f1; }

# ldd lists what the loader maps at start, libpq's own needs included
if command -v ldd >/dev/null 2>&1; then
	ldd "$PERFDB" >"$T/ldd" 2>&1
	check "perfdb starts without loading libpq or what it needs (ssl, gnutls, krb5, ldap; ldd)" \
		sh -c "grep -q libc.so '$T/ldd' && ! grep -Eq 'libpq|libssl|libgnutls|libkrb5|libldap' '$T/ldd'"
else
	skip "no ldd here"
fi

# a database to push (a synthetic recording: no perf needed)
"$B/tests/tools/cpu_rounds" "$T/r.data" 2 4 1 >/dev/null 2>"$T/err" &&
	"$PERFDB" import -q -o "$T/a.db" "$T/r.data" 2>"$T/err"
check "a database with a session to push" [ "$(sqlite3 "$T/a.db" "SELECT count(*) FROM session")" = 1 ]
before=$(sha "$T/a.db")

# no libpq: push and pull refuse in one line, exit 2, and touch nothing
for lib in "$T/missing/libpq.so.5" libzstd.so.1; do
	case $lib in /*) what="a missing file" ;; *) what="a library without libpq's functions" ;; esac
	PERFDB_LIBPQ=$lib "$PERFDB" push "$T/a.db" --to "host=$T dbname=x" >"$T/out" 2>"$T/err"
	rc=$?
	check "push with libpq $what: exit 2, one line saying libpq cannot be loaded, nothing on stdout" \
		sh -c "[ $rc = 2 ] && [ \$(grep -c '' '$T/err') = 1 ] && grep -q '^perfdb push: cannot load libpq: ' '$T/err' && [ ! -s '$T/out' ]"
	check "push with libpq $what: the database is unchanged" [ "$(sha "$T/a.db")" = "$before" ]
	PERFDB_LIBPQ=$lib "$PERFDB" pull --from "host=$T dbname=x" -o "$T/new.db" >"$T/out" 2>"$T/err"
	rc=$?
	check "pull with libpq $what: exit 2, one line saying libpq cannot be loaded, no database made" \
		sh -c "[ $rc = 2 ] && [ \$(grep -c '' '$T/err') = 1 ] && grep -q '^perfdb pull: cannot load libpq: ' '$T/err' && [ ! -e '$T/new.db' ]"
done
check "the message names a library without libpq's functions, and what it lacks" grep -q "libzstd.so.1 has no PQconnectdb" "$T/err"
PERFDB_LIBPQ=$T/missing/libpq.so.5 "$PERFDB" sessions "$T/a.db" --format csv >"$T/out" 2>"$T/err"
check "other verbs work without libpq (sessions)" [ "$(grep -c '' "$T/out")" = 2 ]

# the system's libpq is found by default: push gets as far as connecting
"$PERFDB" push "$T/a.db" --to "host=$T/nosock dbname=x" >"$T/out" 2>"$T/err"
rc=$?
check "push loads the system's libpq: exit 2 at the connection, which libpq reports" \
	sh -c "[ $rc = 2 ] && grep -q '^perfdb push: cannot connect to the server: ' '$T/err'"
check "push that could not connect leaves the database unchanged" [ "$(sha "$T/a.db")" = "$before" ]
tap_end
