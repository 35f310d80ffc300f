# A throwaway PostgreSQL 15 cluster for the push/pull tests, sourced by
# tests/integration/pg_*.sh: pg_start DIR makes a cluster in DIR (initdb,
# pg_ctl) as an unprivileged user (the caller, or `nobody` through runuser
# when root), listening on a unix socket in DIR only (no TCP), and sets
# PGCONN (a conninfo naming that socket, database perfdb) and PGBIN;
# pg_stop stops it. pg_start returns 1 with the reason in PG_SKIP when the
# PostgreSQL 15 server binaries are absent. pg_start_or_end DIR (with
# lib/tap.sh sourced) starts it as one check, or ends the test there with
# a skip (no server binaries) or a failure.
PGBIN=/usr/lib/postgresql/15/bin
pg_as() { # pg_as CMD...: runs CMD as the cluster's owner
	if [ "$(id -u)" = 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}
pg_start() {
	PG_DIR=$1
	if [ ! -x "$PGBIN/initdb" ] || [ ! -x "$PGBIN/pg_ctl" ]; then
		PG_SKIP="no PostgreSQL 15 server ($PGBIN/initdb; Debian package postgresql-15)"
		return 1
	fi
	mkdir -p "$PG_DIR/data" "$PG_DIR/sock"
	[ "$(id -u)" = 0 ] && chown -R nobody "$PG_DIR" && chmod 755 "$PG_DIR"
	# nobody must reach the directory: every parent needs o+x (mktemp's are 0700)
	[ "$(id -u)" = 0 ] && chmod o+x "$(dirname "$PG_DIR")"
	pg_as "$PGBIN/initdb" -D "$PG_DIR/data" -U perfdb --auth=trust -E UTF8 --locale=C.UTF-8 \
		>"$PG_DIR/initdb.log" 2>&1 || { PG_SKIP="initdb failed: $(tail -1 "$PG_DIR/initdb.log")"; return 2; }
	pg_as "$PGBIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
		-o "-c listen_addresses='' -c unix_socket_directories='$PG_DIR/sock' -c fsync=off" start \
		>/dev/null 2>&1 || { PG_SKIP="pg_ctl start failed: $(tail -1 "$PG_DIR/server.log")"; return 2; }
	PGCONN="host=$PG_DIR/sock user=perfdb dbname=perfdb"
	"$PGBIN/createdb" -h "$PG_DIR/sock" -U perfdb perfdb || return 2
	export PGCONN
	return 0
}
pg_stop() {
	[ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ] &&
		pg_as "$PGBIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1
	return 0
}
# psqlq SQL: runs SQL on the test database, unaligned, tuples only
psqlq() { psql -X -q -A -t -v ON_ERROR_STOP=1 "$PGCONN" -c "$1"; }
pg_start_or_end() {
	pg_start "$1"
	case $? in
	0) ok "a PostgreSQL 15 cluster started on a unix socket" ;;
	1) skip "$PG_SKIP"; tap_end ;;
	*) not_ok "the PostgreSQL cluster starts: $PG_SKIP"; tap_end ;;
	esac
}
